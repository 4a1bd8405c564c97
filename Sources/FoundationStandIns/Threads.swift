import Glibc

/// Threads and sleeping, in place of Foundation's `Thread.detachNewThread` and `Thread.sleep(forTimeInterval:)`.
package enum Threads {
    /// Runs `body` on a new detached thread (default attributes: normal scheduling, the system's stack size),
    /// named `name` (its first 15 bytes, as `ps` and `/proc/PID/task/*/comm` show it) when given. Like
    /// Foundation's `Thread.detachNewThread`, stops the process when the system cannot create a thread
    /// (pthread_create fails only when it is out of memory or threads). Thread-safe; allocates.
    package static func detach(name: String? = nil, _ body: @escaping @Sendable () -> Void) {
        let named: @Sendable () -> Void = {
            if let name { nameCallingThread(name) }
            body()
        }
        let box = Unmanaged.passRetained(Body(named)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            fatalError("cannot start a thread: \(String(cString: strerror(status)))")
        }
        pthread_detach(thread)
    }

    /// Suspends the calling thread for `seconds` (at least; the system may wake it later). Resumes a sleep that
    /// a signal interrupted. Not for the render thread.
    package static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// Names the calling thread through /proc/thread-self/comm (glibc's pthread_setname_np is not visible to
    /// Swift without _GNU_SOURCE); the kernel keeps the first 15 bytes. Best effort: a name is for `ps -L`.
    private static func nameCallingThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = write(descriptor, bytes, bytes.count)
        close(descriptor)
    }

    /// A closure in a class, so that it can cross pthread_create's `void *`.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
