/// A haptic drive signal that a pattern file gives sample by sample instead of through Core Haptics'
/// parameters: Thrum's playback form of a channel of an HJIF or `.hmpg` file (ISO/IEC 23090-31, MPEG
/// haptics), whose meaning MPEG's reference synthesizer defines per sample. An event carrying one
/// (`EventData.signal`) is a HapticContinuous event of intensity 1 on the pattern's timeline that plays
/// these samples instead of an oscillator; it has no AHAP form. A value type; thread-safe.
package struct HapticSignal: Sendable, Equatable {
    /// Which of the pattern's signal channels this is (0 ..< `channelCount`): a player with several
    /// actuators plays channel k on its k-th actuator (the last one takes the channels beyond), a player
    /// with one actuator plays every channel on it (docs/decisions.md "HJIF").
    package var channel: Int
    /// How many signal channels the pattern has (≥ 1).
    package var channelCount: Int
    /// The channel's weight where it shares an actuator with other channels (HJIF `mixing_coefficient`).
    package var mixingWeight: Float
    /// The samples of the event at a sample rate in Hz, from its onset: drive amplitude, where 1 is the
    /// actuator's gain (the amplitude of an event of intensity 1). Called on the control side when a
    /// pattern is compiled; pure.
    package let samples: @Sendable (_ sampleRate: Double) -> [Float]
    /// What tells two signals apart (`==` compares it and the fields above).
    private let identity: Identity

    private final class Identity: Sendable {}

    /// A signal computed by `samples`.
    package init(
        channel: Int, channelCount: Int, mixingWeight: Float = 1,
        samples: @escaping @Sendable (_ sampleRate: Double) -> [Float]
    ) {
        self.channel = channel
        self.channelCount = channelCount
        self.mixingWeight = mixingWeight
        self.samples = samples
        identity = Identity()
    }

    /// Whether the signal plays on the actuator at `place` (0-based) among a player's `actuators`: every
    /// one for a single-channel pattern or a single actuator; else the actuator of its channel, the last
    /// actuator taking the channels beyond the last.
    package func plays(onPlace place: Int, of actuators: Int) -> Bool {
        if channelCount <= 1 || actuators <= 1 { return true }
        return min(channel, actuators - 1) == place
    }

    /// The gain the signal plays with at `place` among `actuators`: its mixing weight where it shares the
    /// actuator with another channel, else 1.
    package func weight(onPlace place: Int, of actuators: Int) -> Float {
        let sharing = actuators <= 1 ? channelCount : place == actuators - 1 ? channelCount - actuators + 1 : 1
        return sharing > 1 ? mixingWeight : 1
    }

    package static func == (lhs: HapticSignal, rhs: HapticSignal) -> Bool {
        lhs.identity === rhs.identity && lhs.channel == rhs.channel && lhs.channelCount == rhs.channelCount
            && lhs.mixingWeight == rhs.mixingWeight
    }
}
