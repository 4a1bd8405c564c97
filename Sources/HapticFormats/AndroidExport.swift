import AHAPCodec
import FoundationEssentials

/// A `.haptic` effect in the two forms Android's `VibrationEffect` takes, and every loss.
package struct AndroidVibration: Sendable, Equatable {
    /// One `BasicEnvelopeBuilder.addControlPoint(intensity, sharpness, durationMillis)` call.
    package struct ControlPoint: Sendable, Equatable {
        /// Target intensity 0…1 (0 = off).
        package var intensity: Double
        /// Target sharpness 0…1.
        package var sharpness: Double
        /// Time to reach the target from the previous point, in whole milliseconds (≥ 1).
        package var durationMillis: Int
    }

    /// The step length of the waveform form, in milliseconds.
    package var resolutionMillis: Int
    /// `createWaveform(timings, amplitudes, -1)`: how long each step lasts (ms)…
    package var timings: [Int]
    /// …and its amplitude, 0 (off) to 255.
    package var amplitudes: [Int]
    /// `BasicEnvelopeBuilder.setInitialSharpness`: the sharpness at the start.
    package var initialSharpness: Double
    /// The control points, in order; the last has intensity 0, as the builder requires.
    package var controlPoints: [ControlPoint]
}

/// Converts `.haptic` to Android vibrations (API 26 `VibrationEffect.createWaveform` and API 36
/// `VibrationEffect.BasicEnvelopeBuilder`). Pure and thread-safe.
///
/// - Waveform form: from time 0 to the end of the effect in steps of `resolution` ms; each step holds
///   round(255 × amplitude at its start). Frequency has no place in it.
/// - Envelope form: a control point at every breakpoint: intensity √amplitude (the same law as the AHAP
///   conversion), sharpness = frequency (both map linearly to the actuator's frequency range). The builder
///   starts at intensity 0, so a jump becomes a 1 ms ramp, and the effect ends with a ramp to 0.
/// - Android has no transients here: each emphasis becomes a pulse of `emphasisDuration` in both forms.
package enum AndroidExport {
    /// How long an emphasis pulse lasts, in seconds.
    package static let emphasisDuration = 0.02
    /// The default step of the waveform form, in milliseconds.
    package static let defaultResolution = 10

    /// Converts `file` (which should have passed `HapticFileValidator`); `resolution` in ms, ≥ 1.
    package static func convert(_ file: HapticFile, resolution: Int = defaultResolution) -> (
        vibration: AndroidVibration, issues: [HapticIssue]
    ) {
        var issues: [HapticIssue] = []
        let step = max(resolution, 1)
        if !file.frequencyBreakpoints.isEmpty {
            issues.append(
                HapticIssue(
                    .warning, nil, "the frequency envelope has no place in the waveform form (createWaveform takes amplitudes only)",
                    path: HapticPaths.frequency))
        }
        if let first = file.emphases.first {
            issues.append(
                HapticIssue(
                    .warning, nil,
                    "\(file.emphases.count) emphasis point(s) become \(Int(emphasisDuration * 1000)) ms pulses of the amplitude and intensity (Android's waveforms have no transients)",
                    path: HapticPaths.amplitude(first.index, "emphasis")))
        }
        let stepped = file.amplitude.indices.dropFirst().first { index in
            file.amplitude[index].amplitude != file.amplitude[index - 1].amplitude
                || !isWhole(file.amplitude[index].time * 1000 / Double(step))
        }
        if let stepped {
            issues.append(
                HapticIssue(
                    .warning, nil, "in the waveform form the amplitude holds for \(step) ms steps: ramps become stairs",
                    suggestion: "a smaller --resolution follows ramps more closely", path: HapticPaths.amplitude(stepped)))
        }
        let (timings, amplitudes) = waveform(file, step: step)
        let (initial, points, merged) = envelope(file)
        if let merged {
            issues.append(
                HapticIssue(
                    .warning, nil,
                    "in the envelope form times are whole milliseconds: breakpoints less than 1 ms apart are merged",
                    path: merged))
        }
        return (
            AndroidVibration(
                resolutionMillis: step, timings: timings, amplitudes: amplitudes, initialSharpness: initial,
                controlPoints: points),
            issues
        )
    }

    static func isWhole(_ value: Double) -> Bool { abs(value - value.rounded()) < 1e-9 }

    /// The amplitude at `time` with emphasis pulses: the larger of the envelope and a pulse sounding then.
    static func amplitude(_ file: HapticFile, from start: Double, to end: Double) -> Double {
        var value = file.amplitude(at: start)
        for emphasis in file.emphases where emphasis.time < end && emphasis.time + emphasisDuration > start {
            value = max(value, emphasis.emphasis.amplitude)
        }
        return min(max(value, 0), 1)
    }

    /// The waveform form: step timings (ms) and amplitudes (0…255) from 0 to the end of the effect.
    static func waveform(_ file: HapticFile, step: Int) -> ([Int], [Int]) {
        let total = max(1, Int((file.duration * 1000).rounded()))
        var timings: [Int] = []
        var amplitudes: [Int] = []
        var at = 0
        while at < total {
            let length = min(step, total - at)
            let value = amplitude(file, from: Double(at) / 1000, to: Double(at + length) / 1000)
            timings.append(length)
            amplitudes.append(Int((value * 255).rounded()))
            at += length
        }
        return (timings, amplitudes)
    }

    /// The envelope form: the initial sharpness, the control points, and the path of the first breakpoint
    /// merged with a neighbour less than 1 ms away (nil when none was).
    static func envelope(_ file: HapticFile) -> (Double, [AndroidVibration.ControlPoint], String?) {
        // Targets in seconds: the envelope's breakpoints (a jump as two at one time), the frequency
        // breakpoints inside it, and the emphasis pulses, which replace the envelope while they last.
        struct Target {
            var time: Double
            var intensity: Double
            var sharpness: Double
            var path: String
        }
        func target(_ time: Double, amplitude: Double? = nil, path: String) -> Target {
            let value = amplitude ?? file.amplitude(at: time)
            return Target(
                time: time, intensity: max(value, 0).squareRoot(), sharpness: min(max(file.frequency(at: time), 0), 1),
                path: path)
        }
        var targets: [Target] = []
        if let first = file.amplitude.first, first.amplitude > 0 {
            targets.append(target(first.time, amplitude: 0, path: HapticPaths.amplitude(0)))
        }
        for (index, point) in file.amplitude.enumerated() {
            targets.append(target(point.time, amplitude: point.amplitude, path: HapticPaths.amplitude(index)))
        }
        var taken = Set(file.amplitude.map(\.time))
        for (index, point) in file.frequencyBreakpoints.enumerated()
        where point.time > file.start && point.time < file.duration && taken.insert(point.time).inserted {
            targets.append(target(point.time, path: HapticPaths.frequency(index)))
        }
        targets = targets.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }.map(\.element)
        for emphasis in file.emphases {
            let end = emphasis.time + emphasisDuration
            let path = HapticPaths.amplitude(emphasis.index, "emphasis")
            let peak = Target(
                time: emphasis.time + 0.001, intensity: max(emphasis.emphasis.amplitude, 0).squareRoot(),
                sharpness: emphasis.emphasis.frequency, path: path)
            let before = targets.filter { $0.time <= emphasis.time }
            let after = targets.filter { $0.time >= end }
            targets = before + [peak, target(end, path: path)] + after
        }
        if let last = targets.last, last.intensity > 0 {
            targets.append(Target(time: last.time + 0.001, intensity: 0, sharpness: last.sharpness, path: last.path))
        }

        // Whole milliseconds from the builder's start (time 0, intensity 0): the left side of a jump one
        // millisecond early, later targets in the same millisecond replacing earlier ones.
        var points: [AndroidVibration.ControlPoint] = []
        var times: [Int] = []
        var merged: String?
        for (index, target) in targets.enumerated() {
            var millis = Int((target.time * 1000).rounded())
            if index + 1 < targets.count && targets[index + 1].time == target.time { millis -= 1 }
            if points.isEmpty && millis <= 0 {
                if target.intensity == 0 { continue }  // where the builder starts anyway
                millis = 1
            }
            if let previous = times.last, millis <= previous {
                if target.time != targets[index - 1].time && merged == nil { merged = target.path }
                points[points.count - 1].intensity = target.intensity
                points[points.count - 1].sharpness = target.sharpness
            } else {
                points.append(
                    AndroidVibration.ControlPoint(intensity: target.intensity, sharpness: target.sharpness, durationMillis: 0))
                times.append(millis)
            }
        }
        for index in points.indices {
            points[index].durationMillis = times[index] - (index > 0 ? times[index - 1] : 0)
        }
        let initial = min(max(file.frequency(at: file.start), 0), 1)
        return (initial, points, merged)
    }

    /// The export as JSON text: `waveform` (`createWaveform` arguments) and `envelope`
    /// (`BasicEnvelopeBuilder` calls), with `durationMillis` of the effect and the `source` file name.
    package static func json(_ vibration: AndroidVibration, source: String?) -> String {
        let points = vibration.controlPoints.map {
            "      {\"intensity\": \(number($0.intensity)), \"sharpness\": \(number($0.sharpness)), \"durationMillis\": \($0.durationMillis)}"
        }
        let pointText = points.isEmpty ? "[]" : "[\n" + points.joined(separator: ",\n") + "\n    ]"
        var lines = ["{"]
        if let source { lines.append("  \"source\": \(AHAPEncoder.quoted(source)),") }
        lines += [
            "  \"durationMillis\": \(vibration.timings.reduce(0, +)),",
            "  \"waveform\": {",
            "    \"api\": \"VibrationEffect.createWaveform(timings, amplitudes, -1)\",",
            "    \"resolutionMillis\": \(vibration.resolutionMillis),",
            "    \"timings\": [\(vibration.timings.map(String.init).joined(separator: ", "))],",
            "    \"amplitudes\": [\(vibration.amplitudes.map(String.init).joined(separator: ", "))]",
            "  },",
            "  \"envelope\": {",
            "    \"api\": \"VibrationEffect.BasicEnvelopeBuilder (API 36)\",",
            "    \"initialSharpness\": \(number(vibration.initialSharpness)),",
            "    \"controlPoints\": \(pointText)",
            "  }",
            "}",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value for JSON, rounded to 6 decimals (finer than any vibrator resolves).
    static func number(_ value: Double) -> String {
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        return rounded.isFinite ? "\(rounded)" : "0"
    }
}
