import ThrumModel

/// One voice start, recorded for tests (`enableOnsetLog`).
struct OnsetRecord: Equatable {
    var slot: Int
    /// `CompiledEvent.index` (the event's index in the pattern data); −1 for a resumed voice.
    var event: Int
    /// Engine frame of the start.
    var frame: Int
    var kind: VoiceKind
    /// A continuous voice restarted by `resumePlayer` (not a new event).
    var resumed: Bool
}

/// The real-time renderer: players, a fixed voice pool, two audio buses (L, R) and one haptic bus per
/// actuator (`configuration.actuators`), all on one clock and rendered in one pass.
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
/// sounding (also release tails) fade out over 1 ms, starting at the seam frame, while the new pass's voices
/// rise at least as slowly (no overshoot across the seam); transients ring their natural length (≤ 30 ms).
///
/// Instances: every call that acts on a player names an `InstanceID` (slot + generation); a call for an
/// instance that is not the slot's current one is dropped, and an instance that ends takes everything still
/// queued for it along (`finish`), so nothing reaches the next instance in its slot.
///
/// Actuators: each player instance plays its haptic events on a set of buses (`startPlayer(buses:)`): an
/// event starts one voice per bus, drawn with that bus's profile of the pattern; audio events play once.
/// Each bus has its own limiter (its actuator's profile). With one bus, rendering is what it always was.
/// Panning (`hapticPanX`/`hapticPanY` lanes, once set) weighs each bus's voices by equal power between the
/// actuators nearest the pan position (`PanPlace`).
///
/// References: the renderer holds none. A started instance keeps a `PatternView` of its `CompiledPattern`'s
/// storage; the caller keeps the `CompiledPattern` alive until the instance's notification arrives.
/// `PlayerInstance`, `Voice`, queued entries and notifications are `BitwiseCopyable`, so nothing on the
/// render path retains or releases.
///
/// Queue room: `retiredParameterCalls`/`retiredCommandCalls` in `statistics` count the parameter and
/// transport calls that no longer occupy a list entry, so a control side that counts its calls knows how
/// many entries are in use and can refuse a call before it would not fit.
///
/// Source layout: this file holds the state, the player API and the block loop; `Scheduling.swift` what
/// happens at a frame (starts, seams, controls, onsets, ends); `Transport.swift` the advanced-player
/// commands; `ControlLanes.swift` the per-player control lanes; `PlayerInstance.swift` each instance's
/// timing math.
/// - Important: Thread safety: one thread at a time (not Sendable; hand it to the render thread once).
///   Real-time safe: yes, except `init`/`deinit`.
package final class Renderer {
    /// The configuration it was built with.
    package let configuration: RendererConfiguration
    /// Counters readable from any thread.
    package let statistics: RenderStatistics
    /// The engine clock: frames rendered so far; the next `render` starts at this frame.
    package private(set) var currentFrame: UInt64 = 0
    /// Haptics from audio are followed but left out of the buses while true (every player's haptics are
    /// muted). Render thread, between renders.
    package var audioHapticsMuted = false

    /// Engine sample rate in Hz.
    let sampleRate: Double
    /// Haptic buses (actuators), their limiters and their places for panning.
    let busCount: Int
    let limiters: UnsafeMutablePointer<SoftLimiter>
    let places: UnsafeMutablePointer<ActuatorPlace>
    /// Haptics derived from the audio buses (`configuration.hapticsFromAudio`), added before the limiter.
    let audioHaptics: AudioHapticFollower?
    /// `stopFadeSeconds` in frames (≥ 1).
    let stopFadeFrames: Int
    /// The 1 ms de-click ramp in frames (≥ 1): loop seam fades, audio file ramps, the cut of a decay.
    let deClickFrames: Int
    /// One-pole low-pass coefficient of the tone's ≈500 Hz corner at `sampleRate`.
    let lowpassBase: Float
    /// The voice pool: `voiceCount` sounding voices, in start order (the summation order).
    let voices: UnsafeMutablePointer<Voice>
    /// The voices' working buffers (`maxBlockFrames` floats each).
    let scratch: VoiceScratch
    var voiceCount = 0
    /// Continuous voices of paused players, waiting for their resume.
    let parked: UnsafeMutablePointer<Voice>
    var parkedCount = 0
    /// One instance per slot, 0 ..< maxPlayers.
    let players: UnsafeMutablePointer<PlayerInstance>
    /// `ControlLane.count` lanes per slot, and where each lane's value came from.
    let lanes: UnsafeMutablePointer<Lane>
    let laneSources: UnsafeMutablePointer<LaneSource>
    /// External parameter changes and transport commands waiting for their frame.
    var pending: DueList<PendingParameter>
    var commands: DueList<TransportCommand>
    /// Parameter calls (`setParameter`, `setParameterRamp`) and transport calls received so far.
    var parameterCalls = 0
    var commandCalls = 0
    var notifications: NotificationQueue
    /// Every event onset, for a consumer on another thread (`configuration.onsetReportCapacity` > 0), or nil.
    package let onsetReports: OnsetReports?
    /// The trigger pulse's width in frames: 1 ms (≥ 1).
    let triggerFrames: Int
    /// The delays that line sound and vibration up (`configuration.hapticOffset`, the profiles' latency), and
    /// the trigger pulses waiting for their frame.
    let compensation: LatencyCompensation
    /// Test hook: a ring of voice starts (nil = off).
    var onsetLog: UnsafeMutablePointer<OnsetRecord>? = nil
    var onsetLogCapacity = 0
    var onsetLogCount = 0

    /// Allocates every buffer for `configuration`. Control side.
    /// - Precondition: all capacities ≥ 1, a positive sample rate and 1 … `ChannelMap.maxActuators` actuators.
    package init(configuration: RendererConfiguration) {
        precondition(configuration.sampleRate > 0, "Renderer: sample rate must be positive")
        precondition(configuration.maxVoices >= 1 && configuration.maxPlayers >= 1, "Renderer: capacities ≥ 1")
        precondition(configuration.maxBlockFrames >= 1 && configuration.maxPendingParameters >= 1)
        precondition(configuration.maxNotifications >= 1 && configuration.maxPendingCommands >= 1)
        precondition((1...ChannelMap.maxActuators).contains(configuration.actuators.count), "Renderer: 1…64 actuators")
        self.configuration = configuration
        statistics = RenderStatistics(slots: configuration.maxPlayers)
        sampleRate = configuration.sampleRate
        let actuators = configuration.actuators
        busCount = actuators.count
        limiters = .allocate(capacity: busCount)
        limiters.initialize(from: actuators.map { SoftLimiter(knee: Float($0.profile.limiterThreshold)) }, count: busCount)
        places = .allocate(capacity: busCount)
        places.initialize(
            from: Actuator.positions(of: actuators).map { ActuatorPlace(x: Float($0.x), y: Float($0.y)) }, count: busCount)
        audioHaptics = configuration.hapticsFromAudio.map {
            AudioHapticFollower(
                settings: $0, profiles: actuators.map(\.profile), sampleRate: configuration.sampleRate,
                maxBlockFrames: configuration.maxBlockFrames)
        }
        stopFadeFrames = max(1, Int((configuration.stopFadeSeconds * configuration.sampleRate).rounded()))
        deClickFrames = CompiledPattern.deClickFrames(configuration.sampleRate)
        // One-pole coefficient for a ≈500 Hz corner: 1 − e^(−2π·500/rate).
        var e = 1.0
        let x = -2 * Double.pi * 500 / configuration.sampleRate
        var term = 1.0
        for k in 1...30 {  // e^x by its series (|x| ≤ π from 1 kHz up), without libm's exp
            term *= x / Double(k)
            e += term
        }
        lowpassBase = Float(min(max(1 - e, 0), 1))
        voices = .allocate(capacity: configuration.maxVoices)
        scratch = VoiceScratch(capacity: configuration.maxBlockFrames)
        voices.initialize(repeating: Voice(), count: configuration.maxVoices)
        parked = .allocate(capacity: configuration.maxVoices)
        parked.initialize(repeating: Voice(), count: configuration.maxVoices)
        players = .allocate(capacity: configuration.maxPlayers)
        players.initialize(repeating: PlayerInstance(), count: configuration.maxPlayers)
        lanes = .allocate(capacity: configuration.maxPlayers * ControlLane.count)
        lanes.initialize(repeating: Lane(value: 0, slope: 0, anchor: 0), count: configuration.maxPlayers * ControlLane.count)
        laneSources = .allocate(capacity: configuration.maxPlayers * ControlLane.count)
        laneSources.initialize(repeating: LaneSource(), count: configuration.maxPlayers * ControlLane.count)
        pending = DueList(capacity: configuration.maxPendingParameters)
        commands = DueList(capacity: configuration.maxPendingCommands)
        notifications = NotificationQueue(capacity: configuration.maxNotifications)
        onsetReports = configuration.onsetReportCapacity > 0
            ? OnsetReports(minimumCapacity: configuration.onsetReportCapacity) : nil
        triggerFrames = max(1, Int((configuration.sampleRate / 1000).rounded()))
        compensation = LatencyCompensation(
            actuators: actuators, hapticOffset: configuration.hapticOffset, sampleRate: configuration.sampleRate)
        for slot in 0..<configuration.maxPlayers { resetLanes(slot, at: 0) }
    }

    deinit {
        limiters.deinitialize(count: busCount)
        limiters.deallocate()
        places.deallocate()
        voices.deinitialize(count: configuration.maxVoices)
        voices.deallocate()
        scratch.deallocate()
        parked.deinitialize(count: configuration.maxVoices)
        parked.deallocate()
        players.deinitialize(count: configuration.maxPlayers)
        players.deallocate()
        lanes.deallocate()
        laneSources.deallocate()
        if let onsetLog {
            onsetLog.deinitialize(count: onsetLogCapacity)
            onsetLog.deallocate()
        }
    }

    // MARK: - Players (render thread, between render calls)

    /// Schedules `pattern` on a free slot, starting at engine frame `atFrame` (earlier frames mean "now").
    /// The new instance inherits nothing from the slot's previous one.
    /// - Parameters:
    ///   - instance: the slot (0 ..< maxPlayers; must be `.idle`) and the new instance's generation.
    ///   - pattern: compiled at this renderer's sample rate. Keep it alive until the instance's
    ///     notification: the renderer keeps only a view of its storage.
    ///   - atFrame: engine frame of the pattern's time 0 (or of `offset`).
    ///   - playbackRate: > 0; scales pattern time (event times, durations, curves), never pitch.
    ///   - loopEnd: nil = no loop; otherwise loop the pattern time 0 ..< loopEnd seconds
    ///     (0 = the pattern's duration). Loop seams are frame-exact and drift-free.
    ///   - passes: with a loop, how many passes to play in all (0 = forever); the last pass runs on to the
    ///     pattern's end (its release tails included) and the player finishes.
    ///   - muted: what renders at gain 0 from the start (`setMuted` changes it).
    ///   - offset: nil, or a pattern position (s, ≥ 0) to start from, as `seekPlayer` before the start.
    ///   - buses: the haptic buses its haptic events play on (bit b = bus b; at least one, each with a profile
    ///     in the pattern).
    /// - Returns: false when the slot is out of range or busy, the rate differs, playbackRate ≤ 0, or the
    ///   buses are none or beyond the renderer's or the pattern's.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    package func startPlayer(
        _ instance: InstanceID, pattern: CompiledPattern, atFrame: UInt64, playbackRate: Double = 1,
        loopEnd: Double? = nil, passes: Int = 0, muted: PlayerMute = [], offset: Double? = nil, buses: UInt64 = 1
    ) -> Bool {
        let slot = instance.slot
        guard slot >= 0, slot < configuration.maxPlayers, players[slot].phase == .idle,
            Self.startRefusal(pattern: pattern, configuration: configuration, playbackRate: playbackRate, buses: buses)
                == nil
        else { return false }
        players[slot] = PlayerInstance(
            scheduling: pattern.view, generation: instance.generation,
            at: max(Int(clamping: atFrame), Int(currentFrame)), framesPerSecond: sampleRate / playbackRate,
            loopEnd: loopEnd ?? -1, passes: passes, muted: muted, buses: buses)
        if let offset {
            players[slot].seekPending = true
            players[slot].seekSeconds = offset.isNaN ? 0 : max(offset, 0)
        }
        return true
    }

    /// Why `startPlayer` would refuse `pattern` at `playbackRate` on `buses` with a renderer of
    /// `configuration`, or nil when it would start it (given a free slot). The control side asks before it
    /// queues a start, so a refused start is an error to its caller rather than a silent end.
    /// - Important: Thread safety: any thread; pure. Real-time safe: yes.
    package static func startRefusal(
        pattern: CompiledPattern, configuration: RendererConfiguration, playbackRate: Double, buses: UInt64
    ) -> String? {
        let highestBus = 63 - buses.leadingZeroBitCount
        if pattern.sampleRate != configuration.sampleRate {
            return "the pattern was compiled at \(pattern.sampleRate) Hz, the engine runs at \(configuration.sampleRate) Hz"
        }
        if !(playbackRate > 0) || !playbackRate.isFinite { return "playback rate \(playbackRate) is not a positive number" }
        if buses == 0 { return "the engine has no actuator to play on" }
        if highestBus >= configuration.actuators.count || highestBus >= pattern.view.profiles.count {
            return "actuator \(highestBus + 1) is beyond the \(min(configuration.actuators.count, pattern.view.profiles.count)) the pattern was compiled for"
        }
        return nil
    }

    /// Whether `instance` is its slot's current instance (scheduled, playing, paused or stopping).
    @inline(__always)
    func isCurrent(_ instance: InstanceID) -> Bool {
        instance.slot >= 0 && instance.slot < configuration.maxPlayers && players[instance.slot].phase != .idle
            && players[instance.slot].generation == instance.generation
    }

    /// Stops the instance at engine frame `atFrame` (earlier = now): no new events start and its voices
    /// fade out over `stopFadeSeconds`. A `.stopped` notification follows when the fade ends.
    /// Also stops a paused player (its paused voices are dropped). Ignored for an instance that is not current.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    package func stopPlayer(_ instance: InstanceID, atFrame: UInt64) {
        guard isCurrent(instance) else { return }
        let slot = instance.slot
        players[slot].stopFrame = min(players[slot].stopFrame, max(Int(clamping: atFrame), Int(currentFrame)))
    }

    /// A dynamic parameter change from outside the pattern, taking effect at exactly `atFrame`
    /// (earlier = now). The value is clamped to the lane's range; it replaces the lane's current value
    /// (a pattern step or curve piece later in time replaces it in turn).
    /// - Returns: false when the instance is not current (dropped) or the pending list is full.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    package func setParameter(_ instance: InstanceID, _ lane: ControlLane, value: Float, atFrame: UInt64) -> Bool {
        setParameterRamp(instance, lane, from: value, atFrame: atFrame, to: value, endFrame: atFrame)
    }

    /// A linear ramp of a control from outside the pattern (one segment of a scheduled curve): the lane
    /// takes `startValue` at `atFrame` and moves linearly to `endValue` at `endFrame`; the next change
    /// (typically the curve's next segment or its final step) replaces it. Values are clamped.
    /// External changes run on the engine clock: they apply also while a player is paused and are not
    /// frozen or re-timed by pause, seek or rate changes.
    /// - Returns: false when the instance is not current (dropped) or the pending list is full.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    package func setParameterRamp(
        _ instance: InstanceID, _ lane: ControlLane, from startValue: Float, atFrame: UInt64, to endValue: Float,
        endFrame: UInt64
    ) -> Bool {
        parameterCalls += 1
        guard isCurrent(instance) else { return false }
        let start = max(Int(clamping: atFrame), Int(currentFrame))
        let end = Int(clamping: endFrame)
        let first = lane.clamp(startValue)
        let slope = end > start ? (lane.clamp(endValue) - first) / Float(end - start) : 0
        return pending.append(
            PendingParameter(
                slot: instance.slot, generation: instance.generation, lane: lane, value: first, frame: start,
                slope: slope))
    }

    /// Mutes (what `muted` holds) or unmutes an instance from the next block on (its voices keep running,
    /// silently). Ignored for an instance that is not current.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    package func setMuted(_ instance: InstanceID, _ muted: PlayerMute) {
        guard isCurrent(instance) else { return }
        players[instance.slot].muted = muted
    }

    /// The phase of a slot.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    package func phase(of slot: Int) -> PlayerPhase {
        guard slot >= 0, slot < configuration.maxPlayers else { return .idle }
        return players[slot].phase
    }

    /// The slot's pattern position at `currentFrame` (the next frame to render), loop iterations completed
    /// and phase. Playing: within 0 ..< loop length when looping, else clamped to 0 … duration. Scheduled:
    /// the pending seek offset or 0. Paused: the paused position (or the pending seek offset). Stopping:
    /// the position at the stop. Idle: 0.
    /// - Important: Thread safety: render thread only (other threads: `statistics.position(of:)`).
    ///   Real-time safe: yes.
    package func position(of slot: Int) -> (seconds: Double, loopCount: Int, phase: PlayerPhase) {
        guard slot >= 0, slot < configuration.maxPlayers else { return (0, 0, .idle) }
        return (players[slot].reportedPosition(at: Int(currentFrame)), players[slot].loopCount, players[slot].phase)
    }

    /// The oldest unread notification, or nil.
    /// - Important: Thread safety: render thread only (the engine forwards them). Real-time safe: yes.
    package func nextNotification() -> PlayerNotification? {
        notifications.pop()
    }

    // MARK: - Rendering

    /// Renders `frameCount` frames of a one-actuator renderer's three buses (audio L, audio R, haptic): see
    /// `render(frameCount:audioL:audioR:haptics:hapticStride:)`.
    /// - Precondition: the renderer has one actuator.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    package func render(
        frameCount: Int, into audioL: UnsafeMutablePointer<Float>, _ audioR: UnsafeMutablePointer<Float>,
        _ haptic: UnsafeMutablePointer<Float>
    ) {
        precondition(busCount == 1, "Renderer: several haptic buses need render(frameCount:audioL:audioR:haptics:hapticStride:)")
        render(frameCount: frameCount, audioL: audioL, audioR: audioR, haptics: haptic, hapticStride: 0)
    }

    /// Renders `frameCount` frames of every bus (overwriting them) and advances `currentFrame`.
    /// Each haptic bus is soft-limited to ±1 by its actuator's limiter; the audio buses are raw sums (the
    /// channel map limits them).
    /// - Parameters:
    ///   - frameCount: 0…maxBlockFrames.
    ///   - audioL: left audio bus, `frameCount` floats.
    ///   - audioR: right audio bus, `frameCount` floats.
    ///   - haptics: the haptic buses, bus b (`configuration.actuators[b]`) at `haptics + b × hapticStride`,
    ///     `frameCount` floats each (`hapticStride` ≥ `frameCount` with several buses).
    ///   - trigger: nil, or the trigger bus, `frameCount` floats: 1.0 for 1 ms (`triggerFrames`) from every
    ///     event onset's frame on (pulses that overlap merge), else 0.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    package func render(
        frameCount: Int, audioL: UnsafeMutablePointer<Float>, audioR: UnsafeMutablePointer<Float>,
        haptics: UnsafeMutablePointer<Float>, hapticStride: Int, trigger: UnsafeMutablePointer<Float>? = nil
    ) {
        precondition(frameCount >= 0 && frameCount <= configuration.maxBlockFrames, "Renderer: block too large")
        precondition(busCount == 1 || hapticStride >= frameCount, "Renderer: haptic buses overlap")
        audioL.update(repeating: 0, count: frameCount)
        audioR.update(repeating: 0, count: frameCount)
        trigger?.update(repeating: 0, count: frameCount)
        for bus in 0..<busCount { (haptics + bus * hapticStride).update(repeating: 0, count: frameCount) }
        let blockStart = Int(currentFrame)
        let blockEnd = blockStart + frameCount
        var now = blockStart
        while now < blockEnd {
            processDue(now)
            let next = min(blockEnd, nextBoundary(after: now))
            let offset = now - blockStart
            renderVoices(from: now, count: next - now, audioL + offset, audioR + offset, haptics + offset, hapticStride)
            if let trigger { renderTrigger(from: now, to: next, into: trigger + offset) }
            retireVoices()
            checkFinished(at: next)
            now = next
        }
        audioHaptics?.process(
            left: audioL, right: audioR, haptics: haptics, hapticStride: hapticStride, frameCount: frameCount,
            muted: audioHapticsMuted)
        var zeroed = Self.zeroNonFinite(audioL, frameCount) + Self.zeroNonFinite(audioR, frameCount)
        for bus in 0..<busCount {
            let haptic = haptics + bus * hapticStride
            limiters[bus].apply(haptic, count: frameCount)
            // The last guard: nothing non-finite leaves the renderer (docs/decisions.md: zeroed and counted).
            zeroed += Self.zeroNonFinite(haptic, frameCount)
        }
        if zeroed > 0 { statistics.countNonFinite(zeroed) }
        compensation.apply(audioL: audioL, audioR: audioR, haptics: haptics, hapticStride: hapticStride, count: frameCount)
        if trigger == nil { compensation.writePulses(from: blockStart, to: blockEnd, into: nil) }
        currentFrame = UInt64(blockEnd)
        statistics.publishBlock(frame: currentFrame, activeVoices: voiceCount)
        statistics.publishRetired(parameters: parameterCalls - pending.count, commands: commandCalls - commands.count)
        for slot in 0..<configuration.maxPlayers {
            statistics.publish(
                slot, seconds: players[slot].reportedPosition(at: blockEnd), loops: players[slot].loopCount,
                phase: players[slot].phase)
        }
    }

    /// Replaces every non-finite sample among `count` at `bus` by 0; returns how many there were.
    /// Real-time safe: no allocation, one pass.
    @inline(__always)
    static func zeroNonFinite(_ bus: UnsafeMutablePointer<Float>, _ count: Int) -> Int {
        var zeroed = 0
        for i in 0..<count where !bus[i].isFinite {
            bus[i] = 0
            zeroed += 1
        }
        return zeroed
    }

    /// Adds `count` frames of every sounding voice, from engine frame `frame`, into the buses (a haptic
    /// voice into its bus, at `haptics + bus × hapticStride`).
    func renderVoices(
        from frame: Int, count: Int, _ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>,
        _ haptics: UnsafeMutablePointer<Float>, _ hapticStride: Int
    ) {
        for i in 0..<voiceCount {
            let v = voices + i
            let n = min(count, v.pointee.end - v.pointee.age)
            if n <= 0 { continue }
            let slot = v.pointee.player
            let laneBase = UnsafePointer(lanes + slot * ControlLane.count)
            let muted = players[slot].muted
            let axes = players[slot].pannedAxes
            switch v.pointee.kind {
            case .transient:
                v.pointee.renderTransient(
                    frame: frame, count: n, lanes: laneBase, out: haptics + v.pointee.bus * hapticStride,
                    gainScale: muted.contains(.haptics) ? 0 : 1, panAxes: axes, scratch: scratch)
            case .hapticContinuous:
                v.pointee.renderContinuous(
                    frame: frame, count: n, lanes: laneBase, out: haptics + v.pointee.bus * hapticStride,
                    gainScale: muted.contains(.haptics) ? 0 : 1, panAxes: axes, scratch: scratch)
            case .hapticSignal:
                v.pointee.renderSignal(
                    frame: frame, count: n, lanes: laneBase, out: haptics + v.pointee.bus * hapticStride,
                    gainScale: muted.contains(.haptics) ? 0 : 1, panAxes: axes, scratch: scratch)
            case .audioContinuous:
                v.pointee.renderTone(
                    frame: frame, count: n, lanes: laneBase, left: left, right: right,
                    gainScale: muted.contains(.audio) ? 0 : 1, scratch: scratch)
            case .audioCustom:
                v.pointee.renderCustom(
                    frame: frame, count: n, lanes: laneBase, left: left, right: right,
                    gainScale: muted.contains(.audio) ? 0 : 1)
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
}
