// See include/malloc_counter.h. Nothing here may allocate: the counting flag and the cached thread id are
// initial-exec TLS (no lazy TLS allocation), the totals are lock-free atomics.
#define _GNU_SOURCE
#include "malloc_counter.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

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
static _Atomic long retains = 0;
static _Atomic long releases = 0;
static _Atomic long bridge_calls = 0;
static _Atomic pid_t watched_thread = 0;
static __thread int counting __attribute__((tls_model("initial-exec"))) = 0;
static __thread pid_t own_thread __attribute__((tls_model("initial-exec"))) = 0;

void thrum_malloc_counter_begin(void) { counting = 1; }
void thrum_malloc_counter_end(void) { counting = 0; }
void thrum_malloc_counter_watch_thread(pid_t tid) { atomic_store_explicit(&watched_thread, tid, memory_order_release); }
pid_t thrum_malloc_counter_thread_id(void) { return (pid_t)syscall(SYS_gettid); }
long thrum_malloc_counter_allocations(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
long thrum_malloc_counter_frees(void) { return atomic_load_explicit(&frees, memory_order_relaxed); }
long thrum_malloc_counter_retains(void) { return atomic_load_explicit(&retains, memory_order_relaxed); }
long thrum_malloc_counter_releases(void) { return atomic_load_explicit(&releases, memory_order_relaxed); }
long thrum_malloc_counter_bridge_calls(void) { return atomic_load_explicit(&bridge_calls, memory_order_relaxed); }
void thrum_malloc_counter_reset(void) {
    atomic_store_explicit(&allocations, 0, memory_order_relaxed);
    atomic_store_explicit(&frees, 0, memory_order_relaxed);
    atomic_store_explicit(&retains, 0, memory_order_relaxed);
    atomic_store_explicit(&releases, 0, memory_order_relaxed);
    atomic_store_explicit(&bridge_calls, 0, memory_order_relaxed);
}

/// Whether the calling thread's calls count: it called begin, or it is the watched thread (its id is
/// asked of the kernel once, and only while a thread is watched).
static inline int counted(void) {
    if (counting) return 1;
    pid_t watched = atomic_load_explicit(&watched_thread, memory_order_relaxed);
    if (watched == 0) return 0;
    if (own_thread == 0) own_thread = (pid_t)syscall(SYS_gettid);
    return own_thread == watched;
}

static inline void count(_Atomic long *total) {
    if (counted()) atomic_fetch_add_explicit(total, 1, memory_order_relaxed);
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

static inline void count_allocation(void) { count(&allocations); }
static inline void count_free(void) { count(&frees); }

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

// The Swift runtime's strong reference counting. Each forwards to libswiftCore's own entry point, looked
// up on first use (before any thread counts: the Swift runtime retains while it starts). Objects are
// opaque here; a null object (a nil optional) is forwarded but not counted.

/// Looks up libswiftCore's `name` once (racing threads store the same address).
static void *next_symbol(void *_Atomic *slot, const char *name) {
    void *function = atomic_load_explicit(slot, memory_order_acquire);
    if (function == NULL) {
        function = dlsym(RTLD_NEXT, name);
        atomic_store_explicit(slot, function, memory_order_release);
    }
    return function;
}

#define THRUM_RETAIN(name, total)                                                                          \
    void *name(void *object) {                                                                            \
        static void *_Atomic next = NULL;                                                                 \
        if (object != NULL) count(total);                                                                 \
        return ((void *(*)(void *))next_symbol(&next, #name))(object);                                    \
    }
#define THRUM_RETAIN_N(name, total)                                                                        \
    void *name(void *object, uint32_t n) {                                                                \
        static void *_Atomic next = NULL;                                                                 \
        if (object != NULL) count(total);                                                                 \
        return ((void *(*)(void *, uint32_t))next_symbol(&next, #name))(object, n);                       \
    }
#define THRUM_RELEASE(name, total)                                                                         \
    void name(void *object) {                                                                             \
        static void *_Atomic next = NULL;                                                                 \
        if (object != NULL) count(total);                                                                 \
        ((void (*)(void *))next_symbol(&next, #name))(object);                                            \
    }
#define THRUM_RELEASE_N(name, total)                                                                       \
    void name(void *object, uint32_t n) {                                                                 \
        static void *_Atomic next = NULL;                                                                 \
        if (object != NULL) count(total);                                                                 \
        ((void (*)(void *, uint32_t))next_symbol(&next, #name))(object, n);                               \
    }

THRUM_RETAIN(swift_retain, &retains)
THRUM_RETAIN_N(swift_retain_n, &retains)
THRUM_RETAIN(swift_nonatomic_retain, &retains)
THRUM_RETAIN_N(swift_nonatomic_retain_n, &retains)
THRUM_RELEASE(swift_release, &releases)
THRUM_RELEASE_N(swift_release_n, &releases)
THRUM_RELEASE(swift_nonatomic_release, &releases)
THRUM_RELEASE_N(swift_nonatomic_release_n, &releases)
THRUM_RETAIN(swift_bridgeObjectRetain, &bridge_calls)
THRUM_RETAIN_N(swift_bridgeObjectRetain_n, &bridge_calls)
THRUM_RETAIN(swift_nonatomic_bridgeObjectRetain, &bridge_calls)
THRUM_RETAIN_N(swift_nonatomic_bridgeObjectRetain_n, &bridge_calls)
THRUM_RELEASE(swift_bridgeObjectRelease, &bridge_calls)
THRUM_RELEASE_N(swift_bridgeObjectRelease_n, &bridge_calls)
THRUM_RELEASE(swift_nonatomic_bridgeObjectRelease, &bridge_calls)
THRUM_RELEASE_N(swift_nonatomic_bridgeObjectRelease_n, &bridge_calls)

#endif
