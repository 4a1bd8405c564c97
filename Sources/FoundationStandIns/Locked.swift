import Glibc

/// A value behind a mutual-exclusion lock: Thrum's one lock type, with the API of the standard library's
/// `Synchronization.Mutex` (`Locked(value)`, `withLock { (inout value) in … }`).
///
/// Why not `Synchronization.Mutex` itself: on Linux it waits on a futex of its own, which ThreadSanitizer cannot
/// see, so every access made under it was reported as a data race (`Tools/ci/test-sanitizers.sh`, 151 reports).
/// This one is a pthread mutex, which ThreadSanitizer (and valgrind's helgrind) understand.
///
/// Not recursive: a thread that holds it must not take it again. Thread-safe; never for the render thread
/// (taking it may wait). The value is reached only inside `withLock`, so it needs not be `Sendable` itself.
package final class Locked<Value>: @unchecked Sendable {
    /// The pthread mutex, at a fixed address for its whole life (a pthread mutex must not move).
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The protected value, read and written only while `mutex` is held. Out of line: a stored property of an
    /// empty type (`Locked(())`) shares the object's address, so ThreadSanitizer took the exclusivity check of
    /// an access to it for a write to the object's header, which every generic call reads unlocked.
    private let value: UnsafeMutablePointer<Value>

    /// Creates an unlocked mutex holding `initialValue`.
    package init(_ initialValue: sending Value) {
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with exclusive access to the value, waiting while another thread holds the lock, and returns
    /// what `body` returns. The lock is released when `body` returns or throws.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
