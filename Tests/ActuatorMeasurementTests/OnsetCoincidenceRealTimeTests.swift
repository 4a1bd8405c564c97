import ALSAOutput
import ActuatorMeasurement
import Foundation
import RenderCore
import Testing
import Thrum
import ThrumTestSupport

/// Latency compensation on a simulated loop: the card returns the played audio channel straight (a
/// microphone at the listener) and the haptic channel through a resonant actuator (an accelerometer on the
/// skin), both on one capture stream, so their onsets compare without any clock.
@Suite("Audio and haptic onsets after compensation", .serialized)
struct OnsetCoincidenceRealTimeTests {
    /// A band-pass actuator at 170 Hz, Q 6: its group delay at f0 is 2Q/ω0 = 11.2 ms.
    static let loop = SimulatedLoop(model: .bandpass, f0: 170, q: 6, gain: 0.8, delayFrames: 70.3, noiseDBFS: -90)

    /// A tone and a vibration at f0 that rise together over 150 ms (AttackTime 0.587: t(x) = 1 ms × 5120^x).
    static func pattern() throws -> CHHapticPattern {
        let attack = CHHapticEventParameter(parameterID: .attackTime, value: 0.587)
        return try CHHapticPattern(
            events: [
                CHHapticEvent(
                    eventType: .audioContinuous,
                    parameters: [
                        CHHapticEventParameter(parameterID: .audioVolume, value: 0.5),
                        CHHapticEventParameter(parameterID: .audioBrightness, value: 1), attack,
                    ], relativeTime: 0.3, duration: 0.6),
                CHHapticEvent(
                    eventType: .hapticContinuous,
                    parameters: [
                        CHHapticEventParameter(parameterID: .hapticIntensity, value: 1),
                        CHHapticEventParameter(parameterID: .hapticSharpness, value: Float((170.0 - 80) / 150)), attack,
                    ], relativeTime: 0.3, duration: 0.6),
            ], parameters: [])
    }

    /// The time (frames, fractional) the envelope of `signal` (its RMS over a centred 20 ms window) first
    /// reaches half its plateau (the median envelope 0.3…0.5 s after `after`).
    static func halfRise(_ signal: [Double], after start: Int, rate: Double) -> Double? {
        let half = Int(0.01 * rate)
        var sums = [0.0]
        for x in signal { sums.append(sums.last! + x * x) }
        func envelope(_ n: Int) -> Double {
            let a = max(n - half, 0), b = min(n + half, signal.count)
            return ((sums[b] - sums[a]) / Double(max(b - a, 1))).squareRoot()
        }
        let plateau = stride(from: start + Int(0.3 * rate), to: start + Int(0.5 * rate), by: 16).map(envelope).sorted()
        guard let level = plateau.isEmpty ? nil : plateau[plateau.count / 2], level > 0 else { return nil }
        for n in start..<(signal.count - 1) where envelope(n + 1) >= level / 2 {
            let (e0, e1) = (envelope(n), envelope(n + 1))
            return Double(n) + (level / 2 - e0) / max(e1 - e0, 1e-12)
        }
        return nil
    }

    /// Plays the pattern with `profile` (and `offset`) on the loop and returns haptic onset − audio onset, ms.
    static func onsetDifference(_ run: SimulatedCardRun, profile: ActuatorProfile, offset: Double? = nil) throws -> Double {
        var options = CHHapticEngine.Options()
        options.output = .alsaConfiguration(text: run.configurationText, pcmName: run.deviceName)
        options.channelMap = try ChannelMap(parsing: "L,H")
        options.actuatorProfile = profile
        options.hapticOffset = offset
        let engine = try CHHapticEngine(options: options)
        try engine.start()
        defer { engine.stop() }
        let capture = try ALSACapture(configuration: ALSADeviceConfiguration(
            source: run.loopSource, sampleRate: 48_000, channels: 2, periodFrames: 256, periodCount: 8, lockMemory: false))
        defer { capture.close() }
        let rate = 48_000.0
        try capture.record(frames: Int(1.6 * rate))
        try engine.makePlayer(with: pattern()).start(atTime: CHHapticTimeImmediate)
        #expect(capture.wait(timeout: 10))
        let samples = capture.samples().map(Double.init)
        let skin = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let ear = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
        guard let firstSound = ear.firstIndex(where: { abs($0) > 1e-4 }) else { throw Unmeasured(what: "no audio came back") }
        let start = max(firstSound - Int(0.05 * rate), 0)
        guard let audio = halfRise(ear, after: start, rate: rate), let haptic = halfRise(skin, after: start, rate: rate) else {
            throw Unmeasured(what: "no onset")
        }
        return (haptic - audio) / rate * 1000
    }

    struct Unmeasured: Error { let what: String }

    @Test("with a measured profile, sound and vibration reach half their level within ±0.5 ms of each other")
    func coincide() throws {
        let run = try SimulatedCardRun(fields: Self.loop.fields)
        let uncompensated = try Self.onsetDifference(run, profile: .default)
        var request = try loopRequest(run)
        request.profile = .default
        let measured = try ActuatorMeasurement.measure(request).profile(from: .default, name: "loop")
        let compensated = try Self.onsetDifference(run, profile: measured)
        let byHand = try Self.onsetDifference(run, profile: .default, offset: -(measured.latency?.actuatorSeconds ?? 0))
        print("haptic − audio: \(uncompensated) ms without a profile, \(compensated) ms with the measured one, \(byHand) ms with --haptic-offset")
        #expect(uncompensated > 5, "without compensation the actuator's ring-up makes the vibration late")
        #expect(abs(compensated) <= 0.5, "\(compensated) ms")
        #expect(abs(byHand) <= 0.5, "\(byHand) ms")
    }
}
