// One player instance: the pattern a slot plays and all its timing (pattern seconds ↔ engine frames, loop
// seams, seek, rate changes, pause shifts). Pure value arithmetic: no voices, lanes or allocation; the
// renderer (Scheduling.swift, Transport.swift) applies the sound-side consequences.

import ThrumModel

/// The life of a player slot.
package enum PlayerPhase: UInt8, Sendable, Equatable, BitwiseCopyable {
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

/// What a player instance's mute silences: its haptic events, its audio events, or both.
package struct PlayerMute: OptionSet, Sendable, Equatable, BitwiseCopyable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Its haptic events render at gain 0.
    package static let haptics = PlayerMute(rawValue: 1)
    /// Its audio events render at gain 0.
    package static let audio = PlayerMute(rawValue: 2)
    /// Both.
    package static let all: PlayerMute = [.haptics, .audio]
}

/// The player instance in one slot of a `Renderer`: its pattern, phase and transport.
///
/// Units: every `…Frame` is an engine frame (`Int`, the renderer's clock; `.max` = never); every
/// `…Seconds` is pattern time in seconds at playback rate 1.
///
/// Pattern time → engine frames goes through `frame(at:)` only:
/// frame = anchorFrame + round((t − anchorSeconds) × framesPerSecond), framesPerSecond = sampleRate / rate.
/// The anchor is (engine frame, pattern seconds at that frame): (start frame, 0) from a plain start, the
/// seek frame and offset after a seek, the change frame and the position there after a rate change.
/// Pause/resume shifts every frame-valued field by the pause length (integer frames), so a resumed
/// instance's schedule is bit-identical to the unpaused one, only later.
///
/// Loop: iteration k ≥ 1 starts at loopOrigin + round((k × loopSeconds − loopOriginSeconds) × framesPerSecond),
/// so seams never drift while the rate is constant; (loopOrigin, loopOriginSeconds) is the start frame and 0,
/// or the frame and position of the last seek / rate change. At each seam `nextEvent`/`nextControl` rewind;
/// events and controls at or after the loop end never start.
/// - Important: Thread safety: a value, owned by the renderer's thread. Real-time safe: every method.
///   `BitwiseCopyable`: it holds no reference, so copying or replacing it never retains or releases.
struct PlayerInstance: BitwiseCopyable {
    var phase: PlayerPhase = .idle
    /// Which instance of the slot this is (the `InstanceID.generation` commands must carry).
    var generation: UInt32 = 0
    /// The pattern played: a view of storage its `CompiledPattern` owns (the caller keeps that alive until
    /// the instance's notification).
    var pattern: PatternView? = nil
    /// Scheduled start frame (phase `.scheduled`).
    var startFrame: Int = 0
    /// Frame of a requested stop (`.max` = none).
    var stopFrame: Int = .max
    /// Engine frames per pattern second: sampleRate / playbackRate (> 0).
    var framesPerSecond: Double = 48_000
    /// The anchor: engine frame `anchorFrame` plays pattern time `anchorSeconds`.
    var anchorFrame: Int = 0
    var anchorSeconds: Double = 0
    /// Index into `pattern.events` of the next event to start, and its onset frame (`.max` = none).
    var nextEvent: Int = 0
    var nextEventFrame: Int = .max
    /// Index into `pattern.controls` of the next control to apply, and its frame (`.max` = none).
    var nextControl: Int = 0
    var nextControlFrame: Int = .max
    /// Frame of the pattern's end (its duration) on the current pass.
    var endFrame: Int = 0
    /// Voices of this instance sounding now (kept by the renderer).
    var voiceCount: Int = 0
    /// Latest frame at which one of its voices ended.
    var lastVoiceEnd: Int = 0
    /// What renders at gain 0.
    var muted: PlayerMute = []
    /// The haptic buses its haptic events play on (bit b = bus b).
    var buses: UInt64 = 1
    /// The panning axes set by a `hapticPanX` / `hapticPanY` lane write (bit 0 x, bit 1 y); 0: no panning.
    var pannedAxes: UInt8 = 0
    /// Loop length in pattern seconds (0 = no loop).
    var loopSeconds: Double = 0
    /// The loop origin: engine frame `loopOrigin` plays pattern time `loopOriginSeconds`; seams are timed from it.
    var loopOrigin: Int = 0
    var loopOriginSeconds: Double = 0
    /// Seams passed since (loopOrigin, loopOriginSeconds).
    var loopIndex: Int = 0
    /// Frame of the next loop seam (`.max` = none).
    var loopWrapFrame: Int = .max
    /// Loop iterations completed since the start (reported; seeks and rate changes keep it).
    var loopCount: Int = 0
    /// Passes to play in all when looping (0 = forever): the last pass runs on to the pattern's end.
    var passLimit: Int = 0
    /// Frame at which the instance paused (phase `.paused`).
    var pauseFrame: Int = 0
    /// Position (seconds) shown while paused or stopping.
    var heldSeconds: Double = 0
    /// A seek to apply at the next start or resume, to `seekSeconds` (≥ 0).
    var seekPending: Bool = false
    var seekSeconds: Double = 0
    /// How a `.stopping` instance ends: `.stopped` (stopPlayer) or `.finished` (seek past the end).
    var endReason: PlayerNotification.Reason = .stopped
    /// The engine frame at which the fade of the last loop seam ends (audio files starting before it rise
    /// over the rest of the fade; see `Renderer.fadeAtSeam`).
    var seamFadeEnd: Int = 0

    /// An instance scheduled to play `pattern` from `startFrame`.
    /// - Parameters:
    ///   - generation: the instance's generation in its slot.
    ///   - framesPerSecond: sampleRate / playbackRate (> 0).
    ///   - loopEnd: negative = no loop, 0 = the pattern's duration, else the loop end in seconds.
    ///   - passes: with a loop, passes in all (0 = forever; 1 = no loop).
    ///   - muted: what renders at gain 0.
    ///   - buses: the haptic buses its haptic events play on.
    init(
        scheduling pattern: PatternView, generation: UInt32, at startFrame: Int, framesPerSecond: Double,
        loopEnd: Double, passes: Int, muted: PlayerMute, buses: UInt64 = 1
    ) {
        phase = .scheduled
        self.generation = generation
        self.pattern = pattern
        self.startFrame = startFrame
        self.framesPerSecond = framesPerSecond
        self.muted = muted
        self.buses = buses
        loopSeconds =
            passes == 1 ? 0 : Self.loopLength(loopEnd, duration: pattern.duration, framesPerSecond: framesPerSecond)
        passLimit = max(passes, 0)
    }

    /// A free slot (phase `.idle`).
    init() {}

    // MARK: - Time conversion

    /// The engine frame of pattern time `seconds` under the current anchor and rate.
    @inline(__always)
    func frame(at seconds: Double) -> Int { anchorFrame + Int(((seconds - anchorSeconds) * framesPerSecond).rounded()) }

    /// Pattern position (seconds) at engine frame `frame` while playing (not wrapped or clamped).
    @inline(__always)
    func position(at frame: Int) -> Double { anchorSeconds + Double(frame - anchorFrame) / framesPerSecond }

    /// The engine frame at which loop iteration `k` (≥ 1 after the origin) starts.
    @inline(__always)
    func loopStart(_ k: Int) -> Int {
        loopOrigin + Int(((Double(k) * loopSeconds - loopOriginSeconds) * framesPerSecond).rounded())
    }

    /// `duration` seconds of pattern time as a frame count at the current rate.
    @inline(__always)
    func frames(forDuration duration: Double) -> Int { Int((duration * framesPerSecond).rounded()) }

    /// Loop length in pattern seconds for a `loopEnd` (negative = none, 0 = the duration);
    /// 0 (no loop) when shorter than one frame at `framesPerSecond`.
    static func loopLength(_ loopEnd: Double, duration: Double, framesPerSecond: Double) -> Double {
        guard loopEnd >= 0 else { return 0 }
        let seconds = loopEnd > 0 ? loopEnd : duration
        return seconds * framesPerSecond >= 1 ? seconds : 0
    }

    /// Where a seek to `seconds` lands: the loop start (0) when looping and `seconds` is at or past the loop
    /// end (Apple: "jump to the loop start if looping"), else `seconds`.
    func seekTarget(_ seconds: Double) -> Double {
        loopSeconds > 0 && seconds >= loopSeconds ? 0 : seconds
    }

    /// The position reported at engine frame `frame`: playing, within 0 … loop length when looping, else
    /// 0 … duration; scheduled or paused, the pending seek (its target) or the start / paused position;
    /// stopping, the position at the stop; idle, 0.
    func reportedPosition(at frame: Int) -> Double {
        switch phase {
        case .idle:
            return 0
        case .scheduled:
            return seekPending ? seekTarget(seekSeconds) : 0
        case .paused:
            return seekPending ? seekTarget(seekSeconds) : heldSeconds
        case .stopping:
            return heldSeconds
        case .playing:
            let seconds = max(position(at: frame), 0)
            if loopSeconds > 0 { return min(seconds, loopSeconds) }
            return min(seconds, pattern?.duration ?? 0)
        }
    }

    /// The earliest frame at which this instance needs the renderer's attention: its start, next event,
    /// next control, loop seam or stop (`.max` = none).
    var nextDueFrame: Int {
        switch phase {
        case .scheduled:
            return startFrame
        case .playing:
            return min(min(min(nextEventFrame, nextControlFrame), stopFrame), loopWrapFrame)
        case .paused:
            return stopFrame
        case .idle, .stopping:
            return .max
        }
    }

    // MARK: - Schedule

    /// Sets the anchor and the loop origin to (`frame`, `seconds`) and times the first seam from there.
    mutating func setOrigin(frame: Int, seconds: Double) {
        anchorFrame = frame
        anchorSeconds = seconds
        loopOrigin = frame
        loopOriginSeconds = seconds
        loopIndex = 0
        loopWrapFrame = loopSeconds > 0 ? loopStart(1) : .max
    }

    /// The frame of pattern time `time` on the current pass: `.max` for nil (nothing left) or a time at or
    /// after the loop end (it never plays on this pass).
    @inline(__always)
    func passFrame(at time: Double?) -> Int {
        guard let time, loopSeconds == 0 || time < loopSeconds else { return .max }
        return frame(at: time)
    }

    /// Times `nextEvent` (`.max` when none is left or it lies at or after the loop end).
    mutating func refreshNextEvent() {
        var time: Double? = nil
        if let pattern, nextEvent < pattern.events.count { time = pattern.events[nextEvent].time }
        nextEventFrame = passFrame(at: time)
    }

    /// Times `nextControl` (`.max` when none is left or it lies at or after the loop end).
    mutating func refreshNextControl() {
        var time: Double? = nil
        if let pattern, nextControl < pattern.controls.count { time = pattern.controls[nextControl].time }
        nextControlFrame = passFrame(at: time)
    }

    /// Re-times the pattern's end (`endFrame`) under the current anchor and rate.
    mutating func refreshEndFrame() {
        if let pattern { endFrame = frame(at: pattern.duration) }
    }

    /// A scheduled instance starts playing at its start frame (a pending seek is left to the caller).
    mutating func begin() {
        phase = .playing
        setOrigin(frame: startFrame, seconds: 0)
        refreshNextEvent()
        refreshNextControl()
        refreshEndFrame()
    }

    /// Passes the loop seam at `loopWrapFrame`: the pattern restarts at 0 there. On the last of
    /// `passLimit` passes the loop ends and the instance runs on to the pattern's end.
    mutating func crossSeam() {
        loopIndex += 1
        loopCount += 1
        anchorFrame = loopStart(loopIndex)
        anchorSeconds = 0
        loopWrapFrame = loopStart(loopIndex + 1)
        nextEvent = 0
        nextControl = 0
        refreshNextEvent()
        refreshNextControl()
        if passLimit > 0 && loopCount >= passLimit - 1 {
            loopSeconds = 0
            loopWrapFrame = .max
            refreshEndFrame()
            refreshNextEvent()
            refreshNextControl()
        }
    }

    /// Takes the next pattern control: the change and the lane it sets (value at its frame, slope per
    /// frame to its end value for a ramp). Nil without a pattern.
    mutating func takeNextControl() -> (change: ControlChange, lane: Lane)? {
        guard let pattern else { return nil }
        let change = pattern.controls[nextControl]
        let f0 = frame(at: change.time)
        var slope: Float = 0
        if change.isRamp {
            let f1 = frame(at: change.endTime)
            if f1 > f0 { slope = (change.endValue - change.value) / Float(f1 - f0) }
        }
        nextControl += 1
        refreshNextControl()
        return (change, Lane(value: change.value, slope: slope, anchor: f0))
    }

    /// Takes the next event to start. Nil without a pattern.
    mutating func takeNextEvent() -> CompiledEvent? {
        guard let pattern else { return nil }
        let event = pattern.events[nextEvent]
        nextEvent += 1
        refreshNextEvent()
        return event
    }

    /// Whether a playing instance has nothing left: no loop, no events or controls, no voices, and its
    /// pattern's end has passed by `frame`.
    func isDone(at frame: Int) -> Bool {
        guard loopSeconds == 0, let pattern, nextEvent >= pattern.events.count, voiceCount == 0,
            nextControl >= pattern.controls.count, frame >= endFrame
        else { return false }
        return true
    }

    /// The frame and reason with which the instance ends at the end of a stretch rendered up to `frame`,
    /// or nil while it goes on: playing and done → (max(end, last voice end), finished); stopping with
    /// no voices left → (max(min(stop, frame), last voice end), endReason).
    func ending(at frame: Int) -> (frame: Int, reason: PlayerNotification.Reason)? {
        switch phase {
        case .playing:
            return isDone(at: frame) ? (max(endFrame, lastVoiceEnd), .finished) : nil
        case .stopping:
            return voiceCount == 0 ? (max(min(stopFrame, frame), lastVoiceEnd), endReason) : nil
        case .idle, .scheduled, .paused:
            return nil
        }
    }

    // MARK: - Transport

    /// A requested stop is due at `now`: the position freezes and the instance fades out (`.stopping`).
    mutating func beginStopping(at now: Int) {
        heldSeconds = reportedPosition(at: now)
        phase = .stopping
    }

    /// A playing instance pauses at `now`: its position freezes (`.paused`).
    mutating func pause(at now: Int) {
        heldSeconds = reportedPosition(at: now)
        pauseFrame = now
        phase = .paused
    }

    /// Shifts every frame-valued field of the schedule by `delta` frames (a resume after a pause of
    /// `delta` frames); `.max` (never) stays `.max`.
    mutating func shiftSchedule(by delta: Int) {
        @inline(__always) func shifted(_ f: Int) -> Int { f == .max ? .max : f + delta }
        anchorFrame += delta
        loopOrigin += delta
        loopWrapFrame = shifted(loopWrapFrame)
        nextEventFrame = shifted(nextEventFrame)
        nextControlFrame = shifted(nextControlFrame)
        endFrame += delta
    }

    /// Moves a playing instance to pattern position `seconds` (the loop start when looping and `seconds` is at
    /// or past the loop end) at frame `now`:
    /// the next event is the first at or after the offset, controls restart from the first (the caller
    /// replays them up to the offset). Without a loop, an offset at or past the duration ends it instead
    /// (`.stopping`, reason `.finished`).
    /// - Returns: false when it ended (or has no pattern).
    mutating func seek(to seconds: Double, at now: Int) -> Bool {
        guard let pattern else { return false }
        let x = seekTarget(seconds)
        if loopSeconds == 0, x >= pattern.duration {
            heldSeconds = pattern.duration
            stopFrame = now
            endReason = .finished
            phase = .stopping
            return false
        }
        setOrigin(frame: now, seconds: x)
        endFrame = frame(at: pattern.duration)
        // Events from the offset on (those already under way are not started part-way).
        var first = 0
        var last = pattern.events.count
        while first < last {
            let mid = (first + last) / 2
            if pattern.events[mid].time < x { first = mid + 1 } else { last = mid }
        }
        nextEvent = first
        refreshNextEvent()
        nextControl = 0
        refreshNextControl()
        return true
    }

    /// Makes (`frame`, position there) the anchor with a new rate, and re-times everything not yet
    /// played: the next event and control, the loop seam and the pattern end (pattern ramps in progress
    /// are the caller's: their new end frame is `frame(at: endTime)`).
    mutating func reanchor(at frame: Int, framesPerSecond fps: Double) {
        let position = self.position(at: frame)
        anchorFrame = frame
        anchorSeconds = position
        framesPerSecond = fps
        if loopSeconds > 0 {
            loopOrigin = frame
            loopOriginSeconds = position
            loopIndex = 0
            loopWrapFrame = loopStart(1)
        }
        refreshNextEvent()
        refreshNextControl()
        refreshEndFrame()
    }

    /// Sets the loop end (`loopEnd`: negative = off, 0 = the duration, else seconds) at frame `now`.
    /// Scheduled: the loop for the start. Playing or paused at position p: off lets the current pass run on
    /// to the pattern's end; a loop end > p ends the current pass there (timed from the current anchor,
    /// nothing moves); a loop end ≤ p restarts the pattern at 0 now (playing: a seam at `now`; paused:
    /// a seek to 0 at the resume).
    /// - Returns: true when a seam happens at `now` (the caller fades the continuous voices).
    mutating func changeLoop(to loopEnd: Double, at now: Int) -> Bool {
        guard let pattern else { return false }
        let length = Self.loopLength(loopEnd, duration: pattern.duration, framesPerSecond: framesPerSecond)
        var seam = false
        switch phase {
        case .scheduled:
            loopSeconds = length
        case .playing, .paused:
            let paused = phase == .paused
            let frame = paused ? pauseFrame : now
            let position = paused ? heldSeconds : self.position(at: frame)
            loopSeconds = length
            if length == 0 {
                // The current pass runs on to the pattern's end.
                loopWrapFrame = .max
                endFrame = self.frame(at: pattern.duration)
            } else if position < length {
                // The current pass ends at the new loop end, timed from the current anchor (nothing moves).
                loopOrigin = anchorFrame
                loopOriginSeconds = anchorSeconds
                loopIndex = 0
                loopWrapFrame = loopStart(1)
            } else if paused {
                loopCount += 1
                seekPending = true
                seekSeconds = 0
                return false
            } else {
                // Past the new loop end: a seam now, and the pattern restarts at 0.
                loopCount += 1
                setOrigin(frame: now, seconds: 0)
                nextEvent = 0
                nextControl = 0
                seam = true
            }
            refreshNextEvent()
            refreshNextControl()
        case .idle, .stopping:
            break
        }
        return seam
    }
}
