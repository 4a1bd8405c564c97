import AudioAnalysis
import HapticFormats

/// An analysis as a `.haptic` file (Meta Haptics Studio / Lofelt v1), the way Thrum plays `.haptic`:
/// - the amplitude envelope is the drive amplitude (the analysis in the amplitude scale, which `.haptic`
///   interpolates linearly), from 0 to the end of the sound;
/// - the frequency envelope is the sharpness (Thrum plays `.haptic` frequency as sharpness);
/// - each transient is an emphasis on the amplitude breakpoint at its time (one is added where there is
///   none): amplitude = intensity² (at least the envelope's there, as the format requires), frequency =
///   the transient's sharpness.
/// Times are rounded to 0.1 ms and values to 0.001.
package enum AnalysisHapticFile {
    /// - Parameters:
    ///   - analysis: in the amplitude scale.
    ///   - source: the sound's file name, recorded in the metadata.
    package static func file(_ analysis: HapticAnalysis, source: String, settingsName: String) -> HapticFile {
        precondition(analysis.scale == .amplitude, "AnalysisHapticFile: .haptic needs an amplitude envelope")
        var amplitude = analysis.envelope.map {
            HapticFile.AmplitudeBreakpoint(time: AnalysisPattern.time($0.time), amplitude: rounded($0.value))
        }
        for transient in analysis.transients {
            let time = AnalysisPattern.time(transient.time)
            let index = amplitude.firstIndex { $0.time >= time } ?? amplitude.count
            if index == amplitude.count || amplitude[index].time != time {
                let under = rounded(HapticAnalysis.value(of: analysis.envelope, at: time))
                amplitude.insert(HapticFile.AmplitudeBreakpoint(time: time, amplitude: under), at: index)
            }
            let strength = rounded(transient.intensity * transient.intensity)
            amplitude[index].emphasis = HapticFile.Emphasis(
                amplitude: max(strength, amplitude[index].amplitude),
                frequency: rounded(transient.sharpness))
        }
        let frequency = analysis.sharpness.map {
            HapticFile.FrequencyBreakpoint(time: AnalysisPattern.time($0.time), frequency: rounded($0.value))
        }
        return HapticFile(
            metadata: HapticFile.Metadata(editor: "thrum analyze (\(settingsName))", source: source),
            amplitude: amplitude, frequency: frequency)
    }

    /// A value rounded to 0.001, as the `Double` the file holds.
    static func rounded(_ value: Float) -> Double { (Double(value) * 1000).rounded() / 1000 }
}
