import AudioAnalysis

/// Capacities and settings of a `Renderer`, fixed when it is created (every buffer is sized from them).
/// - Important: Thread safety: any thread (a value).
package struct RendererConfiguration: Sendable, Equatable {
    /// Engine sample rate in Hz (> 0; default 48 000).
    package var sampleRate: Double
    /// The actuators, one haptic bus each in this order (1 … `ChannelMap.maxActuators`): a bus's limiter and
    /// haptics from audio follow its actuator's profile (patterns carry one profile per bus for the waveform),
    /// and the positions place the actuators for panning. Default: one `default` actuator with `profile`.
    package var actuators: [Actuator]
    /// The first actuator's profile.
    package var profile: ActuatorProfile {
        get { actuators[0].profile }
        set { actuators[0].profile = newValue }
    }
    /// Voices sounding at once (≥ 1; default 64); more are dropped and counted in
    /// `RenderStatistics.voiceOverflowCount`.
    package var maxVoices: Int
    /// Player slots, numbered 0 ..< maxPlayers (≥ 1; default 16).
    package var maxPlayers: Int
    /// Largest `frameCount` accepted by `render`, in frames (≥ 1; default 4096).
    package var maxBlockFrames: Int
    /// External `setParameter` changes waiting for their frame (≥ 1; default 256); more are refused.
    package var maxPendingParameters: Int
    /// Player notifications kept until `nextNotification()` reads them (≥ 1; default 64); more are counted
    /// as dropped.
    package var maxNotifications: Int
    /// Fade applied when a player stops, pauses or seeks, and the fade-in of voices that continue after a
    /// resume, in seconds (≥ 0, at least one frame is used; default 5 ms). Loop seams fade over 1 ms.
    package var stopFadeSeconds: Double
    /// Transport commands (pause, resume, seek, rate, loop) waiting for their frame (≥ 1; default 64);
    /// more are refused.
    package var maxPendingCommands: Int
    /// Haptics from audio: when set, the haptic bus also carries haptics derived from the audio buses
    /// with these analysis settings (see `AudioHapticFollower`); nil (the default) leaves it alone.
    package var hapticsFromAudio: AnalysisSettings?
    /// Event onsets the renderer's `onsetReports` ring holds until a consumer takes them (≥ 0; default 0:
    /// no ring, no reports). More are counted as lost (`OnsetReports.lostCount`).
    package var onsetReportCapacity: Int
    /// Latency compensation: seconds the haptic buses leave after the audio (negative: before; the audio is
    /// then delayed by as much), the same for every actuator; nil (the default): each actuator's profile's
    /// measured `latency.actuatorSeconds` ahead of the audio (none without one). Within −1…1 s.
    package var hapticOffset: Double?

    /// Creates a configuration (checked by `Renderer.init`); without `actuators`, one `default` actuator with
    /// `profile`.
    package init(
        sampleRate: Double = 48_000, profile: ActuatorProfile = .default, actuators: [Actuator]? = nil,
        maxVoices: Int = 64, maxPlayers: Int = 16,
        maxBlockFrames: Int = 4096, maxPendingParameters: Int = 256, maxNotifications: Int = 64,
        stopFadeSeconds: Double = 0.005, maxPendingCommands: Int = 64, hapticsFromAudio: AnalysisSettings? = nil,
        onsetReportCapacity: Int = 0, hapticOffset: Double? = nil
    ) {
        self.hapticOffset = hapticOffset
        self.onsetReportCapacity = onsetReportCapacity
        self.hapticsFromAudio = hapticsFromAudio
        self.sampleRate = sampleRate
        self.actuators = actuators ?? [Actuator(name: ActuatorNames.defaultActuator, profile: profile)]
        self.maxVoices = maxVoices
        self.maxPlayers = maxPlayers
        self.maxBlockFrames = maxBlockFrames
        self.maxPendingParameters = maxPendingParameters
        self.maxNotifications = maxNotifications
        self.stopFadeSeconds = stopFadeSeconds
        self.maxPendingCommands = maxPendingCommands
    }
}
