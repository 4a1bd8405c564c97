import Foundation
import Testing
import Thrum
import ThrumTestSupport

/// An offline device with channel map `map` at `rate`, its actuators' profiles and positions from `actuators`.
func offlineDevice(_ map: String, rate: Double = 8000, actuators: [Actuator] = []) throws -> GCDeviceHaptics {
    var options = CHHapticEngine.Options()
    options.output = .offline
    options.sampleRate = rate
    options.channelMap = try ChannelMap(parsing: map)
    options.actuators = actuators
    return try GCDeviceHaptics(options: options)
}

/// A bundled pattern (`Resources/Patterns/NAME.ahap`).
func bundledPattern(_ name: String) throws -> CHHapticPattern {
    try CHHapticPattern(contentsOf: packageRoot.appendingPathComponent("Resources/Patterns/\(name).ahap"))
}

/// `pattern` played alone from frame 0 on a one-channel map `H` with `profile`: `frames` frames.
func renderedAlone(_ pattern: CHHapticPattern, profile: ActuatorProfile, rate: Double = 8000, frames: Int) throws -> [Float] {
    let engine = try offlineEngine(rate: rate) {
        $0.channelMap = ChannelMap(sources: [.haptic])
        $0.actuatorProfile = profile
    }
    try engine.makePlayer(with: pattern).start(atTime: 0)
    return try render(engine, frames: frames)
}

/// Several actuators on one card (issue 15): each locality's channel carries its own patterns exactly as
/// they play alone, every engine of a device keeps one clock, and DualSense's layout keeps audio and
/// haptics apart.
@Suite struct MultiActuatorTests {
    @Test("each actuator's channel equals its pattern rendered alone on a one-actuator map, bit for bit")
    func localitiesRenderAsAlone() throws {
        let lra = Actuator(name: "leftHandle", profile: .lra)
        let device = try offlineDevice("L,R,H:leftHandle,H:rightHandle,H:woofer", actuators: [lra])
        let left = try #require(device.createEngine(withLocality: .leftHandle))
        let right = try #require(device.createEngine(withLocality: .rightHandle))
        let woofer = try #require(device.createEngine(withLocality: GCHapticsLocality("woofer")))
        let handles = try #require(device.createEngine(withLocality: .handles))
        let (a, b, c, d) = try (
            bundledPattern("heartbeat"), bundledPattern("rumble"), bundledPattern("countdown"),
            bundledPattern("crescendo")
        )
        for engine in [left, right, woofer, handles] { try engine.start() }
        try left.makePlayer(with: a).start(atTime: 0)
        try right.makePlayer(with: b).start(atTime: 0)
        try woofer.makePlayer(with: c).start(atTime: 0)
        let frames = 8000 * 4
        let out = try render(left, frames: frames)
        #expect(channel(out, 2, of: 5).map(\.bitPattern) == (try renderedAlone(a, profile: .lra, frames: frames)).map(\.bitPattern))
        #expect(channel(out, 3, of: 5).map(\.bitPattern) == (try renderedAlone(b, profile: .default, frames: frames)).map(\.bitPattern))
        #expect(channel(out, 4, of: 5).map(\.bitPattern) == (try renderedAlone(c, profile: .default, frames: frames)).map(\.bitPattern))
        #expect(channel(out, 2, of: 5).contains { $0 != 0 } && channel(out, 4, of: 5).contains { $0 != 0 })

        // A group plays on each member with the member's own profile.
        let later = try render(left, frames: 8000)  // let everything above end
        #expect(later.allSatisfy { $0 == 0 })
        try handles.makePlayer(with: d).start(atTime: 0)
        let group = try render(left, frames: frames)
        #expect(channel(group, 2, of: 5).map(\.bitPattern) == (try renderedAlone(d, profile: .lra, frames: frames)).map(\.bitPattern))
        #expect(channel(group, 3, of: 5).map(\.bitPattern) == (try renderedAlone(d, profile: .default, frames: frames)).map(\.bitPattern))
        #expect(channel(group, 4, of: 5).allSatisfy { $0 == 0 })
    }

    @Test("engines of one device share one clock: equal currentTime, and an event at t lands on one frame on both")
    func oneClock() throws {
        let device = try offlineDevice("H:leftHandle,H:rightHandle")
        let left = try #require(device.createEngine(withLocality: .leftHandle))
        let right = try #require(device.createEngine(withLocality: .rightHandle))
        try left.start()
        _ = try render(left, frames: 1000)
        try right.start()  // joins the running clock
        #expect(left.currentTime == right.currentTime)
        #expect(right.currentTime == 1000.0 / 8000)
        let t = right.currentTime + 0.1
        try left.makePlayer(with: CHHapticPattern(events: [transient(at: 0)], parameters: [])).start(atTime: t)
        try right.makePlayer(with: CHHapticPattern(events: [transient(at: 0)], parameters: [])).start(atTime: t)
        let out = try render(right, frames: 2000)
        let onset = Int((t * 8000).rounded()) - 1000
        let first = (firstSound(channel(out, 0, of: 2)), firstSound(channel(out, 1, of: 2)))
        #expect(first.0 == first.1)
        #expect(first.0.map { $0 == onset || $0 == onset + 1 } == true, "onset \(String(describing: first.0)), expected \(onset)")
        #expect(left.currentTime == right.currentTime)
    }

    @Test("two engines stay frame-aligned through start, stop, seek and rate changes")
    func alignedThroughTransport() throws {
        let device = try offlineDevice("H:leftHandle,H:rightHandle")
        let engines = try [GCHapticsLocality.leftHandle, .rightHandle].map { try #require(device.createEngine(withLocality: $0)) }
        for engine in engines { try engine.start() }
        let pattern = try bundledPattern("textured-drag")
        let players = try engines.map { try $0.makeAdvancedPlayer(with: pattern) }
        var out: [Float] = []
        for player in players { try player.start(atTime: 0.05) }
        out += try render(engines[0], frames: 3000, block: 333)
        for player in players { try player.seek(toOffset: 0.4) }
        out += try render(engines[1], frames: 2000, block: 333)
        for player in players { player.playbackRate = 1.7 }
        out += try render(engines[0], frames: 2500, block: 333)
        for player in players { try player.pause(atTime: engines[0].currentTime + 0.02) }
        out += try render(engines[0], frames: 1000, block: 333)
        for player in players { try player.resume(atTime: engines[1].currentTime + 0.01) }
        out += try render(engines[1], frames: 2000, block: 333)
        for player in players { try player.stop(atTime: engines[0].currentTime + 0.05) }
        out += try render(engines[0], frames: 2000, block: 333)
        let (left, right) = (channel(out, 0, of: 2), channel(out, 1, of: 2))
        #expect(left.map(\.bitPattern) == right.map(\.bitPattern))
        #expect(left.contains { $0 != 0 })
        #expect(left.suffix(500).allSatisfy { $0 == 0 }, "stopped")
        #expect(engines[0].currentTime == engines[1].currentTime)
    }

    @Test("DualSense layout: audio on channels 1–2 only, haptics on 3–4 only")
    func dualSenseKeepsAudioAndHapticsApart() throws {
        var options = CHHapticEngine.Options()
        options.output = .offline
        options.channelMap = .dualSense
        options.resourceRoots = [packageRoot.appendingPathComponent("Resources/Audio").path]
        let device = try GCDeviceHaptics(options: options)
        let engine = try #require(device.createEngine(withLocality: .all))
        try engine.start()
        let pattern = try bundledPattern("click-with-sound")
        try engine.makePlayer(with: pattern).start(atTime: 0)
        let frames = 48_000
        let out = try render(engine, frames: frames)
        // The same pattern on the separate map L,R,H: its audio and its haptics, bit for bit.
        var separate = options
        separate.channelMap = .separate
        let reference = try CHHapticEngine(options: separate)
        try reference.start()
        try reference.makePlayer(with: pattern).start(atTime: 0)
        let expected = try render(reference, frames: frames)
        #expect(channel(out, 0, of: 4).map(\.bitPattern) == channel(expected, 0, of: 3).map(\.bitPattern))
        #expect(channel(out, 1, of: 4).map(\.bitPattern) == channel(expected, 1, of: 3).map(\.bitPattern))
        #expect(channel(out, 2, of: 4).map(\.bitPattern) == channel(expected, 2, of: 3).map(\.bitPattern))
        #expect(channel(out, 3, of: 4).map(\.bitPattern) == channel(expected, 2, of: 3).map(\.bitPattern))
        #expect(channel(expected, 0, of: 3).contains { $0 != 0 } && channel(expected, 2, of: 3).contains { $0 != 0 })
    }

    @Test("an engine's mute and stop act on its own locality; the device runs on for the others")
    func muteAndStopPerEngine() throws {
        let device = try offlineDevice("H:leftHandle,H:rightHandle")
        let left = try #require(device.createEngine(withLocality: .leftHandle))
        let right = try #require(device.createEngine(withLocality: .rightHandle))
        for engine in [left, right] { try engine.start() }
        let pattern = try CHHapticPattern(events: [continuous(at: 0, duration: 2)], parameters: [])
        let leftPlayer = try left.makeAdvancedPlayer(with: pattern)
        let ended = UncheckedCounter()
        leftPlayer.completionHandler = { _ in ended.increment() }
        try leftPlayer.start(atTime: 0)
        try right.makePlayer(with: pattern).start(atTime: 0)
        _ = try render(left, frames: 800)
        left.isMutedForHaptics = true
        let muted = try render(left, frames: 800)
        #expect(channel(muted, 0, of: 2).allSatisfy { $0 == 0 })
        #expect(channel(muted, 1, of: 2).contains { $0 != 0 })
        left.isMutedForHaptics = false
        left.stop()
        #expect(ended.value == 1, "the stopped engine's player completed")
        #expect(!left.isRunning && right.isRunning)
        let after = try render(right, frames: 800)
        #expect(channel(after, 0, of: 2).suffix(700).allSatisfy { $0 == 0 }, "the stopped engine's instance faded out")
        #expect(channel(after, 1, of: 2).suffix(100).contains { $0 != 0 }, "the other engine plays on")
        #expect(right.currentTime == 2400.0 / 8000)
    }

    @Test("localities: actuators, groups present, default; unknown ones make no engine")
    func localities() throws {
        let device = try offlineDevice("L,R,H:leftHandle,H:rightHandle,H:tactor1")
        #expect(
            device.supportedLocalities
                == [.default, .all, .leftHandle, .rightHandle, .handles, GCHapticsLocality("tactor1")])
        #expect(device.actuators(in: .default).map(\.name) == ["leftHandle", "rightHandle", "tactor1"])
        #expect(device.actuators(in: .handles).map(\.name) == ["leftHandle", "rightHandle"])
        #expect(device.createEngine(withLocality: .leftTrigger) == nil)
        #expect(device.createEngine(withLocality: .triggers) == nil)
        #expect(try offlineDevice("H,H:woofer").actuators(in: .default).map(\.name) == ["default"])
    }

    @Test("options that name an actuator the map lacks, twice, out of range, or two at one place are refused")
    func badActuatorOptions() {
        func message(_ map: String, _ actuators: [Actuator]) -> String {
            do {
                _ = try offlineDevice(map, actuators: actuators)
                return "accepted"
            } catch { return (error as? CHHapticError)?.message ?? "\(error)" }
        }
        #expect(
            message("L,R,H", [Actuator(name: "woofer")])
                == "actuator 'woofer' is not in the channel map L,R,H (its actuators: default); add H:woofer to the map")
        #expect(message("H:a", [Actuator(name: "a"), Actuator(name: "a")]) == "actuator 'a' is listed twice")
        #expect(
            message("H:a", [Actuator(name: "a", position: ActuatorPosition(x: 2))])
                == "actuator profile: field 'a.position.x' must be within −1…1, got 2")
        var loud = ActuatorProfile.default
        loud.gain = 1.5
        #expect(message("H:a", [Actuator(name: "a", profile: loud)]).hasPrefix("actuator profile: field 'a.gain'"))
        #expect(
            message("H:a,H:b", [Actuator(name: "b", position: ActuatorPosition(x: -1))])
                == "actuators 'a' and 'b' are both at (-1.0, 0.0); give each its own position")
    }
}
