#include "CDeferredLibrary.h"

#include <dlfcn.h>
#include <stdio.h>

/// Opens the library and fills its table; 1, or -1 with `error` set.
static int load(thrum_deferred_library *library) {
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(library->error, sizeof library->error, "cannot load %s (%s); install Debian's %s", library->soname,
                 reason != NULL ? reason : "no reason given", library->package);
        return -1;
    }
    for (size_t index = 0; index < library->count; index++) {
        library->functions[index] = dlsym(handle, library->names[index]);
        if (library->functions[index] == NULL) {
            snprintf(library->error, sizeof library->error, "%s has no function %s; install Debian's %s",
                     library->soname, library->names[index], library->package);
            dlclose(handle);
            return -1;
        }
    }
    return 1;
}

int thrum_deferred_library_ready(thrum_deferred_library *library) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&library->lock);
        state = library->state;
        if (state == 0) {
            state = load(library);
            __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&library->lock);
    }
    return state == 1;
}
