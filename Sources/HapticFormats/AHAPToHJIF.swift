import AHAPCodec
import FoundationEssentials
import Glibc
import ThrumModel

/// The actuator an AHAP pattern is written into HJIF for: what Thrum plays an AHAP event as on it. The
/// default is Thrum's default actuator profile (`ActuatorProfile.default`, `Resources/Actuators/default.json`).
package struct HJIFTarget: Sendable, Equatable {
    /// Drive frequency at sharpness 0 and 1, Hz.
    package var lowFrequency: Double
    package var highFrequency: Double
    /// The intensity law: amplitude = intensity² (true) or intensity.
    package var squareLaw: Bool
    /// The length of a transient burst, seconds.
    package var transientDuration: Double

    /// Thrum's default actuator: 80–230 Hz, square law, 20 ms transients.
    package static let `default` = HJIFTarget(lowFrequency: 80, highFrequency: 230, squareLaw: true, transientDuration: 0.02)

    /// Creates a target.
    package init(lowFrequency: Double, highFrequency: Double, squareLaw: Bool, transientDuration: Double) {
        self.lowFrequency = lowFrequency
        self.highFrequency = highFrequency
        self.squareLaw = squareLaw
        self.transientDuration = transientDuration
    }

    /// The frequency in Hz that sharpness `s` plays at.
    func frequency(_ s: Double) -> Double { lowFrequency + min(max(s, 0), 1) * (highFrequency - lowFrequency) }
    /// The amplitude (1 = the actuator's gain) that intensity `i` plays at.
    func amplitude(_ i: Double) -> Double {
        let clamped = min(max(i, 0), 1)
        return squareLaw ? clamped * clamped : clamped
    }
}

/// Converts AHAP patterns played together (a single pattern, or a split pair) into an HJIF document that MPEG's
/// reference synthesizer plays as Thrum plays the patterns (docs/formats.md):
/// - each HapticContinuous event is a VectorialWave effect (sine) at its time: amplitude keyframes follow
///   (intensity × intensity control)² × its attack–hold–release (or attack–decay) envelope, frequency
///   keyframes follow its sharpness + sharpness control on the target's band, so ramps become chirps;
/// - each HapticTransient is a VectorialWave effect of the target's transient length at the frequency of its
///   sharpness, its amplitude keyframes tracing the sin² window of Thrum's burst (MPEG's Transient band
///   has one fixed shape at ≈ 91 Hz and no sharpness);
/// - effects go to as few bands as keep each band's effects apart in time (the reference synthesizer's
///   length follows the effect that starts last in each band), transients in bands of their own;
/// - the pattern's length (parameters after the last event included) is kept by a silent keyframe at the end.
/// Times are in ticks of 1/1000 s. Audio events and audio parameters are losses. Pure and thread-safe.
package enum AHAPToHJIF {
    /// Ticks per second of the documents it writes.
    package static let timescale = 1000

    /// What converting produced: the document (nil when nothing haptic was found) and every loss, each with
    /// the index of its source.
    package struct Result: Sendable {
        package var document: HJIFDocument?
        package var issues: [HapticIssue]
    }

    /// One effect to place, with where it came from.
    struct Placed {
        var effect: HJIFEffect
        var end: Int
        var transient: Bool
    }

    /// Converts `sources` (which should have decoded without errors) for `target`.
    package static func convert(_ sources: [AHAPSource], target: HJIFTarget = .default, date: String = today()) -> Result {
        var issues: [HapticIssue] = []
        var placed: [Placed] = []
        var end = 0.0
        for (s, source) in sources.enumerated() {
            let pattern = source.pattern
            let lanes = AHAPLanes(pattern)
            end = max(end, pattern.duration)
            for (i, event) in pattern.events.enumerated() {
                let path = source.eventPath(i)
                switch event.type {
                case .hapticContinuous:
                    if let effect = continuous(event, lanes: lanes, target: target) {
                        placed.append(Placed(effect: effect, end: effect.position + (effect.keyframes.last?.position ?? 0), transient: false))
                        end = max(end, Double(placed[placed.count - 1].end) / Double(timescale))
                    }
                    if lanes.timesChange(during: event) {
                        issues.append(
                            HapticIssue(
                                .warning, nil, "attack, decay or release time controls that change while the event plays are read at its start",
                                path: path, source: s))
                    }
                case .hapticTransient:
                    let effect = transient(event, lanes: lanes, target: target)
                    placed.append(Placed(effect: effect, end: effect.position + (effect.keyframes.last?.position ?? 0), transient: true))
                default:
                    issues.append(HapticIssue(.warning, nil, "\(event.type.rawValue) event dropped: HJIF carries no audio", path: path, source: s))
                }
            }
            for (i, step) in pattern.parameters.enumerated() where step.id.rawValue.hasPrefix("Audio") {
                issues.append(HapticIssue(.warning, nil, "\(step.id.rawValue) dropped: HJIF carries no audio", path: source.parameterPath(i), source: s))
            }
            for (i, curve) in pattern.curves.enumerated() where curve.id.rawValue.hasPrefix("Audio") {
                issues.append(HapticIssue(.warning, nil, "\(curve.id.rawValue) dropped: HJIF carries no audio", path: source.curvePath(i), source: s))
            }
        }
        guard !placed.isEmpty else {
            issues.append(
                HapticIssue(
                    .error, .invalidPatternData, "the pattern has no haptic events: there is nothing to convert",
                    suggestion: "HJIF holds haptics only (HapticContinuous and HapticTransient events)", path: ""))
            return Result(document: nil, issues: issues)
        }
        var bands = pack(placed, lower: Int(target.lowFrequency.rounded(.down)), upper: Int(target.highFrequency.rounded(.up)))
        // The pattern's length: a silent keyframe where it ends, in the band whose last effect ends last.
        let endTick = Int((end * Double(timescale)).rounded())
        if endTick > placed.map(\.end).max() ?? 0, let last = bands.indices.last {
            let silent = HJIFEffect(
                position: endTick, phase: 0, baseSignal: .sine,
                keyframes: [HJIFKeyframe(position: 0, amplitude: 0, frequency: Int(target.frequency(0.5).rounded()))])
            bands[last].effects.append(silent)
        }
        let description = sources.first?.pattern.metadata.first { $0.key.lowercased() == "description" }?.value ?? ""
        for (index, entry) in (sources.first?.pattern.metadata ?? []).enumerated() where entry.key.lowercased() != "description" {
            issues.append(
                HapticIssue(
                    .warning, nil, "Metadata entry \"\(entry.key)\" has no HJIF field: dropped",
                    suggestion: index == 0 ? "HJIF keeps a description" : nil, path: "Metadata"))
        }
        let channel = HJIFChannel(id: 0, description: "", bands: bands)
        let perception = HJIFPerception(id: 0, description: "", modality: "Vibrotactile", channels: [channel])
        let document = HJIFDocument(
            level: bands.count > 7 ? 2 : 1, date: date, description: description, timescale: timescale,
            perceptions: [perception])
        return Result(document: document, issues: issues)
    }

    /// The date today (UTC) as HJIF writes it, `YYYY-MM-DD`.
    package static func today() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        return zeroPadded(Int(parts.tm_year) + 1900, 4) + "-" + zeroPadded(Int(parts.tm_mon) + 1, 2) + "-" + zeroPadded(Int(parts.tm_mday), 2)
    }

    /// Bands of effects that do not overlap in time (first fit in time order), transients apart.
    static func pack(_ placed: [Placed], lower: Int, upper: Int) -> [HJIFBand] {
        var bands: [(band: HJIFBand, end: Int, transient: Bool)] = []
        let ordered = placed.enumerated().sorted { a, b in
            a.element.effect.position != b.element.effect.position ? a.element.effect.position < b.element.effect.position : a.offset < b.offset
        }.map(\.element)
        for item in ordered {
            if let index = bands.firstIndex(where: { $0.transient == item.transient && $0.end < item.effect.position }) {
                bands[index].band.effects.append(item.effect)
                bands[index].end = item.end
            } else {
                let band = HJIFBand(type: .vectorialWave, lowerFrequencyLimit: lower, upperFrequencyLimit: upper, effects: [item.effect])
                bands.append((band, item.end, item.transient))
            }
        }
        return bands.map(\.band)
    }
}

/// `value` in decimal with leading zeros to `width` digits.
func zeroPadded(_ value: Int, _ width: Int) -> String {
    let digits = "\(value)"
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
