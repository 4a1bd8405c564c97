import Foundation
import ThrumModel

/// The pattern Thrum plays for a `.haptic` file: its own meaning, on the Core Haptics renderer.
///
/// - The continuous signal follows the envelopes: HapticContinuous events of intensity 1 span the effect
///   (at most 30 s each); the intensity control follows √amplitude closely enough that the played
///   amplitude (intensity², the default square law) stays within `amplitudeTolerance` of the `.haptic`'s
///   straight lines; the sharpness control is the frequency itself (sharpness maps linearly to the
///   actuator's band, as `.haptic` frequency maps to the actuator's range).
/// - Each emphasis is a HapticTransient of intensity √amplitude (played amplitude = the emphasis
///   amplitude) and sharpness = its frequency, which the intensity control does not scale
///   (`EventData.ignoresIntensityControl`): emphasis is independent of the continuous envelope.
/// Pure and thread-safe.
public enum HapticPlayback {
    /// How far (0…1 full scale) the played amplitude may stray from the `.haptic` envelope.
    public static let amplitudeTolerance = 0.001

    /// The pattern for `file` (which should have passed `HapticFileValidator`).
    public static func pattern(for file: HapticFile) -> PatternData {
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
            let points = intensityPoints(file.amplitude.map { (time: $0.time, value: $0.amplitude) })
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

    /// Intensity control points (absolute times) whose linear ramps, squared, stay within
    /// `amplitudeTolerance` of the straight lines through `amplitude`: each ramp is cut into pieces of
    /// equal √amplitude step, since a piece from √a to √b squared sags (√b − √a)²/4 below its chord.
    static func intensityPoints(_ amplitude: [(time: Double, value: Double)]) -> [(time: Double, value: Double)] {
        let maxStep = 2 * amplitudeTolerance.squareRoot()
        var points: [(time: Double, value: Double)] = []
        for (index, point) in amplitude.enumerated() {
            let root = max(point.value, 0).squareRoot()
            if index > 0 {
                let previous = amplitude[index - 1]
                let rootBefore = max(previous.value, 0).squareRoot()
                let pieces = Int((abs(root - rootBefore) / maxStep).rounded(.up))
                if pieces > 1 && point.time > previous.time && point.value != previous.value {
                    for k in 1..<pieces {
                        let r = rootBefore + (root - rootBefore) * Double(k) / Double(pieces)
                        let fraction = (r * r - previous.value) / (point.value - previous.value)
                        points.append((previous.time + fraction * (point.time - previous.time), r))
                    }
                }
            }
            points.append((point.time, root))
        }
        return points
    }
}
