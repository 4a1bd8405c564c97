import Foundation
import Testing

/// The CPU time the machine's host took away from this virtual machine ("steal" in /proc/stat), read so
/// that a real-time test can tell a loss the host caused from one Thrum caused. Counts are in the kernel's
/// clock ticks, summed over all CPUs; on a machine that is not virtual, steal stays 0.
public struct HostStealReading: Sendable {
    /// Ticks stolen by the host, and ticks of every kind, since boot.
    public let stolen: UInt64, total: UInt64

    /// Reads the first (all-CPU) line of /proc/stat; zeros when it cannot be read.
    public static func now() -> HostStealReading {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return HostStealReading(stolen: 0, total: 0) }
        // user nice system idle iowait irq softirq steal guest guest_nice
        let ticks = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        return HostStealReading(stolen: ticks.count > 7 ? ticks[7] : 0, total: ticks.prefix(8).reduce(0, +))
    }

    /// The share of all CPU time, 0…1, that the host took between `earlier` and this reading.
    public func share(since earlier: HostStealReading) -> Double {
        guard total > earlier.total else { return 0 }
        return Double(stolen - earlier.stolen) / Double(total - earlier.total)
    }
}

/// What one attempt of a real-time test came to: done, with its value, or spoiled by the machine (why).
public enum RealTimeAttempt<Value> {
    case done(Value)
    case spoiled(String)
}

/// Every counted attempt was spoiled; the description lists each with the steal it saw.
public struct MachineTooBusy: Error, CustomStringConvertible {
    public let description: String
}

/// Runs `attempt` until it is done, three attempts were spoiled, or 60 s have passed, and returns its
/// value. A spoiled attempt (a card that underran, a server that missed a cycle: a loaded machine loses
/// frames, legitimately) is repeated. One during which the machine's host took more than 5 % of the CPUs
/// away does not count as one of the three, since such stalls say nothing about Thrum: fresh-clone runs
/// lost audio in three attempts in a row while steal was 15-35 %, and passed at once with the host quiet.
/// When no attempt in the 60 s counted (the host stole through all of them), nothing can be judged and the
/// test is cancelled with that reason, which Tools/test.sh lists with the skipped tests.
/// - Throws: ``MachineTooBusy`` naming `what` and every attempt; a cancellation; whatever `attempt` throws.
public func repeatWhileTheMachineSpoils<Value>(
    _ what: String, attempt: () throws -> RealTimeAttempt<Value>
) throws -> Value {
    var notes: [String] = []
    var counted = 0
    let deadline = Date().addingTimeInterval(60)
    while counted < 3 && Date() < deadline {
        let before = HostStealReading.now()
        let outcome = try attempt()
        let steal = HostStealReading.now().share(since: before)
        switch outcome {
        case .done(let value):
            return value
        case .spoiled(let why):
            notes.append("\(why) (the host took \(Int((steal * 100).rounded())) % of the CPUs)")
            if steal <= 0.05 { counted += 1 } else { sleep(2) }
        }
    }
    let attempts = notes.joined(separator: "; ")
    if counted == 0 {
        try Test.cancel("the host took over 5 % of the CPUs through every attempt for 60 s (\(what): \(attempts))")
    }
    throw MachineTooBusy(description: "\(what) in every attempt: \(attempts)")
}
