/// What one output channel carries.
public enum ChannelSource: String, Sendable, CaseIterable, Equatable {
    /// Audio left.
    case left = "L"
    /// Audio right.
    case right = "R"
    /// Audio mono: 0.5 × (L + R) (the average, so a centred constant-power source comes out at −3 dB).
    case mono = "M"
    /// The haptic bus.
    case haptic = "H"
    /// Audio left plus haptic (hear the haptics on speakers).
    case leftHaptic = "L+H"
    /// Audio right plus haptic.
    case rightHaptic = "R+H"
    /// Audio mono plus haptic.
    case monoHaptic = "M+H"
    /// Silence.
    case silence = "0"
}

/// A problem with channel-map text.
public enum ChannelMapError: Error, Equatable, CustomStringConvertible {
    /// Entry number `index` (1-based) is `entry`, which is not valid.
    case invalidEntry(index: Int, entry: String)
    /// The text has no entries.
    case empty

    /// A message naming the wrong entry and listing the valid ones.
    public var description: String {
        let valid = ChannelSource.allCases.map(\.rawValue).joined(separator: ", ")
        switch self {
        case .invalidEntry(let index, let entry):
            return "channel map: entry \(index) '\(entry)' is not valid; valid entries are \(valid)"
        case .empty:
            return "channel map is empty; give one entry per output channel, from \(valid) (e.g. L+H,R+H)"
        }
    }
}

/// The output channel layout: one `ChannelSource` per device channel, parsed from text like
/// `L+H,R+H`, `L,R,H`, `M,H` or `0,H` (case-insensitive, spaces ignored).
///
/// Every output sample is within ±1: audio-only channels and audio + haptic sums go through a soft
/// limiter (knee `limiter.knee`); the haptic bus is already limited by the renderer and passes unchanged.
/// - Important: Thread safety: any thread (a value). Real-time safe: `interleave` yes; `init(parsing:)` no.
public struct ChannelMap: Sendable, Equatable, CustomStringConvertible {
    /// One source per output channel, in device order.
    public let sources: [ChannelSource]
    /// The limiter applied to channels with audio.
    public let limiter: SoftLimiter

    /// The default for `play`: everything on speakers.
    public static let speakers = ChannelMap(sources: [.leftHaptic, .rightHaptic])
    /// The default for `render`: separate audio L, R and haptic.
    public static let separate = ChannelMap(sources: [.left, .right, .haptic])

    /// Creates a map from sources.
    public init(sources: [ChannelSource], limiterKnee: Float = 0.9) {
        self.sources = sources
        limiter = SoftLimiter(knee: limiterKnee)
    }

    /// Parses `L+H,R+H`-style text.
    /// - Throws: `ChannelMapError.invalidEntry` naming the first wrong entry, or `.empty`.
    public init(parsing text: String, limiterKnee: Float = 0.9) throws(ChannelMapError) {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.filter { !$0.isWhitespace }.uppercased() }
        if entries.count == 1 && entries[0].isEmpty { throw .empty }
        var sources: [ChannelSource] = []
        for (i, entry) in entries.enumerated() {
            let normalised = entry == "H+L" ? "L+H" : entry == "H+R" ? "R+H" : entry == "H+M" ? "M+H" : entry
            guard let source = ChannelSource(rawValue: normalised) else {
                throw .invalidEntry(index: i + 1, entry: String(text.split(separator: ",", omittingEmptySubsequences: false)[i]))
            }
            sources.append(source)
        }
        self.init(sources: sources, limiterKnee: limiterKnee)
    }

    /// Output channels.
    public var channelCount: Int { sources.count }

    /// The text form, e.g. `L+H,R+H`.
    public var description: String { sources.map(\.rawValue).joined(separator: ",") }

    /// Writes `frameCount` interleaved frames of `channelCount` channels into `output`.
    /// - Important: Thread safety: any thread. Real-time safe: yes (reads `sources` without copying).
    public func interleave(
        audioL: UnsafePointer<Float>, audioR: UnsafePointer<Float>, haptic: UnsafePointer<Float>, frameCount: Int,
        into output: UnsafeMutablePointer<Float>
    ) {
        let stride = sources.count
        sources.withUnsafeBufferPointer { map in
            for (c, source) in map.enumerated() {
                var out = output + c
                switch source {
                case .left:
                    for i in 0..<frameCount { out.pointee = limiter.apply(audioL[i]); out += stride }
                case .right:
                    for i in 0..<frameCount { out.pointee = limiter.apply(audioR[i]); out += stride }
                case .mono:
                    for i in 0..<frameCount { out.pointee = limiter.apply(0.5 * (audioL[i] + audioR[i])); out += stride }
                case .haptic:
                    for i in 0..<frameCount { out.pointee = haptic[i]; out += stride }
                case .leftHaptic:
                    for i in 0..<frameCount { out.pointee = limiter.apply(audioL[i] + haptic[i]); out += stride }
                case .rightHaptic:
                    for i in 0..<frameCount { out.pointee = limiter.apply(audioR[i] + haptic[i]); out += stride }
                case .monoHaptic:
                    for i in 0..<frameCount {
                        out.pointee = limiter.apply(0.5 * (audioL[i] + audioR[i]) + haptic[i])
                        out += stride
                    }
                case .silence:
                    for _ in 0..<frameCount { out.pointee = 0; out += stride }
                }
            }
        }
    }
}
