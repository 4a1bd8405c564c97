// The advanced-player transport of `Renderer`: pause, resume, seek, playback rate and loop changes,
// applied at exact frames from a fixed command list. Render thread only; no allocation, locks or I/O.
import Synchronization

extension Renderer {
    /// Queues a transport command; false when the slot is out of range or the list is full.
    func enqueue(_ slot: Int, _ kind: TransportCommand.Kind, _ atFrame: UInt64, _ value: Double) -> Bool {
        guard slot >= 0, slot < configuration.maxPlayers else { return false }
        guard commandCount < configuration.maxPendingCommands else {
            statistics.droppedCommandCount.add(1, ordering: .relaxed)
            return false
        }
        commands[commandCount] = TransportCommand(
            slot: slot, kind: kind, frame: max(Int(clamping: atFrame), Int(currentFrame)), sequence: commandSequence,
            value: value)
        commandSequence &+= 1
        commandCount += 1
        return true
    }

    /// Applies due commands in (frame, sequence) order and removes them.
    func applyCommands(_ now: Int) {
        while true {
            var best = -1
            for i in 0..<commandCount where commands[i].frame <= now {
                if best < 0 || commands[i].frame < commands[best].frame
                    || (commands[i].frame == commands[best].frame && commands[i].sequence < commands[best].sequence)
                {
                    best = i
                }
            }
            if best < 0 { return }
            let c = commands[best]
            commandCount -= 1
            commands[best] = commands[commandCount]
            switch c.kind {
            case .pause: pause(c.slot, at: now)
            case .resume: resume(c.slot, at: now)
            case .seek: seek(c.slot, to: c.value, at: now)
            case .rate: changeRate(c.slot, to: c.value, at: now)
            case .loop: changeLoop(c.slot, to: c.value, at: now)
            }
        }
    }

    /// Loop length in pattern seconds for a `loopEnd` (negative = none, 0 = the duration);
    /// 0 (no loop) when shorter than one frame.
    func loopLength(_ loopEnd: Double, pattern: CompiledPattern, framesPerSecond: Double) -> Double {
        guard loopEnd >= 0 else { return 0 }
        let seconds = loopEnd > 0 ? loopEnd : pattern.duration
        return seconds * framesPerSecond >= 1 ? seconds : 0
    }

    /// The position reported for a slot at engine frame `frame`.
    func reportedSeconds(_ slot: Int, _ frame: Int) -> Double {
        let p = players[slot]
        switch p.phase {
        case .idle:
            return 0
        case .scheduled:
            return p.seekPending ? wrappedOffset(slot, p.seekSeconds) : 0
        case .paused:
            return p.seekPending ? wrappedOffset(slot, p.seekSeconds) : p.heldSeconds
        case .stopping:
            return p.heldSeconds
        case .playing:
            let seconds = max(p.position(at: frame), 0)
            if p.loopSeconds > 0 { return min(seconds, p.loopSeconds) }
            return min(seconds, p.pattern?.duration ?? 0)
        }
    }

    /// A seek offset wrapped into the loop (when looping).
    func wrappedOffset(_ slot: Int, _ seconds: Double) -> Double {
        let loop = players[slot].loopSeconds
        return loop > 0 && seconds >= loop ? seconds.truncatingRemainder(dividingBy: loop) : seconds
    }

    // MARK: Pause and resume

    func pause(_ slot: Int, at now: Int) {
        guard players[slot].phase == .playing else { return }
        players[slot].heldSeconds = reportedSeconds(slot, now)
        players[slot].pauseFrame = now
        // Remember continuous voices (not already fading) to continue them at the resume.
        for i in 0..<voiceCount where voices[i].player == slot {
            let v = voices[i]
            guard v.kind != .transient, v.fadeSlope == 0, v.age < v.end else { continue }
            guard parkedCount < configuration.maxVoices else {
                statistics.overflows.add(1, ordering: .relaxed)
                continue
            }
            parked[parkedCount] = v
            parkedCount += 1
        }
        stopVoices(slot)
        players[slot].phase = .paused
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
        @inline(__always) func shifted(_ f: Int) -> Int { f == .max ? .max : f + delta }
        players[slot].anchorFrame += delta
        players[slot].loopOrigin += delta
        players[slot].loopWrapFrame = shifted(players[slot].loopWrapFrame)
        players[slot].nextEventFrame = shifted(players[slot].nextEventFrame)
        players[slot].nextControlFrame = shifted(players[slot].nextControlFrame)
        players[slot].endFrame += delta
        for lane in 0..<ControlLane.count where laneSources[slot * ControlLane.count + lane].fromPattern {
            lanes[slot * ControlLane.count + lane].anchor += delta
        }
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
                statistics.overflows.add(1, ordering: .relaxed)
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

    func dropParked(_ slot: Int) {
        var kept = 0
        for i in 0..<parkedCount where parked[i].player != slot {
            if kept != i { parked[kept] = parked[i] }
            kept += 1
        }
        parkedCount = kept
    }

    func dropCommands(_ slot: Int) {
        var i = 0
        while i < commandCount {
            if commands[i].slot == slot {
                commandCount -= 1
                commands[i] = commands[commandCount]
            } else {
                i += 1
            }
        }
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

    /// Moves a playing player to pattern position `seconds` at frame `now`.
    func applySeek(_ slot: Int, _ seconds: Double, at now: Int) {
        guard let pattern = players[slot].pattern else { return }
        stopVoices(slot)
        let x = wrappedOffset(slot, seconds)
        if players[slot].loopSeconds == 0, x >= pattern.duration {
            players[slot].heldSeconds = pattern.duration
            players[slot].stopFrame = now
            players[slot].endReason = .finished
            players[slot].phase = .stopping
            return
        }
        players[slot].anchorFrame = now
        players[slot].anchorSeconds = x
        players[slot].loopOrigin = now
        players[slot].loopOriginSeconds = x
        players[slot].loopIndex = 0
        players[slot].loopWrapFrame = players[slot].loopSeconds > 0 ? players[slot].loopStart(1) : .max
        players[slot].endFrame = players[slot].frame(at: pattern.duration)
        // Events from the offset on (those already under way are not started part-way).
        var first = 0
        var last = pattern.events.count
        while first < last {
            let mid = (first + last) / 2
            if pattern.events[mid].time < x { first = mid + 1 } else { last = mid }
        }
        players[slot].nextEvent = first
        refreshNextEvent(slot)
        // Controls: reset the lanes the pattern uses, then replay every step and curve piece up to the offset.
        var used = 0
        for change in pattern.controls { used |= 1 << change.lane.rawValue }
        for lane in ControlLane.allCases where used & (1 << lane.rawValue) != 0 {
            let index = slot * ControlLane.count + lane.rawValue
            lanes[index] = Lane(value: lane.defaultValue, slope: 0, anchor: now)
            laneSources[index] = LaneSource()
        }
        players[slot].nextControl = 0
        refreshNextControl(slot)
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
            reanchor(slot, at: now, framesPerSecond: fps)
            advance(slot, now)
        case .paused:
            reanchor(slot, at: players[slot].pauseFrame, framesPerSecond: fps)
        case .idle, .stopping:
            break
        }
    }

    /// Makes (frame, position there) the anchor with a new rate, and re-times everything not yet played:
    /// the next event and control, pattern ramps in progress, the loop seam and the pattern end.
    func reanchor(_ slot: Int, at frame: Int, framesPerSecond fps: Double) {
        let position = players[slot].position(at: frame)
        players[slot].anchorFrame = frame
        players[slot].anchorSeconds = position
        players[slot].framesPerSecond = fps
        if players[slot].loopSeconds > 0 {
            players[slot].loopOrigin = frame
            players[slot].loopOriginSeconds = position
            players[slot].loopIndex = 0
            players[slot].loopWrapFrame = players[slot].loopStart(1)
        }
        refreshNextEvent(slot)
        refreshNextControl(slot)
        if let pattern = players[slot].pattern { players[slot].endFrame = players[slot].frame(at: pattern.duration) }
        for lane in 0..<ControlLane.count {
            let index = slot * ControlLane.count + lane
            let source = laneSources[index]
            guard source.fromPattern, source.isRamp else { continue }
            let value = lanes[index].at(frame)
            let end = players[slot].frame(at: source.endTime)
            let slope = end > frame ? (source.endValue - value) / Float(end - frame) : 0
            lanes[index] = Lane(value: value, slope: slope, anchor: frame)
        }
    }

    func changeLoop(_ slot: Int, to loopEnd: Double, at now: Int) {
        guard let pattern = players[slot].pattern else { return }
        let length = loopLength(loopEnd, pattern: pattern, framesPerSecond: players[slot].framesPerSecond)
        switch players[slot].phase {
        case .scheduled:
            players[slot].loopSeconds = length
        case .playing, .paused:
            let paused = players[slot].phase == .paused
            let frame = paused ? players[slot].pauseFrame : now
            let position = paused ? players[slot].heldSeconds : players[slot].position(at: frame)
            players[slot].loopSeconds = length
            if length == 0 {
                // The current pass runs on to the pattern's end.
                players[slot].loopWrapFrame = .max
                players[slot].endFrame = players[slot].frame(at: pattern.duration)
            } else if position < length {
                // The current pass ends at the new loop end, timed from the current anchor (nothing moves).
                players[slot].loopOrigin = players[slot].anchorFrame
                players[slot].loopOriginSeconds = players[slot].anchorSeconds
                players[slot].loopIndex = 0
                players[slot].loopWrapFrame = players[slot].loopStart(1)
            } else if paused {
                players[slot].loopCount += 1
                players[slot].seekPending = true
                players[slot].seekSeconds = 0
                return
            } else {
                // Past the new loop end: a seam now, and the pattern restarts at 0.
                players[slot].loopCount += 1
                players[slot].anchorFrame = now
                players[slot].anchorSeconds = 0
                players[slot].loopOrigin = now
                players[slot].loopOriginSeconds = 0
                players[slot].loopIndex = 0
                players[slot].loopWrapFrame = players[slot].loopStart(1)
                players[slot].nextEvent = 0
                players[slot].nextControl = 0
                fadeAtSeam(slot)
            }
            refreshNextEvent(slot)
            refreshNextControl(slot)
            if !paused { advance(slot, now) }
        case .idle, .stopping:
            break
        }
    }
}
