import CALSA
import Glibc

/// Runs `body` with the calling thread at SCHED_FIFO `priority`, then gives the thread its own scheduling
/// back. ALSA's `pulse` plugin starts libpulse's `threaded-ml` mainloop while a device opens, and that
/// thread carries every period to the server; a new thread inherits the scheduling of the thread that
/// creates it, so it runs at the render thread's priority, as it does for any program started under
/// `chrt -f`. Without permission for SCHED_FIFO, or with `priority` nil, `body` runs as the thread is.
/// - Important: The calling thread runs at real-time priority for as long as `body` runs: keep it short
///   (opening and configuring a device).
func withInheritedRealtimePriority<T>(_ priority: Int32?, _ body: () throws(ALSAError) -> T) throws(ALSAError) -> T {
    guard let priority else { return try body() }
    var policy: Int32 = 0
    var saved = sched_param()
    guard pthread_getschedparam(pthread_self(), &policy, &saved) == 0, policy != SCHED_FIFO else { return try body() }
    var raised = sched_param()
    raised.sched_priority = priority
    let changed = pthread_setschedparam(pthread_self(), SCHED_FIFO, &raised) == 0
    defer { if changed { _ = pthread_setschedparam(pthread_self(), policy, &saved) } }
    return try body()
}
