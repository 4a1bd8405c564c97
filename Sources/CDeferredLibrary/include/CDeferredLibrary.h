#ifndef THRUM_CDEFERREDLIBRARY_H
#define THRUM_CDEFERREDLIBRARY_H

#include <pthread.h>
#include <stddef.h>

/// A shared library loaded with dlopen(3) at the first call of one of its functions, not when the program
/// starts. Thrum loads libsndfile, libsamplerate and civetweb this way, so that a command that needs none of
/// them (`thrum play` of a pattern without audio files, `thrum --version`) does not pay at start for loading
/// them and the libraries they bring (libsndfile alone brings six codecs).
///
/// Declare one per library as a static with THRUM_DEFERRED_LIBRARY; its `functions` table is filled in
/// `names` order.
typedef struct {
    const char *soname;        ///< e.g. "libsndfile.so.1"
    const char *package;       ///< the Debian package that provides it, named in the error
    const char *const *names;  ///< the functions to look up
    void **functions;          ///< where their addresses go, `count` of them
    size_t count;
    pthread_mutex_t lock;      ///< held while loading
    int state;                 ///< 0 not tried, 1 loaded, -1 failed; read with acquire, written under `lock`
    char error[256];           ///< why loading failed: one line naming the library and its package
} thrum_deferred_library;

/// A thrum_deferred_library for `soname` from `package`, filling the struct `table` from the array `names`.
#define THRUM_DEFERRED_LIBRARY(soname, package, names, table) \
    {(soname), (package), (names), (void **)&(table), sizeof(names) / sizeof((names)[0]), PTHREAD_MUTEX_INITIALIZER, 0, {0}}

/// Loads `library` at the first call (later calls return at once) and says whether its every function was
/// found; when not, `library->error` says why. Thread-safe; not real-time safe at the first call (it opens
/// files); after it, one atomic load.
int thrum_deferred_library_ready(thrum_deferred_library *library);

#endif
