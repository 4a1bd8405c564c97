import AHAPCodec
import FoundationEssentials
import Glibc
import ThrumModel

/// One AHAP pattern to convert, with the JSON paths of its entries (for locating losses).
package struct AHAPSource: Sendable {
    package var pattern: PatternData
    /// From `AHAPDecodeResult.sourcePaths`; empty for a pattern built in code.
    package var paths: AHAPDecodeResult.SourcePaths

    /// Creates a source.
    package init(pattern: PatternData, paths: AHAPDecodeResult.SourcePaths = AHAPDecodeResult.SourcePaths()) {
        self.pattern = pattern
        self.paths = paths
    }

    func eventPath(_ index: Int) -> String { index < paths.events.count ? paths.events[index] : "Pattern" }
    func parameterPath(_ index: Int) -> String { index < paths.parameters.count ? paths.parameters[index] : "Pattern" }
    func curvePath(_ index: Int) -> String { index < paths.curves.count ? paths.curves[index] : "Pattern" }
}

/// The `.haptic` form of AHAP patterns, and every loss (issues carry the index of their source).
package struct HapticImport: Sendable {
    /// The file; nil when an issue is an error (nothing haptic to convert, or an effect too long).
    package var file: HapticFile?
    package var issues: [HapticIssue]
}

/// Converts AHAP patterns played together (one player each: a split pair, or a single pattern) to one
/// `.haptic` file, following Core Haptics' meaning and the inverse of `HapticToAHAP`'s mapping:
/// - amplitude = Σ over sounding HapticContinuous events of (HapticIntensity × intensity control)², with a
///   breakpoint wherever that changes course (control points and steps, event edges, transients) and
///   inside intensity ramps, so that the straight amplitude lines follow intensity² (`IntensityRamps`);
/// - frequency = HapticSharpness + sharpness control of the loudest sounding event (the inverse of the
///   default `.faithful` export; an AHAP exported by Meta, sharpness √frequency, keeps that sharpness as
///   its frequency, which plays as that AHAP plays);
/// - each HapticTransient becomes an emphasis: amplitude (HapticIntensity × intensity control)², frequency
///   = its HapticSharpness.
/// Audio events and parameters, envelope shapes and envelope-time controls have no `.haptic` form: each is
/// a loss. Pure and thread-safe.
package enum AHAPToHaptic {
    /// When a pattern ends on an emphasis, the envelope runs on this long (s) so it can play out (as
    /// Meta's player does).
    package static let emphasisTail = 0.1

    /// A sounding HapticContinuous event: its pattern, edges, intensity and sharpness; `fades` = not sustained
    /// (its amplitude falls linearly to 0 at `end`).
    struct Voice {
        var source: Int
        var event: Int
        var start: Double
        var end: Double
        var intensity: Double
        var sharpness: Double
        var fades: Bool
    }

    struct Transient {
        var source: Int
        var event: Int
        var time: Double
        var intensity: Double
        var sharpness: Double
    }

    /// Converts `sources` (which should have decoded without errors).
    package static func convert(_ sources: [AHAPSource]) -> HapticImport {
        var issues: [HapticIssue] = []
        var voices: [Voice] = []
        var transients: [Transient] = []
        for (s, source) in sources.enumerated() {
            collect(source, index: s, voices: &voices, transients: &transients, issues: &issues)
        }
        guard !voices.isEmpty || !transients.isEmpty else {
            issues.append(
                HapticIssue(
                    .error, .invalidPatternData, "the pattern has no haptic events: there is nothing to convert",
                    suggestion: ".haptic holds haptics only (HapticContinuous and HapticTransient events)", path: ""))
            return HapticImport(file: nil, issues: issues)
        }
        let intensity = sources.map { LaneTimeline($0.pattern, .hapticIntensityControl) }
        let sharpness = sources.map { LaneTimeline($0.pattern, .hapticSharpnessControl) }
        var envelope = Envelope(voices: voices, intensity: intensity, sharpness: sharpness)
        var amplitude = envelope.amplitudeBreakpoints(transientTimes: transients.map(\.time))
        attach(transients, to: &amplitude, intensity: intensity, sources: sources, issues: &issues)
        if amplitude.count == 1 || (amplitude.last?.time ?? 0) <= (amplitude.first?.time ?? 0) {
            let end = (amplitude.last?.time ?? 0) + emphasisTail
            amplitude.append(HapticFile.AmplitudeBreakpoint(time: end, amplitude: 0))
        }
        let frequency = envelope.frequencyBreakpoints(from: amplitude[0].time, to: amplitude[amplitude.count - 1].time)
        if let clip = envelope.clipped {
            issues.append(
                HapticIssue(
                    .warning, nil,
                    "overlapping continuous events add up to amplitude \(HapticToAHAP.rounded(clip.total)) at \(clip.time) s: clipped to 1 (the most .haptic holds)",
                    path: sources[clip.voice.source].eventPath(clip.voice.event), source: clip.voice.source))
        }
        if let conflict = envelope.sharpnessConflict {
            issues.append(
                HapticIssue(
                    .warning, nil,
                    "\(conflict.count) overlap(s) of HapticContinuous events with different sharpness: .haptic has one frequency envelope, which follows the louder event",
                    path: sources[conflict.voice.source].eventPath(conflict.voice.event), source: conflict.voice.source))
        }
        let metadata = hapticMetadata(sources, issues: &issues)
        let file = HapticFile(
            version: HapticFile.Version(major: 1), metadata: metadata, amplitude: amplitude,
            frequency: voices.isEmpty ? [] : frequency)
        for problem in HapticFileValidator.issues(in: file, mode: .strict) where problem.severity == .error {
            issues.append(HapticIssue(.error, problem.code, "the .haptic result breaks a rule: \(problem.message)", path: ""))
        }
        return HapticImport(file: issues.contains { $0.severity == .error } ? nil : file, issues: issues)
    }

    /// Gathers the voices and transients of one pattern and reports what has no `.haptic` form.
    static func collect(
        _ source: AHAPSource, index s: Int, voices: inout [Voice], transients: inout [Transient],
        issues: inout [HapticIssue]
    ) {
        for (i, event) in source.pattern.events.enumerated() {
            let path = source.eventPath(i)
            switch event.type {
            case .hapticContinuous:
                let shaped = event.parameters.filter { [.attackTime, .decayTime, .releaseTime].contains($0.id) && $0.value > 0 }
                var end = event.time + event.playedDuration
                if !event.isSustained {
                    // Attack then decay (t(x) = 0.001 × 5120^x s each), cut at EventDuration when one is given.
                    let natural = envelopeSeconds(event.value(of: .attackTime)) + envelopeSeconds(event.value(of: .decayTime))
                    end = event.time + (event.playedDuration > 0 ? min(natural, event.playedDuration) : natural)
                }
                if !shaped.isEmpty || !event.isSustained {
                    let names = shaped.map(\.id.rawValue) + (event.isSustained ? [] : ["Sustained 0"])
                    issues.append(
                        HapticIssue(
                            .warning, nil,
                            "the event's envelope shape (\(names.joined(separator: ", "))) has no .haptic form: "
                                + (event.isSustained ? "the amplitude starts and stops at the event's edges" : "it becomes a linear fade"),
                            path: path, source: s))
                }
                guard end > event.time else { continue }
                voices.append(
                    Voice(
                        source: s, event: i, start: event.time, end: end, intensity: Double(event.value(of: .hapticIntensity)),
                        sharpness: Double(event.value(of: .hapticSharpness)), fades: !event.isSustained))
            case .hapticTransient:
                transients.append(
                    Transient(
                        source: s, event: i, time: event.time, intensity: Double(event.value(of: .hapticIntensity)),
                        sharpness: Double(event.value(of: .hapticSharpness))))
            default:
                issues.append(
                    HapticIssue(
                        .warning, nil, "\(event.type.rawValue) event dropped: .haptic carries no audio", path: path, source: s))
            }
        }
        let kept: [CHHapticDynamicParameter.ID] = [.hapticIntensityControl, .hapticSharpnessControl]
        func dropped(_ id: CHHapticDynamicParameter.ID, _ path: String) {
            let reason = id.rawValue.hasPrefix("Audio") ? ".haptic carries no audio" : ".haptic envelopes have no attack, decay or release times"
            issues.append(HapticIssue(.warning, nil, "\(id.rawValue) dropped: \(reason)", path: path, source: s))
        }
        for (i, step) in source.pattern.parameters.enumerated() where !kept.contains(step.id) {
            dropped(step.id, source.parameterPath(i))
        }
        for (i, curve) in source.pattern.curves.enumerated() where !kept.contains(curve.id) {
            dropped(curve.id, source.curvePath(i))
        }
    }

    /// Core Haptics envelope time for parameter x (docs/decisions.md): 0.001 × 5120^x seconds.
    static func envelopeSeconds(_ x: Float) -> Double { 0.001 * pow(5120, Double(min(max(x, 0), 1))) }

    /// Adds an emphasis for each transient: on the breakpoint at its time (a new one on the envelope's line
    /// when there is none, a repeated one when that breakpoint has an emphasis already). Before the start
    /// or after the end of the envelope the amplitude is 0, so the envelope starts from or stops at 0 there.
    static func attach(
        _ transients: [Transient], to amplitude: inout [HapticFile.AmplitudeBreakpoint], intensity: [LaneTimeline],
        sources: [AHAPSource], issues: inout [HapticIssue]
    ) {
        var result: [HapticFile.AmplitudeBreakpoint] = []
        var next = 0
        func copy(through time: Double) {
            while next < amplitude.count && amplitude[next].time <= time {
                if next == 0, let last = result.last, amplitude[0].amplitude != 0 {
                    // Transients came before the envelope: it starts from silence.
                    result.append(HapticFile.AmplitudeBreakpoint(time: max(last.time, amplitude[0].time), amplitude: 0))
                }
                result.append(amplitude[next])
                next += 1
            }
        }
        for transient in transients.sorted(by: { $0.time < $1.time }) {
            copy(through: transient.time)
            let time = transient.time
            var base = 0.0
            if let last = result.last, last.time == time {
                base = last.amplitude
            } else if let last = result.last, next < amplitude.count {
                let following = amplitude[next]
                base = last.amplitude + (following.amplitude - last.amplitude) * (time - last.time) / (following.time - last.time)
            }
            let gain = transient.intensity * intensity[transient.source].value(at: time)
            var emphasis = HapticFile.Emphasis(amplitude: min(gain * gain, 1), frequency: min(max(transient.sharpness, 0), 1))
            if emphasis.amplitude < base {
                if emphasis.amplitude < base - 1e-6 {
                    issues.append(
                        HapticIssue(
                            .warning, nil,
                            "the transient (amplitude \(HapticToAHAP.rounded(emphasis.amplitude))) is weaker than the continuous signal under it (\(HapticToAHAP.rounded(base))): a .haptic emphasis cannot be, so it is raised to that",
                            path: sources[transient.source].eventPath(transient.event), source: transient.source))
                }
                emphasis.amplitude = base
            }
            if let last = result.last, last.time == time, last.emphasis == nil {
                result[result.count - 1].emphasis = emphasis
                continue
            }
            if next == amplitude.count, let last = result.last, last.amplitude != 0, last.time < time {
                // After the envelope: it stops first.
                result.append(HapticFile.AmplitudeBreakpoint(time: last.time, amplitude: 0))
            }
            result.append(HapticFile.AmplitudeBreakpoint(time: time, amplitude: base, emphasis: emphasis))
        }
        copy(through: .infinity)
        amplitude = result
    }

    /// The `.haptic` metadata from the first pattern's `Metadata` (keys matched without case: Author,
    /// Editor, Source, Project, Tags split at ", ", Description); other keys are losses.
    static func hapticMetadata(_ sources: [AHAPSource], issues: inout [HapticIssue]) -> HapticFile.Metadata? {
        guard let entries = sources.first?.pattern.metadata, !entries.isEmpty else { return nil }
        var metadata = HapticFile.Metadata()
        for (index, entry) in entries.enumerated() {
            switch entry.key.lowercased() {
            case "author": metadata.author = entry.value
            case "editor": metadata.editor = entry.value
            case "source": metadata.source = entry.value
            case "project": metadata.project = entry.value
            case "description": metadata.description = entry.value
            case "tags": metadata.tags = entry.value.components(separatedBy: ", ").filter { !$0.isEmpty }
            default:
                let path = sources[0].paths.positions["Metadata.\(entry.key)"] != nil ? "Metadata.\(entry.key)" : "Metadata"
                issues.append(
                    HapticIssue(
                        .warning, nil, "Metadata entry \"\(entry.key)\" has no .haptic field: dropped",
                        suggestion: index == 0 ? ".haptic metadata has author, editor, source, project, tags and description" : nil,
                        path: path))
            }
        }
        return metadata
    }
}
