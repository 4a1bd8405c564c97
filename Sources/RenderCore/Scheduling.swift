// What `Renderer` does at a frame: scheduled starts, loop seams, pattern controls, due commands and
// parameters, stops, event onsets (voice starts), the next boundary of a block, and players' ends.
// Render thread only; no allocation, locks or I/O.

import ThrumModel

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
            fadeAtSeam(slot, now)
        }
        while players[slot].nextControlFrame <= now { applyNextControl(slot) }
    }

    /// Fades out every voice of the player over `stopFadeSeconds` from its current frame.
    func stopVoices(_ slot: Int) {
        for i in 0..<voiceCount where voices[i].player == slot {
            voices[i].beginFade(frames: stopFadeFrames)
        }
    }

    /// Loop seam at `now`: the player's continuous and audio voices fade out over the 1 ms de-click ramp;
    /// transients ring on. Voices of the new pass rise at least as slowly (every attack lasts at least 1 ms, and
    /// audio files that start within the fade get a ramp to its end), so the sum across the seam never exceeds
    /// the louder of the two passes (docs/decisions.md "Advanced player").
    func fadeAtSeam(_ slot: Int, _ now: Int) {
        for i in 0..<voiceCount where voices[i].player == slot && voices[i].kind != .transient {
            voices[i].beginFade(frames: deClickFrames)
        }
        players[slot].seamFadeEnd = now + deClickFrames
    }

    /// Starts the voices for the player's next event at engine frame `now`: one per bus of the player for a
    /// haptic event, one for an audio event.
    func startEvent(_ slot: Int, _ now: Int) {
        guard let pattern = players[slot].pattern, let event = players[slot].takeNextEvent() else { return }
        reportOnset(slot, event, now)
        guard event.kind == .transient || event.kind == .hapticContinuous || event.kind == .hapticSignal else {
            startVoice(slot, event, pattern, bus: 0, now)
            return
        }
        // A haptic event sounds on each of the player's buses, in bus order; a signal on those of its channel.
        var rest = players[slot].buses
        let actuators = rest.nonzeroBitCount
        var place = 0
        while rest != 0 {
            if event.kind != .hapticSignal || event.signalPlays(onPlace: place, of: actuators) {
                startVoice(slot, event, pattern, bus: rest.trailingZeroBitCount, now)
            }
            place += 1
            rest &= rest &- 1
        }
    }

    /// Reports an event onset at engine frame `now` (`onsetReports`) and schedules its trigger pulse, both at
    /// the frame the event's channel carries it (later by the latency compensation's delay).
    @inline(__always)
    private func reportOnset(_ slot: Int, _ event: CompiledEvent, _ now: Int) {
        let leaves = now + compensation.delay(of: event.kind, bus: players[slot].buses.trailingZeroBitCount)
        compensation.schedulePulse(start: leaves, end: leaves + triggerFrames)
        onsetReports?.push(
            EventOnset(
                instance: InstanceID(slot: slot, generation: players[slot].generation), eventIndex: event.index,
                kind: event.kind, patternTime: event.time, frame: UInt64(leaves), loopPass: players[slot].loopCount))
    }

    /// Writes the trigger pulses' frames among engine frames `from ..< to` (1.0) into `out` (frame `from` at
    /// `out[0]`); the rest stay as they are (0).
    func renderTrigger(from: Int, to: Int, into out: UnsafeMutablePointer<Float>) {
        compensation.writePulses(from: from, to: to, into: out)
    }

    /// Starts one voice of `event` for the player in `slot` at engine frame `now`: on haptic bus `bus` with
    /// that bus's profile (audio voices: `bus` 0). Counts an overflow when the voice pool is full.
    private func startVoice(_ slot: Int, _ event: CompiledEvent, _ pattern: PatternView, bus: Int, _ now: Int) {
        guard voiceCount < configuration.maxVoices else {
            statistics.countVoiceOverflow()
            return
        }
        let profile = pattern.profiles[bus]
        let inverseRate = Float(1 / sampleRate)
        var v = Voice()
        v.kind = event.kind
        v.player = slot
        v.bus = bus
        v.onset = now
        v.inverseRate = inverseRate
        v.gain = Float(profile.gain)
        v.square = profile.law == .square ? 1 : 0
        v.intensity = event.intensity
        v.sharpness = event.sharpness
        let durationFrames = players[slot].frames(forDuration: event.duration)
        v.sampleRate = sampleRate
        v.attackX = event.attack
        v.decayX = event.decay
        v.releaseX = event.release
        if event.kind == .transient || event.kind == .hapticContinuous || event.kind == .hapticSignal {
            v.place = PanPlace(bus: bus, among: players[slot].buses, places: places)
        }
        switch event.kind {
        case .transient:
            let length = profile.transientFrames
            v.end = length
            v.increment = Float(profile.frequency(sharpness: Double(event.sharpness)) / sampleRate)
            if let equalizer = profile.equalizer { v.gain *= equalizerGain(equalizer, sharpness: event.sharpness) }
            v.windowScale = 0.5 / Float(length)
            v.ignoresIntensityControl = event.ignoresIntensityControl
        case .hapticContinuous:
            v.equalizer = profile.equalizer
            v.incrementLow = Float(profile.lowFrequency / sampleRate)
            v.incrementSpan = Float((profile.highFrequency - profile.lowFrequency) / sampleRate)
            v.timeLane = ControlLane.hapticAttack.rawValue
            startEnvelope(&v, event, slot, now, durationFrames)
        case .hapticSignal:
            let buffer = pattern.buffers[event.buffer]
            guard buffer.frameCount > 0 else { return }
            v.intensity = 1
            v.samples = buffer.samples.baseAddress
            v.fileFrames = buffer.frameCount
            v.end = buffer.frameCount
            let buses = players[slot].buses
            let place = (buses & ((1 << bus) - 1)).nonzeroBitCount
            v.signalWeight = event.signalWeight(onPlace: place, of: buses.nonzeroBitCount)
        case .audioContinuous:
            v.volume = event.volume
            v.pan = event.pan
            v.pitch = event.pitch
            v.brightness = event.brightness
            v.lowpassBase = lowpassBase
            v.timeLane = ControlLane.audioAttack.rawValue
            startEnvelope(&v, event, slot, now, durationFrames)
        case .audioCustom:
            let buffer = pattern.buffers[event.buffer]
            guard buffer.frameCount > 0 else { return }
            v.volume = event.volume
            v.pan = event.pan
            v.pitch = event.pitch
            v.brightness = event.brightness
            v.lowpassBase = lowpassBase
            v.timeLane = ControlLane.audioAttack.rawValue
            v.samples = buffer.samples.baseAddress
            v.channels = buffer.channelCount
            v.fileFrames = buffer.frameCount
            v.loop = event.loopEnabled && durationFrames > 0
            v.useEnvelope = event.useVolumeEnvelope
            v.durationFrames = durationFrames
            v.attackGiven = event.attackGiven
            v.releaseGiven = event.releaseGiven
            startFileRamps(&v, event, slot, now)
        }
        voices[voiceCount] = v
        voiceCount += 1
        players[slot].voiceCount += 1
        logOnset(slot, event.index, now, event.kind, resumed: false)
    }

    /// The envelope of a continuous voice, with the times of the event plus the lanes' values at `now`.
    private func startEnvelope(_ v: inout Voice, _ event: CompiledEvent, _ slot: Int, _ now: Int, _ durationFrames: Int) {
        let times = v.times(UnsafePointer(lanes + slot * ControlLane.count), at: now)
        v.envelope = Envelope(
            attack: times.attack, sustained: event.sustained, duration: durationFrames, cutFrames: deClickFrames)
    }

    /// The ramps of an AudioCustom voice (docs/decisions.md "Audio events"): with the volume envelope, an attack of
    /// t(x) when the event gives AttackTime, else the file's de-click ramp; the release is chosen as it plays
    /// (`renderCustom`). Within a seam's fade every new file rises over the rest of the fade, envelope or not.
    private func startFileRamps(_ v: inout Voice, _ event: CompiledEvent, _ slot: Int, _ now: Int) {
        let p = min(max(event.pitch + laneValue(slot, .audioPitch, now), -1), 1)
        let speed = p == 0 ? 1 : Double(fastExp2(p))
        let fileOutput = Int((Double(v.fileFrames) / speed).rounded())
        let played = v.loop ? v.durationFrames : v.durationFrames > 0 ? min(v.durationFrames, fileOutput) : fileOutput
        v.rampLimit = max(1, played / 2)
        v.endRamp = event.endRamp
        v.cutRamp = min(deClickFrames, v.rampLimit)
        var attack = 0
        if v.useEnvelope {
            let given = v.times(UnsafePointer(lanes + slot * ControlLane.count), at: now).attack
            attack = min(event.attackGiven ? given : Int((Double(event.startRamp) / speed).rounded()), v.rampLimit)
        }
        attack = max(attack, players[slot].seamFadeEnd - now)
        v.envelope = Envelope(attack: attack, sustained: true, duration: .max, cutFrames: 1)
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
