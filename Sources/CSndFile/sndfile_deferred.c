// The libsndfile functions Thrum calls, each loading libsndfile.so.1 at its first call and then calling the
// library's own. Hidden, so that neither thrum (linked with -export-dynamic) nor libthrum offers them to
// other code in the process, libsndfile's own calls among them.
#include "CSndFile.h"

#include <CDeferredLibrary.h>

#define DEFERRED __attribute__((visibility("hidden")))

static struct {
    SNDFILE *(*sf_open_fd)(int, int, SF_INFO *, int);
    SNDFILE *(*sf_open_virtual)(SF_VIRTUAL_IO *, int, SF_INFO *, void *);
    int (*sf_close)(SNDFILE *);
    int (*sf_command)(SNDFILE *, int, void *, int);
    int (*sf_error)(SNDFILE *);
    const char *(*sf_error_number)(int);
    const char *(*sf_strerror)(SNDFILE *);
    int (*sf_format_check)(const SF_INFO *);
    sf_count_t (*sf_readf_float)(SNDFILE *, float *, sf_count_t);
    sf_count_t (*sf_writef_float)(SNDFILE *, const float *, sf_count_t);
    sf_count_t (*sf_writef_int)(SNDFILE *, const int *, sf_count_t);
} sndfile;
static const char *const names[] = {
    "sf_open_fd", "sf_open_virtual", "sf_close", "sf_command", "sf_error", "sf_error_number",
    "sf_strerror", "sf_format_check", "sf_readf_float", "sf_writef_float", "sf_writef_int",
};
_Static_assert(sizeof names / sizeof names[0] == sizeof sndfile / sizeof(void *), "one name per function");

static thrum_deferred_library library = THRUM_DEFERRED_LIBRARY("libsndfile.so.1", "libsndfile1", names, sndfile);

static int ready(void) { return thrum_deferred_library_ready(&library); }

DEFERRED SNDFILE *sf_open_fd(int fd, int mode, SF_INFO *info, int close_desc) {
    return ready() ? sndfile.sf_open_fd(fd, mode, info, close_desc) : NULL;
}

DEFERRED SNDFILE *sf_open_virtual(SF_VIRTUAL_IO *io, int mode, SF_INFO *info, void *user_data) {
    return ready() ? sndfile.sf_open_virtual(io, mode, info, user_data) : NULL;
}

DEFERRED int sf_close(SNDFILE *file) { return ready() ? sndfile.sf_close(file) : SF_ERR_SYSTEM; }

DEFERRED int sf_command(SNDFILE *file, int command, void *data, int size) {
    return ready() ? sndfile.sf_command(file, command, data, size) : 0;
}

DEFERRED int sf_error(SNDFILE *file) { return ready() ? sndfile.sf_error(file) : SF_ERR_SYSTEM; }

DEFERRED const char *sf_error_number(int number) { return ready() ? sndfile.sf_error_number(number) : library.error; }

DEFERRED const char *sf_strerror(SNDFILE *file) { return ready() ? sndfile.sf_strerror(file) : library.error; }

// Without the library every format passes here, so that sf_open_fd reports why nothing can be written.
DEFERRED int sf_format_check(const SF_INFO *info) { return ready() ? sndfile.sf_format_check(info) : 1; }

DEFERRED sf_count_t sf_readf_float(SNDFILE *file, float *frames, sf_count_t count) {
    return ready() ? sndfile.sf_readf_float(file, frames, count) : 0;
}

DEFERRED sf_count_t sf_writef_float(SNDFILE *file, const float *frames, sf_count_t count) {
    return ready() ? sndfile.sf_writef_float(file, frames, count) : 0;
}

DEFERRED sf_count_t sf_writef_int(SNDFILE *file, const int *frames, sf_count_t count) {
    return ready() ? sndfile.sf_writef_int(file, frames, count) : 0;
}
