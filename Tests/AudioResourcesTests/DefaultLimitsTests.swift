import Foundation
import Testing
import ThrumTestSupport

@testable import AudioResources

@Suite("Default limits, full size")
struct DefaultLimitsTests {
    @Test("a 23 s stereo 16-bit 44.1 kHz file (4.06 MB) passes the default limits and converts to 48 kHz")
    func largestTypicalFile() throws {
        let dir = TemporaryDirectory("audio")
        let frames = 23 * 44_100
        let path = try writeFile(
            dir.file("max.wav"), sine(frequency: 1000, rate: 44_100, frames: frames, channels: 2), sampleRate: 44_100,
            channels: 2, format: .pcm16)
        #expect(fileSize(path) <= AudioResourceLimits.defaultMaxFileBytes)
        let start = ContinuousClock.now
        let audio = try AudioFileLoader.load(path: path, targetSampleRate: 48_000)
        let elapsed = ContinuousClock.now - start
        #expect(audio.frameCount == 23 * 48_000)
        #expect(audio.byteCount == 23 * 48_000 * 2 * 4)
        #expect(elapsed < .seconds(20))
        // A limit just under the length rejects it.
        let error = expectAudioError {
            _ = try AudioFileLoader.load(
                path: path, targetSampleRate: 48_000, limits: AudioResourceLimits(maxDurationSeconds: 22.99))
        }
        #expect(error?.category == .limitViolation)
    }
}
