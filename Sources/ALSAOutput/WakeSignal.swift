import CALSA
import Glibc

/// A wake-up from a real-time thread to a waiting control thread (an eventfd): the real-time side calls
/// `signal()`, the control side blocks in `wait(timeoutMilliseconds:)` until then.
///
/// Signals do not queue: one or many `signal()` calls before a `wait` end that one wait.
/// - Important: Thread safety: any thread. `signal()` is real-time safe (one non-blocking `write` on an
///   eventfd: no allocation, lock or wait); `init`, `wait` and `deinit` are control-side only.
package final class WakeSignal: Sendable {
    private let fd: Int32

    /// Creates the eventfd.
    /// - Throws: `ALSAError` (operation `.startThread`) when the process has no descriptor left.
    package init() throws(ALSAError) {
        let fd = thrum_eventfd_create()
        guard fd >= 0 else { throw ALSAError(code: errno, operation: .startThread, device: "", detail: "eventfd") }
        self.fd = fd
    }

    deinit {
        Glibc.close(fd)
    }

    /// Wakes the waiting thread (or the next `wait`). Never blocks; real-time safe.
    package func signal() {
        _ = thrum_eventfd_signal(fd)
    }

    /// Blocks until `signal()` or `timeoutMilliseconds` (negative = no timeout) pass, then clears the signal.
    /// - Returns: true when signalled, false on the timeout.
    package func wait(timeoutMilliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, timeoutMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            thrum_eventfd_drain(fd)
            return true
        }
    }
}
