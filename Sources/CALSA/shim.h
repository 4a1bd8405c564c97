#pragma once
#include <alsa/asoundlib.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

/// Turns on flush-to-zero and denormals-are-zero for the calling thread, so denormal floats never
/// slow down the render loop. No-op on architectures other than x86/x86_64/aarch64.
static inline void thrum_disable_denormals(void) {
#if defined(__x86_64__) || defined(__i386__)
    // Bit 15: FTZ, bit 6: DAZ.
    _mm_setcsr(_mm_getcsr() | 0x8040u);
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
    fpcr |= (1ull << 24); // FZ
    __asm__ __volatile__("msr fpcr, %0" : : "r"(fpcr));
#endif
}

/// Returns non-zero when flush-to-zero is on for the calling thread (for tests).
static inline int thrum_denormals_disabled(void) {
#if defined(__x86_64__) || defined(__i386__)
    return (_mm_getcsr() & 0x8040u) == 0x8040u;
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
    return (fpcr & (1ull << 24)) != 0;
#else
    return 0;
#endif
}

/// A non-blocking, close-on-exec eventfd used to wake the playback thread. Returns -1 and sets errno on failure.
static inline int thrum_eventfd_create(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

/// Adds 1 to the eventfd counter (wakes a poll()er). Returns 0 or -errno.
static inline int thrum_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t n = write(fd, &one, sizeof one);
    return n == (ssize_t)sizeof one ? 0 : -errno;
}

/// Resets the eventfd counter. Never blocks (the fd is non-blocking).
static inline void thrum_eventfd_drain(int fd) {
    uint64_t value;
    ssize_t n = read(fd, &value, sizeof value);
    (void)n;
}

/// Sets SCHED_FIFO with the given priority on a thread attribute (explicit scheduling). Returns 0 or an errno.
static inline int thrum_attr_set_fifo(pthread_attr_t *attr, int priority) {
    int err = pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED);
    if (err != 0) return err;
    err = pthread_attr_setschedpolicy(attr, SCHED_FIFO);
    if (err != 0) return err;
    struct sched_param param;
    param.sched_priority = priority;
    return pthread_attr_setschedparam(attr, &param);
}

/// Moves the calling thread back to SCHED_OTHER (used once the playback loop has ended). Returns 0 or an errno.
static inline int thrum_thread_set_normal_scheduling(void) {
    struct sched_param param;
    param.sched_priority = 0;
    return pthread_setschedparam(pthread_self(), SCHED_OTHER, &param);
}

/// Returns the calling thread's scheduling policy (SCHED_FIFO, SCHED_OTHER, …) or -1.
static inline int thrum_thread_sched_policy(void) {
    int policy = -1;
    struct sched_param param;
    if (pthread_getschedparam(pthread_self(), &policy, &param) != 0) return -1;
    return policy;
}

/// An alsa-lib error handler that prints nothing.
static void thrum_alsa_silent_error_handler(const char *file, int line, const char *function, int err,
                                            const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// Turns alsa-lib's own stderr messages ("ALSA lib conf.c:…") off (quiet != 0) or back on.
static inline void thrum_alsa_set_quiet(int quiet) {
    snd_lib_error_set_handler(quiet ? thrum_alsa_silent_error_handler : NULL);
}

/// Names the calling thread (at most 15 characters are kept), as shown by `ps -L` and debuggers.
static inline void thrum_thread_set_name(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}
