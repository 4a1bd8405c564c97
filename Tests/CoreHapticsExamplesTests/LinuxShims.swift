// Linux: stand-ins for Apple-only frameworks the reference code imports next to Core Haptics.
// Only what the copied reference code touches is defined here; nothing here replaces Core Haptics API.
import FoundationStandIns
import Synchronization

/// Linux: OSLog is not available on Linux. This minimal `Logger` has the same initialiser and `info(_:)`
/// call shape as `os.Logger`, so the guide's `PatternPlayer` compiles with its logging lines unchanged.
/// Messages are kept in memory (tests can read them) instead of going to the unified log.
struct Logger: Sendable {
    let subsystem: String
    let category: String

    init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    func info(_ message: String) {
        Logger.messages.withLock { $0.append("[\(subsystem)/\(category)] \(message)") }
    }

    static let messages = Locked<[String]>([])
}
