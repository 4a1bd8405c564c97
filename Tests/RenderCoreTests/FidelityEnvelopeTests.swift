import Foundation
import Testing
import ThrumModel
import ThrumTestSupport

@testable import RenderCore

// Issue 14 on rendered samples: envelopes and time controls on playing events, decay cut at EventDuration,
// a limiter transparent for lone events, loop seams without overshoot, seeks past the loop end.
// Expected values come from docs/decisions.md ("Haptic waveform", "Advanced player") and the physics of the
// signal, computed here in Double: t(x) = 0.001 × 5120^x s, A = gain × I², sine at f = fLow + S × (fHigh − fLow).

/// t(x) = 0.001 × 5120^x seconds (docs/decisions.md).
func envelopeSeconds(_ x: Double) -> Double { 0.001 * pow(5120, x) }

/// The envelope of a haptic oscillator (phase 0 at `onset`, `hz`, full amplitude `amplitude`) around frame `n`:
/// |h[k]| / |amplitude × sin(2π hz (k − onset) / rate)| averaged over the frames within ±`half` of `n`
/// where the ideal sine is above half its peak.
func envelope(
    _ h: [Float], at n: Int, hz: Double, onset: Int = 0, amplitude: Double, rate: Double, half: Int = 30
) -> Double {
    var sum = 0.0
    var count = 0
    for k in max(n - half, onset)...min(n + half, h.count - 1) {
        let ideal = amplitude * sin(2 * Double.pi * hz * Double(k - onset) / rate)
        guard abs(ideal) > 0.5 * amplitude else { continue }
        sum += Double(h[k]) / ideal
        count += 1
    }
    return count > 0 ? sum / Double(count) : .nan
}

@Suite("Fidelity: time controls act on playing events")
struct TimeControlTests {
    let rate = 48_000.0
    let gain = ActuatorProfile.default.gain

    @Test("HapticReleaseTimeControl +0.25 sent mid-event: the tail lasts t(0.25 + 0.25) = 71.6 ms")
    func releaseControlOnPlayingEvent() throws {
        let pattern = try compile(
            PatternData(
                events: [
                    event(.hapticContinuous, 0, duration: 0.3, [(.hapticIntensity, 0.8), (.hapticSharpness, 1), (.releaseTime, 0.25)])
                ],
                parameters: [DynamicParameterData(id: .hapticReleaseTimeControl, value: 0.25, time: 0.1)]),
            rate: rate)
        let h = render(pattern, frames: Int(0.5 * rate)).haptic
        let tail = envelopeSeconds(0.5)
        let last = try #require(lastSound(h))
        #expect(abs(Double(last) / rate - (0.3 + tail)) < 0.001, "tail ends at \(Double(last) / rate) s")
        // Halfway through the release the envelope is at half its level (a linear fall over t(x)).
        let amplitude = gain * 0.64
        let middle = Int(((0.3 + tail / 2) * rate).rounded())
        #expect(abs(envelope(h, at: middle, hz: 230, amplitude: amplitude, rate: rate) - 0.5) < 0.03)
    }

    @Test("HapticAttackTimeControl −0.75 mid-attack: a 605 ms attack finishes within 1 ms of the change")
    func attackControlMidAttack() throws {
        let pattern = try compile(
            PatternData(
                events: [
                    event(.hapticContinuous, 0, duration: 0.5, [(.hapticIntensity, 0.8), (.hapticSharpness, 1), (.attackTime, 0.75)])
                ],
                parameters: [DynamicParameterData(id: .hapticAttackTimeControl, value: -0.75, time: 0.1)]),
            rate: rate)
        let h = render(pattern, frames: Int(0.3 * rate)).haptic
        let amplitude = gain * 0.64
        // Before the change: the t(0.75) attack, level t / 605 ms.
        let before = envelope(h, at: Int(0.05 * rate), hz: 230, amplitude: amplitude, rate: rate)
        #expect(abs(before - 0.05 / envelopeSeconds(0.75)) < 0.01, "level at 50 ms: \(before)")
        // After it: the rest of the attack at t(0) = 1 ms per full level, so full level from ≈ 101 ms.
        let after = envelope(h, at: Int(0.103 * rate), hz: 230, amplitude: amplitude, rate: rate, half: 40)
        #expect(abs(after - 1) < 0.01, "level at 103 ms: \(after)")
    }

    @Test("HapticDecayTimeControl on a playing Sustained = 0 event changes the rest of its decay")
    func decayControlOnPlayingEvent() throws {
        let pattern = try compile(
            PatternData(
                events: [
                    event(.hapticContinuous, 0, [(.hapticIntensity, 0.8), (.hapticSharpness, 1), (.sustained, 0), (.decayTime, 0.75)])
                ],
                parameters: [DynamicParameterData(id: .hapticDecayTimeControl, value: -0.25, time: 0.2)]),
            rate: rate)
        let h = render(pattern, frames: Int(0.8 * rate)).haptic
        // Level at the change: 1 − (0.2 − 1 ms) / t(0.75); then it falls at 1 / t(0.5) per second.
        let level = 1 - (0.2 - 0.001) / envelopeSeconds(0.75)
        let end = 0.2 + level * envelopeSeconds(0.5)
        let last = try #require(lastSound(h))
        #expect(abs(Double(last) / rate - end) < 0.001, "decay ends at \(Double(last) / rate) s, expected \(end)")
    }

    @Test("Sustained = 0: a decay longer than the event keeps its t(x) slope and is cut at EventDuration in 1 ms")
    func decayCutNotSqueezed() throws {
        let pattern = try compile(
            PatternData(events: [
                event(.hapticContinuous, 0, duration: 0.5, [(.hapticIntensity, 0.8), (.hapticSharpness, 1), (.sustained, 0), (.decayTime, 0.75)])
            ]),
            rate: rate)
        let h = render(pattern, frames: Int(0.7 * rate)).haptic
        let amplitude = gain * 0.64
        let decay = envelopeSeconds(0.75)  // 605 ms, longer than the 500 ms event
        for t in [0.1, 0.25, 0.4, 0.49] {
            let expected = 1 - (t - 0.001) / decay
            let measured = envelope(h, at: Int(t * rate), hz: 230, amplitude: amplitude, rate: rate)
            #expect(abs(measured - expected) < 0.01, "level at \(t) s: \(measured), expected \(expected)")
        }
        // The cut: a 1 ms ramp that ends at EventDuration (nothing sounds from 0.5 s on).
        #expect(h[Int(0.5 * rate)...].allSatisfy { $0 == 0 })
        #expect(peak(h, Int(0.4985 * rate)..<Int(0.499 * rate)) > Float(0.1 * amplitude))
        #expect(maxJump(h) < Float(2 * Double.pi * 230 / rate * amplitude) * 1.5)
    }
}

@Suite("Fidelity: the limiter is transparent for a lone event")
struct LoneEventLawTests {
    static let rate = 48_000.0

    /// The amplitude of the sine at `hz` over whole cycles of [from, to), and the distortion: the RMS of
    /// what is left after subtracting that sine, over the sine's RMS.
    static func fit(_ h: [Float], hz: Double, from: Int, to: Int) -> (amplitude: Double, thd: Double) {
        let cycles = Int(Double(to - from) * hz / rate)
        let end = from + Int((Double(cycles) * rate / hz).rounded())
        let (re, im) = toneComponent(h, rate: rate, frequency: hz, from: from, to: end)
        var residual = 0.0
        for k in from..<end {
            let w = 2 * Double.pi * hz * Double(k) / rate
            let r = Double(h[k]) - (re * cos(w) + im * sin(w))
            residual += r * r
        }
        let amplitude = (re * re + im * im).squareRoot()
        let rms = (residual / Double(end - from)).squareRoot()
        return (amplitude, rms / (amplitude / 2.0.squareRoot()))
    }

    @Test(
        "a lone HapticContinuous at every intensity renders gain × I² (or gain × I) within 1e-4, THD < 0.1 %",
        arguments: [ActuatorProfile.default, .lra, .speaker])
    func continuousLaw(profile: ActuatorProfile) throws {
        for i in stride(from: 0.05, through: 1.0, by: 0.05) {
            for s in [0.0, 0.5, 1.0] {
                let pattern = try compile(
                    PatternData(events: [
                        event(.hapticContinuous, 0, duration: 0.3, [(.hapticIntensity, Float(i)), (.hapticSharpness, Float(s))])
                    ]),
                    rate: Self.rate, profile: profile)
                let h = render(pattern, frames: Int(0.3 * Self.rate)).haptic
                let hz = profile.lowFrequency + s * (profile.highFrequency - profile.lowFrequency)
                let (amplitude, thd) = Self.fit(h, hz: hz, from: Int(0.05 * Self.rate), to: Int(0.25 * Self.rate))
                let law = profile.law == .square ? i * i : i
                #expect(abs(amplitude - profile.gain * law) < 1e-4, "\(profile.name) I \(i) S \(s): \(amplitude)")
                #expect(thd < 1e-3, "\(profile.name) I \(i) S \(s): THD \(thd)")
            }
        }
    }

    @Test("a lone full-intensity HapticTransient is its windowed sine, sample for sample within 1e-4")
    func transientLaw() throws {
        for s in [0.0, 0.5, 1.0] {
            let profile = ActuatorProfile.default
            let pattern = try compile(
                PatternData(events: [event(.hapticTransient, 0, [(.hapticIntensity, 1), (.hapticSharpness, Float(s))])]),
                rate: Self.rate)
            let h = render(pattern, frames: 2000).haptic
            let length = (profile.transientDuration * Self.rate).rounded()
            let hz = profile.frequency(sharpness: s)
            var worst = 0.0
            for n in 0..<2000 {
                let window = Double(n) < length ? pow(sin(Double.pi * Double(n) / length), 2) : 0
                let expected = profile.gain * window * sin(2 * Double.pi * hz * Double(n) / Self.rate)
                worst = max(worst, abs(Double(h[n]) - expected))
            }
            #expect(worst < 1e-4, "S \(s): differs by \(worst)")
        }
    }

    @Test("overlapping events that stay below the loudest single event sum exactly; above it they are limited")
    func overlapping() throws {
        let one = event(.hapticContinuous, 0, duration: 0.2, [(.hapticIntensity, 0.6), (.hapticSharpness, 0.5)])
        let other = event(.hapticContinuous, 0.05, duration: 0.2, [(.hapticIntensity, 0.6), (.hapticSharpness, 0)])
        let frames = Int(0.3 * Self.rate)
        let a = render(try compile(PatternData(events: [one]), rate: Self.rate), frames: frames).haptic
        let b = render(try compile(PatternData(events: [other]), rate: Self.rate), frames: frames).haptic
        let both = render(try compile(PatternData(events: [one, other]), rate: Self.rate), frames: frames).haptic
        var worst: Float = 0
        for n in 0..<frames { worst = max(worst, abs(both[n] - (a[n] + b[n]))) }
        #expect(worst < 1e-6, "sum below full scale bent by \(worst)")

        let loud = (0..<3).map { k in
            event(.hapticContinuous, 0, duration: 0.2, [(.hapticIntensity, 1), (.hapticSharpness, Float(k) * 0.01)])
        }
        let limited = render(try compile(PatternData(events: loud), rate: Self.rate), frames: frames).haptic
        #expect(limited.allSatisfy { abs($0) <= 1 })
        #expect(peak(limited, 0..<frames) > Float(ActuatorProfile.default.gain))
    }
}

@Suite("Fidelity: loop seams and seeks")
struct SeamAndSeekTests {
    let rate = 8000.0

    @Test("a loop seam inside a continuous event never exceeds the steady level by more than 1 dB", arguments: [0.0, 0.3])
    func seamWithoutOvershoot(attack: Double) throws {
        // 80 Hz: the voice of the old pass is in phase with the new pass's at each seam (40 cycles apart).
        let pattern = try compile(
            PatternData(events: [
                event(.hapticContinuous, 0, duration: 1, [(.hapticIntensity, 0.6), (.hapticSharpness, 0), (.attackTime, Float(attack))])
            ]))
        let (buses, _) = render(frames: Int(1.3 * rate)) { r in r.startPlayer(0, pattern: pattern, atFrame: 0, loopEnd: 0.5) }
        let h = buses.haptic
        let steady = peak(h, Int(0.3 * rate)..<Int(0.5 * rate))
        #expect(steady > 0)
        for seam in [0.5, 1.0] {
            let around = peak(h, Int((seam - 0.01) * rate)..<Int((seam + 0.05) * rate))
            #expect(around <= steady * Float(pow(10, 1.0 / 20)), "seam at \(seam) s: \(around) against \(steady)")
        }
    }

    @Test("a loop seam inside a looping audio file never exceeds its steady level by more than 1 dB")
    func audioSeamWithoutOvershoot() throws {
        let file = sineFile(seconds: 0.1, hz: 200, rate: rate)
        let e = EventData(
            type: .audioCustom, time: 0, duration: 1, parameters: [EventParameterData(id: .audioPan, value: -1)],
            loopEnabled: true)
        let pattern = try compile(PatternData(events: [e]), buffers: [0: file])
        let (buses, _) = render(frames: Int(1.3 * rate)) { r in r.startPlayer(0, pattern: pattern, atFrame: 0, loopEnd: 0.5) }
        let steady = peak(buses.left, Int(0.3 * rate)..<Int(0.5 * rate))
        let around = peak(buses.left, Int(0.49 * rate)..<Int(0.55 * rate))
        #expect(around <= steady * Float(pow(10, 1.0 / 20)), "\(around) against \(steady)")
    }

    /// Transients at 0, 0.1, 0.2 and 0.3 s, looping at 0.4 s, seeked at frame 1000 (0.125 s).
    func seekWhileLooping(to offset: Double) throws -> (Buses, Renderer) {
        let taps = (0..<4).map { event(.hapticTransient, Double($0) * 0.1, [(.hapticIntensity, 0.8)]) }
        let pattern = try compile(PatternData(events: taps))
        return render(frames: 4000, blockSize: { _ in 100 }) { r in
            r.startPlayer(0, pattern: pattern, atFrame: 0, loopEnd: 0.4)
            r.seekPlayer(0, toOffset: offset, atFrame: 1000)
        }
    }

    @Test("a seek at or past the loop end while looping jumps to the loop start", arguments: [0.4, 0.45, 0.95])
    func seekPastLoopEnd(offset: Double) throws {
        let (buses, renderer) = try seekWhileLooping(to: offset)
        // The tap at pattern time 0 starts at the seek frame; the next ones follow 0.1 s apart.
        let first = try #require(firstSound(buses.haptic, from: 1000))
        #expect(first == 1000 || first == 1001, "first sound after the seek at \(first)")
        #expect(peak(buses.haptic, 1000..<1100) > 0.3)
        let second = try #require(firstSound(buses.haptic, from: 1000 + 200))
        #expect(second == 1800 || second == 1801)
        let third = try #require(firstSound(buses.haptic, from: 1800 + 200))
        #expect(third == 2600 || third == 2601)
        #expect(renderer.position(of: 0).seconds < 0.4)
    }
}
