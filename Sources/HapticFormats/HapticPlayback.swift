import FoundationEssentials
import ThrumModel

/// The pattern Thrum plays for a `.haptic` file: its own meaning, on the Core Haptics renderer.
///
/// - The continuous signal follows the envelopes: HapticContinuous events of intensity 1 span the effect
///   (at most 30 s each); the intensity control follows √amplitude closely enough that the played
///   amplitude (intensity², the default square law) stays within `IntensityRamps.tolerance` of the
///   `.haptic`'s straight lines; the sharpness control is the frequency itself (sharpness maps linearly to the
///   actuator's band, as `.haptic` frequency maps to the actuator's range).
/// - Each emphasis is a HapticTransient of intensity √amplitude (played amplitude = the emphasis
///   amplitude) and sharpness = its frequency, which the intensity control does not scale
///   (`EventData.ignoresIntensityControl`): emphasis is independent of the continuous envelope.
/// Pure and thread-safe.
package enum HapticPlayback {
    /// The pattern for `file` (which should have passed `HapticFileValidator`).
    package static func pattern(for file: HapticFile) -> PatternData {
        let start = file.start
        let end = file.duration
        let frequency = file.frequencyBreakpoints
        var events: [EventData] = []
        var time = start
        while time < end {
            let duration = min(HapticLimits.maxContinuousDuration, end - time)
            let sharpness = frequency.isEmpty ? Float(HapticFile.defaultFrequency) : 0
            events.append(
                EventData(
                    type: .hapticContinuous, time: time, duration: duration,
                    parameters: [
                        EventParameterData(id: .hapticIntensity, value: 1),
                        EventParameterData(id: .hapticSharpness, value: sharpness),
                    ]))
            time += duration
        }
        for emphasis in file.emphases {
            events.append(
                EventData(
                    type: .hapticTransient, time: emphasis.time,
                    parameters: [
                        EventParameterData(id: .hapticIntensity, value: Float(max(emphasis.emphasis.amplitude, 0).squareRoot())),
                        EventParameterData(id: .hapticSharpness, value: Float(emphasis.emphasis.frequency)),
                    ], ignoresIntensityControl: true))
        }
        var curves: [ParameterCurveData] = []
        if !file.amplitude.isEmpty {
            let points = IntensityRamps.points(file.amplitude.map { (time: $0.time, value: $0.amplitude) })
            curves.append(
                ParameterCurveData(
                    id: .hapticIntensityControl, time: start,
                    points: points.map { ControlPointData(time: $0.time - start, value: Float($0.value)) }))
        }
        if let first = frequency.first {
            let origin = min(start, first.time)
            curves.append(
                ParameterCurveData(
                    id: .hapticSharpnessControl, time: origin,
                    points: frequency.map { ControlPointData(time: $0.time - origin, value: Float($0.frequency)) }))
        }
        var issues: [HapticIssue] = []
        let metadata = HapticToAHAP.ahapMetadata(file.metadata, issues: &issues)
        return PatternData(version: 1.0, metadata: metadata, events: events, curves: curves)
    }
}
