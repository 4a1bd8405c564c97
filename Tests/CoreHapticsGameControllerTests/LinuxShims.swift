// Linux: stand-ins for the Apple-only framework the game-controller code imports beside Core Haptics.
// Only what that code touches is defined here; nothing here replaces Core Haptics or Thrum API.
import Thrum

/// Linux: GameController is not available on Linux. A controller there is a sound card whose channels drive
/// its actuators (a DualSense in USB audio mode), so this stand-in has only `GCController`'s `haptics`
/// property, made from a `GCDeviceHaptics`; nil haptics mean no controller.
struct GCController {
    let haptics: GCDeviceHaptics?

    init?(haptics: GCDeviceHaptics?) {
        guard let haptics else { return nil }
        self.haptics = haptics
    }
}

extension CHHapticEngine.Options {
    /// Linux: where the controller is — a DualSense in USB audio mode (audio on channels 1–2, the handles'
    /// voice coils on 3–4), rendered offline so the test can read what each handle receives.
    static var dualSense: CHHapticEngine.Options {
        var options = CHHapticEngine.Options()
        options.output = .offline
        options.channelMap = .dualSense
        return options
    }
}
