// Core Haptics game-controller code as it is written for Apple platforms: one engine on the left handle as
// a woofer (a low, round rumble) and one on the right handle as a tweeter (crisp ticks), the pairing Apple's
// GameController documentation suggests. Ported to Linux with two lines changed, each marked `Linux:`:
// the import, and the line that obtains the controller whose haptics are used.

// Linux: `import CoreHaptics` and `import GameController` → `import Thrum`.
import Thrum

/// Rumble on a controller's handles: a woofer and a tweeter engine.
final class WooferTweeter {
    let controller: GCController
    var woofer: CHHapticEngine?
    var tweeter: CHHapticEngine?

    init?() {
        // Linux: `guard let controller = GCController.current else { return nil }` →
        guard let controller = GCController(haptics: try? GCDeviceHaptics(options: .dualSense)) else { return nil }
        self.controller = controller
    }

    /// Makes and starts one engine per handle.
    func start() throws {
        woofer = controller.haptics?.createEngine(withLocality: .leftHandle)
        tweeter = controller.haptics?.createEngine(withLocality: .rightHandle)
        try woofer?.start()
        try tweeter?.start()
    }

    /// A rumble of `duration` seconds on the woofer with ticks every 0.1 s on the tweeter, from `time`.
    func play(duration: TimeInterval, at time: TimeInterval) throws {
        guard let woofer, let tweeter else { return }
        let rumble = CHHapticEvent(
            eventType: .hapticContinuous,
            parameters: [
                CHHapticEventParameter(parameterID: .hapticIntensity, value: 1),
                CHHapticEventParameter(parameterID: .hapticSharpness, value: 0),
            ], relativeTime: 0, duration: duration)
        let ticks = stride(from: 0, to: duration, by: 0.1).map { t in
            CHHapticEvent(
                eventType: .hapticTransient,
                parameters: [
                    CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.8),
                    CHHapticEventParameter(parameterID: .hapticSharpness, value: 1),
                ], relativeTime: t)
        }
        try woofer.makePlayer(with: CHHapticPattern(events: [rumble], parameters: [])).start(atTime: time)
        try tweeter.makePlayer(with: CHHapticPattern(events: ticks, parameters: [])).start(atTime: time)
    }

    /// Stops both engines.
    func stop() {
        woofer?.stop()
        tweeter?.stop()
    }
}
