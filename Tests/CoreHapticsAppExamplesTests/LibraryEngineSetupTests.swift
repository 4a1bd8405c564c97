import Testing
import Thrum

/// The library's `HapticEngine` singleton compiles against Thrum and follows the hardware check.
@Suite struct LibraryEngineSetupTests {
    @Test func singletonFollowsTheHardwareCheck() {
        let engine = HapticEngine.shared
        #expect(engine.supportsHaptics == CHHapticEngine.capabilitiesForHardware().supportsHaptics)
        // Without a device the guard returns early; with one, the tap plays. Either way, no throw or crash.
        engine.play([CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: 0)])
    }
}
