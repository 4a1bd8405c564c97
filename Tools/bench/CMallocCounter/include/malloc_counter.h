// Heap-allocation and reference-count counter for the Thrum benchmark (thrum-bench only; never linked into
// tests).
//
// malloc_counter.c defines malloc, free, calloc, realloc, posix_memalign, aligned_alloc, memalign and
// malloc_usable_size, forwarding to glibc's __libc_* entry points, and the Swift runtime's strong
// reference-count entry points (swift_retain, swift_release, their _n forms, the bridge-object forms and
// the nonatomic forms of both), forwarding to libswiftCore's through dlsym(RTLD_NEXT). Because they are
// defined in the executable, they interpose on the calls made by the executable's own code (every Swift
// module of this package, with whatever the optimiser inlined from the standard library) and by every
// shared library that calls them through its PLT. Calls libswiftCore makes to itself are not seen.
// (Linux has no swift_unknownObject* entry points: without Objective-C the compiler emits the native ones.)
//
// Calls are counted on threads that called thrum_malloc_counter_begin(), and on the one thread whose kernel
// thread id was given to thrum_malloc_counter_watch_thread(); totals are process-wide.
#ifndef THRUM_MALLOC_COUNTER_H
#define THRUM_MALLOC_COUNTER_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Whether the interposing functions are compiled in (0 under ASan/TSan builds, which own malloc).
int thrum_malloc_counter_available(void);
/// The calling thread counts its calls from now on.
void thrum_malloc_counter_begin(void);
/// The calling thread stops counting.
void thrum_malloc_counter_end(void);
/// Counts the calls of the thread with kernel thread id `tid` (from /proc/self/task) from now on; 0 stops.
void thrum_malloc_counter_watch_thread(pid_t tid);
/// The calling thread's kernel thread id.
pid_t thrum_malloc_counter_thread_id(void);
/// Allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) counted so far.
long thrum_malloc_counter_allocations(void);
/// Frees (free, and realloc to size 0) counted so far.
long thrum_malloc_counter_frees(void);
/// Strong retains of an object (swift_retain, swift_retain_n, swift_nonatomic_retain[_n]) counted so far.
long thrum_malloc_counter_retains(void);
/// Strong releases of an object (swift_release[_n], swift_nonatomic_release[_n]) counted so far.
long thrum_malloc_counter_releases(void);
/// Bridge-object retains and releases (swift_[nonatomic_]bridgeObjectRetain/Release[_n]) counted so far.
long thrum_malloc_counter_bridge_calls(void);
/// Sets every total to 0.
void thrum_malloc_counter_reset(void);

#ifdef __cplusplus
}
#endif

#endif
