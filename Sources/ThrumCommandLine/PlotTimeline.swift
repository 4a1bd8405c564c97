import FoundationEssentials
import Glibc
import FoundationStandIns
import RenderCore
import ThrumModel

/// What `thrum plot` draws, computed from a pattern and its offline render (no drawing here).
struct PlotTimeline {
    /// The name shown in the title (the pattern file's name without `.ahap`).
    var name: String
    var pattern: PatternData
    /// The x axis runs from 0 to this many seconds.
    var end: Double
    /// Where the dashed loop-end line goes; nil for none.
    var loopEnd: Double?
    /// The engine rate the waveforms were rendered at.
    var sampleRate: Double
    /// Rendered channels, one sample per frame from the pattern start.
    /// One haptic channel per actuator, by the actuator's name (`default` for a plain `H`).
    var haptics: [(name: String, samples: [Float])]
    var left: [Float]
    var right: [Float]
    /// Haptic events compiled (effective event values, active lengths) and the parameter controls.
    var hapticEvents: [CompiledEvent]
    var controls: [ControlChange]
    /// Length of a transient burst in seconds.
    var transientSeconds: Double
    /// The length in seconds of each AudioCustom event's file (by event index), when the file could be probed.
    var audioSeconds: [Int: Double] = [:]
    /// When the last sound ended (release tails and files included), as far as the render saw.
    var soundingEnd: Double = 0

    init(
        name: String, pattern: PatternData, end: Double, loopEnd: Double?, sampleRate: Double,
        haptics: [(name: String, samples: [Float])],
        left: [Float], right: [Float], profile: ActuatorProfile
    ) throws(CompileError) {
        self.name = name
        self.pattern = pattern
        self.end = end
        self.loopEnd = loopEnd
        self.sampleRate = sampleRate
        self.haptics = haptics
        self.left = left
        self.right = right
        // Only haptic events: AudioCustom events would need their files, and controls do not depend on events.
        let hapticOnly = PatternData(
            version: pattern.version, events: pattern.events.filter(\.type.isHaptic),
            parameters: pattern.parameters, curves: pattern.curves)
        let compiled = try CompiledPattern(compiling: hapticOnly, sampleRate: sampleRate, profile: profile)
        hapticEvents = compiled.events
        controls = compiled.controls
        transientSeconds = Double(compiled.transientFrames) / sampleRate
    }

    /// The value of a control lane at time `t`: the last step, or the curve piece in force (linear).
    func control(_ lane: ControlLane, at t: Double) -> Float {
        var value = lane.defaultValue
        for change in controls {
            if change.time > t { break }
            guard change.lane == lane else { continue }
            if change.isRamp, t < change.endTime {
                let fraction = Float((t - change.time) / (change.endTime - change.time))
                value = change.value + (change.endValue - change.value) * fraction
            } else {
                value = change.endValue
            }
        }
        return value
    }

    /// The seconds during which a haptic event plays at its own values (release tails excluded).
    func activeInterval(_ event: CompiledEvent) -> ClosedRange<Double> {
        switch event.kind {
        case .transient:
            return event.time...(event.time + transientSeconds)
        case .hapticContinuous where event.sustained:
            return event.time...(event.time + event.duration)
        default:
            return event.time...(event.time + Double(event.lengthFrames) / sampleRate)
        }
    }

    /// Effective intensity (event × intensity control) and sharpness (event + sharpness control for
    /// continuous events), clamped to 0…1, of the strongest haptic event active in `window`; nil when none is.
    func effective(in window: ClosedRange<Double>) -> (intensity: Float, sharpness: Float)? {
        var best: (intensity: Float, sharpness: Float)?
        for event in hapticEvents where activeInterval(event).overlaps(window) {
            let t = min(max(window.lowerBound, event.time), window.upperBound)
            let intensity = min(max(event.intensity * control(.hapticIntensity, at: t), 0), 1)
            let sharpness =
                event.kind == .transient
                ? event.sharpness : min(max(event.sharpness + control(.hapticSharpness, at: t), 0), 1)
            if best == nil || intensity > best!.intensity { best = (intensity, sharpness) }
        }
        return best
    }

    /// The minimum and maximum sample of `samples` in each of `columns` equal time slices of 0…end.
    func envelope(_ samples: [Float], columns: Int) -> [(min: Float, max: Float)] {
        (0..<columns).map { column in
            let from = Int((Double(column) / Double(columns) * end * sampleRate).rounded(.down))
            var to = Int((Double(column + 1) / Double(columns) * end * sampleRate).rounded(.down))
            to = max(to, from + 1)
            guard from < samples.count else { return (0, 0) }
            var low: Float = 0
            var high: Float = 0
            for sample in samples[from..<min(to, samples.count)] {
                low = min(low, sample)
                high = max(high, sample)
            }
            return (low, high)
        }
    }

    /// The seconds an event's bar covers: its duration, or for an AudioCustom event the part of its file it plays.
    func barSeconds(index: Int, event: EventData) -> Double {
        guard event.type == .audioCustom, let file = audioSeconds[index] else { return event.playedDuration }
        return event.audioPlayedDuration(fileSeconds: file)
    }

    /// The pattern's length with its audio files counted (those probed).
    var duration: Double { pattern.duration { audioSeconds[$0] } }

    /// The largest absolute sample of a channel.
    static func peak(_ samples: [Float]) -> Float { samples.reduce(0) { max($0, abs($1)) } }
}

/// The four event types in legend order, with their colours, lane names and labels.
enum PlotStyle {
    static let types: [CHHapticEvent.EventType] = CHHapticEvent.EventType.allKnown

    static func colour(_ type: CHHapticEvent.EventType) -> String {
        switch type {
        case .hapticTransient: "#1f77b4"
        case .hapticContinuous: "#ff7f0e"
        case .audioContinuous: "#2ca02c"
        case .audioCustom: "#8c564b"
        default: "#7f7f7f"
        }
    }

    static func laneName(_ type: CHHapticEvent.EventType) -> String {
        switch type {
        case .hapticTransient: "Transient"
        case .hapticContinuous: "Continuous"
        case .audioContinuous: "Audio tone"
        case .audioCustom: "Audio file"
        default: type.rawValue
        }
    }

    /// The text next to an event: the type's initial, or the file name of an AudioCustom event.
    static func label(_ event: EventData) -> String {
        switch event.type {
        case .hapticTransient: "T"
        case .hapticContinuous: "C"
        case .audioContinuous: "A"
        case .audioCustom:
            event.waveformPath.map(PathName.lastComponent)
                ?? event.audioResourceID.map { "resource \($0)" } ?? "audio"
        default: String(event.type.rawValue.prefix(1))
        }
    }

    static let intensityColour = "#d62728"
    static let sharpnessColour = "#9467bd"
    static let hapticWaveColour = "#1f77b4"
    static let audioWaveColour = "#2ca02c"

    /// Event labels use a monospaced font so their width is known: DejaVu Sans Mono advances 0.602 em.
    static let labelFontSize = 11.0
    static func labelWidth(_ text: String) -> Double { Double(text.count) * labelFontSize * 0.61 }
    /// Proportional text (lane names, legend): a safe upper bound of the average advance.
    static func textWidth(_ text: String, size: Double) -> Double { Double(text.count) * size * 0.58 }
}

/// Tick positions for an axis from 0 to `end`: steps of 1, 2 or 5 × 10^k, at most `maxTicks` intervals.
struct AxisTicks {
    let step: Double
    let decimals: Int
    let values: [Double]

    init(end: Double, maxTicks: Int) {
        let span = max(end, 1e-6)
        let rough = span / Double(max(maxTicks, 1))
        let magnitude = pow(10, (log10(rough)).rounded(.down))
        var chosen = 10 * magnitude
        for factor in [1.0, 2, 5, 10] where factor * magnitude >= rough {
            chosen = factor * magnitude
            break
        }
        step = chosen
        decimals = max(0, Int((-log10(chosen) + 1e-9).rounded(.up)))
        var values: [Double] = []
        var k = 0.0
        while k * chosen <= span * (1 + 1e-9) {
            values.append(k * chosen)
            k += 1
        }
        self.values = values
    }

    func label(_ value: Double) -> String { String(cFormat: "%.\(decimals)f", value) }
}
