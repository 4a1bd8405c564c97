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
    /// Fade applied when a player stops, in seconds (default 5 ms).
    public var stopFadeSeconds: Double

    /// Creates a configuration.
    public init(
        sampleRate: Double = 48_000, profile: ActuatorProfile = .default, maxVoices: Int = 64, maxPlayers: Int = 16,
        maxBlockFrames: Int = 4096, maxPendingParameters: Int = 256, maxNotifications: Int = 64,
        stopFadeSeconds: Double = 0.005
    ) {
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

/// Counters the render thread publishes with relaxed atomics; read them from any thread.
/// - Important: Thread safety: any thread. Real-time safe: yes.
public final class RenderStatistics: Sendable {
    let overflows = Atomic<Int>(0)
    let active = Atomic<Int>(0)
    let droppedNotificationCount = Atomic<Int>(0)
    let droppedParameterCount = Atomic<Int>(0)
    let frames = Atomic<UInt64>(0)

    /// Events that found no free voice (and were not played) since the renderer was created.
    public var voiceOverflowCount: Int { overflows.load(ordering: .relaxed) }
    /// Voices sounding at the end of the last block.
    public var activeVoices: Int { active.load(ordering: .relaxed) }
    /// Notifications lost because the notification list was full.
    public var droppedNotifications: Int { droppedNotificationCount.load(ordering: .relaxed) }
    /// `setParameter` calls refused because the pending list was full.
    public var droppedParameters: Int { droppedParameterCount.load(ordering: .relaxed) }
    /// The engine clock (frames rendered) at the end of the last block.
    public var currentFrame: UInt64 { frames.load(ordering: .relaxed) }
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
/// frame = start + round(t × framesPerSecond), framesPerSecond = sampleRate / playbackRate.
/// Loop (implemented): at each loop end `startFrame` moves to the next iteration's start and
/// `nextEvent`/`nextControl` rewind; events at or after loopEnd never start; sounding voices ring on.
/// Seam for the rest of the advanced player: seek = `startFrame = now − frames(offset)` and skip events
/// before the offset; pause = remember `now − startFrame` and fade voices out (or freeze them),
/// resume = re-base `startFrame`.
struct Player {
    var phase: PlayerPhase = .idle
    var pattern: CompiledPattern? = nil
    var startFrame: Int = 0
    var stopFrame: Int = .max
    var framesPerSecond: Double = 48_000
    var nextEvent: Int = 0
    var nextEventFrame: Int = .max
    var nextControl: Int = 0
    var nextControlFrame: Int = .max
    var endFrame: Int = 0
    var voiceCount: Int = 0
    var lastVoiceEnd: Int = 0
    var muted: Bool = false
    /// Loop length in pattern seconds (0 = no loop). Iteration k starts at
    /// loopOrigin + round(k × loopSeconds × framesPerSecond), so loops never drift.
    var loopSeconds: Double = 0
    var loopOrigin: Int = 0
    var loopIndex: Int = 0
    var loopWrapFrame: Int = .max

    @inline(__always)
    func loopStart(_ k: Int) -> Int { loopOrigin + Int((Double(k) * loopSeconds * framesPerSecond).rounded()) }

    @inline(__always)
    func frame(at seconds: Double) -> Int { startFrame + Int((seconds * framesPerSecond).rounded()) }
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
/// Blocks are split at every event onset, player start/stop and parameter change, so onsets land on
/// their exact frame and the output is bit-identical whatever the block sizes.
///
/// The caller keeps a reference to each `CompiledPattern` it starts until the slot's notification
/// arrives, so the renderer never releases the last reference.
/// - Important: Thread safety: one thread at a time (not Sendable; hand it to the render thread once).
///   Real-time safe: yes, except `init`/`deinit`.
public final class Renderer {
    /// The configuration it was built with.
    public let configuration: RendererConfiguration
    /// Counters readable from any thread.
    public let statistics = RenderStatistics()
    /// The engine clock: frames rendered so far; the next `render` starts at this frame.
    public private(set) var currentFrame: UInt64 = 0

    let sampleRate: Double
    let limiter: SoftLimiter
    let stopFadeFrames: Int
    let lowpassBase: Float
    let voices: UnsafeMutablePointer<Voice>
    var voiceCount = 0
    let players: UnsafeMutablePointer<Player>
    let lanes: UnsafeMutablePointer<Lane>
    let pending: UnsafeMutablePointer<PendingParameter>
    var pendingCount = 0
    var pendingSequence = 0
    let notifications: UnsafeMutablePointer<PlayerNotification>
    var notificationHead = 0
    var notificationCount = 0

    /// Allocates every buffer for `configuration`. Control side.
    /// - Precondition: all capacities ≥ 1 and a positive sample rate.
    public init(configuration: RendererConfiguration) {
        precondition(configuration.sampleRate > 0, "Renderer: sample rate must be positive")
        precondition(configuration.maxVoices >= 1 && configuration.maxPlayers >= 1, "Renderer: capacities ≥ 1")
        precondition(configuration.maxBlockFrames >= 1 && configuration.maxPendingParameters >= 1)
        precondition(configuration.maxNotifications >= 1)
        self.configuration = configuration
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
        players = .allocate(capacity: configuration.maxPlayers)
        players.initialize(repeating: Player(), count: configuration.maxPlayers)
        lanes = .allocate(capacity: configuration.maxPlayers * ControlLane.count)
        lanes.initialize(repeating: Lane(value: 0, slope: 0, anchor: 0), count: configuration.maxPlayers * ControlLane.count)
        pending = .allocate(capacity: configuration.maxPendingParameters)
        pending.initialize(
            repeating: PendingParameter(slot: 0, lane: .hapticIntensity, value: 0, frame: 0, sequence: 0),
            count: configuration.maxPendingParameters)
        notifications = .allocate(capacity: configuration.maxNotifications)
        notifications.initialize(
            repeating: PlayerNotification(slot: 0, frame: 0, reason: .finished), count: configuration.maxNotifications)
        for slot in 0..<configuration.maxPlayers { resetLanes(slot, at: 0) }
    }

    deinit {
        voices.deinitialize(count: configuration.maxVoices)
        voices.deallocate()
        players.deinitialize(count: configuration.maxPlayers)
        players.deallocate()
        lanes.deallocate()
        pending.deallocate()
        notifications.deallocate()
    }

    // MARK: - Commands (render thread, between render calls)

    /// Schedules `pattern` on a free slot, starting at engine frame `atFrame` (earlier frames mean "now").
    /// - Parameters:
    ///   - slot: player slot, 0 ..< maxPlayers; must be `.idle`.
    ///   - pattern: compiled at this renderer's sample rate.
    ///   - atFrame: engine frame of the pattern's time 0.
    ///   - playbackRate: > 0; scales pattern time (event times, durations, curves), never pitch.
    ///   - loopEnd: nil = no loop; otherwise loop the pattern time 0 ..< loopEnd seconds forever
    ///     (0 = the pattern's duration). Loop seams are frame-exact and drift-free.
    /// - Returns: false when the slot is out of range or busy, the rate differs, or playbackRate ≤ 0.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    public func startPlayer(
        _ slot: Int, pattern: CompiledPattern, atFrame: UInt64, playbackRate: Double = 1, loopEnd: Double? = nil
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
        if let loopEnd, loopEnd >= 0 {
            let seconds = loopEnd > 0 ? loopEnd : pattern.duration
            if seconds * p.framesPerSecond >= 1 { p.loopSeconds = seconds }
        }
        players[slot] = p
        return true
    }

    /// Stops the player at engine frame `atFrame` (earlier = now): no new events start and its voices
    /// fade out over `stopFadeSeconds`. A `.stopped` notification follows when the fade ends.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    public func stopPlayer(_ slot: Int, atFrame: UInt64) {
        guard slot >= 0, slot < configuration.maxPlayers, players[slot].phase != .idle else { return }
        players[slot].stopFrame = min(players[slot].stopFrame, max(Int(clamping: atFrame), Int(currentFrame)))
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
    }

    // MARK: - Scheduling internals

    func resetLanes(_ slot: Int, at frame: Int) {
        let base = lanes + slot * ControlLane.count
        for lane in ControlLane.allCases {
            base[lane.rawValue] = Lane(value: lane.defaultValue, slope: 0, anchor: frame)
        }
    }

    @inline(__always)
    func laneValue(_ slot: Int, _ lane: ControlLane, _ frame: Int) -> Float {
        lanes[slot * ControlLane.count + lane.rawValue].at(frame)
    }

    /// Applies everything due at or before `now`, in a fixed order: player starts, pattern controls,
    /// external parameters, stops, then event onsets.
    func processDue(_ now: Int) {
        let playerCount = configuration.maxPlayers
        for slot in 0..<playerCount where players[slot].phase != .idle {
            if players[slot].phase == .scheduled, players[slot].startFrame <= now {
                players[slot].phase = .playing
                players[slot].loopOrigin = players[slot].startFrame
                players[slot].loopIndex = 0
                if players[slot].loopSeconds > 0 { players[slot].loopWrapFrame = players[slot].loopStart(1) }
                resetLanes(slot, at: now)
                refreshNextEvent(slot)
                refreshNextControl(slot)
                if let pattern = players[slot].pattern {
                    players[slot].endFrame = players[slot].frame(at: pattern.duration)
                }
            }
            if players[slot].phase == .playing {
                while players[slot].loopWrapFrame <= now {
                    players[slot].loopIndex += 1
                    players[slot].startFrame = players[slot].loopStart(players[slot].loopIndex)
                    players[slot].loopWrapFrame = players[slot].loopStart(players[slot].loopIndex + 1)
                    players[slot].nextEvent = 0
                    players[slot].nextControl = 0
                    refreshNextEvent(slot)
                    refreshNextControl(slot)
                }
                while players[slot].nextControlFrame <= now { applyControl(slot) }
            }
        }
        if pendingCount > 0 { applyPending(now) }
        for slot in 0..<playerCount where players[slot].phase == .playing {
            if players[slot].stopFrame <= now {
                stopVoices(slot)
                players[slot].phase = .stopping
                continue
            }
            while players[slot].nextEventFrame <= now { startEvent(slot, now) }
        }
    }

    func nextBoundary(after now: Int) -> Int {
        var next = Int.max
        for slot in 0..<configuration.maxPlayers {
            switch players[slot].phase {
            case .scheduled:
                next = min(next, players[slot].startFrame)
            case .playing:
                next = min(next, players[slot].nextEventFrame, players[slot].nextControlFrame, players[slot].stopFrame)
                next = min(next, players[slot].loopWrapFrame)
            case .idle, .stopping:
                break
            }
        }
        for i in 0..<pendingCount { next = min(next, pending[i].frame) }
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
        lanes[slot * ControlLane.count + change.lane.rawValue] = Lane(value: change.value, slope: slope, anchor: f0)
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
            if players[p.slot].phase == .playing || players[p.slot].phase == .stopping {
                lanes[p.slot * ControlLane.count + p.lane.rawValue] = Lane(value: p.value, slope: p.slope, anchor: p.frame)
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
                finish(slot, frame: max(min(p.stopFrame, frame), p.lastVoiceEnd), reason: .stopped)
            case .idle, .scheduled:
                continue
            }
        }
    }

    func finish(_ slot: Int, frame: Int, reason: PlayerNotification.Reason) {
        let muted = players[slot].muted
        players[slot] = Player()  // drops the pattern reference; the caller still holds one
        players[slot].muted = muted
        if notificationCount == configuration.maxNotifications {
            statistics.droppedNotificationCount.add(1, ordering: .relaxed)
            return
        }
        notifications[(notificationHead + notificationCount) % configuration.maxNotifications] =
            PlayerNotification(slot: slot, frame: UInt64(frame), reason: reason)
        notificationCount += 1
    }
}
