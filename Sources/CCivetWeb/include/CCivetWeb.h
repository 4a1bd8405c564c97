#ifndef THRUM_CCIVETWEB_H
#define THRUM_CCIVETWEB_H

// civetweb's declarations (Debian's libcivetweb-dev): the HTTP and WebSocket server of Thrum Studio. Thrum does
// not link civetweb: the functions it calls are defined in civetweb_deferred.c, which loads libcivetweb.so.1
// at the first call (CDeferredLibrary.h says why). When it cannot be loaded, mg_start2 fails with the reason
// in its error text. CIVETWEB_API is left empty so that those definitions can be hidden.
#define CIVETWEB_API
#include <civetweb.h>

#endif
