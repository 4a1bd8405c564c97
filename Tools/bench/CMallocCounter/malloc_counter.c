// See include/malloc_counter.h. Nothing here may allocate: the counting flag is initial-exec TLS
// (no lazy TLS allocation), the totals are lock-free atomics.
#define _GNU_SOURCE
#include "malloc_counter.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define THRUM_NO_INTERPOSE 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define THRUM_NO_INTERPOSE 1
#endif

static _Atomic long allocations = 0;
static _Atomic long frees = 0;
static __thread int counting __attribute__((tls_model("initial-exec"))) = 0;

void thrum_malloc_counter_begin(void) { counting = 1; }
void thrum_malloc_counter_end(void) { counting = 0; }
long thrum_malloc_counter_allocations(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
long thrum_malloc_counter_frees(void) { return atomic_load_explicit(&frees, memory_order_relaxed); }
void thrum_malloc_counter_reset(void) {
    atomic_store_explicit(&allocations, 0, memory_order_relaxed);
    atomic_store_explicit(&frees, 0, memory_order_relaxed);
}

#ifdef THRUM_NO_INTERPOSE

int thrum_malloc_counter_available(void) { return 0; }

#else

int thrum_malloc_counter_available(void) { return 1; }

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *ptr);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static inline void count_allocation(void) {
    if (counting) atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}
static inline void count_free(void) {
    if (counting) atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
}

void *malloc(size_t size) {
    count_allocation();
    return __libc_malloc(size);
}

void free(void *ptr) {
    if (ptr == NULL) return;
    count_free();
    __libc_free(ptr);
}

void *calloc(size_t count, size_t size) {
    count_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *ptr, size_t size) {
    if (ptr != NULL && size == 0) {
        count_free();
    } else {
        count_allocation();
    }
    return __libc_realloc(ptr, size);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_allocation();
    void *ptr = __libc_memalign(alignment, size);
    if (ptr == NULL) return ENOMEM;
    *result = ptr;
    return 0;
}

// glibc exports no __libc_ form of malloc_usable_size: look up its own one once, at load time
// (before any thread counts), with dlsym(RTLD_NEXT).
typedef size_t (*usable_size_fn)(void *);
static usable_size_fn libc_usable_size = NULL;

__attribute__((constructor)) static void thrum_malloc_counter_init(void) {
    libc_usable_size = (usable_size_fn)dlsym(RTLD_NEXT, "malloc_usable_size");
}

size_t malloc_usable_size(void *ptr) {
    if (ptr == NULL) return 0;
    if (libc_usable_size != NULL) return libc_usable_size(ptr);
    // Fallback (only before the constructor ran): read glibc's chunk header.
    size_t header = ((size_t *)ptr)[-1];
    size_t chunk = header & ~(size_t)7;
    return (header & 2) ? chunk - 2 * sizeof(size_t) : chunk - sizeof(size_t);
}

#endif
