import Foundation
import Testing
import Thrum
import ThrumTestSupport

/// Commands address one instance of a player (slot + generation), nothing is dropped silently, and a
/// batch of commands is queued whole or not at all (issue 12). Offline engines at 8 kHz, L,R,H.
@Suite struct InstanceAddressingTests {
    var intensityZero: CHHapticDynamicParameter {
        CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 0, relativeTime: 0)
    }

    /// Renders `frames` frames (0: only hands the queued commands to the renderer), delivering callbacks
    /// or not (then the slot table is not updated).
    func renderRaw(_ engine: CHHapticEngine, frames: Int, callbacks: Bool) throws {
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1) * 3)
        defer { buffer.deallocate() }
        try engine.renderOffline(frameCount: frames, into: buffer, deliverCallbacks: callbacks)
    }

    // MARK: Stale commands

    /// A's parameter change due at 0.5 s, then A stops at 0.1 s and B starts in the freed slot: B keeps
    /// its full level past 0.5 s.
    @Test func parameterQueuedForAnEndedInstanceNeverReachesTheNextOne() throws {
        let engine = try offlineEngine()
        let pattern = try CHHapticPattern(events: [continuous(at: 0, duration: 1)], parameters: [])
        let a = try engine.makePlayer(with: pattern)
        let b = try engine.makePlayer(with: pattern)
        try a.start(atTime: 0)
        try a.sendParameters([intensityZero], atTime: 0.5)
        try a.stop(atTime: 0.1)
        _ = try render(engine, frames: 1280)  // A ends 5 ms after frame 800; its slot is free again
        try b.start(atTime: CHHapticTimeImmediate)  // frame 1280
        let haptic = channel(try render(engine, frames: 6720), 2, of: 3)  // frames 1280 ..< 8000
        #expect(peak(haptic, 3000..<4000) > 0.5, "B was silenced at 0.5 s by A's change")
    }

    @Test func curveQueuedForAnEndedInstanceNeverReachesTheNextOne() throws {
        let engine = try offlineEngine()
        let pattern = try CHHapticPattern(events: [continuous(at: 0, duration: 1)], parameters: [])
        let a = try engine.makePlayer(with: pattern)
        let b = try engine.makePlayer(with: pattern)
        try a.start(atTime: 0)
        let curve = CHHapticParameterCurve(
            parameterID: .hapticIntensityControl,
            controlPoints: [.init(relativeTime: 0, value: 1), .init(relativeTime: 0.1, value: 0)], relativeTime: 0)
        try a.scheduleParameterCurve(curve, atTime: 0.5)
        try a.stop(atTime: 0.1)
        _ = try render(engine, frames: 1280)
        try b.start(atTime: CHHapticTimeImmediate)
        let haptic = channel(try render(engine, frames: 6720), 2, of: 3)
        #expect(peak(haptic, 4000..<5000) > 0.5, "B was faded out by A's curve")
    }

    /// A seek sent while the control side still believed A played (its end not yet serviced) must not
    /// move B, which starts in the same slot afterwards.
    @Test func seekSentAfterTheEndButBeforeItsNoticeNeverMovesTheNextInstance() throws {
        let engine = try offlineEngine()
        let a = try engine.makeAdvancedPlayer(
            with: CHHapticPattern(events: [continuous(at: 0, duration: 0.05)], parameters: []))
        let b = try engine.makePlayer(with: CHHapticPattern(events: [transient(at: 0), transient(at: 0.3)], parameters: []))
        try a.start(atTime: 0)
        try renderRaw(engine, frames: 2000, callbacks: false)  // A ended at ≈ 400; nobody has read that yet
        try a.seek(toOffset: 0.1)
        try renderRaw(engine, frames: 0, callbacks: true)  // delivers A's end: the slot is free
        try b.start(atTime: CHHapticTimeImmediate)  // frame 2000
        let haptic = channel(try render(engine, frames: 1000), 2, of: 3)
        let onset = firstSound(haptic) ?? -1
        #expect(onset >= 0 && onset <= 1, "B started 0.1 s in: A's seek reached it (first sound at \(onset))")
    }

    /// Mute belongs to an instance: a muted player's slot, reused by an unmuted player, sounds.
    @Test func aNewInstanceInheritsNoMute() throws {
        let engine = try offlineEngine()
        let pattern = try CHHapticPattern(events: [continuous(at: 0, duration: 0.1)], parameters: [])
        let a = try engine.makePlayer(with: pattern)
        let b = try engine.makePlayer(with: pattern)
        try a.start(atTime: 0)
        a.isMuted = true
        _ = try render(engine, frames: 1280)
        try b.start(atTime: CHHapticTimeImmediate)
        let haptic = channel(try render(engine, frames: 800), 2, of: 3)
        #expect(peak(haptic, 0..<800) > 0.5)
    }

    // MARK: Nothing dropped silently

    /// 600 parameter changes queued ahead of rendering all apply: the last one (intensity 0 at 0.5 s)
    /// silences the player from exactly frame 4000.
    @Test func sixHundredQueuedParameterChangesAllApply() throws {
        let engine = try offlineEngine()
        let player = try engine.makePlayer(
            with: CHHapticPattern(events: [continuous(at: 0, duration: 1)], parameters: []))
        try player.start(atTime: 0)
        for i in 0..<599 {
            let value = CHHapticDynamicParameter(
                parameterID: .hapticIntensityControl, value: 1, relativeTime: Double(i) / 8000)
            try player.sendParameters([value], atTime: 0.1)
        }
        try player.sendParameters([intensityZero], atTime: 0.5)
        let haptic = channel(try render(engine, frames: 8000), 2, of: 3)
        #expect(peak(haptic, 3800..<4000) > 0.5)
        #expect(peak(haptic, 4000..<8000) == 0, "the last change was dropped")
    }

    /// Room for `maxPendingParameters` changes waiting for their time: one more is a `resourceNotAvailable`
    /// naming the limit; rendering past their time makes room again, and every accepted change applies.
    @Test func aParameterChangeBeyondTheLimitIsRefusedLoudly() throws {
        let engine = try offlineEngine { $0.maxPendingParameters = 16 }
        let player = try engine.makePlayer(
            with: CHHapticPattern(events: [continuous(at: 0, duration: 1)], parameters: []))
        try player.start(atTime: 0)
        try renderRaw(engine, frames: 0, callbacks: true)
        for i in 0..<16 {
            let value = CHHapticDynamicParameter(
                parameterID: .hapticIntensityControl, value: 0.5, relativeTime: Double(i) / 8000)
            try player.sendParameters([value], atTime: 0.1)
        }
        do {
            try player.sendParameters([intensityZero], atTime: 0.5)
            Issue.record("the 17th change was accepted")
        } catch let error as CHHapticError {
            #expect(error.code == .resourceNotAvailable)
            #expect(error.message.contains("maxPendingParameters = 16"), "\(error.message)")
        }
        let early = channel(try render(engine, frames: 1024), 2, of: 3)  // past 0.1 s: all 16 applied
        #expect(peak(early, 900..<1024) < 0.3, "intensity control 0.5: amplitude 0.25")
        try player.sendParameters([intensityZero], atTime: 0.5)
        let haptic = channel(try render(engine, frames: 8000 - 1024), 2, of: 3)
        #expect(peak(haptic, 3900 - 1024..<4000 - 1024) > 0.15)  // 0.25 × the default gain 0.8
        #expect(peak(haptic, 4000 - 1024..<8000 - 1024) == 0)
    }

    @Test func aCurveLongerThanTheParameterRoomIsRefused() throws {
        let engine = try offlineEngine { $0.maxPendingParameters = 4 }
        let player = try engine.makePlayer(
            with: CHHapticPattern(events: [continuous(at: 0, duration: 1)], parameters: []))
        try player.start(atTime: 0)
        let points = (0..<6).map { CHHapticParameterCurve.ControlPoint(relativeTime: Double($0) * 0.01, value: 0) }
        let curve = CHHapticParameterCurve(parameterID: .hapticIntensityControl, controlPoints: points, relativeTime: 0)
        #expect(throws: CHHapticError.self) { try player.scheduleParameterCurve(curve, atTime: 0) }
        #expect(peak(channel(try render(engine, frames: 2000), 2, of: 3), 1000..<2000) > 0.5)
    }

    @Test func aTransportCommandBeyondTheLimitIsRefusedLoudly() throws {
        let engine = try offlineEngine { $0.maxPendingCommands = 4 }
        let player = try engine.makeAdvancedPlayer(
            with: CHHapticPattern(events: [continuous(at: 0, duration: 1)], parameters: []))
        try player.start(atTime: 0)
        try renderRaw(engine, frames: 0, callbacks: true)
        for i in 0..<4 { try player.pause(atTime: 0.5 + Double(i) * 0.01) }
        do {
            try player.pause(atTime: 0.6)
            Issue.record("the 5th command was accepted")
        } catch let error as CHHapticError {
            #expect(error.code == .resourceNotAvailable)
            #expect(error.message.contains("maxPendingCommands = 4"), "\(error.message)")
        }
        let haptic = channel(try render(engine, frames: 8000), 2, of: 3)
        #expect(peak(haptic, 3900..<4000) > 0.5)
        #expect(peak(haptic, 4100..<8000) == 0, "the first pause at 0.5 s applied")
    }

    // MARK: Latest-value settings

    /// Mute, rate and loop are latest values for an instance: a mute set for an instance that has ended
    /// (its end not yet serviced) never silences the next instance in the slot.
    @Test func aMuteSetForAnEndedInstanceNeverReachesTheNextOne() throws {
        let engine = try offlineEngine()
        let a = try engine.makePlayer(with: CHHapticPattern(events: [continuous(at: 0, duration: 0.05)], parameters: []))
        let b = try engine.makePlayer(with: CHHapticPattern(events: [continuous(at: 0, duration: 1)], parameters: []))
        try a.start(atTime: 0)
        try renderRaw(engine, frames: 2000, callbacks: false)
        a.isMuted = true
        try renderRaw(engine, frames: 0, callbacks: true)
        try b.start(atTime: CHHapticTimeImmediate)
        #expect(peak(channel(try render(engine, frames: 1000), 2, of: 3), 100..<1000) > 0.5)
    }

    /// Setters never need room in a queue: a thousand rate changes between two periods all land, the
    /// last one wins.
    @Test func settersAreLatestValuesThatNeverOverflow() throws {
        let engine = try offlineEngine()
        let player = try engine.makeAdvancedPlayer(
            with: CHHapticPattern(events: [transient(at: 0), transient(at: 0.5)], parameters: []))
        try player.start(atTime: 0)
        for i in 0..<1000 { player.playbackRate = Float(1 + i % 3) }
        player.playbackRate = 2  // the second transient at 0.25 s engine time
        let haptic = channel(try render(engine, frames: 4000), 2, of: 3)
        let second = try #require(firstSound(Array(haptic[400...]))) + 400
        #expect(second == 2000 || second == 2001)
    }

    // MARK: All or nothing

    /// Hands what is queued to the renderer, then queues `stop(atTime: 100)` on `player` until the engine
    /// refuses one; returns how many it took (the queue's whole room).
    func fillCommandQueue(of engine: CHHapticEngine, with player: any CHHapticPatternPlayer) throws -> Int {
        try renderRaw(engine, frames: 0, callbacks: true)
        var accepted = 0
        while accepted < 100_000 {
            do { try player.stop(atTime: 100) } catch { break }
            accepted += 1
        }
        return accepted
    }

    /// With room for one command less than a curve needs, the curve is refused whole: nothing of it
    /// applies (before: its first pieces were queued, then the call threw).
    @Test func aCurveThatDoesNotFitIsRefusedWhole() throws {
        let engine = try offlineEngine()
        let player = try engine.makePlayer(
            with: CHHapticPattern(events: [continuous(at: 0, duration: 10)], parameters: []))
        try player.start(atTime: 0)
        let room = try fillCommandQueue(of: engine, with: player)
        #expect(room > 2)
        try renderRaw(engine, frames: 0, callbacks: true)  // the render side takes them: the queue is empty again
        for _ in 0..<(room - 2) { try player.stop(atTime: 100) }
        let curve = CHHapticParameterCurve(
            parameterID: .hapticIntensityControl,
            controlPoints: [.init(relativeTime: 0, value: 0), .init(relativeTime: 0.1, value: 0), .init(relativeTime: 0.2, value: 0)],
            relativeTime: 0)
        #expect(throws: CHHapticError.self) { try player.scheduleParameterCurve(curve, atTime: 0) }
        let haptic = channel(try render(engine, frames: 4000), 2, of: 3)
        #expect(peak(haptic, 3000..<4000) > 0.5, "part of a refused curve was applied")
    }

    /// Room for `free` commands left, then B (a 1 s continuous event at full intensity) is started:
    /// returns whether the start was accepted and B's haptic peak over 1000…2000 frames.
    func startWithRoom(_ free: Int) throws -> (started: Bool, peak: Float) {
        let engine = try offlineEngine()
        let a = try engine.makePlayer(with: CHHapticPattern(events: [continuous(at: 0, duration: 10, intensity: 0)], parameters: []))
        let b = try engine.makePlayer(with: CHHapticPattern(events: [continuous(at: 0, duration: 1)], parameters: []))
        try a.start(atTime: 0)
        let room = try fillCommandQueue(of: engine, with: a)
        try #require(room > free)
        try renderRaw(engine, frames: 0, callbacks: true)
        for _ in 0..<(room - free) { try a.stop(atTime: 100) }
        var started = true
        do { try b.start(atTime: 0) } catch { started = false }
        return (started, peak(channel(try render(engine, frames: 2000), 2, of: 3), 1000..<2000))
    }

    /// A start is queued whole or not at all: with no room it is refused and nothing of B plays; with room
    /// for fewer commands than a start takes it is refused too and B stays silent (before: the start was
    /// queued, its mute command did not fit, the call threw, and B played anyway without a slot-table
    /// entry); from the room a start takes on, it is accepted and B plays.
    @Test func aStartIsQueuedWholeOrNotAtAll() throws {
        var outcomes: [(free: Int, started: Bool, peak: Float)] = []
        for free in 0...8 {
            let (started, peak) = try startWithRoom(free)
            outcomes.append((free, started, peak))
        }
        let needed = try #require(outcomes.first { $0.started }?.free, "no start accepted with room for 8 commands")
        #expect(needed >= 1, "a start with no room at all was accepted")
        for outcome in outcomes {
            #expect(outcome.started == (outcome.free >= needed), "room for \(outcome.free): started \(outcome.started)")
            if outcome.started {
                #expect(outcome.peak > 0.5, "room for \(outcome.free): an accepted start plays")
            } else {
                #expect(outcome.peak == 0, "room for \(outcome.free): a refused start plays nothing of B")
            }
        }
    }
}
