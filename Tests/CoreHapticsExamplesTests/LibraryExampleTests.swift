import Testing
import Thrum
import ThrumTestSupport

@Suite("haptics-library.md one-shot patterns") struct LibraryPatternTests {
    /// Payment: a 0.4 tick at 0, then a 1.0 thump at 0.25 s lasting 0.13 s.
    @Test func paymentSuccess() throws {
        let engine = try makeOfflineEngine()
        try playPaymentSuccess(engine: engine)
        let out = try renderOutput(engine, seconds: 0.6)
        let bursts = burstOnsets(out.haptic, gap: 200)
        #expect(bursts.count == 2)
        #expect(abs(bursts[0] - 0) <= 1)
        #expect(abs(bursts[1] - frame(0.25)) <= 1)
        #expect(peak(out.haptic, 0..<frame(0.25)) < peak(out.haptic, frame(0.25)..<frame(0.38)))
        let end = try #require(lastSound(out.haptic))
        #expect(end >= frame(0.38) - 1 && end <= frame(0.38) + frame(0.005))
    }

    /// Connect: two round thumps 0.16 s apart, the second weaker.
    @Test func connectThump() throws {
        let engine = try makeOfflineEngine()
        try playConnectThump(engine: engine)
        let out = try renderOutput(engine, seconds: 0.4)
        let bursts = burstOnsets(out.haptic, gap: 200)
        #expect(bursts.count == 2)
        #expect(abs(bursts[0] - 0) <= 1 && abs(bursts[1] - frame(0.16)) <= 1)
        #expect(peak(out.haptic, 0..<frame(0.02)) > peak(out.haptic, frame(0.16)..<frame(0.18)))
        #expect(try #require(lastSound(out.haptic)) < frame(0.18) + 2)
    }

    /// Countdown: ticks at 0, 1, 2 s, then a stronger double hit at 3.0 and 3.12 s.
    @Test func countdown() throws {
        let engine = try makeOfflineEngine()
        try playCountdown(engine: engine)
        let out = try renderOutput(engine, seconds: 3.3)
        let bursts = burstOnsets(out.haptic, gap: 400)
        let expected = [0.0, 1.0, 2.0, 3.0, 3.12].map(frame)
        #expect(bursts.count == expected.count, "onsets \(bursts)")
        for (got, want) in zip(bursts, expected) { #expect(abs(got - want) <= 1, "onsets \(bursts)") }
        let tick = peak(out.haptic, 0..<frame(0.02))
        let go = peak(out.haptic, frame(3.0)..<frame(3.02))
        #expect(go > 1.5 * tick)
        #expect(peak(out.haptic, frame(1.0)..<frame(1.02)) == tick)  // identical ticks
        #expect(try #require(lastSound(out.haptic)) < frame(3.14) + 2)
    }

    /// Drum roll: accelerating ticks from the doc's schedule (gap 0.2 s × 0.86 each, at least 0.035 s),
    /// growing in strength, then a 0.15 s continuous finale at duration + 0.1 s.
    @Test func drumRoll() throws {
        let engine = try makeOfflineEngine()
        try playDrumRoll(engine: engine)
        let out = try renderOutput(engine, seconds: 2.4)
        var times: [Double] = []
        var t = 0.0, gap = 0.20
        while t < 2.0 { times.append(t); t += gap; gap = max(0.035, gap * 0.86) }
        times.append(2.1)
        let bursts = burstOnsets(out.haptic, gap: 40)
        #expect(bursts.count == times.count, "onsets \(bursts)")
        for (got, want) in zip(bursts, times.map(frame)) { #expect(abs(got - want) <= 1, "onsets \(bursts)") }
        let first = peak(out.haptic, 0..<frame(0.02))
        let last = peak(out.haptic, bursts[bursts.count - 2]..<(bursts[bursts.count - 2] + frame(0.02)))
        #expect(last > 2 * first)
        let end = try #require(lastSound(out.haptic))
        #expect(end >= frame(2.25) - 1 && end <= frame(2.25) + frame(0.005))
    }

    /// Explosion: a sharp crack at 0, a rumble from 0.02 s that the curve fades to zero at 0.52 s.
    @Test func explosion() throws {
        let engine = try makeOfflineEngine()
        try playExplosion(engine: engine)
        let out = try renderOutput(engine, seconds: 0.7)
        #expect(try #require(firstSound(out.haptic)) <= 1)
        let levels = [0.1, 0.2, 0.3, 0.4, 0.5].map { peak(out.haptic, around: $0, width: 0.02) }
        for (a, b) in zip(levels, levels.dropFirst()) { #expect(a > b, "decay levels \(levels)") }
        #expect(levels[4] < 0.05 * levels[0] * 4)
        let end = try #require(lastSound(out.haptic))
        #expect(end <= frame(0.52) + frame(0.005))
    }

    /// Explosion magnitude scales the whole effect.
    @Test func explosionMagnitude() throws {
        func level(_ magnitude: Float) throws -> Float {
            let engine = try makeOfflineEngine()
            try playExplosion(engine: engine, magnitude: magnitude)
            return peak(try renderOutput(engine, seconds: 0.2).haptic, around: 0.1, width: 0.02)
        }
        #expect(try level(0.5) < level(1.0))
    }

    /// Audio + haptic sync: the click (Resources/Audio/click.wav) sounds on L and R at the haptic's frame.
    @Test func clickWithSound() throws {
        let engine = try makeOfflineEngine()
        _ = try renderOutput(engine, frames: 512)
        try playClickWithSound(engine: engine)
        let out = try renderOutput(engine, seconds: 0.3)
        let haptic = try #require(firstSound(out.haptic))
        let left = try #require(firstSound(out.left))
        let right = try #require(firstSound(out.right))
        #expect(haptic <= 1 && left <= 1 && right <= 1)
        #expect(peak(out.left, 0..<frame(0.01)) > 0.01 && peak(out.right, 0..<frame(0.01)) > 0.01)
        #expect(peak(out.left, frame(0.25)..<out.left.count) == 0)
    }

    /// AHAP loading: the test process has no Sparkle.ahap in `Bundle.main`, so `playAHAP` returns at its
    /// guard without playing.
    @Test func playAHAPWithoutTheBundleResourceDoesNothing() throws {
        let engine = try makeOfflineEngine()
        playAHAP(named: "Sparkle", engine: engine)
        #expect(peak(try renderOutput(engine, seconds: 0.1).haptic, 0..<800) == 0)
        #expect(loadAHAPPattern(named: "ShieldTransient") == nil)  // ahap-patterns.md, same reason
    }
}

@Suite("haptics-library.md Heartbeat") struct HeartbeatTests {
    /// `HeartbeatPlayer.init?()` makes its own `CHHapticEngine()` (a private `let`, no injection point) behind
    /// the capability check, so on a machine without a device it is nil — its documented fallback.
    @Test(.enabled(if: noHapticDevice, deviceSkip)) func heartbeatPlayerIsNilWithoutADevice() {
        #expect(HeartbeatPlayer() == nil)
    }

    /// `HeartbeatPlayer` cannot be given an offline engine, so this replays the body of
    /// `HeartbeatPlayer.start(bpm:)` and `stop()` — same events, `makeAdvancedPlayer`, `loopEnabled`,
    /// `loopEnd = 60 / bpm`, `start(atTime: CHHapticTimeImmediate)` — on one, and checks the loop.
    @Test(arguments: [60.0, 72.0, 120.0]) func heartbeatLoopsEveryBeat(bpm: Double) throws {
        let engine = try makeOfflineEngine()
        // --- body of HeartbeatPlayer.start(bpm:) ---
        let beat = 60.0 / bpm
        func hit(at t: TimeInterval, intensity: Float) -> CHHapticEvent {
            CHHapticEvent(eventType: .hapticTransient, parameters: [
                CHHapticEventParameter(parameterID: .hapticIntensity, value: intensity),
                CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.15),
            ], relativeTime: t)
        }
        let events = [hit(at: 0, intensity: 1.0),
                      hit(at: 0.14, intensity: 0.6)]
        let pattern = try CHHapticPattern(events: events, parameters: [])
        var player: CHHapticAdvancedPatternPlayer?
        player = try engine.makeAdvancedPlayer(with: pattern)
        player?.loopEnabled = true
        player?.loopEnd = beat
        try player?.start(atTime: CHHapticTimeImmediate)
        // --- end ---
        let beats = 3
        let out = try renderOutput(engine, seconds: Double(beats) * beat + 0.05)
        let bursts = burstOnsets(out.haptic, gap: 200)
        #expect(bursts.count == 2 * beats + 1, "onsets \(bursts)")  // lub, dub per beat + the next lub
        let lubs = stride(from: 0, to: bursts.count, by: 2).map { bursts[$0] }
        let dubs = stride(from: 1, to: bursts.count, by: 2).map { bursts[$0] }
        for (a, b) in zip(lubs, lubs.dropFirst()) {
            #expect(abs(Double(b - a) - beat * testRate) <= 1, "lub onsets \(lubs)")  // loop length = one beat
        }
        for (lub, dub) in zip(lubs, dubs) { #expect(abs(dub - lub - frame(0.14)) <= 1, "lub \(lub) dub \(dub)") }
        // lub is stronger than dub.
        #expect(peak(out.haptic, lubs[1]..<(lubs[1] + frame(0.02))) > peak(out.haptic, dubs[1]..<(dubs[1] + frame(0.02))))
        // --- body of HeartbeatPlayer.stop() ---
        try? player?.stop(atTime: CHHapticTimeImmediate)
        // --- end ---
        let after = try renderOutput(engine, seconds: 2 * beat)
        #expect(peak(after.haptic, frame(0.03)..<after.haptic.count) == 0)
        #expect(endFrame(of: player) != nil)
    }
}

@Suite("haptics-library.md Textured drag") struct TexturedSurfaceTests {
    /// Drag velocity → `sendParameters` on the looping player: intensity follows speed up and down, the
    /// loop keeps playing between updates, and `dragEnded` cuts it.
    @Test func velocityDrivesIntensity() throws {
        let engine = try makeOfflineEngine()
        let surface = TexturedSurface(engine: engine)
        #expect(surface.currentPlayer == nil)
        surface.dragChanged(.init(velocity: CGSize(width: 0, height: 0)))  // starts the loop, speed 0
        let player = try #require(surface.currentPlayer)
        let still = try renderOutput(engine, seconds: 0.25)
        #expect(try #require(firstSound(still.haptic)) <= 1)
        surface.dragChanged(.init(velocity: CGSize(width: 1500, height: 1500)))  // speed 1 (clamped)
        let fast = try renderOutput(engine, seconds: 0.25)
        surface.dragChanged(.init(velocity: CGSize(width: 0, height: 600)))  // speed 0.3
        let medium = try renderOutput(engine, seconds: 0.25)
        #expect(surface.currentPlayer === player)  // same player, updated live
        let a0 = peak(still.haptic, frame(0.05)..<frame(0.25))
        let a1 = peak(fast.haptic, frame(0.05)..<frame(0.25))
        let a2 = peak(medium.haptic, frame(0.05)..<frame(0.25))
        #expect(a0 > 0)
        #expect(a1 > 4 * a0, "levels still \(a0) fast \(a1) medium \(a2)")
        #expect(a0 < a2 && a2 < a1, "levels still \(a0) fast \(a1) medium \(a2)")
        // The control scales the event's 0.2 (square law): speed 0 → control 0.2, speed 1 → 1.0,
        // speed 0.3 → 0.44, so amplitude ratios are (1.0 / 0.2)² = 25 and (0.44 / 0.2)² = 4.84.
        #expect(abs(a1 / a0 - 25) < 0.5, "levels still \(a0) fast \(a1) medium \(a2)")
        #expect(abs(a2 / a0 - 4.84) < 0.1, "levels still \(a0) fast \(a1) medium \(a2)")
        surface.dragEnded()
        #expect(surface.currentPlayer == nil)
        let ended = try renderOutput(engine, seconds: 0.1)
        #expect(peak(ended.haptic, frame(0.01)..<ended.haptic.count) == 0)
        let end = try #require(endFrame(of: player))
        #expect(abs(Int(end) - frame(0.75)) <= frame(0.01))
    }

    /// Without a device `.onAppear`'s capability guard leaves `engine` nil, so a drag plays nothing.
    @Test(.enabled(if: noHapticDevice, deviceSkip)) func withoutADeviceADragDoesNothing() {
        let surface = TexturedSurface()
        surface.appear()
        surface.dragChanged(.init(velocity: CGSize(width: 400, height: 0)))
        #expect(surface.currentPlayer == nil)
        surface.dragEnded()
    }
}

@Suite("haptics-library.md Hold-to-confirm") struct HoldToConfirmTests {
    /// A full hold: the curve ramps intensity control 0.1 → 1.0 over 1.5 s, then the event ends.
    @Test func fullHoldRampsUpAndConfirms() throws {
        let engine = try makeOfflineEngine()
        nonisolated(unsafe) var confirmed = 0
        let button = HoldToConfirmButton(engine: engine) { confirmed += 1 }
        button.pressingChangedByGesture(true)
        #expect(button.isHolding && button.currentProgress == 1)
        let player = try #require(button.currentPlayer)
        let out = try renderOutput(engine, seconds: 1.6)
        #expect(try #require(firstSound(out.haptic)) <= 1)
        let levels = [0.1, 0.4, 0.7, 1.0, 1.3, 1.45].map { peak(out.haptic, around: $0, width: 0.04) }
        for (a, b) in zip(levels, levels.dropFirst()) { #expect(a < b, "ramp levels \(levels)") }
        #expect(levels.last! > 10 * levels.first!, "ramp levels \(levels)")
        let end = try #require(endFrame(of: player))
        #expect(abs(Int(end) - frame(1.5)) <= frame(0.005))
        #expect(peak(out.haptic, frame(1.51)..<out.haptic.count) == 0)
        button.longPressCompleted()
        #expect(confirmed == 1)
    }

    /// Releasing early cuts the ramp at once (`stop(atTime: CHHapticTimeImmediate)`, 5 ms fade).
    @Test func earlyReleaseCutsTheRamp() throws {
        let engine = try makeOfflineEngine()
        let button = HoldToConfirmButton(engine: engine) { Issue.record("confirmed on an early release") }
        button.pressingChangedByGesture(true)
        let player = try #require(button.currentPlayer)
        let held = try renderOutput(engine, seconds: 0.5)
        #expect(peak(held.haptic, frame(0.45)..<frame(0.5)) > 0)
        button.pressingChangedByGesture(false)
        #expect(!button.isHolding && button.currentProgress == 0)
        let released = try renderOutput(engine, seconds: 0.3)
        let tail = lastSound(released.haptic) ?? 0
        #expect(tail <= frame(0.005) + 1)
        let end = try #require(endFrame(of: player))
        #expect(abs(Int(end) - frame(0.5)) <= frame(0.01))
    }

    /// Without a device `setupEngine`'s capability guard leaves `engine` nil; pressing plays nothing.
    @Test(.enabled(if: noHapticDevice, deviceSkip)) func withoutADevicePressingDoesNothing() {
        let button = HoldToConfirmButton { }
        button.appear()
        button.pressingChangedByGesture(true)
        #expect(button.currentPlayer == nil)
        button.pressingChangedByGesture(false)
    }
}

@Suite("core-haptics-skill.md") struct SkillExampleTests {
    /// `HapticCapability.current` reports what the machine has: nothing, on a machine without a sound card.
    @Test func capabilityMatchesTheEngine() {
        let hardware = CHHapticEngine.capabilitiesForHardware()
        let capability = HapticCapability.current
        #expect(capability.supportsHaptics == hardware.supportsHaptics)
        #expect(capability.supportsAudio == hardware.supportsAudio)
        if noHapticDevice { #expect(!capability.supportsHaptics && !capability.supportsAudio) }
    }
}
