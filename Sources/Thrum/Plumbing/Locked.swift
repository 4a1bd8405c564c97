import FoundationEssentials
import FoundationStandIns

/// A value behind a lock, for control-side state only (never touched by the render thread).
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = Lock()

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
