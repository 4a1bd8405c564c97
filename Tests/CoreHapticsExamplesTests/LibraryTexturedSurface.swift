// haptics-library.md, "Textured drag (velocity-driven rumble)" (Drag, swipe & scroll), the Core Haptics
// part of the SwiftUI view `TexturedSurface`. `startLoop`, `update(intensity:sharpness:)` and `stopLoop`
// are verbatim; every change is marked `// Linux:`.

// Linux: `import SwiftUI` removed — SwiftUI does not exist on Linux.
// Linux: `import CoreHaptics` → `import Thrum`.
import Thrum

// Linux: `struct TexturedSurface: View` → `final class TexturedSurface`. Without SwiftUI there is no `View`
// and no `@State` storage; a class gives the non-mutating methods below the same ability to assign
// `player` that `@State` gives them in the view.
final class TexturedSurface {
    // Linux: `@State` removed from both properties (SwiftUI property wrapper).
    private var engine: CHHapticEngine?
    private var player: CHHapticAdvancedPatternPlayer?

    // Linux: `var body: some View` removed (RoundedRectangle, .gesture(DragGesture …), .onAppear). Its
    // closures are kept as the methods `dragChanged(_:)`, `dragEnded()` and `appear()` in the extension
    // at the end of this file, so tests can drive the same calls the gesture makes.

    // Linux: added initialiser. In the view, `.onAppear` creates `CHHapticEngine()`, which opens the ALSA
    // default device; tests inject an offline engine here instead (nil = the `.onAppear` path).
    init(engine: CHHapticEngine? = nil) {
        self.engine = engine
    }

    private func startLoop() {
        guard let engine else { return }
        let event = CHHapticEvent(
            eventType: .hapticContinuous,
            parameters: [
                CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.2),
                CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.2),
            ],
            relativeTime: 0, duration: 100) // long-lived; we stop it manually
        guard let pattern = try? CHHapticPattern(events: [event], parameters: [])
        else { return }
        player = try? engine.makeAdvancedPlayer(with: pattern)
        try? player?.start(atTime: CHHapticTimeImmediate)
    }

    private func update(intensity: Float, sharpness: Float) {
        try? player?.sendParameters([
            CHHapticDynamicParameter(parameterID: .hapticIntensityControl,
                                     value: intensity, relativeTime: 0),
            CHHapticDynamicParameter(parameterID: .hapticSharpnessControl,
                                     value: sharpness, relativeTime: 0),
        ], atTime: CHHapticTimeImmediate)
    }

    private func stopLoop() {
        try? player?.stop(atTime: CHHapticTimeImmediate)
        player = nil
    }
}

// Linux: the view's gesture and appear closures, as methods (their bodies are verbatim).
extension TexturedSurface {
    // Linux: stands in for SwiftUI's `DragGesture.Value`; only `velocity` (points per second) is read.
    struct DragValue {
        var velocity: CGSize
    }

    // Linux: body of `DragGesture(minimumDistance: 0).onChanged { value in … }`.
    func dragChanged(_ value: DragValue) {
        if player == nil { startLoop() }
        // Map velocity (pts/s) to 0–1
        let speed = min(1, abs(value.velocity.width) / 2000
                         + abs(value.velocity.height) / 2000)
        update(intensity: Float(0.2 + 0.8 * speed),
               sharpness: Float(0.3 * speed))
    }

    // Linux: body of `.onEnded { _ in stopLoop() }`.
    func dragEnded() {
        stopLoop()
    }

    // Linux: body of `.onAppear { … }`.
    func appear() {
        guard CHHapticEngine.capabilitiesForHardware().supportsHaptics
        else { return }
        engine = try? CHHapticEngine()
        try? engine?.start()
    }

    // Linux: test hook (not in the reference): the player the drag is modulating, to read its end frame.
    var currentPlayer: CHHapticAdvancedPatternPlayer? { player }
}
