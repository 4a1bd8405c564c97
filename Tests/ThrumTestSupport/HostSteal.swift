import Foundation

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
