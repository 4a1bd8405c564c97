#ifndef THRUM_CSNDFILE_H
#define THRUM_CSNDFILE_H

// libsndfile's declarations (Debian's libsndfile1-dev). Thrum does not link libsndfile: the functions it
// calls are defined in sndfile_deferred.c, which loads libsndfile.so.1 at the first call (CDeferredLibrary.h
// says why). When it cannot be loaded, sf_open_fd returns NULL and sf_strerror(NULL) says why.
#include <sndfile.h>

#endif
