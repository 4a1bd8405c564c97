// Heap-allocation counter for the Thrum benchmark (thrum-bench only; never linked into tests).
//
// malloc_counter.c defines malloc, free, calloc, realloc, posix_memalign, aligned_alloc, memalign and
// malloc_usable_size, forwarding to glibc's __libc_* entry points. Because they are defined in the
// executable, they interpose on every shared library of that process (Swift runtime, Foundation, …).
// Calls are counted only on threads that called thrum_malloc_counter_begin(); totals are process-wide.
#ifndef THRUM_MALLOC_COUNTER_H
#define THRUM_MALLOC_COUNTER_H

#ifdef __cplusplus
extern "C" {
#endif

/// Whether the interposing allocator is compiled in (0 under ASan/TSan builds, which own malloc).
int thrum_malloc_counter_available(void);
/// The calling thread counts its allocations and frees from now on.
void thrum_malloc_counter_begin(void);
/// The calling thread stops counting.
void thrum_malloc_counter_end(void);
/// Allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) counted so far.
long thrum_malloc_counter_allocations(void);
/// Frees (free, and realloc to size 0) counted so far.
long thrum_malloc_counter_frees(void);
/// Sets both totals to 0.
void thrum_malloc_counter_reset(void);

#ifdef __cplusplus
}
#endif

#endif
