import Foundation
import Testing
import Thrum
import ThrumTestSupport

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
    /// Records the default sink's monitor while `action` runs and `seconds` after it (the device's buffer
    /// and the server's latency): returns the loudest sample heard. The sink's own zero stream adds nothing,
    /// so anything above 0 was played by the code under test.
    func heardPeak(seconds: Double = 0.5, while action: () throws -> Void) throws -> Float {
        let capture = try MonitorCapture()
        try action()
        Thread.sleep(forTimeInterval: seconds)
        let heard = capture.finish()
        return peak(heard, 0..<heard.count)
    }

    /// §3's tap (intensity 0.9) on `engine`, mixed into both speakers (the default channel map) at about
    /// 0.9 peak: the loudest sample heard.
    func heardPeakOfATap(on engine: CHHapticEngine) throws -> Float {
        try heardPeak { try playTap(on: engine) }
    }

    /// `try CHHapticEngine()` + `start()` runs the engine, and §3 `playTap(on:)` on it is heard on the
    /// sound server's sink.
    @Test func defaultEngineStartsAndPlaysATap() throws {
        let engine = try CHHapticEngine()
        try engine.start()
        #expect(engine.isRunning)
        let heard = try heardPeakOfATap(on: engine)
        #expect(heard > 0.3, "the tap reached the sink: peak \(heard)")
        #expect(engine.isRunning)
        engine.stop()
    }

    /// §1 `PatternPlayer`: its capability guard passes, so `start()` makes and starts an engine (it keeps
    /// it private: read here through `Mirror`), a tap on which is heard; `stop()` stops and drops it.
    @Test @MainActor func patternPlayerStartsItsEngine() throws {
        let player = PatternPlayer()
        #expect(player.supportsHaptics)
        func engine() -> CHHapticEngine? {
            Mirror(reflecting: player).children.first { $0.label == "engine" }?.value as? CHHapticEngine
        }
        #expect(engine() == nil)
        try player.start()
        let started = try #require(engine(), "start() made no engine")
        #expect(started.isRunning)
        let heard = try heardPeakOfATap(on: started)
        #expect(heard > 0.3, "a tap on the player's engine reached the sink: peak \(heard)")
        player.stop()
        #expect(engine() == nil)
        #expect(!started.isRunning)
    }

    /// `HeartbeatPlayer.init?()` succeeds when there is a device.
    @Test func heartbeatPlayerExists() {
        #expect(HeartbeatPlayer() != nil)
    }

    /// A drag on the textured surface starts its looping player, which is heard.
    @Test func dragStartsThePlayer() throws {
        let surface = TexturedSurface()
        surface.appear()
        let heard = try heardPeak {
            surface.dragChanged(.init(velocity: CGSize(width: 400, height: 0)))
            #expect(surface.currentPlayer != nil)
        }
        // Intensity 0.2 under a control of 0.36 (400 points/s): 0.07, whose square (the drive amplitude)
        // is about 0.005.
        #expect(heard > 0.002, "the drag's texture reached the sink: peak \(heard)")
        surface.dragEnded()
    }

    /// Pressing the hold-to-confirm button starts its ramp player, which is heard.
    @Test func pressingStartsTheRamp() throws {
        let button = HoldToConfirmButton { }
        button.appear()
        let heard = try heardPeak {
            button.pressingChangedByGesture(true)
            #expect(button.currentPlayer != nil)
        }
        #expect(heard > 0.01, "the ramp reached the sink: peak \(heard)")
        button.pressingChangedByGesture(false)
    }
}
