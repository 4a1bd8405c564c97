#ifndef THRUM_CSAMPLERATE_H
#define THRUM_CSAMPLERATE_H

// libsamplerate's declarations (Debian's libsamplerate0-dev). Thrum does not link libsamplerate: the
// functions it calls are defined in samplerate_deferred.c, which loads libsamplerate.so.0 at the first call
// (CDeferredLibrary.h says why). When it cannot be loaded, src_simple fails and src_strerror says why.
#include <samplerate.h>

#endif
