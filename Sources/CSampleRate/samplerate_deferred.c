// The libsamplerate functions Thrum calls, each loading libsamplerate.so.0 at its first call and then calling
// the library's own. Hidden, so that neither thrum nor libthrum offers them to other code in the process.
#include "CSampleRate.h"

#include <CDeferredLibrary.h>

#define DEFERRED __attribute__((visibility("hidden")))

/// What src_simple returns when the library cannot be loaded; src_strerror gives the reason for it.
/// libsamplerate's own error codes are positive.
enum { LOAD_FAILED = -1 };

static struct {
    int (*src_simple)(SRC_DATA *, int, int);
    const char *(*src_strerror)(int);
    int (*src_is_valid_ratio)(double);
} samplerate;
static const char *const names[] = {"src_simple", "src_strerror", "src_is_valid_ratio"};
_Static_assert(sizeof names / sizeof names[0] == sizeof samplerate / sizeof(void *), "one name per function");

static thrum_deferred_library library = THRUM_DEFERRED_LIBRARY("libsamplerate.so.0", "libsamplerate0", names, samplerate);

static int ready(void) { return thrum_deferred_library_ready(&library); }

DEFERRED int src_simple(SRC_DATA *data, int converter_type, int channels) {
    return ready() ? samplerate.src_simple(data, converter_type, channels) : LOAD_FAILED;
}

DEFERRED const char *src_strerror(int error) { return ready() ? samplerate.src_strerror(error) : library.error; }

// Without the library every ratio passes here, so that src_simple reports why nothing can be converted.
DEFERRED int src_is_valid_ratio(double ratio) { return ready() ? samplerate.src_is_valid_ratio(ratio) : 1; }
