import Testing
import Thrum

/// The reference code's device path: the engines it makes for itself with `CHHapticEngine()` open the ALSA
/// `default` device, start and play. Tools/test.sh runs this suite in its real-time pass, where `default`
/// reaches a private PulseAudio null sink; on a machine whose `default` device does not open (the
/// no-device path, tested beside each example) it is skipped.
@Suite(
    .serialized,
    .enabled(
        if: !noHapticDevice,
        "the ALSA default device does not open here (Tools/test.sh's real-time pass provides one)"))
struct DevicePathRealTimeTests {
    /// `try CHHapticEngine()` + `start()` runs the engine, and §3 `playTap(on:)` plays on it.
    @Test func defaultEngineStartsAndPlaysATap() throws {
        let engine = try CHHapticEngine()
        try engine.start()
        #expect(engine.isRunning)
        try playTap(on: engine)
        engine.stop()
    }

    /// §1 `PatternPlayer`: its capability guard passes, so `start()` makes and starts an engine.
    @Test @MainActor func patternPlayerStartsItsEngine() throws {
        let player = PatternPlayer()
        #expect(player.supportsHaptics)
        try player.start()
        player.stop()
    }

    /// `HeartbeatPlayer.init?()` succeeds when there is a device.
    @Test func heartbeatPlayerExists() {
        #expect(HeartbeatPlayer() != nil)
    }

    /// A drag on the textured surface starts its looping player.
    @Test func dragStartsThePlayer() {
        let surface = TexturedSurface()
        surface.appear()
        surface.dragChanged(.init(velocity: CGSize(width: 400, height: 0)))
        #expect(surface.currentPlayer != nil)
        surface.dragEnded()
    }

    /// Pressing the hold-to-confirm button starts its ramp player.
    @Test func pressingStartsTheRamp() {
        let button = HoldToConfirmButton { }
        button.appear()
        button.pressingChangedByGesture(true)
        #expect(button.currentPlayer != nil)
        button.pressingChangedByGesture(false)
    }
}
