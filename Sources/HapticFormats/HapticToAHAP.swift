import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import ThrumModel

/// The AHAP form of a `.haptic` file: one pattern, or a continuous and a transient pattern to play on two
/// players at once (so the intensity curve does not scale the transients), plus every loss.
package struct AHAPExport: Sendable {
    /// The continuous part: HapticContinuous events and the intensity and sharpness curves. In the merged
    /// form it holds the transients too.
    package var continuous: PatternData
    /// The transient part of the split form; nil in the merged form and when the file has no emphasis.
    package var transients: PatternData?
    /// What the conversion loses or changes, at the place in the `.haptic` source.
    package var issues: [HapticIssue]
}

/// Converts `.haptic` to AHAP the way Core Haptics plays it (Core Haptics' rules):
/// - intensity control = √amplitude (Core Haptics' intensity is quadratic), sharpness control =
///   frequency at each frequency breakpoint (sharpness and `.haptic` frequency both span the actuator's
///   band linearly, so the AHAP plays at the frequencies the `.haptic` plays at, and an emphasis meets
///   the continuous vibration under it as it does natively; Meta's export writes √frequency, the
///   `metaCompatible` style), on HapticContinuous events of intensity 1 and sharpness 0 that span the
///   effect (at most 30 s each);
/// - each emphasis becomes a HapticTransient of intensity √amplitude and sharpness = its frequency;
/// - curves hold at most 16 points (consecutive curves share their boundary point) and their point times
///   are relative to the curve's `Time`.
/// In the `faithful` style the intensity control has points inside amplitude ramps too, so that the played
/// amplitude follows the `.haptic` ramps within `IntensityRamps.tolerance`; the `metaCompatible` style
/// writes what Meta Haptics Studio writes (points at the breakpoints only, so ramps sag, and the intensity
/// lowered to 0.8 × at breakpoints with an emphasis, sharpness √frequency). Pure and thread-safe.
package enum HapticToAHAP {
    /// How the intensity control is written.
    package enum Style: Sendable, Equatable {
        /// Ramps followed within `IntensityRamps.tolerance`; no ducking; sharpness = frequency. The default.
        case faithful
        /// As Meta Haptics Studio: points at the breakpoints only, emphasis ducking 0.8, sharpness √frequency.
        case metaCompatible
    }

    /// Meta's factor on the intensity at breakpoints that carry an emphasis (the `metaCompatible` style).
    package static let metaEmphasisDucking = 0.8
    /// Core Haptics' most points per curve.
    package static let maxCurvePoints = HapticLimits.maxCurvePoints
    /// Core Haptics' longest HapticContinuous event, in seconds.
    package static let maxEventDuration = HapticLimits.maxContinuousDuration
    /// How far the played amplitude of an intensity ramp may sag below the straight line before it is
    /// reported in the `metaCompatible` style (0…1 full scale).
    package static let rampTolerance = 0.01

    /// Converts `file` (which should have passed `HapticFileValidator`).
    /// - Parameters:
    ///   - split: the split form (continuous and transient patterns) instead of one merged pattern.
    ///   - style: how the intensity control is written (`faithful` by default).
    package static func convert(_ file: HapticFile, split: Bool, style: Style = .faithful) -> AHAPExport {
        var issues: [HapticIssue] = []
        let start = file.start
        let end = file.duration
        let noFrequency = file.frequencyBreakpoints.isEmpty
        let emphasisDucking = style == .metaCompatible ? metaEmphasisDucking : 1

        // Intensity curves.
        let amplitude = file.amplitude.map { (time: $0.time, value: $0.amplitude) }
        let intensity = style == .faithful
            ? IntensityRamps.points(amplitude)
            : file.amplitude.enumerated().map { index, point in
                let ducking = point.emphasis == nil ? 1 : emphasisDucking
                return (time: point.time, value: max(point.amplitude, 0).squareRoot() * ducking, source: index)
            }
        var curves = chunkedCurves(.hapticIntensityControl, intensity.map { ($0.time, $0.value) }, from: start)
        if intensity.count > maxCurvePoints {
            let path = HapticPaths.amplitude(intensity[maxCurvePoints].source)
            issues.append(chunkIssue("amplitude", intensity.count, curves.count, path))
        }
        if emphasisDucking < 1, let first = file.emphases.first {
            issues.append(
                HapticIssue(
                    .warning, nil,
                    "intensity lowered to \(emphasisDucking) × √amplitude at \(file.emphases.count) emphasis breakpoint(s) (Meta's emphasis ducking)",
                    path: HapticPaths.amplitude(first.index, "amplitude")))
        }
        if style == .metaCompatible, let sag = largestSag(amplitude) {
            issues.append(
                HapticIssue(
                    .warning, nil,
                    "intensity ramps linearly between breakpoints, so the played amplitude (intensity²) sags below the straight line by up to \(rounded(sag.depth)) (before \(sag.time) s)",
                    suggestion: "without --meta-compatible the ramps are followed", path: HapticPaths.amplitude(sag.index)))
        }

        // Sharpness curves; they hold their first value from the start of the effect.
        let frequency = file.frequencyBreakpoints
        if !frequency.isEmpty {
            let points = frequency.map { (time: $0.time, value: Self.sharpness(frequency: $0.frequency, style: style)) }
            let sharpness = chunkedCurves(.hapticSharpnessControl, points, from: min(start, frequency[0].time))
            curves += sharpness
            if frequency.count > maxCurvePoints {
                issues.append(chunkIssue("frequency", frequency.count, sharpness.count, HapticPaths.frequency(maxCurvePoints)))
            }
        }

        // Continuous events over the effect, at most 30 s each.
        var events: [EventData] = []
        let baseSharpness = noFrequency ? Float(Self.sharpness(frequency: HapticFile.defaultFrequency, style: style)) : 0
        var time = start
        while time < end {
            let duration = min(maxEventDuration, end - time)
            events.append(
                EventData(
                    type: .hapticContinuous, time: time, duration: duration,
                    parameters: [
                        EventParameterData(id: .hapticIntensity, value: 1),
                        EventParameterData(id: .hapticSharpness, value: baseSharpness),
                    ]))
            time += duration
        }
        if events.count > 1, let seam = file.amplitude.firstIndex(where: { $0.time > start + maxEventDuration }) {
            issues.append(
                HapticIssue(
                    .warning, nil,
                    "the effect lasts \(end - start) s: it becomes \(events.count) HapticContinuous events of at most 30 s (Core Haptics' limit), which restart at each seam",
                    path: HapticPaths.amplitude(seam)))
        }

        // Transients.
        let transients = file.emphases.map { emphasis in
            EventData(
                type: .hapticTransient, time: emphasis.time,
                parameters: [
                    EventParameterData(id: .hapticIntensity, value: Float(max(emphasis.emphasis.amplitude, 0).squareRoot())),
                    EventParameterData(id: .hapticSharpness, value: Float(emphasis.emphasis.frequency)),
                ])
        }
        let scaled = file.emphases.filter { file.amplitude(at: $0.time) < 1 || emphasisDucking < 1 }
        if !split, let first = scaled.first {
            issues.append(
                HapticIssue(
                    .warning, nil,
                    "\(scaled.count) emphasis point(s) become transients that the intensity curve scales too (Core Haptics applies HapticIntensityControl to transients)",
                    suggestion: "convert with --split to play the transients on their own player",
                    path: HapticPaths.amplitude(first.index, "emphasis")))
        }

        let metadata = ahapMetadata(file.metadata, issues: &issues)
        var continuous = PatternData(version: 1.0, metadata: metadata, events: events, curves: curves)
        if split {
            let part = transients.isEmpty ? nil : PatternData(version: 1.0, metadata: metadata, events: transients)
            return AHAPExport(continuous: continuous, transients: part, issues: issues)
        }
        continuous.events += transients
        return AHAPExport(continuous: continuous, transients: nil, issues: issues)
    }

    /// The sharpness a `.haptic` frequency becomes: itself (`faithful`), or √frequency (`metaCompatible`,
    /// Meta's mapping).
    static func sharpness(frequency: Double, style: Style) -> Double {
        let clamped = min(max(frequency, 0), 1)
        return style == .faithful ? clamped : clamped.squareRoot()
    }

    /// Curves of at most 16 points through `points` (absolute times, sorted): each curve starts at its first
    /// point, the next one at the last point of the previous (so the ramp between them is kept), point times
    /// relative to the curve. The first curve starts at `from` (≤ its first point) and holds its first value
    /// until then.
    static func chunkedCurves(
        _ id: CHHapticDynamicParameter.ID, _ points: [(time: Double, value: Double)], from: Double
    ) -> [ParameterCurveData] {
        var curves: [ParameterCurveData] = []
        var index = 0
        while index < points.count {
            let last = min(index + maxCurvePoints, points.count)
            let origin = curves.isEmpty ? min(from, points[index].time) : points[index].time
            let chunk = points[index..<last].map { ControlPointData(time: $0.time - origin, value: Float($0.value)) }
            curves.append(ParameterCurveData(id: id, time: origin, points: chunk))
            if last == points.count { break }
            index = last - 1
        }
        return curves
    }

    static func chunkIssue(_ envelope: String, _ count: Int, _ curves: Int, _ path: String) -> HapticIssue {
        HapticIssue(
            .warning, nil,
            "the \(envelope) envelope needs \(count) control points: they become \(curves) curves (Core Haptics takes at most 16 points per curve)",
            path: path)
    }

    /// The segment whose played amplitude sags most when its intensity (√amplitude) ramps linearly, if it
    /// sags more than `rampTolerance`: the index of the segment's end, its time and the depth.
    static func largestSag(_ points: [(time: Double, value: Double)]) -> (index: Int, time: Double, depth: Double)? {
        var worst: (index: Int, time: Double, depth: Double)?
        for index in points.indices.dropFirst() where points[index].time > points[index - 1].time {
            let a = max(points[index - 1].value, 0).squareRoot()
            let b = max(points[index].value, 0).squareRoot()
            // Linear in √amplitude: the square sits (b − a)² s(1 − s) below the straight line, most at s = ½.
            let depth = (b - a) * (b - a) / 4
            if depth > rampTolerance && depth > (worst?.depth ?? 0) { worst = (index, points[index].time, depth) }
        }
        return worst
    }

    /// `.haptic` metadata as AHAP `Metadata` entries (`Author`, `Editor`, `Source`, `Project`, `Tags`
    /// joined with ", ", `Description`); empty fields are left out.
    static func ahapMetadata(_ metadata: HapticFile.Metadata?, issues: inout [HapticIssue]) -> [MetadataEntry] {
        guard let metadata else { return [] }
        var entries: [MetadataEntry] = []
        func add(_ key: String, _ value: String?) {
            if let value, !value.isEmpty { entries.append(MetadataEntry(key: key, value: value)) }
        }
        add("Author", metadata.author)
        add("Editor", metadata.editor)
        add("Source", metadata.source)
        add("Project", metadata.project)
        if let tags = metadata.tags, !tags.isEmpty {
            add("Tags", tags.joined(separator: ", "))
            if let index = tags.firstIndex(where: { $0.contains(",") }) {
                issues.append(
                    HapticIssue(
                        .warning, nil, "the tag \"\(tags[index])\" contains a comma: the AHAP Tags entry cannot tell it from two tags",
                        path: "metadata.tags[\(index)]"))
            }
        }
        add("Description", metadata.description)
        return entries
    }

    /// `value` with 3 significant digits, for messages.
    static func rounded(_ value: Double) -> String { String(cFormat: "%.3g", value) }
}
