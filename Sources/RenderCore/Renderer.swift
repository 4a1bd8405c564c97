import Synchronization

/// Capacities and settings of a `Renderer`, fixed when it is created.
public struct RendererConfiguration: Sendable, Equatable {
    /// Engine sample rate in Hz.
    public var sampleRate: Double
    /// Actuator profile for the haptic bus limiter (patterns carry their own profile for the waveform).
    public var profile: ActuatorProfile
    /// Voices sounding at once; more are dropped and counted in `RenderStatistics.voiceOverflowCount`.
    public var maxVoices: Int
    /// Player slots (0 ..< maxPlayers).
    public var maxPlayers: Int
    /// Largest `frameCount` accepted by `render`.
    public var maxBlockFrames: Int
    /// External `setParameter` changes waiting for their frame.
    public var maxPendingParameters: Int
    /// Player notifications kept until `nextNotification()` reads them.
    public var maxNotifications: Int
    /// Fade applied when a player stops, pauses, seeks or cuts a voice at a loop seam, and the fade-in
    /// of voices that continue after a resume, in seconds (default 5 ms).
    public var stopFadeSeconds: Double
    /// Transport commands (pause, resume, seek, rate, loop) waiting for their frame.
    public var maxPendingCommands: Int

    /// Creates a configuration.
    public init(
        sampleRate: Double = 48_000, profile: ActuatorProfile = .default, maxVoices: Int = 64, maxPlayers: Int = 16,
        maxBlockFrames: Int = 4096, maxPendingParameters: Int = 256, maxNotifications: Int = 64,
        stopFadeSeconds: Double = 0.005, maxPendingCommands: Int = 64
    ) {
        self.maxPendingCommands = maxPendingCommands
        self.sampleRate = sampleRate
        self.profile = profile
        self.maxVoices = maxVoices
        self.maxPlayers = maxPlayers
        self.maxBlockFrames = maxBlockFrames
        self.maxPendingParameters = maxPendingParameters
        self.maxNotifications = maxNotifications
        self.stopFadeSeconds = stopFadeSeconds
    }
}

/// The transport position of one slot, published with relaxed atomics.
struct SlotCounters: ~Copyable {
    let seconds = Atomic<UInt64>(0)  // Double bit pattern
    let loops = Atomic<Int>(0)
    let phase = Atomic<UInt8>(0)
}

/// Counters the render thread publishes with relaxed atomics; read them from any thread.
/// - Important: Thread safety: any thread. Real-time safe: yes (except `init`/`deinit`).
public final class RenderStatistics: @unchecked Sendable {
    // @unchecked: `slots` is allocated once in init and only ever accessed through its atomics.
    let overflows = Atomic<Int>(0)
    let active = Atomic<Int>(0)
    let droppedNotificationCount = Atomic<Int>(0)
    let droppedParameterCount = Atomic<Int>(0)
    let droppedCommandCount = Atomic<Int>(0)
    let frames = Atomic<UInt64>(0)
    /// Number of player slots whose position is published.
    public let slotCount: Int
    let slots: UnsafeMutablePointer<SlotCounters>

    init(slots count: Int) {
        slotCount = count
        slots = .allocate(capacity: max(count, 1))
        for i in 0..<count { (slots + i).initialize(to: SlotCounters()) }
    }

    deinit {
        slots.deinitialize(count: slotCount)
        slots.deallocate()
    }

    /// Events that found no free voice (and were not played) since the renderer was created.
    public var voiceOverflowCount: Int { overflows.load(ordering: .relaxed) }
    /// Voices sounding at the end of the last block.
    public var activeVoices: Int { active.load(ordering: .relaxed) }
    /// Notifications lost because the notification list was full.
    public var droppedNotifications: Int { droppedNotificationCount.load(ordering: .relaxed) }
    /// `setParameter` calls refused because the pending list was full.
    public var droppedParameters: Int { droppedParameterCount.load(ordering: .relaxed) }
    /// Transport commands (pause, resume, seek, rate, loop) refused because the command list was full.
    public var droppedCommands: Int { droppedCommandCount.load(ordering: .relaxed) }
    /// The engine clock (frames rendered) at the end of the last block.
    public var currentFrame: UInt64 { frames.load(ordering: .relaxed) }

    /// The slot's pattern position (seconds), completed loop iterations and phase at the end of the last
    /// block, as `Renderer.position(of:)` reported it then. Out-of-range slots read as idle at 0.
    /// - Important: Thread safety: any thread. Real-time safe: yes.
    public func position(of slot: Int) -> (seconds: Double, loopCount: Int, phase: PlayerPhase) {
        guard slot >= 0, slot < slotCount else { return (0, 0, .idle) }
        let seconds = Double(bitPattern: slots[slot].seconds.load(ordering: .relaxed))
        let loops = slots[slot].loops.load(ordering: .relaxed)
        let phase = PlayerPhase(rawValue: slots[slot].phase.load(ordering: .relaxed)) ?? .idle
        return (seconds, loops, phase)
    }

    func publish(_ slot: Int, seconds: Double, loops: Int, phase: PlayerPhase) {
        slots[slot].seconds.store(seconds.bitPattern, ordering: .relaxed)
        slots[slot].loops.store(loops, ordering: .relaxed)
        slots[slot].phase.store(phase.rawValue, ordering: .relaxed)
    }
}

/// The life of a player slot.
public enum PlayerPhase: UInt8, Sendable, Equatable {
    /// Free: `startPlayer` may use it.
    case idle
    /// Started, waiting for its start frame.
    case scheduled
    /// Playing its pattern.
    case playing
    /// Stopped; its voices are fading out.
    case stopping
    /// Paused by `pausePlayer`: its position is frozen and it keeps its slot until resumed or stopped.
    case paused
}

/// Something that happened to a player, reported without allocation through `nextNotification()`.
public struct PlayerNotification: Sendable, Equatable {
    /// Why the player ended.
    public enum Reason: UInt8, Sendable, Equatable {
        /// All its events, release tails and files are done (and the pattern duration has passed).
        case finished
        /// `stopPlayer` ended it and its fade is done.
        case stopped
    }
    /// The player slot.
    public var slot: Int
    /// Engine frame at which its last sound ended (or its pattern duration, whichever is later).
    public var frame: UInt64
    /// Why it ended.
    public var reason: Reason
}

/// The transport of one player slot. Pattern time → engine frames goes through `frame(at:)` only:
/// frame = anchorFrame + round((t − anchorSeconds) × framesPerSecond), framesPerSecond = sampleRate / rate.
/// The anchor is (engine frame, pattern seconds at that frame): (start frame, 0) from a plain start, the
/// seek frame and offset after a seek, the change frame and the position there after a rate change.
/// Pause/resume shifts every frame-valued field by the pause length (integer frames), so a resumed
/// player's schedule is bit-identical to the unpaused one, only later.
///
/// Loop: iteration k ≥ 1 starts at loopOrigin + round((k × loopSeconds − loopOriginSeconds) × framesPerSecond),
/// so seams never drift while the rate is constant; (loopOrigin, loopOriginSeconds) is the start frame and 0,
/// or the frame and position of the last seek / rate change. At each seam `nextEvent`/`nextControl` rewind;
/// events at or after loopEnd never start.
struct Player {
    var phase: PlayerPhase = .idle
    var pattern: CompiledPattern? = nil
    /// Scheduled start frame (phase `.scheduled`).
    var startFrame: Int = 0
    var stopFrame: Int = .max
    var framesPerSecond: Double = 48_000
    var anchorFrame: Int = 0
    var anchorSeconds: Double = 0
    var nextEvent: Int = 0
    var nextEventFrame: Int = .max
    var nextControl: Int = 0
    var nextControlFrame: Int = .max
    var endFrame: Int = 0
    var voiceCount: Int = 0
    var lastVoiceEnd: Int = 0
    var muted: Bool = false
    /// Loop length in pattern seconds (0 = no loop).
    var loopSeconds: Double = 0
    var loopOrigin: Int = 0
    var loopOriginSeconds: Double = 0
    var loopIndex: Int = 0
    var loopWrapFrame: Int = .max
    /// Loop iterations completed since the start (reported; seeks and rate changes keep it).
    var loopCount: Int = 0
    /// Passes to play in all when looping (0 = forever): the last pass runs on to the pattern's end.
    var passLimit: Int = 0
    /// Frame at which the player paused (phase `.paused`).
    var pauseFrame: Int = 0
    /// Position shown while paused or stopping.
    var heldSeconds: Double = 0
    /// A seek to apply at the next start or resume.
    var seekPending: Bool = false
    var seekSeconds: Double = 0
    /// How a `.stopping` player ends: `.stopped` (stopPlayer) or `.finished` (seek past the end).
    var endReason: PlayerNotification.Reason = .stopped

    @inline(__always)
    func loopStart(_ k: Int) -> Int {
        loopOrigin + Int(((Double(k) * loopSeconds - loopOriginSeconds) * framesPerSecond).rounded())
    }

    @inline(__always)
    func frame(at seconds: Double) -> Int { anchorFrame + Int(((seconds - anchorSeconds) * framesPerSecond).rounded()) }

    /// Pattern position (seconds) at engine frame `frame` while playing.
    @inline(__always)
    func position(at frame: Int) -> Double { anchorSeconds + Double(frame - anchorFrame) / framesPerSecond }
}

/// Which lane writes came from the pattern's own ramps (so rate changes can re-slope them and
/// pause/resume can freeze them; external `setParameter` lanes run on the engine clock).
struct LaneSource {
    var fromPattern: Bool = false
    var isRamp: Bool = false
    var endTime: Double = 0
    var endValue: Float = 0
}

/// A transport command waiting for its frame.
struct TransportCommand {
    enum Kind: UInt8 {
        case pause, resume, seek, rate, loop
    }
    var slot: Int
    var kind: Kind
    var frame: Int
    var sequence: Int
    /// Seek offset (s), playback rate, or loop end (s; negative = loop off).
    var value: Double
}

/// One voice start, recorded for tests (`enableOnsetLog`).
struct OnsetRecord: Equatable {
    var slot: Int
    /// `CompiledEvent.index` (the event's index in the pattern data).
    var event: Int
    var frame: Int
    var kind: VoiceKind
    /// A continuous voice restarted by `resumePlayer` (not a new event).
    var resumed: Bool
}

/// A parameter change from outside the pattern, waiting for its frame.
struct PendingParameter {
    var slot: Int
    var lane: ControlLane
    var value: Float
    var frame: Int
    var sequence: Int
    /// Change per frame after `frame` (0 for a step; a ramp of an external curve otherwise).
    var slope: Float = 0
}

/// The real-time renderer: players, a fixed voice pool and three buses (audio L, audio R, haptic).
///
/// Build it on the control side (everything is allocated in `init`), then use it from one thread only
/// (the render thread): every method after `init` is real-time safe — no allocation, locks, I/O or waiting.
/// Blocks are split at every event onset, player start/stop, transport command and parameter change, so
/// onsets land on their exact frame and the output is bit-identical whatever the block sizes.
///
/// Transport (the advanced player): `pausePlayer`, `resumePlayer`, `seekPlayer`, `setPlaybackRate` and
/// `setLoop` queue a command for an exact frame. At one frame things happen in this order: scheduled
/// starts, loop seams and pattern controls, transport commands, external parameters, stops, event onsets.
///
/// Loop seams: at each seam, the player's HapticContinuous, AudioContinuous and AudioCustom voices still
/// sounding (also release tails) fade out over `stopFadeSeconds`, starting at the seam frame; transients
/// ring their natural length (≤ 30 ms).
///
/// The caller keeps a reference to each `CompiledPattern` it starts until the slot's notification
/// arrives, so the renderer never releases the last reference.
/// - Important: Thread safety: one thread at a time (not Sendable; hand it to the render thread once).
///   Real-time safe: yes, except `init`/`deinit`.
public final class Renderer {
    /// The configuration it was built with.
    public let configuration: RendererConfiguration
    /// Counters readable from any thread.
    public let statistics: RenderStatistics
    /// The engine clock: frames rendered so far; the next `render` starts at this frame.
    public private(set) var currentFrame: UInt64 = 0

    let sampleRate: Double
    let limiter: SoftLimiter
    let stopFadeFrames: Int
    let lowpassBase: Float
    let voices: UnsafeMutablePointer<Voice>
    var voiceCount = 0
    /// Continuous voices of paused players, waiting for their resume.
    let parked: UnsafeMutablePointer<Voice>
    var parkedCount = 0
    let players: UnsafeMutablePointer<Player>
    let lanes: UnsafeMutablePointer<Lane>
    let laneSources: UnsafeMutablePointer<LaneSource>
    let pending: UnsafeMutablePointer<PendingParameter>
    var pendingCount = 0
    var pendingSequence = 0
    let commands: UnsafeMutablePointer<TransportCommand>
    var commandCount = 0
    var commandSequence = 0
    let notifications: UnsafeMutablePointer<PlayerNotification>
    var notificationHead = 0
    var notificationCount = 0
    /// Test hook: a ring of voice starts (nil = off).
    var onsetLog: UnsafeMutablePointer<OnsetRecord>? = nil
    var onsetLogCapacity = 0
    var onsetLogCount = 0

    /// Allocates every buffer for `configuration`. Control side.
    /// - Precondition: all capacities ≥ 1 and a positive sample rate.
    public init(configuration: RendererConfiguration) {
        precondition(configuration.sampleRate > 0, "Renderer: sample rate must be positive")
        precondition(configuration.maxVoices >= 1 && configuration.maxPlayers >= 1, "Renderer: capacities ≥ 1")
        precondition(configuration.maxBlockFrames >= 1 && configuration.maxPendingParameters >= 1)
        precondition(configuration.maxNotifications >= 1 && configuration.maxPendingCommands >= 1)
        self.configuration = configuration
        statistics = RenderStatistics(slots: configuration.maxPlayers)
        sampleRate = configuration.sampleRate
        limiter = SoftLimiter(knee: Float(configuration.profile.limiterThreshold))
        stopFadeFrames = max(1, Int((configuration.stopFadeSeconds * configuration.sampleRate).rounded()))
        // One-pole coefficient for a ≈500 Hz corner: 1 − e^(−2π·500/rate).
        var e = 1.0
        let x = -2 * Double.pi * 500 / configuration.sampleRate
        var term = 1.0
        for k in 1...30 {  // e^x by series (x ∈ (−π/… , 0]); avoids libm on this module's hot side
            term *= x / Double(k)
            e += term
        }
        lowpassBase = Float(min(max(1 - e, 0), 1))
        voices = .allocate(capacity: configuration.maxVoices)
        voices.initialize(repeating: Voice(), count: configuration.maxVoices)
        parked = .allocate(capacity: configuration.maxVoices)
        parked.initialize(repeating: Voice(), count: configuration.maxVoices)
        players = .allocate(capacity: configuration.maxPlayers)
        players.initialize(repeating: Player(), count: configuration.maxPlayers)
        lanes = .allocate(capacity: configuration.maxPlayers * ControlLane.count)
        lanes.initialize(repeating: Lane(value: 0, slope: 0, anchor: 0), count: configuration.maxPlayers * ControlLane.count)
        laneSources = .allocate(capacity: configuration.maxPlayers * ControlLane.count)
        laneSources.initialize(repeating: LaneSource(), count: configuration.maxPlayers * ControlLane.count)
        pending = .allocate(capacity: configuration.maxPendingParameters)
        pending.initialize(
            repeating: PendingParameter(slot: 0, lane: .hapticIntensity, value: 0, frame: 0, sequence: 0),
            count: configuration.maxPendingParameters)
        commands = .allocate(capacity: configuration.maxPendingCommands)
        commands.initialize(
            repeating: TransportCommand(slot: 0, kind: .pause, frame: 0, sequence: 0, value: 0),
            count: configuration.maxPendingCommands)
        notifications = .allocate(capacity: configuration.maxNotifications)
        notifications.initialize(
            repeating: PlayerNotification(slot: 0, frame: 0, reason: .finished), count: configuration.maxNotifications)
        for slot in 0..<configuration.maxPlayers { resetLanes(slot, at: 0) }
    }

    deinit {
        voices.deinitialize(count: configuration.maxVoices)
        voices.deallocate()
        parked.deinitialize(count: configuration.maxVoices)
        parked.deallocate()
        players.deinitialize(count: configuration.maxPlayers)
        players.deallocate()
        lanes.deallocate()
        laneSources.deallocate()
        pending.deallocate()
        commands.deallocate()
        notifications.deallocate()
        if let onsetLog {
            onsetLog.deinitialize(count: onsetLogCapacity)
            onsetLog.deallocate()
        }
    }

    // MARK: - Commands (render thread, between render calls)

    /// Schedules `pattern` on a free slot, starting at engine frame `atFrame` (earlier frames mean "now").
    /// - Parameters:
    ///   - slot: player slot, 0 ..< maxPlayers; must be `.idle`.
    ///   - pattern: compiled at this renderer's sample rate.
    ///   - atFrame: engine frame of the pattern's time 0 (or of a pending seek's offset).
    ///   - playbackRate: > 0; scales pattern time (event times, durations, curves), never pitch.
    ///   - loopEnd: nil = no loop; otherwise loop the pattern time 0 ..< loopEnd seconds
    ///     (0 = the pattern's duration). Loop seams are frame-exact and drift-free.
    ///   - passes: with a loop, how many passes to play in all (0 = forever); the last pass runs on to the
    ///     pattern's end (its release tails included) and the player finishes.
    /// - Returns: false when the slot is out of range or busy, the rate differs, or playbackRate ≤ 0.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    public func startPlayer(
        _ slot: Int, pattern: CompiledPattern, atFrame: UInt64, playbackRate: Double = 1, loopEnd: Double? = nil,
        passes: Int = 0
    ) -> Bool {
        guard slot >= 0, slot < configuration.maxPlayers, players[slot].phase == .idle,
            pattern.sampleRate == sampleRate, playbackRate > 0, playbackRate.isFinite
        else { return false }
        let now = Int(currentFrame)
        var p = Player()
        p.phase = .scheduled
        p.pattern = pattern
        p.startFrame = max(Int(clamping: atFrame), now)
        p.framesPerSecond = sampleRate / playbackRate
        p.muted = players[slot].muted
        p.loopSeconds = passes == 1 ? 0 : loopLength(loopEnd ?? -1, pattern: pattern, framesPerSecond: p.framesPerSecond)
        p.passLimit = max(passes, 0)
        players[slot] = p
        return true
    }

    /// Stops the player at engine frame `atFrame` (earlier = now): no new events start and its voices
    /// fade out over `stopFadeSeconds`. A `.stopped` notification follows when the fade ends.
    /// Also stops a paused player (its paused voices are dropped).
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    public func stopPlayer(_ slot: Int, atFrame: UInt64) {
        guard slot >= 0, slot < configuration.maxPlayers, players[slot].phase != .idle else { return }
        players[slot].stopFrame = min(players[slot].stopFrame, max(Int(clamping: atFrame), Int(currentFrame)))
    }

    /// Pauses the player at engine frame `atFrame` (earlier = now). At that frame its pattern position,
    /// its pattern's controls (steps and curves) and its loop freeze; all its sounding voices fade out over
    /// `stopFadeSeconds` (no click). It keeps its slot in phase `.paused` until `resumePlayer` or `stopPlayer`.
    /// The HapticContinuous, AudioContinuous and AudioCustom voices sounding at the pause (release tails
    /// included) are remembered and continue at the resume; transients are not.
    /// Ignored (when due) unless the player is playing.
    /// - Returns: false when the slot is out of range or the command list is full.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    public func pausePlayer(_ slot: Int, atFrame: UInt64) -> Bool {
        enqueue(slot, .pause, atFrame, 0)
    }

    /// Resumes a paused player at engine frame `atFrame` (earlier = now): from that frame the pattern
    /// continues from the paused position. Continuous voices under way at the pause (HapticContinuous,
    /// AudioContinuous, AudioCustom) continue from where they paused — envelope position, remaining
    /// duration, oscillator phase and file position — with a linear fade-in over `stopFadeSeconds`.
    /// Transients under way at the pause are not restarted. A seek made while paused is applied here instead.
    /// A resume at or before the frame of a pending pause cancels that pause.
    /// - Returns: false when the slot is out of range or the command list is full.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    public func resumePlayer(_ slot: Int, atFrame: UInt64) -> Bool {
        guard slot >= 0, slot < configuration.maxPlayers else { return false }
        let frame = max(Int(clamping: atFrame), Int(currentFrame))
        var i = 0
        while i < commandCount {
            if commands[i].slot == slot, commands[i].kind == .pause, commands[i].frame >= frame {
                commandCount -= 1
                commands[i] = commands[commandCount]
            } else {
                i += 1
            }
        }
        return enqueue(slot, .resume, atFrame, 0)
    }

    /// Moves the pattern position to `seconds` at engine frame `atFrame` (earlier = now).
    ///
    /// Playing: the sounding voices fade out over `stopFadeSeconds`; events that started before the offset
    /// are not started part-way; events at exactly the offset start at that frame. Each control lane the
    /// pattern uses is reset to its default and every pattern step and curve piece up to the offset is
    /// applied, so the lanes hold the values they would have at the offset (lanes the pattern never
    /// touches keep their external value). Scheduled or paused: remembered and applied at the start or
    /// resume (a paused player's remembered voices are then dropped).
    ///
    /// An offset ≥ the loop length while looping wraps to offset mod loop length; an offset ≥ the pattern
    /// duration without a loop ends the player (its voices fade, then a `.finished` notification).
    /// Negative or NaN offsets mean 0.
    /// - Returns: false when the slot is out of range or the command list is full.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    public func seekPlayer(_ slot: Int, toOffset seconds: Double, atFrame: UInt64) -> Bool {
        enqueue(slot, .seek, atFrame, seconds.isNaN ? 0 : max(seconds, 0))
    }

    /// Changes the playback rate from engine frame `atFrame` (earlier = now): pattern time advances at
    /// `rate` from there on. The position at that frame becomes the new anchor, so everything not yet
    /// played (event onsets, controls and curve pieces in progress, the loop seam) moves; nothing already
    /// played moves, and sounding voices keep their lengths. Oscillator frequency and audio pitch never
    /// change. While scheduled it sets the start rate; while paused it applies from the pause position.
    /// - Returns: false (ignored) when `rate` ≤ 0 or not finite, the slot is out of range or the command
    ///   list is full. A rate that would make the current loop shorter than one frame is ignored when due.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    public func setPlaybackRate(_ slot: Int, rate: Double, atFrame: UInt64) -> Bool {
        guard rate > 0, rate.isFinite else { return false }
        return enqueue(slot, .rate, atFrame, rate)
    }

    /// Enables, changes or disables looping at engine frame `atFrame` (earlier = now).
    /// `loopEnd`: nil = no loop; 0 = the pattern duration; otherwise the loop length in pattern seconds
    /// (a loop shorter than one frame means no loop). Negative values are ignored.
    ///
    /// Playing, position p at that frame: a loop end > p makes the current pass end at loopEnd (the seam
    /// frame follows from the current anchor, so nothing moves); a loop end ≤ p ends the pass at once — a seam
    /// at that frame (continuous voices fade) and the pattern restarts at 0. Disabling lets the current pass
    /// run on to the pattern's end (events after the old loop end now play) and finish. Scheduled: sets the
    /// loop for the start. Paused: applied to the paused position (a loop end ≤ p restarts at 0 on resume).
    /// - Returns: false when ignored (negative loopEnd, slot out of range, command list full).
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    public func setLoop(_ slot: Int, loopEnd: Double?, atFrame: UInt64) -> Bool {
        if let loopEnd, !(loopEnd >= 0) || !loopEnd.isFinite { return false }
        return enqueue(slot, .loop, atFrame, loopEnd ?? -1)
    }

    /// A dynamic parameter change from outside the pattern, taking effect at exactly `atFrame`
    /// (earlier = now). The value is clamped to the lane's range; it replaces the lane's current value
    /// (a pattern step or curve piece later in time replaces it in turn). Ignored for idle slots.
    /// - Returns: false (and counts a dropped parameter) when the pending list is full.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    public func setParameter(_ slot: Int, _ lane: ControlLane, value: Float, atFrame: UInt64) -> Bool {
        setParameterRamp(slot, lane, from: value, atFrame: atFrame, to: value, endFrame: atFrame)
    }

    /// A linear ramp of a control from outside the pattern (one segment of a scheduled curve): the lane
    /// takes `startValue` at `atFrame` and moves linearly to `endValue` at `endFrame`; the next change
    /// (typically the curve's next segment or its final step) replaces it. Values are clamped.
    /// External changes run on the engine clock: they apply also while a player is paused and are not
    /// frozen or re-timed by pause, seek or rate changes.
    /// - Returns: false (and counts a dropped parameter) when the pending list is full.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    public func setParameterRamp(
        _ slot: Int, _ lane: ControlLane, from startValue: Float, atFrame: UInt64, to endValue: Float, endFrame: UInt64
    ) -> Bool {
        guard slot >= 0, slot < configuration.maxPlayers else { return false }
        guard pendingCount < configuration.maxPendingParameters else {
            statistics.droppedParameterCount.add(1, ordering: .relaxed)
            return false
        }
        let start = max(Int(clamping: atFrame), Int(currentFrame))
        let end = Int(clamping: endFrame)
        let first = lane.clamp(startValue)
        let slope = end > start ? (lane.clamp(endValue) - first) / Float(end - start) : 0
        pending[pendingCount] = PendingParameter(
            slot: slot, lane: lane, value: first, frame: start, sequence: pendingSequence, slope: slope)
        pendingSequence &+= 1
        pendingCount += 1
        return true
    }

    /// Mutes or unmutes a player from the next block on (its voices keep running, silently).
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    public func setMuted(_ slot: Int, _ muted: Bool) {
        guard slot >= 0, slot < configuration.maxPlayers else { return }
        players[slot].muted = muted
    }

    /// The phase of a slot.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    public func phase(of slot: Int) -> PlayerPhase {
        guard slot >= 0, slot < configuration.maxPlayers else { return .idle }
        return players[slot].phase
    }

    /// The slot's pattern position at `currentFrame` (the next frame to render), loop iterations completed
    /// and phase. Playing: within 0 ..< loop length when looping, else clamped to 0 … duration. Scheduled:
    /// the pending seek offset or 0. Paused: the paused position (or the pending seek offset). Stopping:
    /// the position at the stop. Idle: 0.
    /// - Important: Thread safety: render thread only (other threads: `statistics.position(of:)`).
    ///   Real-time safe: yes.
    public func position(of slot: Int) -> (seconds: Double, loopCount: Int, phase: PlayerPhase) {
        guard slot >= 0, slot < configuration.maxPlayers else { return (0, 0, .idle) }
        return (reportedSeconds(slot, Int(currentFrame)), players[slot].loopCount, players[slot].phase)
    }

    /// The oldest unread notification, or nil.
    /// - Important: Thread safety: render thread only (the engine forwards them). Real-time safe: yes.
    public func nextNotification() -> PlayerNotification? {
        guard notificationCount > 0 else { return nil }
        let n = notifications[notificationHead]
        notificationHead = (notificationHead + 1) % configuration.maxNotifications
        notificationCount -= 1
        return n
    }

    /// Voices sounding now.
    public var activeVoiceCount: Int { voiceCount }

    // MARK: - Rendering

    /// Renders `frameCount` frames of the three buses (overwriting them) and advances `currentFrame`.
    /// The haptic bus is soft-limited to ±1; the audio buses are raw sums (the channel map limits them).
    /// - Parameters:
    ///   - frameCount: 0…maxBlockFrames.
    ///   - audioL: left audio bus, `frameCount` floats.
    ///   - audioR: right audio bus, `frameCount` floats.
    ///   - haptic: haptic bus, `frameCount` floats.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    public func render(
        frameCount: Int, into audioL: UnsafeMutablePointer<Float>, _ audioR: UnsafeMutablePointer<Float>,
        _ haptic: UnsafeMutablePointer<Float>
    ) {
        precondition(frameCount >= 0 && frameCount <= configuration.maxBlockFrames, "Renderer: block too large")
        audioL.update(repeating: 0, count: frameCount)
        audioR.update(repeating: 0, count: frameCount)
        haptic.update(repeating: 0, count: frameCount)
        let blockStart = Int(currentFrame)
        let blockEnd = blockStart + frameCount
        var now = blockStart
        while now < blockEnd {
            processDue(now)
            let next = min(blockEnd, nextBoundary(after: now))
            let offset = now - blockStart
            renderVoices(from: now, count: next - now, audioL + offset, audioR + offset, haptic + offset)
            retireVoices()
            checkFinished(at: next)
            now = next
        }
        limiter.apply(haptic, count: frameCount)
        currentFrame = UInt64(blockEnd)
        statistics.frames.store(currentFrame, ordering: .relaxed)
        statistics.active.store(voiceCount, ordering: .relaxed)
        for slot in 0..<configuration.maxPlayers {
            statistics.publish(
                slot, seconds: reportedSeconds(slot, blockEnd), loops: players[slot].loopCount, phase: players[slot].phase)
        }
    }

    // MARK: - Test hooks

    /// Starts recording voice starts in a ring of `capacity` entries. Control side (allocates), before rendering.
    func enableOnsetLog(capacity: Int) {
        precondition(onsetLog == nil && capacity >= 1)
        let log = UnsafeMutablePointer<OnsetRecord>.allocate(capacity: capacity)
        log.initialize(
            repeating: OnsetRecord(slot: 0, event: 0, frame: 0, kind: .transient, resumed: false), count: capacity)
        onsetLog = log
        onsetLogCapacity = capacity
        onsetLogCount = 0
    }

    /// The recorded voice starts, oldest first (at most the ring's capacity). Allocates: tests only.
    func loggedOnsets() -> [OnsetRecord] {
        guard let onsetLog else { return [] }
        let n = min(onsetLogCount, onsetLogCapacity)
        return (onsetLogCount - n..<onsetLogCount).map { onsetLog[$0 % onsetLogCapacity] }
    }

    @inline(__always)
    func logOnset(_ slot: Int, _ event: Int, _ frame: Int, _ kind: VoiceKind, resumed: Bool) {
        guard let onsetLog else { return }
        onsetLog[onsetLogCount % onsetLogCapacity] = OnsetRecord(
            slot: slot, event: event, frame: frame, kind: kind, resumed: resumed)
        onsetLogCount += 1
    }

    // MARK: - Scheduling internals

    func resetLanes(_ slot: Int, at frame: Int) {
        let base = lanes + slot * ControlLane.count
        for lane in ControlLane.allCases {
            base[lane.rawValue] = Lane(value: lane.defaultValue, slope: 0, anchor: frame)
            laneSources[slot * ControlLane.count + lane.rawValue] = LaneSource()
        }
    }

    @inline(__always)
    func laneValue(_ slot: Int, _ lane: ControlLane, _ frame: Int) -> Float {
        lanes[slot * ControlLane.count + lane.rawValue].at(frame)
    }

    /// Applies everything due at or before `now`, in a fixed order: player starts, loop seams and pattern
    /// controls, transport commands, external parameters, stops, then event onsets.
    func processDue(_ now: Int) {
        let playerCount = configuration.maxPlayers
        for slot in 0..<playerCount where players[slot].phase != .idle {
            if players[slot].phase == .scheduled, players[slot].startFrame <= now { beginPlayback(slot) }
            if players[slot].phase == .playing { advance(slot, now) }
        }
        if commandCount > 0 { applyCommands(now) }
        if pendingCount > 0 { applyPending(now) }
        for slot in 0..<playerCount where players[slot].phase == .playing || players[slot].phase == .paused {
            if players[slot].stopFrame <= now {
                players[slot].heldSeconds = reportedSeconds(slot, now)
                dropParked(slot)
                stopVoices(slot)
                players[slot].phase = .stopping
                continue
            }
            if players[slot].phase == .playing {
                while players[slot].nextEventFrame <= now { startEvent(slot, now) }
            }
        }
    }

    /// Starts a scheduled player at its start frame (applying a pending seek).
    func beginPlayback(_ slot: Int) {
        let start = players[slot].startFrame
        players[slot].phase = .playing
        players[slot].anchorFrame = start
        players[slot].anchorSeconds = 0
        players[slot].loopOrigin = start
        players[slot].loopOriginSeconds = 0
        players[slot].loopIndex = 0
        players[slot].loopWrapFrame = players[slot].loopSeconds > 0 ? players[slot].loopStart(1) : .max
        resetLanes(slot, at: start)
        refreshNextEvent(slot)
        refreshNextControl(slot)
        if let pattern = players[slot].pattern {
            players[slot].endFrame = players[slot].frame(at: pattern.duration)
        }
        if players[slot].seekPending {
            players[slot].seekPending = false
            applySeek(slot, players[slot].seekSeconds, at: start)
        }
    }

    /// Loop seams and pattern controls due at or before `now` (playing players).
    func advance(_ slot: Int, _ now: Int) {
        while players[slot].loopWrapFrame <= now {
            players[slot].loopIndex += 1
            players[slot].loopCount += 1
            players[slot].anchorFrame = players[slot].loopStart(players[slot].loopIndex)
            players[slot].anchorSeconds = 0
            players[slot].loopWrapFrame = players[slot].loopStart(players[slot].loopIndex + 1)
            players[slot].nextEvent = 0
            players[slot].nextControl = 0
            refreshNextEvent(slot)
            refreshNextControl(slot)
            fadeAtSeam(slot)
            if players[slot].passLimit > 0 && players[slot].loopCount >= players[slot].passLimit - 1 {
                // The last pass: no more seams; it runs on to the pattern's end and finishes.
                players[slot].loopSeconds = 0
                players[slot].loopWrapFrame = .max
                if let pattern = players[slot].pattern {
                    players[slot].endFrame = players[slot].frame(at: pattern.duration)
                }
                refreshNextEvent(slot)
                refreshNextControl(slot)
            }
        }
        while players[slot].nextControlFrame <= now { applyControl(slot) }
    }

    func nextBoundary(after now: Int) -> Int {
        var next = Int.max
        for slot in 0..<configuration.maxPlayers {
            switch players[slot].phase {
            case .scheduled:
                next = min(next, players[slot].startFrame)
            case .playing:
                next = min(min(next, players[slot].nextEventFrame), min(players[slot].nextControlFrame, players[slot].stopFrame))
                next = min(next, players[slot].loopWrapFrame)
            case .paused:
                next = min(next, players[slot].stopFrame)
            case .idle, .stopping:
                break
            }
        }
        for i in 0..<pendingCount { next = min(next, pending[i].frame) }
        for i in 0..<commandCount { next = min(next, commands[i].frame) }
        return max(next, now + 1)
    }

    func refreshNextEvent(_ slot: Int) {
        guard let pattern = players[slot].pattern, players[slot].nextEvent < pattern.events.count,
            players[slot].loopSeconds == 0 || pattern.events[players[slot].nextEvent].time < players[slot].loopSeconds
        else {
            players[slot].nextEventFrame = .max
            return
        }
        players[slot].nextEventFrame = players[slot].frame(at: pattern.events[players[slot].nextEvent].time)
    }

    func refreshNextControl(_ slot: Int) {
        guard let pattern = players[slot].pattern, players[slot].nextControl < pattern.controls.count,
            players[slot].loopSeconds == 0
                || pattern.controls[players[slot].nextControl].time < players[slot].loopSeconds
        else {
            players[slot].nextControlFrame = .max
            return
        }
        players[slot].nextControlFrame = players[slot].frame(at: pattern.controls[players[slot].nextControl].time)
    }

    func applyControl(_ slot: Int) {
        guard let pattern = players[slot].pattern else { return }
        let change = pattern.controls[players[slot].nextControl]
        let f0 = players[slot].frame(at: change.time)
        var slope: Float = 0
        if change.isRamp {
            let f1 = players[slot].frame(at: change.endTime)
            if f1 > f0 { slope = (change.endValue - change.value) / Float(f1 - f0) }
        }
        let index = slot * ControlLane.count + change.lane.rawValue
        lanes[index] = Lane(value: change.value, slope: slope, anchor: f0)
        laneSources[index] = LaneSource(
            fromPattern: true, isRamp: change.isRamp, endTime: change.endTime, endValue: change.endValue)
        players[slot].nextControl += 1
        refreshNextControl(slot)
    }

    func applyPending(_ now: Int) {
        // Apply due entries in (frame, sequence) order; remove them keeping the rest.
        while true {
            var best = -1
            for i in 0..<pendingCount where pending[i].frame <= now {
                if best < 0 || pending[i].frame < pending[best].frame
                    || (pending[i].frame == pending[best].frame && pending[i].sequence < pending[best].sequence)
                {
                    best = i
                }
            }
            if best < 0 { return }
            let p = pending[best]
            let phase = players[p.slot].phase
            if phase == .playing || phase == .stopping || phase == .paused {
                let index = p.slot * ControlLane.count + p.lane.rawValue
                lanes[index] = Lane(value: p.value, slope: p.slope, anchor: p.frame)
                laneSources[index] = LaneSource()
            }
            pendingCount -= 1
            pending[best] = pending[pendingCount]
        }
    }

    func stopVoices(_ slot: Int) {
        for i in 0..<voiceCount where voices[i].player == slot {
            voices[i].beginFade(frames: stopFadeFrames)
        }
    }

    /// Loop seam: the player's continuous and audio voices fade out from here; transients ring on.
    func fadeAtSeam(_ slot: Int) {
        for i in 0..<voiceCount where voices[i].player == slot && voices[i].kind != .transient {
            voices[i].beginFade(frames: stopFadeFrames)
        }
    }

    /// Starts the voice for the player's next event at engine frame `now`.
    func startEvent(_ slot: Int, _ now: Int) {
        guard let pattern = players[slot].pattern else { return }
        let event = pattern.events[players[slot].nextEvent]
        players[slot].nextEvent += 1
        refreshNextEvent(slot)
        guard voiceCount < configuration.maxVoices else {
            statistics.overflows.add(1, ordering: .relaxed)
            return
        }
        let profile = pattern.profile
        let inverseRate = Float(1 / sampleRate)
        var v = Voice()
        v.kind = event.kind
        v.player = slot
        v.onset = now
        v.inverseRate = inverseRate
        v.gain = Float(profile.gain)
        v.square = profile.law == .square ? 1 : 0
        v.intensity = event.intensity
        v.sharpness = event.sharpness
        let durationFrames = Int((event.duration * players[slot].framesPerSecond).rounded())
        switch event.kind {
        case .transient:
            let length = pattern.transientFrames
            v.end = length
            v.increment = Float(profile.frequency(sharpness: Double(event.sharpness)) / sampleRate)
            v.windowScale = 0.5 / Float(length)
        case .hapticContinuous:
            v.incrementLow = Float(profile.lowFrequency / sampleRate)
            v.incrementSpan = Float((profile.highFrequency - profile.lowFrequency) / sampleRate)
            setEnvelope(&v, event, slot, now, durationFrames, .hapticAttack, .hapticDecay, .hapticRelease)
        case .audioContinuous:
            v.volume = event.volume
            v.pan = event.pan
            v.pitch = event.pitch
            v.brightness = event.brightness
            v.lowpassBase = lowpassBase
            setEnvelope(&v, event, slot, now, durationFrames, .audioAttack, .audioDecay, .audioRelease)
        case .audioCustom:
            let buffer = pattern.buffers[event.buffer]
            v.volume = event.volume
            v.pan = event.pan
            v.samples = buffer.samples.baseAddress
            v.channels = buffer.channelCount
            v.fileFrames = buffer.frameCount
            v.loop = event.loopEnabled
            v.useEnvelope = event.useVolumeEnvelope
            v.playFrames = CompiledPattern.customPlayFrames(
                fileFrames: buffer.frameCount, durationFrames: durationFrames, loop: event.loopEnabled)
            v.end = v.playFrames
            let fade = max(1, min(stopFadeFrames, v.playFrames / 2))
            v.inverseFade = 1 / Float(fade)
        }
        guard v.end > 0 else { return }
        voices[voiceCount] = v
        voiceCount += 1
        players[slot].voiceCount += 1
        logOnset(slot, event.index, now, event.kind, resumed: false)
    }

    private func setEnvelope(
        _ v: inout Voice, _ event: CompiledEvent, _ slot: Int, _ now: Int, _ durationFrames: Int,
        _ attackLane: ControlLane, _ decayLane: ControlLane, _ releaseLane: ControlLane
    ) {
        let a = EnvelopeFrames.frames(event.attack + laneValue(slot, attackLane, now), sampleRate: sampleRate)
        let d = EnvelopeFrames.frames(event.decay + laneValue(slot, decayLane, now), sampleRate: sampleRate)
        let r = EnvelopeFrames.frames(event.release + laneValue(slot, releaseLane, now), sampleRate: sampleRate)
        v.setEnvelope(attack: a, decay: d, release: r, duration: durationFrames, sustained: event.sustained)
    }

    func renderVoices(
        from frame: Int, count: Int, _ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>,
        _ haptic: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<voiceCount {
            let v = voices + i
            let n = min(count, v.pointee.end - v.pointee.age)
            if n <= 0 { continue }
            let slot = v.pointee.player
            let laneBase = UnsafePointer(lanes + slot * ControlLane.count)
            let scale: Float = players[slot].muted ? 0 : 1
            switch v.pointee.kind {
            case .transient:
                v.pointee.renderTransient(frame: frame, count: n, lanes: laneBase, out: haptic, gainScale: scale)
            case .hapticContinuous:
                v.pointee.renderContinuous(frame: frame, count: n, lanes: laneBase, out: haptic, gainScale: scale)
            case .audioContinuous:
                v.pointee.renderTone(frame: frame, count: n, lanes: laneBase, left: left, right: right, gainScale: scale)
            case .audioCustom:
                v.pointee.renderCustom(frame: frame, count: n, lanes: laneBase, left: left, right: right, gainScale: scale)
            }
        }
    }

    /// Removes finished voices, keeping the order of the rest (the summation order stays the same
    /// whatever the block split, so the output is bit-identical).
    func retireVoices() {
        var kept = 0
        for i in 0..<voiceCount {
            let v = voices[i]
            if v.age >= v.end {
                players[v.player].voiceCount -= 1
                players[v.player].lastVoiceEnd = max(players[v.player].lastVoiceEnd, v.onset + v.end)
            } else {
                if kept != i { voices[kept] = v }
                kept += 1
            }
        }
        voiceCount = kept
    }

    func checkFinished(at frame: Int) {
        for slot in 0..<configuration.maxPlayers {
            let p = players[slot]
            switch p.phase {
            case .playing:
                guard p.loopSeconds == 0, let pattern = p.pattern, p.nextEvent >= pattern.events.count, p.voiceCount == 0,
                    p.nextControl >= pattern.controls.count, frame >= p.endFrame
                else { continue }
                finish(slot, frame: max(p.endFrame, p.lastVoiceEnd), reason: .finished)
            case .stopping:
                guard p.voiceCount == 0 else { continue }
                finish(slot, frame: max(min(p.stopFrame, frame), p.lastVoiceEnd), reason: p.endReason)
            case .idle, .scheduled, .paused:
                continue
            }
        }
    }

    func finish(_ slot: Int, frame: Int, reason: PlayerNotification.Reason) {
        let muted = players[slot].muted
        players[slot] = Player()  // drops the pattern reference; the caller still holds one
        players[slot].muted = muted
        dropParked(slot)
        dropCommands(slot)
        if notificationCount == configuration.maxNotifications {
            statistics.droppedNotificationCount.add(1, ordering: .relaxed)
            return
        }
        notifications[(notificationHead + notificationCount) % configuration.maxNotifications] =
            PlayerNotification(slot: slot, frame: UInt64(frame), reason: reason)
        notificationCount += 1
    }
}
