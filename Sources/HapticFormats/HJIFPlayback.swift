import FoundationEssentials
import ThrumModel

/// The pattern Thrum plays for an HJIF or `.hmpg` document: each channel (perception by perception) is a
/// run of HapticContinuous events of at most 30 s whose `HapticSignal` is the channel's samples as MPEG's
/// reference synthesizer computes them (`HJIFSynthesis`), from 0 to the end of its last effect. The
/// renderer plays them at the actuator's gain, scaled by the player's intensity control (docs/decisions.md
/// "HJIF"). Pure and thread-safe.
package enum HJIFPlayback {
    /// The most seconds of signal a document may hold, its channels together (their samples are computed
    /// when the pattern is compiled: 600 s at 48 kHz is 110 MB); `HJIFChecks` refuses longer ones.
    package static let maxSignalSeconds = 600.0

    /// The pattern for `document`.
    package static func pattern(for document: HJIFDocument) -> PatternData {
        let channels = HJIFSynthesis.channels(of: document).filter { $0.endTicks > 0 }
        let timescale = Double(max(document.timescale, 1))
        var events: [EventData] = []
        for (number, channel) in channels.enumerated() {
            let end = channel.endTicks / timescale
            var start = 0.0
            while start < end {
                let stop = min(start + HapticLimits.maxContinuousDuration, end)
                let from = start
                let signal = HapticSignal(channel: number, channelCount: channels.count, mixingWeight: channel.mixingWeight) {
                    rate in
                    let frames = Int((from * rate).rounded())..<Int((stop * rate).rounded())
                    return HJIFSynthesis.samples(channel, sampleRate: rate, frames: frames).map { Float($0) }
                }
                events.append(
                    EventData(
                        type: .hapticContinuous, time: start, duration: stop - start,
                        parameters: [EventParameterData(id: .hapticIntensity, value: 1)], signal: signal))
                start = stop
            }
        }
        let metadata = document.description.isEmpty ? [] : [MetadataEntry(key: "Description", value: document.description)]
        return PatternData(version: 1.0, metadata: metadata, events: events)
    }
}
