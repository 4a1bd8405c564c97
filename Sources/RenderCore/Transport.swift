// The advanced-player transport of `Renderer`: pause, resume, seek, playback rate and loop changes,
// queued for exact frames in a fixed command list and applied when due. The timing math is
// `PlayerInstance`'s; this file adds the voices (fades, parked voices) and the lanes.
// Render thread only; no allocation, locks or I/O.

/// A transport command waiting for its frame (for the slot's current instance: `finish` removes the
/// entries of an instance that ends).
struct TransportCommand: DueEntry, BitwiseCopyable {
    /// What the command does (`value` is its argument).
    enum Kind: UInt8 {
        case pause, resume, seek, rate, loop
    }
    /// Player slot, 0 ..< maxPlayers.
    var slot: Int
    /// The instance's generation (checked when queued).
    var generation: UInt32
    var kind: Kind
    /// Engine frame at which it applies.
    var frame: Int
    /// Seek offset (s, ≥ 0), playback rate (> 0), or loop end (s; negative = loop off, 0 = the duration).
    var value: Double
    var sequence: Int = 0
}

extension Renderer {
    // MARK: - Commands (render thread, between render calls)

    /// Pauses the player at engine frame `atFrame` (earlier = now). At that frame its pattern position,
    /// its pattern's controls (steps and curves) and its loop freeze; all its sounding voices fade out over
    /// `stopFadeSeconds` (no click). It keeps its slot in phase `.paused` until `resumePlayer` or `stopPlayer`.
    /// The HapticContinuous, AudioContinuous and AudioCustom voices sounding at the pause (release tails
    /// included) are remembered and continue at the resume; transients are not.
    /// Ignored (when due) unless the player is playing.
    /// - Returns: false when the instance is not current (dropped) or the command list is full.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    package func pausePlayer(_ instance: InstanceID, atFrame: UInt64) -> Bool {
        enqueue(instance, .pause, atFrame, 0)
    }

    /// Resumes a paused player at engine frame `atFrame` (earlier = now): from that frame the pattern
    /// continues from the paused position. Continuous voices under way at the pause (HapticContinuous,
    /// AudioContinuous, AudioCustom) continue from where they paused — envelope position, remaining
    /// duration, oscillator phase and file position — with a linear fade-in over `stopFadeSeconds`.
    /// Transients under way at the pause are not restarted. A seek made while paused is applied here instead.
    /// A resume at or before the frame of a pending pause cancels that pause.
    /// - Returns: false when the instance is not current (dropped) or the command list is full.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    package func resumePlayer(_ instance: InstanceID, atFrame: UInt64) -> Bool {
        if isCurrent(instance) {
            let frame = max(Int(clamping: atFrame), Int(currentFrame))
            commands.removeAll { $0.slot == instance.slot && $0.kind == .pause && $0.frame >= frame }
        }
        return enqueue(instance, .resume, atFrame, 0)
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
    /// An offset ≥ the loop length while looping jumps to the loop start (0); an offset ≥ the pattern
    /// duration without a loop ends the player (its voices fade, then a `.finished` notification).
    /// Negative or NaN offsets mean 0.
    /// - Returns: false when the instance is not current (dropped) or the command list is full.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    package func seekPlayer(_ instance: InstanceID, toOffset seconds: Double, atFrame: UInt64) -> Bool {
        enqueue(instance, .seek, atFrame, seconds.isNaN ? 0 : max(seconds, 0))
    }

    /// Changes the playback rate from engine frame `atFrame` (earlier = now): pattern time advances at
    /// `rate` from there on. The position at that frame becomes the new anchor, so everything not yet
    /// played (event onsets, controls and curve pieces in progress, the loop seam) moves; nothing already
    /// played moves, and sounding voices keep their lengths. Oscillator frequency and audio pitch never
    /// change. While scheduled it sets the start rate; while paused it applies from the pause position.
    /// - Returns: false (ignored) when `rate` ≤ 0 or not finite, the instance is not current or the command
    ///   list is full. A rate that would make the current loop shorter than one frame is ignored when due.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    package func setPlaybackRate(_ instance: InstanceID, rate: Double, atFrame: UInt64) -> Bool {
        enqueue(instance, .rate, atFrame, rate, valid: rate > 0 && rate.isFinite)
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
    /// - Returns: false when ignored (negative loopEnd, instance not current, command list full).
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    package func setLoop(_ instance: InstanceID, loopEnd: Double?, atFrame: UInt64) -> Bool {
        let valid = loopEnd.map { $0 >= 0 && $0.isFinite } ?? true
        return enqueue(instance, .loop, atFrame, loopEnd ?? -1, valid: valid)
    }

    /// Changes the playback rate at `currentFrame`, at once: as `setPlaybackRate(_:rate:atFrame:)` for the
    /// current frame, but not queued (it needs no room in the command list) and applied before anything
    /// else due at that frame. For latest-value settings applied between blocks.
    /// - Returns: false (ignored) when `rate` ≤ 0 or not finite or the instance is not current.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    package func setPlaybackRateNow(_ instance: InstanceID, rate: Double) -> Bool {
        guard rate > 0, rate.isFinite, isCurrent(instance) else { return false }
        changeRate(instance.slot, to: rate, at: Int(currentFrame))
        return true
    }

    /// Sets the loop at `currentFrame`, at once: as `setLoop(_:loopEnd:atFrame:)` for the current frame,
    /// but not queued and applied before anything else due at that frame.
    /// - Returns: false (ignored) for a negative loopEnd or an instance that is not current.
    /// - Important: Thread safety: render thread only. Real-time safe: yes.
    @discardableResult
    package func setLoopNow(_ instance: InstanceID, loopEnd: Double?) -> Bool {
        if let loopEnd, !(loopEnd >= 0) || !loopEnd.isFinite { return false }
        guard isCurrent(instance) else { return false }
        changeLoop(instance.slot, to: loopEnd ?? -1, at: Int(currentFrame))
        return true
    }

    /// Counts a transport call and queues its command for max(atFrame, now); false (nothing queued) when
    /// the value is not `valid`, the instance is not current or the list is full.
    func enqueue(
        _ instance: InstanceID, _ kind: TransportCommand.Kind, _ atFrame: UInt64, _ value: Double, valid: Bool = true
    ) -> Bool {
        commandCalls += 1
        guard valid, isCurrent(instance) else { return false }
        let frame = max(Int(clamping: atFrame), Int(currentFrame))
        return commands.append(
            TransportCommand(slot: instance.slot, generation: instance.generation, kind: kind, frame: frame, value: value))
    }

    // MARK: - Applying due commands

    /// Applies the commands due at or before `now` in (frame, sequence) order.
    func applyDueCommands(_ now: Int) {
        while let c = commands.takeEarliest(dueBy: now) {
            switch c.kind {
            case .pause: pause(c.slot, at: now)
            case .resume: resume(c.slot, at: now)
            case .seek: seek(c.slot, to: c.value, at: now)
            case .rate: changeRate(c.slot, to: c.value, at: now)
            case .loop: changeLoop(c.slot, to: c.value, at: now)
            }
        }
    }

    // MARK: Pause and resume

    func pause(_ slot: Int, at now: Int) {
        guard players[slot].phase == .playing else { return }
        // Remember continuous voices (not already fading) to continue them at the resume.
        for i in 0..<voiceCount where voices[i].player == slot {
            let v = voices[i]
            guard v.kind != .transient, v.fadeSlope == 0, v.age < v.end else { continue }
            guard parkedCount < configuration.maxVoices else {
                statistics.countVoiceOverflow()
                continue
            }
            parked[parkedCount] = v
            parkedCount += 1
        }
        stopVoices(slot)
        players[slot].pause(at: now)
    }

    func resume(_ slot: Int, at now: Int) {
        guard players[slot].phase == .paused else { return }
        players[slot].phase = .playing
        if players[slot].seekPending {
            players[slot].seekPending = false
            dropParked(slot)
            applySeek(slot, players[slot].seekSeconds, at: now)
            return
        }
        // Shift the whole schedule by the pause length: the pattern continues exactly where it paused.
        let delta = now - players[slot].pauseFrame
        players[slot].shiftSchedule(by: delta)
        shiftPatternLanes(slot, by: delta)
        // Continue the remembered voices from their paused state, with a short fade-in.
        var kept = 0
        for i in 0..<parkedCount {
            var v = parked[i]
            if v.player != slot {
                if kept != i { parked[kept] = v }
                kept += 1
                continue
            }
            guard voiceCount < configuration.maxVoices else {
                statistics.countVoiceOverflow()
                continue
            }
            v.onset = now - v.age
            v.beginFadeIn(frames: stopFadeFrames)
            voices[voiceCount] = v
            voiceCount += 1
            players[slot].voiceCount += 1
            logOnset(slot, -1, now, v.kind, resumed: true)
        }
        parkedCount = kept
        advance(slot, now)
    }

    /// Forgets the parked (paused) voices of `slot`.
    func dropParked(_ slot: Int) {
        var kept = 0
        for i in 0..<parkedCount where parked[i].player != slot {
            if kept != i { parked[kept] = parked[i] }
            kept += 1
        }
        parkedCount = kept
    }

    // MARK: Seek

    func seek(_ slot: Int, to seconds: Double, at now: Int) {
        switch players[slot].phase {
        case .scheduled, .paused:
            players[slot].seekPending = true
            players[slot].seekSeconds = seconds
        case .playing:
            applySeek(slot, seconds, at: now)
        case .idle, .stopping:
            break
        }
    }

    /// Moves a playing player to pattern position `seconds` at frame `now`: its voices fade, the lanes
    /// its pattern uses are reset and its controls replayed up to the offset.
    func applySeek(_ slot: Int, _ seconds: Double, at now: Int) {
        guard let pattern = players[slot].pattern else { return }
        stopVoices(slot)
        guard players[slot].seek(to: seconds, at: now) else { return }
        resetPatternLanes(slot, pattern: pattern, at: now)
        advance(slot, now)
    }

    // MARK: Rate and loop

    func changeRate(_ slot: Int, to rate: Double, at now: Int) {
        let fps = sampleRate / rate
        let loop = players[slot].loopSeconds
        if loop > 0, loop * fps < 1 { return }  // the loop would be shorter than a frame
        switch players[slot].phase {
        case .scheduled:
            players[slot].framesPerSecond = fps
        case .playing:
            players[slot].reanchor(at: now, framesPerSecond: fps)
            reslopePatternRamps(slot, at: now)
            advance(slot, now)
        case .paused:
            let frame = players[slot].pauseFrame
            players[slot].reanchor(at: frame, framesPerSecond: fps)
            reslopePatternRamps(slot, at: frame)
        case .idle, .stopping:
            break
        }
    }

    func changeLoop(_ slot: Int, to loopEnd: Double, at now: Int) {
        if players[slot].changeLoop(to: loopEnd, at: now) { fadeAtSeam(slot, now) }
        if players[slot].phase == .playing { advance(slot, now) }
    }
}
