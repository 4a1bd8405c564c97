import Glibc

/// A mutual-exclusion lock (a pthread mutex), in place of Foundation's `NSLock`. Not recursive: a thread that
/// holds it must not take it again. Thread-safe; never for the render thread (taking it may wait).
package final class Lock: @unchecked Sendable {
    /// The mutex, at a fixed address for its whole life (a pthread mutex must not move).
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates an unlocked lock.
    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock, waiting while another thread holds it.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock; only the thread that took it may.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock and returns what it returns.
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
