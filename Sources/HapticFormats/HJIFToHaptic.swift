import AHAPCodec
import FoundationEssentials
import ThrumModel

/// The `.haptic` form of an HJIF document: one continuous envelope with emphases, from which `thrum convert`
/// writes `.haptic`, AHAP (through `HapticToAHAP`) and Android JSON, and the studio shows an HJIF file:
/// - amplitude: the sum of the VectorialWave effects' amplitudes (as the reference synthesizer interpolates
///   them) of every channel, clamped to 1, with a breakpoint at each keyframe and effect edge;
/// - frequency: the frequency of the loudest effect there, as sharpness on the target's band;
/// - each Transient keyframe becomes an emphasis of its amplitude at the ≈ 91 Hz its burst plays at.
/// Losses: channels mixed into one, base signals other than sine, chirps between keyframes (linear in
/// sharpness here too), frequencies outside the band, phases, Curve and WaveletWave bands. Pure and
/// thread-safe.
package enum HJIFToHaptic {
    /// What converting produced: the file (nil when nothing could be converted) and every loss.
    package struct Result: Sendable {
        package var file: HapticFile?
        package var issues: [HapticIssue]
    }

    /// One VectorialWave effect's amplitude and frequency over time.
    struct Track {
        var start: Double
        var end: Double
        var wave: HJIFSynthesis.VectorialWave
        var timescale: Double
        /// The channel's gain × 10^exponent.
        var scale: Double
    }

    /// Converts `document` for `target`.
    package static func convert(_ document: HJIFDocument, target: HJIFTarget = .default) -> Result {
        var issues: [HapticIssue] = []
        func loss(_ message: String, _ path: String) { issues.append(HapticIssue(.warning, nil, message, path: path)) }
        let timescale = Double(max(document.timescale, 1))
        var tracks: [Track] = []
        var emphases: [(time: Double, amplitude: Double)] = []
        let channels = HJIFSynthesis.channels(of: document)
        if channels.count > 1 { loss("the \(channels.count) channels are mixed into one envelope (.haptic has one)", "perceptions") }
        for channel in channels {
            let path = "perceptions[\(channel.perception)].channels[\(channel.index)]"
            for (b, band) in channel.bands.enumerated() {
                let bandPath = "\(path).bands[\(b)]"
                switch band.type {
                case .curve, .waveletWave:
                    if !band.effects.isEmpty { loss("a \(band.type.name) band has no .haptic form: dropped", bandPath) }
                case .transient:
                    for effect in band.effects where effect.type == .basis {
                        for keyframe in effect.keyframes {
                            guard let position = keyframe.position, let amplitude = keyframe.amplitude else { continue }
                            let time = Double(effect.position + position) / timescale
                            emphases.append((time, min(abs(Double(amplitude)) * channel.scale, 1)))
                        }
                    }
                case .vectorialWave:
                    for effect in band.effects where effect.type == .basis && !effect.keyframes.isEmpty {
                        if let signal = effect.baseSignal, signal != .sine {
                            loss("the \(signal.name) base signal plays as a sine", bandPath)
                        }
                        let length = HJIFSynthesis.length(of: effect, in: .vectorialWave, channel.timescaleValue)
                        let wave = HJIFSynthesis.VectorialWave(effect, lower: band.lower, upper: band.upper, timescale: channel.timescaleValue)
                        tracks.append(
                            Track(
                                start: Double(effect.position) / timescale, end: (Double(effect.position) + length) / timescale,
                                wave: wave, timescale: timescale, scale: channel.scale))
                    }
                }
            }
        }
        guard !tracks.isEmpty || !emphases.isEmpty else {
            issues.append(
                HapticIssue(.error, .invalidPatternData, "the document has no vibration (VectorialWave or Transient effects) to convert", path: "perceptions"))
            return Result(file: nil, issues: issues)
        }
        var amplitude: [HapticFile.AmplitudeBreakpoint] = []
        var frequency: [HapticFile.FrequencyBreakpoint] = []
        var knots = Set<Double>()
        for track in tracks {
            knots.insert(track.start)
            knots.insert(track.end)
            for keyframe in track.wave.amplitudeTimes + track.wave.frequencyTimes {
                let time = track.start + keyframe / track.timescale
                if time > track.start && time < track.end { knots.insert(time) }
            }
        }
        var outOfBand = false
        for time in knots.sorted() {
            var total = 0.0
            var loudest = (level: -1.0, frequency: 0.0)
            for var track in tracks where time >= track.start && time <= track.end {
                let state = track.wave.state(at: (time - track.start) * track.timescale)
                let level = abs(state.amplitude * track.scale)
                total += level
                if level > loudest.level { loudest = (level, state.frequency) }
            }
            amplitude.append(HapticFile.AmplitudeBreakpoint(time: time, amplitude: min(total, 1)))
            let sharpness = (loudest.frequency - target.lowFrequency) / (target.highFrequency - target.lowFrequency)
            if loudest.level >= 0 && (sharpness < -0.001 || sharpness > 1.001) { outOfBand = true }
            frequency.append(HapticFile.FrequencyBreakpoint(time: time, frequency: min(max(sharpness, 0), 1)))
        }
        if outOfBand {
            loss("frequencies outside \(Int(target.lowFrequency))–\(Int(target.highFrequency)) Hz (the actuator's band) are clamped to it", "perceptions")
        }
        let burst = (91.0 - target.lowFrequency) / (target.highFrequency - target.lowFrequency)
        for emphasis in emphases.sorted(by: { $0.time < $1.time }) {
            let base = amplitudeAt(amplitude, emphasis.time)
            let index = amplitude.firstIndex { $0.time > emphasis.time } ?? amplitude.count
            let point = HapticFile.AmplitudeBreakpoint(
                time: emphasis.time, amplitude: base,
                emphasis: HapticFile.Emphasis(amplitude: max(emphasis.amplitude, base), frequency: min(max(burst, 0), 1)))
            if index > 0, amplitude[index - 1].time == emphasis.time, amplitude[index - 1].emphasis == nil {
                amplitude[index - 1].emphasis = point.emphasis
            } else {
                amplitude.insert(point, at: index)
            }
        }
        if amplitude.count == 1 {
            amplitude.append(HapticFile.AmplitudeBreakpoint(time: amplitude[0].time + AHAPToHaptic.emphasisTail, amplitude: 0))
        }
        let metadata = document.description.isEmpty ? nil : HapticFile.Metadata(description: document.description)
        return Result(file: HapticFile(metadata: metadata, amplitude: amplitude, frequency: tracks.isEmpty ? [] : frequency), issues: issues)
    }

    /// The envelope's amplitude at `time` (0 outside it).
    static func amplitudeAt(_ points: [HapticFile.AmplitudeBreakpoint], _ time: Double) -> Double {
        guard let first = points.first, let last = points.last, time >= first.time, time <= last.time else { return 0 }
        return HapticFile.interpolate(points.map { (time: $0.time, value: $0.amplitude) }, at: time)
    }
}

extension HJIFSynthesis.Channel {
    /// The document's ticks per second.
    var timescaleValue: Int { timescale }
}

extension HJIFSynthesis.VectorialWave {
    /// The keyframe times (ticks from the effect's start) where the amplitude and frequency change course.
    var amplitudeTimes: [Double] { amplitudes.compactMap { $0.position.map(Double.init) } }
    var frequencyTimes: [Double] { frequencies.map { Double($0.position) } }
}
