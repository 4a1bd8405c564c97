#include "CDeferredLibrary.h"

#include <dlfcn.h>
#include <stdio.h>

int thrum_deferred_library_load(const char *soname, const char *package, const char *const *names,
                                void **functions, size_t count, char *error, size_t error_size) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(error, error_size, "cannot load %s (%s); install Debian's %s", soname,
                 reason != NULL ? reason : "no reason given", package);
        return -1;
    }
    for (size_t index = 0; index < count; index++) {
        functions[index] = dlsym(library, names[index]);
        if (functions[index] == NULL) {
            snprintf(error, error_size, "%s has no function %s; install Debian's %s", soname, names[index], package);
            dlclose(library);
            return -1;
        }
    }
    return 0;
}
