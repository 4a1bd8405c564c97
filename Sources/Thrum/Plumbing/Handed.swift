/// A value moved into a `Locked`'s state from a caller's region: the handlers Core Haptics code sets
/// (`stoppedHandler`, `completionHandler`, …) are not `Sendable`, while the mutex takes only values no other
/// code can still reach. The mutex guards every later use of them, so the move is safe; this box says so
/// to the region checker. Control side only.
struct Handed<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }
}
