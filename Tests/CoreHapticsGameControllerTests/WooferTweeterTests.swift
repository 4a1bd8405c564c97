import Testing
import Thrum
import ThrumTestSupport

/// The ported game-controller code runs: each handle of the DualSense layout receives its own engine's
/// pattern, on one clock, and nothing else.
@Suite("Game-controller code: a woofer and a tweeter engine on a DualSense's handles")
struct WooferTweeterTests {
    @Test("the left handle rumbles at the band's low end, the right one ticks at its high end, audio is silent")
    func handlesCarryTheirEngines() throws {
        let pair = try #require(WooferTweeter(), "the controller's haptics could not be made")
        try pair.start()
        try pair.play(duration: 0.5, at: 0)
        let woofer = try #require(pair.woofer)
        let rate = woofer.options.sampleRate
        let frames = Int(0.6 * rate)
        let out = try renderInBlocks(frames: frames, channels: 4, block: 480) { count, buffer in
            try woofer.renderOffline(frameCount: count, into: buffer)
        }
        pair.stop()
        let (left, right) = (channel(out, 2, of: 4), channel(out, 3, of: 4))
        #expect(channel(out, 0, of: 4).allSatisfy { $0 == 0 } && channel(out, 1, of: 4).allSatisfy { $0 == 0 })
        // Sharpness 0 and 1 drive the default profile's band ends, 80 and 230 Hz (docs/decisions.md "Haptic waveform").
        let rumble = zeroCrossingFrequency(left, rate: rate, from: Int(0.1 * rate), to: Int(0.4 * rate))
        #expect(abs(rumble - 80) < 2, "left handle at \(rumble) Hz")
        let tick = zeroCrossingFrequency(right, rate: rate, from: Int(0.1 * rate), to: Int(0.1 * rate) + 480)
        #expect(abs(tick - 230) < 10, "right handle at \(tick) Hz")
        // The ticks are 20 ms bursts every 100 ms: silence between them, on the same clock as the rumble.
        #expect(peak(right, Int(0.1 * rate)..<Int(0.1 * rate) + 960) > 0.1)
        #expect(peak(right, Int(0.13 * rate)..<Int(0.19 * rate)) == 0)
        #expect(firstSound(left) == firstSound(right))
    }
}
