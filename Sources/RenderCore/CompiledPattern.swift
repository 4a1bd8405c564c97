import ThrumModel

/// The four event kinds the renderer plays, switched on in the render loop (no existentials).
package enum VoiceKind: UInt8, Sendable, Equatable, BitwiseCopyable {
    /// HapticTransient: a windowed sine burst on the haptic bus.
    case transient
    /// HapticContinuous: an enveloped phase-continuous oscillator on the haptic bus.
    case hapticContinuous
    /// AudioContinuous: an enveloped band-limited tone on the audio buses.
    case audioContinuous
    /// AudioCustom: a `SampleBuffer` played at natural speed on the audio buses.
    case audioCustom
    /// A HapticContinuous event with a `HapticSignal` (an HJIF channel): its samples, computed at compile
    /// time, played at natural speed on the haptic bus.
    case hapticSignal
}

/// Envelope segment lengths in frames (docs/decisions.md: t(x) = 0.001 × 5120^x s).
package struct EnvelopeFrames: Sendable, Equatable, BitwiseCopyable {
    /// Attack length in frames (≥ 1).
    package var attack: Int
    /// Decay length in frames (≥ 1), used when not sustained.
    package var decay: Int
    /// Release length in frames (≥ 1), used when sustained.
    package var release: Int

    /// The envelope time in seconds for parameter x (clamped to 0…1): 1 ms at 0, ≈ 72 ms at 0.5, 5.12 s at 1.
    /// Uses `fastExp2`, so the control side and the render thread compute identical lengths.
    package static func seconds(_ x: Float) -> Double {
        let c = min(max(x.isNaN ? 0 : x, 0), 1)
        return 0.001 * Double(fastExp2(c * 12.321_928))  // log2(5120)
    }

    /// The envelope time for x in frames at `sampleRate` (at least 1).
    @inline(__always)
    package static func frames(_ x: Float, sampleRate: Double) -> Int {
        max(1, Int((seconds(x) * sampleRate).rounded()))
    }
}

/// One event compiled for playback: effective (clamped) values, times in pattern seconds.
package struct CompiledEvent: Sendable, Equatable, BitwiseCopyable {
    /// The kind of voice it starts.
    package var kind: VoiceKind
    /// Its index in `PatternData.events`.
    package var index: Int
    /// Start time in seconds from the pattern start.
    package var time: Double
    /// Played duration in seconds (HapticContinuous capped at 30 s; 0 = none given).
    package var duration: Double
    /// HapticIntensity 0…1 (haptic events).
    package var intensity: Float
    /// HapticSharpness 0…1 (haptic events).
    package var sharpness: Float
    /// AttackTime x, 0…1.
    package var attack: Float
    /// DecayTime x, 0…1.
    package var decay: Float
    /// ReleaseTime x, 0…1.
    package var release: Float
    /// Attack-hold-release (true) or attack-decay (false).
    package var sustained: Bool
    /// AudioVolume 0…1.
    package var volume: Float
    /// AudioPan −1…1.
    package var pan: Float
    /// AudioPitch −1…1.
    package var pitch: Float
    /// AudioBrightness 0…1.
    package var brightness: Float
    /// Envelope lengths at the default (zero) controls, at rate 1.
    package var envelope: EnvelopeFrames
    /// Index into `CompiledPattern.buffers` for AudioCustom and signal events, else −1.
    package var buffer: Int
    /// `EventWaveformUseVolumeEnvelope` (de-click ramps, or the AttackTime/ReleaseTime ramps), default true.
    package var useVolumeEnvelope: Bool
    /// `EventWaveformLoopEnabled`, default false.
    package var loopEnabled: Bool
    /// AudioCustom: the event gives AttackTime / ReleaseTime (its ramps follow t(x) and the time controls).
    package var attackGiven: Bool
    package var releaseGiven: Bool
    /// AudioCustom: the de-click ramps of the file's own start and end, in frames at natural speed: up to
    /// the file's first zero crossing and from its last one, each at most 1 ms and half the file (0 = the
    /// file starts or ends at zero: it plays untouched there).
    package var startRamp: Int
    package var endRamp: Int
    /// Frames the event sounds for from its onset, release tail included, at default controls and rate 1.
    package var lengthFrames: Int
    /// A transient the player's intensity control does not scale (`EventData.ignoresIntensityControl`).
    package var ignoresIntensityControl: Bool
    /// A signal event: its channel, the pattern's channel count and the channel's mixing weight
    /// (`HapticSignal`); 0, 1 and 1 for every other event.
    package var signalChannel: Int = 0
    package var signalChannels: Int = 1
    package var signalWeight: Float = 1

    /// Where `HapticSignal.plays(onPlace:of:)` puts this signal event.
    func signalPlays(onPlace place: Int, of actuators: Int) -> Bool {
        signalChannels <= 1 || actuators <= 1 || min(signalChannel, actuators - 1) == place
    }

    /// `HapticSignal.weight(onPlace:of:)` of this signal event.
    func signalWeight(onPlace place: Int, of actuators: Int) -> Float {
        let sharing = actuators <= 1 ? signalChannels : place == actuators - 1 ? signalChannels - actuators + 1 : 1
        return sharing > 1 ? signalWeight : 1
    }
}

/// Why a pattern cannot be compiled.
package enum CompileError: Error, Equatable, CustomStringConvertible {
    /// The caller's lookup returned no buffer for the AudioCustom event at this index.
    case missingAudio(eventIndex: Int)
    /// The buffer for this event is not at the compile sample rate.
    case audioSampleRateMismatch(eventIndex: Int, bufferRate: Double, engineRate: Double)
    /// The event type at this index is unknown.
    case unknownEventType(eventIndex: Int, type: String)
    /// The sample rate is not a positive finite number.
    case invalidSampleRate(Double)
    /// A time or an end (time + duration) is not finite or lies outside 0…`HapticLimits.maxPatternDuration`;
    /// `place` names the entry ("event 3", "parameter 0", "curve 1").
    case timeOutOfRange(place: String)

    /// A one-line message.
    package var description: String {
        switch self {
        case .missingAudio(let i): "event \(i): no audio buffer for the AudioCustom event"
        case .audioSampleRateMismatch(let i, let b, let e): "event \(i): audio buffer is at \(b) Hz, engine at \(e) Hz"
        case .unknownEventType(let i, let t): "event \(i): unknown event type \(t)"
        case .invalidSampleRate(let r): "invalid sample rate \(r)"
        case .timeOutOfRange(let place): "\(place): a time is not finite or lies outside 0…86400 s"
        }
    }
}

/// A `PatternData` compiled once, on the control side, for one sample rate and one actuator profile per
/// haptic bus.
///
/// Immutable. A `Renderer` plays it on any number of player slots. The renderer keeps no reference to it,
/// only a `PatternView` of storage allocated here, so the caller keeps the pattern alive while a player
/// uses it (until the instance's notification) and the render thread never retains or frees it.
/// - Important: Thread safety: any thread (immutable). Real-time safe: reading yes; `init`/`deinit` no.
package final class CompiledPattern: Sendable {
    /// The sample rate (Hz) all frame values refer to.
    package let sampleRate: Double
    /// The actuator profiles that set frequencies, law, gain and transient length, one per haptic bus: the
    /// voices an event starts on bus b take `profiles[b]` (a renderer plays the pattern on buses
    /// 0 ..< `profiles.count`).
    package let profiles: [ActuatorProfile]
    /// The first bus's profile.
    package var profile: ActuatorProfile { profiles[0] }
    /// Events sorted by start time (stable: equal times keep their pattern order).
    package let events: [CompiledEvent]
    /// Parameter steps and curve pieces, sorted by time (stable: steps, then curves, in pattern order).
    package let controls: [ControlChange]
    /// Audio buffers referenced by AudioCustom events (`CompiledEvent.buffer`).
    package let buffers: [SampleBuffer]
    /// The pattern's length in seconds: `PatternData.duration` with each AudioCustom file counted
    /// (`PatternData.duration(fileSeconds:)`; no release tails).
    package let duration: Double
    /// The frame (from the pattern start, rate 1) where the last sound ends: release tails and files included.
    package let tailFrames: Int
    /// Length of a transient burst in frames (on the first bus).
    package let transientFrames: Int
    /// What the render thread reads: views of copies of `events`, `controls` and the buffers' samples,
    /// allocated in `init` and freed in `deinit`.
    let view: PatternView

    /// Compiles `pattern` for one haptic bus.
    /// - Parameters:
    ///   - pattern: the pattern; values are clamped here.
    ///   - sampleRate: the engine rate in Hz.
    ///   - profile: the actuator profile.
    ///   - audio: the decoded buffer for each AudioCustom event, given the event and its index.
    /// - Throws: `CompileError`, e.g. `.missingAudio` when `audio` returns nil.
    /// - Important: Thread safety: any thread. Real-time safe: no.
    package convenience init(
        compiling pattern: PatternData, sampleRate: Double, profile: ActuatorProfile = .default,
        audio: (EventData, Int) -> SampleBuffer? = { _, _ in nil }
    ) throws(CompileError) {
        try self.init(compiling: pattern, sampleRate: sampleRate, profiles: [profile], audio: audio)
    }

    /// Compiles `pattern` for the haptic buses of `profiles` (one profile per bus, at least one).
    /// - Throws: `CompileError`, e.g. `.missingAudio` when `audio` returns nil.
    /// - Important: Thread safety: any thread. Real-time safe: no.
    package init(
        compiling pattern: PatternData, sampleRate: Double, profiles: [ActuatorProfile],
        audio: (EventData, Int) -> SampleBuffer? = { _, _ in nil }
    ) throws(CompileError) {
        precondition(!profiles.isEmpty, "CompiledPattern: at least one profile")
        guard sampleRate > 0, sampleRate.isFinite else { throw .invalidSampleRate(sampleRate) }
        try Self.checkTimes(pattern)
        self.sampleRate = sampleRate
        self.profiles = profiles
        self.transientFrames = Self.transientFrames(profiles[0], sampleRate: sampleRate)
        // Events sound as long as on the bus where they last longest.
        let longestTransient = profiles.map { Self.transientFrames($0, sampleRate: sampleRate) }.max() ?? 2
        func frames(_ t: Double) -> Int { Int((max(t, 0) * sampleRate).rounded()) }

        var buffers: [SampleBuffer] = []
        var compiled: [CompiledEvent] = []
        var tail = 0
        for (index, event) in pattern.events.enumerated() {
            let kind: VoiceKind
            switch event.type {
            case .hapticTransient: kind = .transient
            case .hapticContinuous: kind = event.signal == nil ? .hapticContinuous : .hapticSignal
            case .audioContinuous: kind = .audioContinuous
            case .audioCustom: kind = .audioCustom
            default: throw .unknownEventType(eventIndex: index, type: event.type.rawValue)
            }
            let time = max(event.time, 0)
            let duration = event.playedDuration
            let envelope = EnvelopeFrames(
                attack: EnvelopeFrames.frames(event.value(of: .attackTime), sampleRate: sampleRate),
                decay: EnvelopeFrames.frames(event.value(of: .decayTime), sampleRate: sampleRate),
                release: EnvelopeFrames.frames(event.value(of: .releaseTime), sampleRate: sampleRate))
            let durationFrames = frames(duration)
            var bufferIndex = -1
            var length = 0
            var ramps = (start: 0, end: 0)
            let loop = event.loopEnabled ?? false
            switch kind {
            case .transient:
                length = longestTransient
            case .hapticContinuous, .audioContinuous:
                if event.isSustained {
                    length = durationFrames + envelope.release
                } else {
                    let natural = envelope.attack + envelope.decay
                    length = durationFrames > 0 ? min(natural, durationFrames) : natural
                }
            case .hapticSignal:
                let samples = event.signal?.samples(sampleRate) ?? []
                bufferIndex = buffers.count
                buffers.append(SampleBuffer(samples: samples, sampleRate: sampleRate))
                length = samples.count
            case .audioCustom:
                guard let buffer = audio(event, index) else { throw .missingAudio(eventIndex: index) }
                guard buffer.sampleRate == sampleRate else {
                    throw .audioSampleRateMismatch(eventIndex: index, bufferRate: buffer.sampleRate, engineRate: sampleRate)
                }
                bufferIndex = buffers.count
                buffers.append(buffer)
                length = frames(event.audioPlayedDuration(fileSeconds: buffer.duration))
                ramps = Self.deClickRamps(buffer, maxFrames: Self.deClickFrames(sampleRate))
            }
            tail = max(tail, frames(time) + length)
            compiled.append(
                CompiledEvent(
                    kind: kind, index: index, time: time, duration: duration, intensity: event.value(of: .hapticIntensity),
                    sharpness: event.value(of: .hapticSharpness), attack: event.value(of: .attackTime),
                    decay: event.value(of: .decayTime), release: event.value(of: .releaseTime),
                    sustained: event.isSustained, volume: event.value(of: .audioVolume),
                    pan: event.value(of: .audioPan), pitch: event.value(of: .audioPitch),
                    brightness: event.value(of: .audioBrightness), envelope: envelope, buffer: bufferIndex,
                    useVolumeEnvelope: event.useVolumeEnvelope ?? true, loopEnabled: loop,
                    attackGiven: event.has(.attackTime), releaseGiven: event.has(.releaseTime), startRamp: ramps.start,
                    endRamp: ramps.end, lengthFrames: length,
                    ignoresIntensityControl: kind == .transient && event.ignoresIntensityControl,
                    signalChannel: event.signal?.channel ?? 0, signalChannels: event.signal?.channelCount ?? 1,
                    signalWeight: event.signal?.mixingWeight ?? 1))
        }
        events = compiled.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }.map(\.element)

        controls = pattern.controlChanges()
        self.buffers = buffers
        let bufferOf = Dictionary(uniqueKeysWithValues: compiled.filter { $0.buffer >= 0 }.map { ($0.index, buffers[$0.buffer]) })
        let duration = pattern.duration { bufferOf[$0]?.duration }
        self.duration = duration
        tailFrames = max(tail, frames(duration))
        view = PatternView(
            events: events, controls: controls, buffers: buffers, profiles: profiles, duration: duration,
            sampleRate: sampleRate)
    }

    deinit {
        view.deallocate()
    }

    /// The length of a transient burst of `profile` in frames at `sampleRate` (at least 2).
    static func transientFrames(_ profile: ActuatorProfile, sampleRate: Double) -> Int {
        max(2, Int((profile.transientDuration * sampleRate).rounded()))
    }

    /// Throws `.timeOutOfRange` for the first entry whose times would not fit a frame count (a pattern that
    /// passed `PatternValidator` never has one).
    static func checkTimes(_ pattern: PatternData) throws(CompileError) {
        let playable = HapticLimits.isPlayableTime
        for (i, event) in pattern.events.enumerated()
        where !playable(event.time) || !playable(event.time + event.playedDuration) {
            throw .timeOutOfRange(place: "event \(i)")
        }
        for (i, step) in pattern.parameters.enumerated() where !playable(step.time) {
            throw .timeOutOfRange(place: "parameter \(i)")
        }
        for (i, curve) in pattern.curves.enumerated()
        where !playable(curve.time) || curve.points.contains(where: { !playable($0.time) || !playable(curve.time + $0.time) }) {
            throw .timeOutOfRange(place: "curve \(i)")
        }
    }

    /// The de-click ramp length in frames at `sampleRate`: 1 ms, at least one frame.
    static func deClickFrames(_ sampleRate: Double) -> Int { max(1, Int((0.001 * sampleRate).rounded())) }

    /// The de-click ramps of a file's own start and end (frames at natural speed): up to its first zero
    /// crossing and from its last one, each at most `maxFrames` and half the file. A crossing is a sample at
    /// zero or a change of sign; for a stereo file, the later (start) or earlier (end) of the two channels'.
    static func deClickRamps(_ buffer: SampleBuffer, maxFrames: Int) -> (start: Int, end: Int) {
        let n = buffer.frameCount
        let limit = min(maxFrames, n / 2)
        let channels = buffer.channelCount
        let x = buffer.samples
        func crossing(_ k: Int, _ c: Int, towards previous: Int) -> Bool {
            let v = x[k * channels + c]
            if v == 0 { return true }
            let p = previous >= 0 && previous < n ? x[previous * channels + c] : v
            return (v < 0) != (p < 0)
        }
        var start = 0
        var end = 0
        for c in 0..<channels {
            var first = limit
            for k in 0..<limit where crossing(k, c, towards: k - 1) {
                first = k
                break
            }
            start = max(start, first)
            var last = limit
            for back in 0..<limit where crossing(n - 1 - back, c, towards: n - back) {
                last = back
                break
            }
            end = max(end, last)
        }
        return (start, end)
    }
}
