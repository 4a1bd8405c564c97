// What `Renderer` does at a frame: scheduled starts, loop seams, pattern controls, due commands and
// parameters, stops, event onsets (voice starts), the next boundary of a block, and players' ends.
// Render thread only; no allocation, locks or I/O.

extension Renderer {
    /// Applies everything due at or before engine frame `now`, in a fixed order: player starts, loop seams
    /// and pattern controls, transport commands, external parameters, stops, then event onsets.
    func processDue(_ now: Int) {
        let playerCount = configuration.maxPlayers
        for slot in 0..<playerCount where players[slot].phase != .idle {
            if players[slot].phase == .scheduled, players[slot].startFrame <= now { beginPlayback(slot) }
            if players[slot].phase == .playing { advance(slot, now) }
        }
        if commands.count > 0 { applyDueCommands(now) }
        if pending.count > 0 { applyDueParameters(now) }
        for slot in 0..<playerCount where players[slot].phase == .playing || players[slot].phase == .paused {
            if players[slot].stopFrame <= now {
                players[slot].beginStopping(at: now)
                dropParked(slot)
                stopVoices(slot)
                continue
            }
            if players[slot].phase == .playing {
                while players[slot].nextEventFrame <= now { startEvent(slot, now) }
            }
        }
    }

    /// The first frame after `now` at which something is due (a block is rendered in one stretch up to it).
    func nextBoundary(after now: Int) -> Int {
        var next = Int.max
        for slot in 0..<configuration.maxPlayers { next = min(next, players[slot].nextDueFrame) }
        next = min(next, pending.earliestFrame)
        next = min(next, commands.earliestFrame)
        return max(next, now + 1)
    }

    /// Starts a scheduled player at its start frame (applying a pending seek).
    func beginPlayback(_ slot: Int) {
        let start = players[slot].startFrame
        players[slot].begin()
        resetLanes(slot, at: start)
        if players[slot].seekPending {
            players[slot].seekPending = false
            applySeek(slot, players[slot].seekSeconds, at: start)
        }
    }

    /// Loop seams and pattern controls due at or before `now` (playing players).
    func advance(_ slot: Int, _ now: Int) {
        while players[slot].loopWrapFrame <= now {
            players[slot].crossSeam()
            fadeAtSeam(slot)
        }
        while players[slot].nextControlFrame <= now { applyNextControl(slot) }
    }

    /// Fades out every voice of the player over `stopFadeSeconds` from its current frame.
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

    /// Starts the voice for the player's next event at engine frame `now` (counts an overflow when the
    /// voice pool is full).
    func startEvent(_ slot: Int, _ now: Int) {
        guard let pattern = players[slot].pattern, let event = players[slot].takeNextEvent() else { return }
        guard voiceCount < configuration.maxVoices else {
            statistics.countVoiceOverflow()
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
        let durationFrames = players[slot].frames(forDuration: event.duration)
        switch event.kind {
        case .transient:
            let length = pattern.transientFrames
            v.end = length
            v.increment = Float(profile.frequency(sharpness: Double(event.sharpness)) / sampleRate)
            v.windowScale = 0.5 / Float(length)
            v.ignoresIntensityControl = event.ignoresIntensityControl
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

    /// The envelope of a continuous voice: the event's attack/decay/release plus the lanes' values at `now`.
    private func setEnvelope(
        _ v: inout Voice, _ event: CompiledEvent, _ slot: Int, _ now: Int, _ durationFrames: Int,
        _ attackLane: ControlLane, _ decayLane: ControlLane, _ releaseLane: ControlLane
    ) {
        let a = EnvelopeFrames.frames(event.attack + laneValue(slot, attackLane, now), sampleRate: sampleRate)
        let d = EnvelopeFrames.frames(event.decay + laneValue(slot, decayLane, now), sampleRate: sampleRate)
        let r = EnvelopeFrames.frames(event.release + laneValue(slot, releaseLane, now), sampleRate: sampleRate)
        v.setEnvelope(attack: a, decay: d, release: r, duration: durationFrames, sustained: event.sustained)
    }

    /// Ends the players that are done by engine frame `frame` (finished, or stopped and faded out).
    func checkFinished(at frame: Int) {
        for slot in 0..<configuration.maxPlayers {
            if let end = players[slot].ending(at: frame) { finish(slot, frame: end.frame, reason: end.reason) }
        }
    }

    /// Frees the slot: the instance and everything still queued for it (parked voices, transport commands,
    /// parameter changes) are gone, so the slot's next instance inherits nothing. Queues the notification
    /// (counted as dropped when the queue is full).
    func finish(_ slot: Int, frame: Int, reason: PlayerNotification.Reason) {
        let instance = InstanceID(slot: slot, generation: players[slot].generation)
        players[slot] = PlayerInstance()
        dropParked(slot)
        commands.removeAll { $0.slot == slot }
        pending.removeAll { $0.slot == slot }
        if !notifications.push(PlayerNotification(instance: instance, frame: UInt64(frame), reason: reason)) {
            statistics.countDroppedNotification()
        }
    }
}
