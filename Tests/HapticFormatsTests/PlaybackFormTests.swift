import AHAPCodec
import Foundation
import HapticFormats
import Testing

/// The pattern Thrum plays for a `.haptic` file, read back as Core Haptics reads AHAP: the played amplitude
/// (intensity², the square law) follows the `.haptic` amplitude within 1e-3, the sharpness is the frequency,
/// and each emphasis is a transient of the same strength.
@Suite("Playback form")
struct PlaybackFormTests {
    @Test(arguments: ["gear", "rumble", "taps"]) func playedEnvelopesFollowTheFile(name: String) throws {
        let path = TestPaths.fixture(name + ".haptic")
        let meaning = try HapticMeaning(json: try jsonObject(file: path))
        let file = try #require(HapticFileDecoder.decode(contentsOfFile: path).file)
        let pattern = HapticPlayback.pattern(for: file)
        let played = try AHAPMeaning(json: try jsonObject(text: AHAPEncoder.encode(pattern)))
        var amplitude = 0
        var frequency = 0
        for t in millisecondGrid(to: meaning.duration + 0.01) {
            let intensity = played.intensity(at: t)
            if abs(intensity * intensity - meaning.amplitude(at: t)) > 1e-3 { amplitude += 1 }
            if let sharpness = played.sharpness(at: t), abs(sharpness - meaning.frequency(at: t)) > 1e-6 { frequency += 1 }
        }
        #expect(amplitude == 0, "\(name): amplitude off at \(amplitude) ms")
        #expect(frequency == 0, "\(name): frequency off at \(frequency) ms")
        #expect(played.transients.count == meaning.emphases.count)
        for (transient, emphasis) in zip(played.transients, meaning.emphases) {
            #expect(transient.0 == emphasis.0)
            #expect(abs(transient.1 * transient.1 - emphasis.1) < 1e-6 && abs(transient.2 - emphasis.2) < 1e-6)
        }
        // Continuous events span the effect, at most 30 s each.
        #expect(played.continuous.allSatisfy { $0.1 - $0.0 <= 30 })
        #expect(played.continuous.first?.0 == meaning.amplitude.first?.0)
        #expect(abs(played.end - meaning.duration) < 1e-9)
    }
}
