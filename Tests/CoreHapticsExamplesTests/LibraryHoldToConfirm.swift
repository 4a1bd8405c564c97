// haptics-library.md, "Hold-to-confirm with rising tension" (Press & hold), the Core Haptics part of the
// SwiftUI view `HoldToConfirmButton`. `startRamp` is verbatim; every change is marked `// Linux:`.

// Linux: `import SwiftUI` removed — SwiftUI does not exist on Linux.
// Linux: `import CoreHaptics` → `import Thrum`.
import Thrum

// Linux: `struct HoldToConfirmButton: View` → `final class HoldToConfirmButton` (no SwiftUI `View` and no
// `@State` storage on Linux; a class lets the non-mutating methods assign `player`, `progress`, `holding`).
final class HoldToConfirmButton {
    let duration: TimeInterval = 1.5
    let onConfirm: () -> Void

    // Linux: `@State` removed from the four properties below (SwiftUI property wrapper).
    private var engine: CHHapticEngine?
    private var player: CHHapticAdvancedPatternPlayer?
    private var progress: CGFloat = 0
    private var holding = false

    // Linux: `var body: some View` removed (Text, GeometryReader, .onLongPressGesture, .onAppear). Its
    // wiring — `perform: confirm`, `onPressingChanged: pressingChanged`, `.onAppear(perform: setupEngine)` —
    // is kept as the methods `longPressCompleted()`, `pressingChangedByGesture(_:)` and `appear()` in the
    // extension at the end of this file.

    // Linux: initialiser written out (the view's memberwise init took `onConfirm`). `engine:` is added so
    // tests inject an offline engine; `setupEngine` would open the ALSA default device with CHHapticEngine().
    init(engine: CHHapticEngine? = nil, onConfirm: @escaping () -> Void) {
        self.engine = engine
        self.onConfirm = onConfirm
    }

    private func setupEngine() {
        guard CHHapticEngine.capabilitiesForHardware().supportsHaptics else { return }
        engine = try? CHHapticEngine()
        try? engine?.start()
    }

    private func pressingChanged(_ pressing: Bool) {
        holding = pressing
        if pressing {
            startRamp()
            // Linux: `withAnimation(.linear(duration: duration)) { progress = 1 }` → `progress = 1`
            // (withAnimation is SwiftUI).
            progress = 1
        } else {
            try? player?.stop(atTime: CHHapticTimeImmediate) // cancel = cut
            // Linux: `withAnimation(.easeOut(duration: 0.2)) { progress = 0 }` → `progress = 0`.
            progress = 0
        }
    }

    private func startRamp() {
        guard let engine else { return }
        // Continuous event whose intensity climbs 0.1 → 1.0 over the hold
        let event = CHHapticEvent(
            eventType: .hapticContinuous,
            parameters: [
                CHHapticEventParameter(parameterID: .hapticIntensity, value: 1.0),
                CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.4),
            ],
            relativeTime: 0,
            duration: duration
        )
        let curve = CHHapticParameterCurve(
            parameterID: .hapticIntensityControl,
            controlPoints: [
                .init(relativeTime: 0, value: 0.1),
                .init(relativeTime: duration, value: 1.0),
            ],
            relativeTime: 0
        )
        if let pattern = try? CHHapticPattern(events: [event],
                                              parameterCurves: [curve]) {
            player = try? engine.makeAdvancedPlayer(with: pattern)
            try? player?.start(atTime: CHHapticTimeImmediate)
        }
    }

    private func confirm() {
        // Linux: `UINotificationFeedbackGenerator().notificationOccurred(.success)` removed (UIKit).
        onConfirm()
    }
}

// Linux: the view's gesture and appear wiring, as methods that make the same calls.
extension HoldToConfirmButton {
    // Linux: `.onLongPressGesture(…, onPressingChanged: pressingChanged)`.
    func pressingChangedByGesture(_ pressing: Bool) {
        pressingChanged(pressing)
    }

    // Linux: `.onLongPressGesture(minimumDuration: duration, perform: confirm, …)`.
    func longPressCompleted() {
        confirm()
    }

    // Linux: `.onAppear(perform: setupEngine)`.
    func appear() {
        setupEngine()
    }

    // Linux: test hooks (not in the reference): the ramp player and the view state the body would draw.
    var currentPlayer: CHHapticAdvancedPatternPlayer? { player }
    var currentProgress: CGFloat { progress }
    var isHolding: Bool { holding }
}
