#ifndef THRUM_CDEFERREDLIBRARY_H
#define THRUM_CDEFERREDLIBRARY_H

#include <stddef.h>

/// Loads the shared library `soname` with dlopen(3) and looks up `count` functions: `names[i]` goes to
/// `functions[i]`. Returns 0 when the library and every function were found; otherwise -1 with a
/// one-line message in `error` (at most `error_size` bytes, NUL-terminated) naming the library and the
/// Debian package `package` that provides it, and `functions` left unusable.
///
/// Thrum loads libsndfile, libsamplerate and civetweb this way, on first use, so that a command that needs
/// none of them (`thrum play` of a pattern without audio files, `thrum --version`) does not pay at start for
/// loading them and the libraries they bring (libsndfile alone brings six codecs). Not thread-safe by itself:
/// each caller runs it once, under pthread_once(3). Not real-time safe (it opens files).
int thrum_deferred_library_load(const char *soname, const char *package, const char *const *names,
                                void **functions, size_t count, char *error, size_t error_size);

#endif
