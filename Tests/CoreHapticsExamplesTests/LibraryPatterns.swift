// haptics-library.md Core Haptics functions that take an `engine:` parameter, copied verbatim with
// `import CoreHaptics` replaced by `import Thrum`. Sections: "Payment complete (custom double-pulse)",
// "Connect / charging double thump", "Countdown 3-2-1-Go" (Core Haptics variant), "Drum roll / escalating
// anticipation", "Game explosion / heavy collision", "AHAP files (designed patterns as assets)",
// "Audio + haptic sync (CoreHaptics audio events)". The only change is in `playClickWithSound`, marked.

// Linux: `import CoreHaptics` → `import Thrum` (once for all the functions of this file).
import Thrum

// MARK: - Outcomes & notifications: Payment complete (custom double-pulse)

func playPaymentSuccess(engine: CHHapticEngine) throws {
    let ready = CHHapticEvent(
        eventType: .hapticTransient,
        parameters: [
            CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.4),
            CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.7),
        ],
        relativeTime: 0)

    // A short continuous event reads as a "thump" rather than a tick
    let thump = CHHapticEvent(
        eventType: .hapticContinuous,
        parameters: [
            CHHapticEventParameter(parameterID: .hapticIntensity, value: 1.0),
            CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.3),
        ],
        relativeTime: 0.25,
        duration: 0.13)

    let pattern = try CHHapticPattern(events: [ready, thump], parameters: [])
    let player = try engine.makePlayer(with: pattern)
    try engine.start()
    try player.start(atTime: CHHapticTimeImmediate)
}

// Fallback for devices without Core Haptics:
// UINotificationFeedbackGenerator().notificationOccurred(.success)

// MARK: - Outcomes & notifications: Connect / charging double thump

func playConnectThump(engine: CHHapticEngine) throws {
    func thump(at time: TimeInterval, intensity: Float) -> CHHapticEvent {
        CHHapticEvent(eventType: .hapticTransient, parameters: [
            CHHapticEventParameter(parameterID: .hapticIntensity, value: intensity),
            CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.25), // round
        ], relativeTime: time)
    }

    let pattern = try CHHapticPattern(
        events: [thump(at: 0, intensity: 0.9),
                 thump(at: 0.16, intensity: 0.7)],
        parameters: [])
    let player = try engine.makePlayer(with: pattern)
    try engine.start()
    try player.start(atTime: CHHapticTimeImmediate)
}

// MARK: - Outcomes & notifications: Countdown 3-2-1-Go (single scheduled pattern)

/// Plays the whole countdown as ONE pattern — Core Haptics keeps the
/// timing sample-accurate, unlike chained Timer callbacks.
func playCountdown(engine: CHHapticEngine) throws {
    func tick(at t: TimeInterval, intensity: Float, sharpness: Float) -> CHHapticEvent {
        CHHapticEvent(eventType: .hapticTransient, parameters: [
            CHHapticEventParameter(parameterID: .hapticIntensity, value: intensity),
            CHHapticEventParameter(parameterID: .hapticSharpness, value: sharpness),
        ], relativeTime: t)
    }

    let events = [
        tick(at: 0.0, intensity: 0.5, sharpness: 0.8),  // 3
        tick(at: 1.0, intensity: 0.5, sharpness: 0.8),  // 2
        tick(at: 2.0, intensity: 0.5, sharpness: 0.8),  // 1
        tick(at: 3.0, intensity: 1.0, sharpness: 0.4),  // GO
        tick(at: 3.12, intensity: 1.0, sharpness: 0.4), // GO (double hit)
    ]

    let pattern = try CHHapticPattern(events: events, parameters: [])
    let player = try engine.makePlayer(with: pattern)
    try engine.start()
    try player.start(atTime: CHHapticTimeImmediate)
}

// MARK: - Custom Core Haptics patterns: Drum roll / escalating anticipation

/// Ticks accelerate over `duration` seconds, then a finale thump.
func playDrumRoll(engine: CHHapticEngine,
                  duration: TimeInterval = 2.0) throws {
    var events: [CHHapticEvent] = []
    var t: TimeInterval = 0
    var gap: TimeInterval = 0.20   // first interval
    let minGap: TimeInterval = 0.035

    while t < duration {
        let progress = Float(t / duration)          // 0 → 1
        events.append(CHHapticEvent(
            eventType: .hapticTransient,
            parameters: [
                CHHapticEventParameter(parameterID: .hapticIntensity,
                                       value: 0.3 + 0.7 * progress),
                CHHapticEventParameter(parameterID: .hapticSharpness,
                                       value: 0.4 + 0.5 * progress),
            ],
            relativeTime: t))
        t += gap
        gap = max(minGap, gap * 0.86)               // accelerate
    }

    // Finale: deep full-strength thump
    events.append(CHHapticEvent(
        eventType: .hapticContinuous,
        parameters: [
            CHHapticEventParameter(parameterID: .hapticIntensity, value: 1.0),
            CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.2),
        ],
        relativeTime: duration + 0.1,
        duration: 0.15))

    let pattern = try CHHapticPattern(events: events, parameters: [])
    let player = try engine.makePlayer(with: pattern)
    try engine.start()
    try player.start(atTime: CHHapticTimeImmediate)
}

// MARK: - Custom Core Haptics patterns: Game explosion / heavy collision

func playExplosion(engine: CHHapticEngine,
                   magnitude: Float = 1.0) throws {   // scale 0–1 by event size
    // 1) The crack
    let crack = CHHapticEvent(eventType: .hapticTransient, parameters: [
        CHHapticEventParameter(parameterID: .hapticIntensity, value: magnitude),
        CHHapticEventParameter(parameterID: .hapticSharpness, value: 1.0),
    ], relativeTime: 0)

    // 2) The rumble
    let rumble = CHHapticEvent(eventType: .hapticContinuous, parameters: [
        CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.8 * magnitude),
        CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.1),
    ], relativeTime: 0.02, duration: 0.5)

    // 3) Decay curve: rumble fades to zero
    let decay = CHHapticParameterCurve(
        parameterID: .hapticIntensityControl,
        controlPoints: [
            .init(relativeTime: 0.02, value: 1.0),
            .init(relativeTime: 0.52, value: 0.0),
        ],
        relativeTime: 0)

    let pattern = try CHHapticPattern(events: [crack, rumble],
                                      parameterCurves: [decay])
    let player = try engine.makePlayer(with: pattern)
    try engine.start()
    try player.start(atTime: CHHapticTimeImmediate)
}

// MARK: - Custom Core Haptics patterns: AHAP files (Swift loading)

func playAHAP(named name: String, engine: CHHapticEngine) {
    guard let url = Bundle.main.url(forResource: name,
                                    withExtension: "ahap") else { return }
    do {
        try engine.start()
        try engine.playPattern(from: url)
    } catch {
        print("Failed to play \(name).ahap: \(error)")
    }
}

// playAHAP(named: "Sparkle", engine: HapticEngine.shared.engine)

// MARK: - Custom Core Haptics patterns: Audio + haptic sync (CoreHaptics audio events)

func playClickWithSound(engine: CHHapticEngine) throws {
    // Register a bundled sound once (cache the ID in real code)
    // Linux: a test has no app bundle, so `Bundle.main.url(forResource: "click", withExtension: "wav")`
    // is replaced by the package's Resources/Audio/click.wav (`packageClickURL`, ExampleTestSupport.swift).
    // The `guard let … else { return }` shape is kept.
    guard let url = packageClickURL else { return }
    let audioID = try engine.registerAudioResource(url)

    let haptic = CHHapticEvent(eventType: .hapticTransient, parameters: [
        CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.9),
        CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.8),
    ], relativeTime: 0)

    let sound = CHHapticEvent(audioResourceID: audioID, parameters: [
        CHHapticEventParameter(parameterID: .audioVolume, value: 0.8),
    ], relativeTime: 0)

    let pattern = try CHHapticPattern(events: [haptic, sound], parameters: [])
    let player = try engine.makePlayer(with: pattern)
    try engine.start()
    try player.start(atTime: CHHapticTimeImmediate)
}
