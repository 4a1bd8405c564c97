import AudioAnalysis
import FoundationEssentials
import ThrumModel

/// An analysis written as AHAP the way Core Haptics plays it, with what the conversion had to change.
package struct AnalysisPattern {
    /// The pattern: continuous events and curves, and the transients unless split.
    package var pattern: PatternData
    /// The transients on their own (split form only; nil when merged or when there are none).
    package var transients: PatternData?
    /// One line each: what Core Haptics' limits made the conversion do.
    package var warnings: [String]

    /// How long the merged form lifts the intensity curve under a transient, in seconds: the longest
    /// transient burst an actuator profile allows (30 ms).
    static let liftSpan = 0.03
    /// The rounding step of times: the curve rises and falls over one step at the edges of a lift.
    static let timeStep = 0.0001

    /// Builds the AHAP form of `analysis`:
    /// - HapticContinuous events of intensity 1 and sharpness 0 over the whole sound, at most 30 s each
    ///   (split at the quietest breakpoint of the last 10 s before the limit);
    /// - HapticIntensityControl and HapticSharpnessControl curves through the envelopes' breakpoints, at
    ///   most 16 points each (consecutive curves share their boundary point), point times relative to
    ///   the curve;
    /// - a HapticTransient at each transient. Core Haptics scales transients by the intensity curve too,
    ///   so the merged form lifts the curve to at least the transient's intensity for 30 ms from its onset
    ///   (the continuous vibration then starts with the hit too) and writes the transient's intensity
    ///   divided by the curve there. The split form keeps the curve as analysed and the transients apart,
    ///   at their analysed intensity, for a second player.
    /// Times are rounded to 0.1 ms and values to 0.001.
    /// - Parameters:
    ///   - analysis: reduced in the intensity scale (AHAP curves interpolate intensity).
    ///   - source: the sound's file name, recorded in the metadata.
    package init(_ analysis: HapticAnalysis, source: String, settingsName: String, split: Bool) {
        precondition(analysis.scale == .intensity, "AnalysisPattern: AHAP curves need an intensity envelope")
        warnings = []
        let metadata = [
            MetadataEntry(key: "Source", value: source),
            MetadataEntry(key: "Generator", value: "thrum analyze (\(settingsName))"),
        ]
        let intensity = split ? analysis.envelope : Self.lifted(analysis.envelope, under: analysis.transients)
        var events = Self.continuousEvents(intensity, duration: analysis.duration, warnings: &warnings)
        var curves = Self.curves(.hapticIntensityControl, intensity)
        if curves.count > 1 { warnings.append(Self.chunkWarning("intensity", intensity.count, curves.count)) }
        let sharpness = Self.curves(.hapticSharpnessControl, analysis.sharpness)
        if sharpness.count > 1 {
            warnings.append(Self.chunkWarning("sharpness", analysis.sharpness.count, sharpness.count))
        }
        curves += sharpness

        let transients = analysis.transients.map { transient in
            // Merged: the lifted curve is at least the transient's intensity for the whole burst.
            let curve = split ? 1 : HapticAnalysis.value(of: intensity, at: transient.time)
            return EventData(
                type: .hapticTransient, time: Self.time(transient.time),
                parameters: [
                    EventParameterData(id: .hapticIntensity, value: Self.value(curve > 0 ? min(transient.intensity / curve, 1) : 1)),
                    EventParameterData(id: .hapticSharpness, value: Self.value(transient.sharpness)),
                ])
        }
        if split {
            pattern = PatternData(version: 1.0, metadata: metadata, events: events, curves: curves)
            self.transients =
                transients.isEmpty ? nil : PatternData(version: 1.0, metadata: metadata, events: transients)
        } else {
            events += transients
            pattern = PatternData(version: 1.0, metadata: metadata, events: events, curves: curves)
            self.transients = nil
        }
    }

    /// `points` raised to at least each transient's intensity from its onset for `liftSpan` (rising and
    /// falling over one time step at the edges); the points keep their times, rounded.
    static func lifted(_ points: [Breakpoint], under transients: [HapticAnalysis.Transient]) -> [Breakpoint] {
        guard !transients.isEmpty else { return points }
        var times = Set(points.map { time($0.time) })
        for transient in transients {
            let start = time(transient.time)
            for t in [start - timeStep, start, start + liftSpan, start + liftSpan + timeStep] where t >= 0 {
                times.insert(time(min(t, points.last?.time ?? t)))
            }
        }
        let raised = times.sorted().map { t in
            var value = HapticAnalysis.value(of: points, at: t)
            for transient in transients where time(transient.time) <= t && t <= time(transient.time) + liftSpan {
                value = max(value, transient.intensity)
            }
            return Breakpoint(time: t, value: value)
        }
        // Points on the straight line between their neighbours add nothing.
        var kept = [raised[0]]
        for index in raised.indices.dropFirst().dropLast() {
            let a = kept[kept.count - 1]
            let b = raised[index + 1]
            let line = a.value + Float((raised[index].time - a.time) / (b.time - a.time)) * (b.value - a.value)
            if abs(line - raised[index].value) > 1e-6 { kept.append(raised[index]) }
        }
        if raised.count > 1 { kept.append(raised[raised.count - 1]) }
        return kept
    }

    /// Continuous events covering 0 … duration, each at most 30 s, split where `intensity` (the curve
    /// written) is lowest.
    static func continuousEvents(_ intensity: [Breakpoint], duration: Double, warnings: inout [String]) -> [EventData] {
        let limit = HapticLimits.maxContinuousDuration
        var starts = [0.0]
        while duration - starts[starts.count - 1] > limit {
            let start = starts[starts.count - 1]
            // The first quietest breakpoint in the last third of the allowed span (a curve is lowest at one).
            let window = intensity.filter { $0.time > start + limit * 2 / 3 && $0.time <= start + limit }
            let quietest = window.min { $0.value < $1.value }?.time ?? start + limit
            starts.append(time(quietest))
        }
        if starts.count > 1 {
            warnings.append(
                "the sound lasts \(time(duration)) s: it becomes \(starts.count) HapticContinuous events of at "
                    + "most 30 s (Core Haptics' limit), split at quiet moments (\(starts.dropFirst().map { "\($0) s" }.joined(separator: ", ")))")
        }
        return starts.indices.map { index in
            let end = index + 1 < starts.count ? starts[index + 1] : time(duration)
            return EventData(
                type: .hapticContinuous, time: starts[index], duration: time(end - starts[index]),
                parameters: [
                    EventParameterData(id: .hapticIntensity, value: 1), EventParameterData(id: .hapticSharpness, value: 0),
                ])
        }
    }

    /// Curves of at most 16 points through `points`; each curve starts at its first point, the next at
    /// the last point of the previous one, point times relative to the curve.
    static func curves(_ id: CHHapticDynamicParameter.ID, _ points: [Breakpoint]) -> [ParameterCurveData] {
        let maximum = HapticLimits.maxCurvePoints
        var curves: [ParameterCurveData] = []
        var index = 0
        while index < points.count {
            let last = min(index + maximum, points.count)
            let origin = time(points[index].time)
            let chunk = points[index..<last].map { ControlPointData(time: time($0.time - origin), value: value($0.value)) }
            curves.append(ParameterCurveData(id: id, time: origin, points: chunk))
            if last == points.count { break }
            index = last - 1
        }
        return curves
    }

    static func chunkWarning(_ envelope: String, _ count: Int, _ curves: Int) -> String {
        "the \(envelope) envelope's \(count) breakpoints become \(curves) curves (Core Haptics takes at most 16 points per curve)"
    }

    /// A time rounded to 0.1 ms.
    static func time(_ seconds: Double) -> Double { (seconds * 10_000).rounded() / 10_000 }

    /// A value rounded to 0.001.
    static func value(_ value: Float) -> Float { (value * 1000).rounded() / 1000 }
}
