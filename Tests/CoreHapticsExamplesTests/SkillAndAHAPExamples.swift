// core-haptics-skill.md "Capability and Fallback" and ahap-patterns.md "Loading AHAP Files", copied verbatim
// with `import CoreHaptics` replaced by `import Thrum`.

// Linux: `import CoreHaptics` → `import Thrum`.
import Thrum

// MARK: - core-haptics-skill.md: Capability and Fallback

struct HapticCapability {
    let supportsHaptics: Bool
    let supportsAudio: Bool

    static var current: Self {
        let hardware = CHHapticEngine.capabilitiesForHardware()
        return Self(
            supportsHaptics: hardware.supportsHaptics,
            supportsAudio: hardware.supportsAudio
        )
    }
}

// MARK: - ahap-patterns.md: Loading AHAP Files

func loadAHAPPattern(named name: String) -> CHHapticPattern? {
    guard let url = Bundle.main.url(forResource: name, withExtension: "ahap") else {
        return nil
    }
    return try? CHHapticPattern(contentsOf: url)
}

// The document's `playPattern()` usage snippet is not compiled: it reads a variable `engine` that the
// snippet never declares (`try? engine?.makePlayer(with: pattern)`), so it is a fragment of some class.
