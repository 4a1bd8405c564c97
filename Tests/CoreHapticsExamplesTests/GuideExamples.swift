// Swift code of /work/shared/reference/core-haptics-guide.md, copied verbatim with `import CoreHaptics`
// replaced by `import Thrum`. Every other change is marked with a `// Linux:` (or `// Wrapper:`) comment
// right above it.

// Linux: `import CoreHaptics` → `import Thrum`.
import Thrum
// Linux: `import OSLog` removed (no OSLog on Linux); `Logger` is the stand-in in LinuxShims.swift.

// MARK: - §1 Engine lifecycle

@MainActor
final class PatternPlayer {
    private var engine: CHHapticEngine?
    private let logger = Logger(subsystem: "app.haptics", category: "engine")

    var supportsHaptics: Bool {
        CHHapticEngine.capabilitiesForHardware().supportsHaptics
    }

    func start() throws {
        guard supportsHaptics, engine == nil else { return }
        let engine = try CHHapticEngine()
        engine.stoppedHandler = { @Sendable [logger] reason in
            logger.info("Haptic engine stopped: \(reason.rawValue)")
        }
        engine.resetHandler = { @Sendable [weak self] in
            Task { @MainActor in
                try? self?.engine?.start()
            }
        }
        try engine.start()
        self.engine = engine
    }

    func stop() {
        engine?.stop()
        engine = nil
    }
}

// MARK: - §3 Playing a pattern

func playTap(on engine: CHHapticEngine) throws {
    let tap = CHHapticEvent(
        eventType: .hapticTransient,
        parameters: [
            CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.9),
            CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.7)
        ],
        relativeTime: 0
    )
    let pattern = try CHHapticPattern(events: [tap], parameters: [])
    let player = try engine.makePlayer(with: pattern)
    try player.start(atTime: CHHapticTimeImmediate)
}

// MARK: - §4 Parameter curves and dynamic parameters

// Wrapper: the guide shows these statements at top level (a fragment). They are wrapped in a function,
// returning `pattern`, so they can compile inside a test target; the statements themselves are unchanged.
func makeRumbleAndSwellPattern() throws -> CHHapticPattern {
let rumble = CHHapticEvent(
    eventType: .hapticContinuous,
    parameters: [
        CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.3),
        CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.2)
    ],
    relativeTime: 0,
    duration: 1.0
)
let swell = CHHapticParameterCurve(
    parameterID: .hapticIntensityControl,
    controlPoints: [
        .init(relativeTime: 0, value: 0.3),
        .init(relativeTime: 0.5, value: 0.7),
        .init(relativeTime: 1.0, value: 1.0)
    ],
    relativeTime: 0
)
let pattern = try CHHapticPattern(events: [rumble], parameterCurves: [swell])
// Wrapper: end of the wrapped fragment.
return pattern
}

// MARK: - §6 AHAP files

func playCheckout(on engine: CHHapticEngine) throws {
    guard let url = Bundle.main.url(forResource: "checkout", withExtension: "ahap") else { return }
    try engine.playPattern(from: url)
}
