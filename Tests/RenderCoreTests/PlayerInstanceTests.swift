import Testing
import ThrumModel

@testable import RenderCore

// The timing math of one player instance, tested on the type itself. Every expected frame below is
// worked by hand from the rule frame = anchor + round((t − anchorSeconds) × sampleRate / rate), at a
// 1000 Hz engine rate so one frame is one millisecond.

/// Transients at 0 s and 0.25 s, a HapticContinuous at 0.5 s lasting 0.5 s (pattern duration 1 s), and an
/// intensity curve at 0.1 s from 0.2 to 0.8 over 0.2 s (controls: hold 0.2 at 0.1, ramp 0.1 → 0.3, hold 0.8 at 0.3).
private func pattern() throws -> CompiledPattern {
    try compile(
        PatternData(
            events: [
                event(.hapticTransient, 0), event(.hapticTransient, 0.25),
                event(.hapticContinuous, 0.5, duration: 0.5),
            ],
            curves: [
                ParameterCurveData(
                    id: .hapticIntensityControl, time: 0.1,
                    points: [ControlPointData(time: 0, value: 0.2), ControlPointData(time: 0.2, value: 0.8)])
            ]), rate: 1000)
}

/// `pattern()`, alive for the whole run: instances keep only a view of its storage.
private let shared = try! pattern()

/// An instance of `pattern()` started at `start` at playback `rate` (1000 / rate frames per second).
private func started(
    at start: Int, rate: Double = 1, loopEnd: Double = -1, passes: Int = 0
) throws -> PlayerInstance {
    var p = PlayerInstance(
        scheduling: shared.view, generation: 0, at: start, framesPerSecond: 1000 / rate, loopEnd: loopEnd, passes: passes,
        muted: [])
    p.begin()
    return p
}

@Suite("Player instance: timing")
struct PlayerInstanceTimingTests {
    @Test("begin anchors pattern time 0 at the start frame; frames scale with the rate")
    func begin() throws {
        let p = try started(at: 100, rate: 2)  // 500 frames per second
        #expect(p.phase == .playing)
        #expect(p.frame(at: 0.25) == 225)  // 100 + 0.25 × 500
        #expect(p.nextEventFrame == 100)
        #expect(p.nextControlFrame == 150)  // curve at 0.1 s
        #expect(p.endFrame == 600)  // 1 s × 500
        #expect(p.loopWrapFrame == .max)
        #expect(p.position(at: 350) == 0.5)
        #expect(p.frames(forDuration: 0.5) == 250)
    }

    @Test("frames round to the nearest frame (rate 3: 333.3 frames per second)")
    func rounding() throws {
        let p = try started(at: 0, rate: 3)
        #expect(p.frame(at: 0.25) == 83)  // 83.33
        #expect(p.frame(at: 0.5) == 167)  // 166.67
        #expect(p.endFrame == 333)  // 333.33
    }

    @Test("loop starts: round(k × 0.3 s × 1000 / 1.7), no drift over 10 000 iterations")
    func loopStarts() throws {
        let p = try started(at: 0, rate: 1.7, loopEnd: 0.3)
        #expect(p.loopSeconds == 0.3)
        #expect(p.loopStart(1) == 176)  // 176.47
        #expect(p.loopStart(2) == 353)  // 352.94
        #expect(p.loopStart(3) == 529)  // 529.41
        #expect(p.loopStart(10_000) == 1_764_706)  // 1 764 705.88
        #expect(p.loopWrapFrame == 176)
    }

    @Test("loop end 0 is the pattern duration; a loop shorter than a frame is no loop")
    func loopLength() {
        #expect(PlayerInstance.loopLength(0, duration: 1, framesPerSecond: 1000) == 1)
        #expect(PlayerInstance.loopLength(-1, duration: 1, framesPerSecond: 1000) == 0)
        #expect(PlayerInstance.loopLength(0.0009, duration: 1, framesPerSecond: 1000) == 0)
        #expect(PlayerInstance.loopLength(0.001, duration: 1, framesPerSecond: 1000) == 0.001)
    }

    @Test("a seam restarts pattern time 0 at the seam frame; events at or after the loop end never start")
    func seam() throws {
        var p = try started(at: 50, loopEnd: 0.3)
        #expect(p.loopWrapFrame == 350)
        p.crossSeam()
        #expect(p.loopCount == 1)
        #expect(p.anchorFrame == 350 && p.anchorSeconds == 0)
        #expect(p.loopWrapFrame == 650)
        #expect(p.nextEventFrame == 350)
        let first = p.takeNextEvent()
        #expect(first?.time == 0)
        #expect(p.nextEventFrame == 600)  // the transient at 0.25 s
        _ = p.takeNextEvent()
        #expect(p.nextEventFrame == .max)  // 0.5 s lies past the 0.3 s loop end
    }

    @Test("the last of 2 passes ends the loop and runs on to the pattern's end")
    func lastPass() throws {
        var p = try started(at: 50, loopEnd: 0.3, passes: 2)
        p.crossSeam()
        #expect(p.loopSeconds == 0 && p.loopWrapFrame == .max)
        #expect(p.endFrame == 1350)  // 350 + 1 s
        _ = p.takeNextEvent()
        _ = p.takeNextEvent()
        #expect(p.nextEventFrame == 850)  // 0.5 s now plays: 350 + 500
    }

    @Test("one pass means no loop")
    func onePass() throws {
        let p = try started(at: 0, loopEnd: 0.3, passes: 1)
        #expect(p.loopSeconds == 0 && p.loopWrapFrame == .max)
    }

    @Test("pattern controls: a step holds, a ramp slopes from its frame to its end frame")
    func controls() throws {
        var p = try started(at: 0, rate: 2)  // 500 frames per second
        let holdTaken = p.takeNextControl()
        let hold = try #require(holdTaken)
        #expect(hold.lane.value == 0.2 && hold.lane.slope == 0 && hold.lane.anchor == 50)
        let rampTaken = p.takeNextControl()
        let ramp = try #require(rampTaken)
        #expect(ramp.change.isRamp && ramp.lane.anchor == 50)
        #expect(abs(ramp.lane.slope - 0.6 / 100) < 1e-7)  // 0.2 → 0.8 over frames 50 … 150
        #expect(p.nextControlFrame == 150)
        let lastTaken = p.takeNextControl()
        let last = try #require(lastTaken)
        #expect(last.lane.value == 0.8 && last.lane.slope == 0 && last.lane.anchor == 150)
        #expect(p.nextControlFrame == .max)
    }
}

@Suite("Player instance: transport")
struct PlayerInstanceTransportTests {
    @Test("pause freezes the position; resume shifts every scheduled frame by the pause length")
    func pauseShift() throws {
        var p = try started(at: 0)
        _ = p.takeNextEvent()
        p.pause(at: 120)
        #expect(p.phase == .paused && p.pauseFrame == 120)
        #expect(p.heldSeconds == 0.12)
        #expect(p.reportedPosition(at: 500) == 0.12)
        p.phase = .playing
        p.shiftSchedule(by: 80)
        #expect(p.anchorFrame == 80)
        #expect(p.nextEventFrame == 330)  // 250 + 80
        #expect(p.nextControlFrame == 180)  // 100 + 80
        #expect(p.endFrame == 1080)
        #expect(p.loopWrapFrame == .max)  // never stays never
        #expect(p.position(at: 200) == 0.12)
    }

    @Test("seek: anchored at the offset; the next event is the first at or after it")
    func seek() throws {
        var p = try started(at: 0)
        let moved = p.seek(to: 0.3, at: 40)
        #expect(moved)
        #expect(p.anchorFrame == 40 && p.anchorSeconds == 0.3)
        #expect(p.nextEvent == 2 && p.nextEventFrame == 240)  // 0.5 s: 40 + 200
        #expect(p.endFrame == 740)
        #expect(p.nextControl == 0 && p.nextControlFrame == -160)  // controls replay from the first (0.1 s)
        let movedAgain = p.seek(to: 0.25, at: 40)
        #expect(movedAgain)
        #expect(p.nextEvent == 1 && p.nextEventFrame == 40)  // exactly at the offset: starts there
    }

    @Test("seek at or past the end without a loop ends the instance (finished)")
    func seekPastEnd() throws {
        var p = try started(at: 0)
        let stillPlaying = p.seek(to: 1.0, at: 40)
        #expect(!stillPlaying)
        #expect(p.phase == .stopping && p.stopFrame == 40 && p.endReason == .finished)
        #expect(p.heldSeconds == 1.0)
    }

    @Test("seek past the loop end while looping jumps to the loop start (docs/decisions.md, Apple's documentation)")
    func seekPastLoopEnd() throws {
        var p = try started(at: 0, loopEnd: 0.3)
        let moved = p.seek(to: 0.7, at: 40)
        #expect(moved)
        #expect(p.anchorSeconds == 0 && p.anchorFrame == 40)
        #expect(p.nextEvent == 0 && p.nextEventFrame == 40)
        #expect(p.loopWrapFrame == 340)  // 40 + 0.3 s
    }

    @Test("rate change: the position at the change frame becomes the anchor; what is not yet played moves")
    func rateChange() throws {
        var p = try started(at: 1000, loopEnd: 0.3)
        _ = p.takeNextEvent()
        p.reanchor(at: 1100, framesPerSecond: 500)  // rate 1 → 2 at position 0.1 s
        #expect(p.anchorFrame == 1100 && abs(p.anchorSeconds - 0.1) < 1e-12)
        #expect(p.nextEventFrame == 1175)  // 0.25 s: 1100 + 0.15 × 500
        #expect(p.loopWrapFrame == 1200)  // 0.3 s: 1100 + 0.2 × 500
        #expect(p.loopStart(2) == 1350)  // 1100 + (0.6 − 0.1) × 500
        #expect(p.endFrame == 1550)  // 1 s: 1100 + 0.9 × 500
    }

    @Test("loop change ahead of the position: the pass ends at the new loop end, nothing moves")
    func loopAhead() throws {
        var p = try started(at: 0)
        let seam = p.changeLoop(to: 0.3, at: 200)
        #expect(!seam)
        #expect(p.loopWrapFrame == 300 && p.anchorFrame == 0)
    }

    @Test("loop change behind the position: a seam now and the pattern restarts at 0")
    func loopBehind() throws {
        var p = try started(at: 0)
        let seam = p.changeLoop(to: 0.1, at: 200)
        #expect(seam)
        #expect(p.loopCount == 1)
        #expect(p.anchorFrame == 200 && p.anchorSeconds == 0)
        #expect(p.loopWrapFrame == 300)
        #expect(p.nextEvent == 0 && p.nextEventFrame == 200)
    }

    @Test("loop change behind the paused position: a seek to 0 waits for the resume")
    func loopBehindPaused() throws {
        var p = try started(at: 0)
        p.pause(at: 200)
        let seam = p.changeLoop(to: 0.1, at: 300)
        #expect(!seam)
        #expect(p.loopCount == 1 && p.seekPending && p.seekSeconds == 0)
        #expect(p.reportedPosition(at: 300) == 0)
    }

    @Test("loop off: the current pass runs on to the pattern's end")
    func loopOff() throws {
        var p = try started(at: 0, loopEnd: 0.3)
        p.crossSeam()
        let seam = p.changeLoop(to: -1, at: 400)
        #expect(!seam)
        #expect(p.loopSeconds == 0 && p.loopWrapFrame == .max)
        #expect(p.endFrame == 1300)  // anchored at the seam, 300
    }

    @Test("reported position: clamped to the pattern or the loop; a pending seek shows where it lands")
    func reportedPosition() throws {
        var p = try started(at: 100)
        #expect(p.reportedPosition(at: 50) == 0)
        #expect(p.reportedPosition(at: 600) == 0.5)
        #expect(p.reportedPosition(at: 5000) == 1.0)
        var scheduled = PlayerInstance(
            scheduling: shared.view, generation: 0, at: 0, framesPerSecond: 1000, loopEnd: 0.3, passes: 0, muted: [])
        scheduled.seekPending = true
        scheduled.seekSeconds = 0.7
        #expect(scheduled.reportedPosition(at: 0) == 0)  // past the 0.3 s loop end: the loop start
        p.beginStopping(at: 350)
        #expect(p.phase == .stopping && p.reportedPosition(at: 900) == 0.25)
        #expect(PlayerInstance().reportedPosition(at: 900) == 0)
    }

    @Test("ending: done at max(pattern end, last voice end); a stop ends when its voices are gone")
    func ending() throws {
        var p = try started(at: 0)
        for _ in 0..<3 { _ = p.takeNextEvent() }
        for _ in 0..<3 { _ = p.takeNextControl() }
        #expect(p.ending(at: 999) == nil)  // before the pattern's end (1000)
        p.lastVoiceEnd = 1020
        #expect(p.ending(at: 1000)?.frame == 1020 && p.ending(at: 1000)?.reason == .finished)
        p.voiceCount = 1
        #expect(p.ending(at: 1100) == nil)  // a voice still sounds
        var s = try started(at: 0)
        s.stopFrame = 500
        s.beginStopping(at: 500)
        s.lastVoiceEnd = 520
        #expect(s.ending(at: 700)?.frame == 520 && s.ending(at: 700)?.reason == .stopped)
        s.lastVoiceEnd = 0
        #expect(s.ending(at: 450)?.frame == 450 && s.ending(at: 450)?.reason == .stopped)  // min(stop, block end)
    }

    @Test("the next due frame: start when scheduled, earliest of event, control, stop and seam when playing")
    func nextDue() throws {
        let scheduled = PlayerInstance(
            scheduling: shared.view, generation: 0, at: 77, framesPerSecond: 1000, loopEnd: -1, passes: 0, muted: [])
        #expect(scheduled.nextDueFrame == 77)
        var p = try started(at: 0, loopEnd: 0.3)
        _ = p.takeNextEvent()
        #expect(p.nextDueFrame == 100)  // the control at 0.1 s
        for _ in 0..<3 { _ = p.takeNextControl() }
        #expect(p.nextDueFrame == 250)  // the transient at 0.25 s
        _ = p.takeNextEvent()
        #expect(p.nextDueFrame == 300)  // the seam
        p.stopFrame = 280
        #expect(p.nextDueFrame == 280)
        #expect(PlayerInstance().nextDueFrame == .max)
    }
}
