import FoundationStandIns
import Synchronization
import Testing
import Thrum
import ThrumTestSupport

/// True when this machine has no ALSA playback device (the test machine): reference code that creates
/// `CHHapticEngine()` itself can only take its no-device path here.
let noHapticDevice = !CHHapticEngine.capabilitiesForHardware().supportsHaptics

/// Why a no-device test is skipped on a machine with a device (where `DevicePathRealTimeTests` runs instead).
let deviceSkip: Comment = "this machine's ALSA default device opens: the device path is DevicePathRealTimeTests"

@Suite("core-haptics-guide.md") struct GuideExampleTests {
    /// §1 `PatternPlayer` creates its engine with `CHHapticEngine()` inside `start()` and keeps it private,
    /// so no offline engine can be injected. Without a device its capability guard makes `start()` a
    /// no-op (no engine is created, nothing throws) and `stop()` is safe to call.
    @Test(.enabled(if: noHapticDevice, deviceSkip)) @MainActor func patternPlayerWithoutADeviceStartsNothing() throws {
        let player = PatternPlayer()
        #expect(!player.supportsHaptics)
        try player.start()
        try player.start()  // idempotent
        player.stop()
        player.stop()
        #expect(!Logger.messages.withLock { $0.contains { $0.contains("app.haptics/engine") } })
    }

    /// What `try CHHapticEngine()` + `start()` — the engine `PatternPlayer.start()` would make if its guard
    /// passed — does on a machine without a sound card: a clean `serverInitFailed`, engine not running.
    @Test(.enabled(if: noHapticDevice, deviceSkip)) func defaultEngineWithoutADeviceIsServerInitFailed() throws {
        let engine = try CHHapticEngine()
        do {
            try engine.start()
            Issue.record("the default ALSA device opened on a machine reporting no haptics support")
        } catch let error as CHHapticError {
            #expect(error.code == .serverInitFailed)
        }
        #expect(!engine.isRunning)
        // Playing without a running engine is `engineNotRunning`, not a crash.
        #expect(throws: CHHapticError.self) { try playTap(on: engine) }
    }

    /// §3 `playTap(on:)`: one transient (intensity 0.9) at once, 20 ms long (Thrum's default actuator).
    @Test func playTapStartsImmediately() throws {
        let engine = try makeOfflineEngine()
        _ = try renderOutput(engine, frames: 1000)  // the engine has been running a while
        try playTap(on: engine)
        let out = try renderOutput(engine, seconds: 0.25)
        let start = try #require(firstSound(out.haptic))
        #expect(start <= 1)  // frame 0 = "immediate"; a sine burst's first sample may be exactly 0
        let end = try #require(lastSound(out.haptic))
        #expect(end < frame(0.02) + 2)
        #expect(peak(out.haptic, 0..<frame(0.02)) > 0.3)
        #expect(peak(out.left, 0..<out.left.count) == 0 && peak(out.right, 0..<out.right.count) == 0)
    }

    /// §4 rumble and swell: a 1 s continuous event whose intensity control goes 0.3 → 0.7 → 1.0.
    @Test func rumbleAndSwellRises() throws {
        let engine = try makeOfflineEngine()
        let player = try engine.makePlayer(with: makeRumbleAndSwellPattern())
        try player.start(atTime: 0)
        let out = try renderOutput(engine, seconds: 1.2)
        #expect(try #require(firstSound(out.haptic)) <= 1)
        let levels = [0.1, 0.3, 0.5, 0.7, 0.9].map { peak(out.haptic, around: $0) }
        for (a, b) in zip(levels, levels.dropFirst()) { #expect(a < b, "swell levels \(levels)") }
        #expect(levels[4] > 3 * levels[0])
        // Ends at 1.0 s: the player's end frame, then silence (a 5 ms release at most).
        let end = try #require(endFrame(of: player))
        #expect(abs(Int(end) - frame(1.0)) <= frame(0.005))
        #expect(peak(out.haptic, frame(1.01)..<out.haptic.count) == 0)
    }

    /// §6 `playCheckout(on:)`: the test process has no checkout.ahap in `Bundle.main`, so the function
    /// returns without playing (its guard), and nothing throws.
    @Test func playCheckoutWithoutTheBundleResourceDoesNothing() throws {
        let engine = try makeOfflineEngine()
        try playCheckout(on: engine)
        let out = try renderOutput(engine, seconds: 0.2)
        #expect(peak(out.haptic, 0..<out.haptic.count) == 0)
    }
}
