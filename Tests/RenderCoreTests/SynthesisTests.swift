import Foundation
import Testing
import ThrumTestSupport
import ThrumModel

@testable import RenderCore

@Suite("DSP helpers")
struct DSPTests {
    @Test("sinCycles matches sin(2πx) within 1e-6")
    func fastSine() {
        var worst: Double = 0
        for i in 0..<100_000 {
            let x = Float(i) / 100_000
            worst = max(worst, abs(Double(sinCycles(x)) - sin(2 * Double.pi * Double(x))))
        }
        #expect(worst < 1e-6)
    }

    @Test("fastExp2 matches exp2 within 1e-6 relative")
    func fastExponent() {
        var worst: Double = 0
        for i in -20_000...20_000 {
            let x = Float(i) / 1000
            worst = max(worst, abs(Double(fastExp2(x)) / exp2(Double(x)) - 1))
        }
        #expect(worst < 1e-6)
    }

    @Test("soft limiter: identity below the knee, continuous, monotonic, never beyond ±1")
    func limiter() {
        let l = SoftLimiter(knee: 0.8)
        #expect(l.apply(0.5) == 0.5 && l.apply(-0.8) == -0.8)
        #expect(l.apply(-1000) <= l.apply(-20))
        var previous = l.apply(-20)
        for i in -200_000...200_000 {
            let x = Float(i) / 10_000
            let y = l.apply(x)
            #expect(abs(y) <= 1)
            #expect(y >= previous)
            #expect(abs(y - previous) <= 1.01e-4)  // continuous (slope ≤ 1; x itself is rounded to Float)
            previous = y
        }
        #expect(l.apply(1e30) <= 1 && l.apply(-1e30) >= -1)
    }
}

@Suite("Haptic synthesis")
struct HapticSynthesisTests {
    let rate = 8000.0

    @Test("envelope: attack and release lengths follow t(x) = 0.001 × 5120^x")
    func attackRelease() throws {
        let pattern = try compile(
            PatternData(events: [
                event(.hapticContinuous, 0, duration: 0.5, [(.hapticIntensity, 0.8), (.attackTime, 0.5), (.releaseTime, 0.5)])
            ]))
        let expected = Int((0.001 * pow(5120, 0.5) * rate).rounded())  // ≈ 572
        let envelope = pattern.events[0].envelope
        #expect(abs(envelope.attack - expected) <= 1)
        #expect(abs(envelope.release - expected) <= 1)
        let h = render(pattern, frames: 4000 + expected + 200).haptic
        let full = Float(0.64 * ActuatorProfile.default.gain)
        #expect(peak(h, 0..<(expected / 4)) < 0.3 * full)
        #expect(abs(peak(h, expected..<(expected + 120)) - full) < 0.02)
        let releaseStart = 4000
        #expect(abs(peak(h, (releaseStart + expected / 2 - 60)..<(releaseStart + expected / 2 + 60)) - full / 2) < 0.05)
        #expect(h[(releaseStart + expected + 1)...].allSatisfy { $0 == 0 })
        #expect(peak(h, (releaseStart + expected - 60)..<(releaseStart + expected)) > 0)
    }

    @Test("non-sustained decay ends by EventDuration")
    func decayBounded() throws {
        let pattern = try compile(
            PatternData(events: [
                event(.hapticContinuous, 0.1, duration: 0.1, [(.sustained, 0), (.decayTime, 1), (.hapticIntensity, 0.8)])
            ]))
        let h = render(pattern, frames: 3000).haptic
        #expect(h[1600...].allSatisfy { $0 == 0 })
        #expect(peak(h, 1500..<1600) > 0)
        #expect(pattern.tailFrames == 1600)
    }

    @Test("sharpness sets the frequency: S=0 → 80 Hz, 0.5 → 155 Hz, 1 → 230 Hz (±2 %)", arguments: [
        (Float(0), 80.0), (Float(0.5), 155.0), (Float(1), 230.0),
    ])
    func sharpnessFrequency(sharpness: Float, hz: Double) throws {
        let pattern = try compile(
            PatternData(events: [
                event(.hapticContinuous, 0, duration: 1, [(.hapticIntensity, 0.8), (.hapticSharpness, sharpness)])
            ]))
        let h = render(pattern, frames: 8000).haptic
        let measured = zeroCrossingFrequency(h, rate: rate, from: 100, to: 7900)
        #expect(abs(measured / hz - 1) < 0.02, "measured \(measured) Hz")
    }

    @Test("sharpness control shifts continuous events but not transients")
    func sharpnessControl() throws {
        let continuous = PatternData(
            events: [event(.hapticContinuous, 0, duration: 1, [(.hapticIntensity, 0.8), (.hapticSharpness, 0)])],
            parameters: [DynamicParameterData(id: .hapticSharpnessControl, value: 0.5, time: 0)])
        let h = render(try compile(continuous), frames: 8000).haptic
        #expect(abs(zeroCrossingFrequency(h, rate: rate, from: 100, to: 7900) / 155 - 1) < 0.02)

        let transient = [event(.hapticTransient, 0.01, [(.hapticIntensity, 0.6), (.hapticSharpness, 0.2)])]
        let plain = render(try compile(PatternData(events: transient)), frames: 600).haptic
        let shifted = render(
            try compile(
                PatternData(
                    events: transient,
                    parameters: [DynamicParameterData(id: .hapticSharpnessControl, value: 1, time: 0)])),
            frames: 600
        ).haptic
        #expect(plain == shifted)
        #expect(peak(plain, 0..<600) > 0.1)
    }

    @Test("square law: I = 0.5 → transient peak 0.25 × gain; linear law: 0.5 × gain")
    func intensityLaw() throws {
        let e = [event(.hapticTransient, 0, [(.hapticIntensity, 0.5), (.hapticSharpness, 0.5)])]
        let square = render(try compile(PatternData(events: e)), frames: 400).haptic
        #expect(abs(peak(square, 0..<400) - 0.25 * Float(ActuatorProfile.default.gain)) < 0.01)
        let linear = render(try compile(PatternData(events: e), profile: .speaker), frames: 400).haptic
        #expect(abs(peak(linear, 0..<400) - 0.5 * 0.8) < 0.02)
        // Transient length from the profile (20 ms at 8 kHz = 160 frames).
        #expect(firstSound(Array(square.reversed())).map { 400 - $0 } ?? 0 <= 160)
    }

    @Test("intensity control halfway on a ramp 1 → 0 gives amplitude ratio 0.25 (square law)")
    func intensityCurve() throws {
        let pattern = try compile(
            PatternData(
                events: [event(.hapticContinuous, 0, duration: 2, [(.hapticIntensity, 0.8), (.hapticSharpness, 0)])],
                curves: [
                    ParameterCurveData(
                        id: .hapticIntensityControl, time: 0.5,
                        points: [ControlPointData(time: 0, value: 1), ControlPointData(time: 1, value: 0)])
                ]))
        let h = render(pattern, frames: 16_000).haptic
        let before = peak(h, 3000..<4000)
        let halfway = peak(h, (8000 - 50)..<(8000 + 50))
        #expect(abs(halfway / before - 0.25) < 0.02, "ratio \(halfway / before)")
        #expect(peak(h, 12_000..<16_000) == 0)
    }

    @Test("a transient that ignores the intensity control plays at its own intensity under any control")
    func transientIgnoringIntensityControl() throws {
        func transient(ignoring: Bool) -> EventData {
            EventData(
                type: .hapticTransient, time: 0.1,
                parameters: [EventParameterData(id: .hapticIntensity, value: 0.5)], ignoresIntensityControl: ignoring)
        }
        let control = [DynamicParameterData(id: .hapticIntensityControl, value: 0, time: 0)]
        let alone = render(try compile(PatternData(events: [transient(ignoring: false)])), frames: 2000).haptic
        let muted = render(try compile(PatternData(events: [transient(ignoring: false)], parameters: control)), frames: 2000)
        let exempt = render(try compile(PatternData(events: [transient(ignoring: true)], parameters: control)), frames: 2000)
        #expect(peak(alone, 0..<2000) > 0.1)
        #expect(peak(muted.haptic, 0..<2000) == 0, "an ordinary transient follows the control (0)")
        #expect(exempt.haptic == alone, "the exempt one plays exactly as with no control")
    }

    @Test("a parameter step changes the amplitude on its exact frame")
    func stepFrame() throws {
        let e = [event(.hapticContinuous, 0, duration: 1, [(.hapticIntensity, 0.8)])]
        let plain = render(try compile(PatternData(events: e)), frames: 4000).haptic
        let stepped = render(
            try compile(
                PatternData(
                    events: e, parameters: [DynamicParameterData(id: .hapticIntensityControl, value: 0.5, time: 0.25)])),
            frames: 4000
        ).haptic
        #expect(Array(plain[..<2000]) == Array(stepped[..<2000]))
        for n in 2000..<4000 where plain[n] != 0 {
            #expect(abs(stepped[n] / plain[n] - 0.25) < 1e-5)
        }
    }

    @Test("external setParameter takes effect at its frame")
    func externalParameter() throws {
        let pattern = try compile(PatternData(events: [event(.hapticContinuous, 0, duration: 1, [(.hapticIntensity, 0.8)])]))
        let plain = render(pattern, frames: 3000).haptic
        let (changed, _) = render(frames: 3000, blockSize: { _ in 256 }) { r in
            r.startPlayer(0, pattern: pattern, atFrame: 0)
            r.setParameter(0, .hapticIntensity, value: 0.5, atFrame: 1234)
        }
        #expect(Array(plain[..<1234]) == Array(changed.haptic[..<1234]))
        #expect(abs(changed.haptic[1300] / plain[1300] - 0.25) < 1e-5)
    }

    @Test("many overlapping full-intensity events stay within ±1")
    func limiterOnBus() throws {
        let events = (0..<40).map { i in
            event(.hapticContinuous, Double(i) * 0.001, duration: 0.5, [(.hapticIntensity, 1), (.hapticSharpness, 0.3)])
        }
        let h = render(try compile(PatternData(events: events)), frames: 5000).haptic
        #expect(h.allSatisfy { abs($0) <= 1 })
        #expect(peak(h, 0..<5000) > 0.95)
    }

    @Test("more simultaneous events than voices: overflow counted, no crash, pool not grown")
    func voiceOverflow() throws {
        let events = (0..<10).map { _ in event(.hapticTransient, 0.01, [(.hapticIntensity, 0.3)]) }
        let pattern = try compile(PatternData(events: events))
        let (buses, renderer) = render(frames: 1000, maxVoices: 4) { r in r.startPlayer(0, pattern: pattern, atFrame: 0) }
        #expect(renderer.statistics.voiceOverflowCount == 6)
        #expect(renderer.configuration.maxVoices == 4)
        #expect(buses.haptic.allSatisfy { abs($0) <= 1 })
        #expect(renderer.nextNotification()?.reason == .finished)
    }

    @Test("stop fades out within 5 ms and reports .stopped; natural end reports .finished")
    func stopAndFinish() throws {
        let pattern = try compile(PatternData(events: [event(.hapticContinuous, 0, duration: 1, [(.hapticIntensity, 0.8)])]))
        let (buses, renderer) = render(frames: 3000, blockSize: { _ in 100 }) { r in
            r.startPlayer(0, pattern: pattern, atFrame: 0)
            r.stopPlayer(0, atFrame: 1000)
        }
        #expect(peak(buses.haptic, 900..<1000) > 0.5)
        #expect(buses.haptic[1040...].allSatisfy { $0 == 0 })
        #expect(renderer.nextNotification() == PlayerNotification(instance: 0, frame: 1040, reason: .stopped))

        let short = try compile(PatternData(events: [event(.hapticTransient, 0.01)]))
        let (_, r2) = render(frames: 1000, blockSize: { _ in 64 }) { r in r.startPlayer(3, pattern: short, atFrame: 50) }
        #expect(r2.nextNotification() == PlayerNotification(instance: 3, frame: 50 + 80 + 160, reason: .finished))
        #expect(r2.phase(of: 3) == .idle)
    }

    @Test("playbackRate 2 halves event times but keeps the frequency")
    func playbackRate() throws {
        let pattern = try compile(PatternData(events: [event(.hapticContinuous, 0.5, duration: 0.5, [(.hapticIntensity, 0.8)])]))
        let (buses, _) = render(frames: 8000) { r in r.startPlayer(0, pattern: pattern, atFrame: 0, playbackRate: 2) }
        let first = try #require(firstSound(buses.haptic))
        #expect(first == 2000 || first == 2001)
        #expect(abs(zeroCrossingFrequency(buses.haptic, rate: rate, from: 2100, to: 3900) / 155 - 1) < 0.02)
        #expect(buses.haptic[(4000 + 8 + 1)...].allSatisfy { $0 == 0 })  // 0.25 s + 1 ms release
    }
}

@Suite("Audio synthesis")
struct AudioSynthesisTests {
    @Test("constant-power pan: L² + R² is the same at every position")
    func panLaw() throws {
        var powers: [Double] = []
        for pan in stride(from: Float(-1), through: 1, by: 0.25) {
            let b = render(
                try compile(PatternData(events: [event(.audioContinuous, 0, duration: 0.5, [(.audioPan, pan)])])),
                frames: 4000)
            let l = b.left[1000..<3000].reduce(0) { $0 + Double($1 * $1) }
            let r = b.right[1000..<3000].reduce(0) { $0 + Double($1 * $1) }
            powers.append(l + r)
        }
        let first = powers[0]
        #expect(powers.allSatisfy { abs($0 / first - 1) < 1e-3 }, "\(powers)")
    }

    @Test("AudioPitch 1 → 880 Hz; pitch control adds", arguments: [
        (Float(0), Float(0), 440.0), (Float(1), Float(0), 880.0), (Float(0.5), Float(0.5), 880.0), (Float(-1), Float(0), 220.0),
    ])
    func pitch(pitch: Float, control: Float, hz: Double) throws {
        let pattern = try compile(
            PatternData(
                events: [event(.audioContinuous, 0, duration: 1, [(.audioPitch, pitch)])],
                parameters: [DynamicParameterData(id: .audioPitchControl, value: control, time: 0)]),
            rate: 16_000)
        let b = render(pattern, frames: 16_000)
        let measured = zeroCrossingFrequency(b.left, rate: 16_000, from: 200, to: 15_000)
        #expect(abs(measured / hz - 1) < 0.01, "measured \(measured)")
    }

    @Test("brightness 0 attenuates the 4th harmonic against brightness 1")
    func brightness() throws {
        func harmonic(_ b: Float) throws -> Double {
            let p = try compile(
                PatternData(events: [event(.audioContinuous, 0, duration: 1, [(.audioBrightness, b)])]), rate: 16_000)
            let x = render(p, frames: 16_000).left
            return toneAmplitude(x, rate: 16_000, frequency: 1760, from: 2000, to: 14_000)
                / toneAmplitude(x, rate: 16_000, frequency: 440, from: 2000, to: 14_000)
        }
        let dark = try harmonic(0)
        let bright = try harmonic(1)
        #expect(bright > 0.2)
        #expect(dark < 0.5 * bright, "dark \(dark) bright \(bright)")
    }

    let rate = 8000.0
    let buffer = SampleBuffer(samples: (0..<100).map { Float($0 + 1) / 200 }, sampleRate: 8000)

    @Test("AudioCustom: buffer content appears at the onset frame")
    func customOnset() throws {
        let e = EventData(
            type: .audioCustom, time: 0.1, parameters: [EventParameterData(id: .audioPan, value: -1)],
            useVolumeEnvelope: false)
        let b = render(try compile(PatternData(events: [e]), buffers: [0: buffer]), frames: 1200)
        #expect(b.left[..<800].allSatisfy { $0 == 0 })
        for k in 0..<100 { #expect(abs(b.left[800 + k] - buffer.samples[k]) < 1e-6) }
        #expect(b.left[900...].allSatisfy { $0 == 0 })
        #expect(b.right.allSatisfy { abs($0) < 1e-6 })
    }

    @Test("AudioCustom: EventDuration truncates; loop repeats for EventDuration")
    func customTruncateAndLoop() throws {
        let pan = [EventParameterData(id: .audioPan, value: -1)]
        let truncated = EventData(type: .audioCustom, time: 0, duration: 0.005, parameters: pan, useVolumeEnvelope: false)
        let t = render(try compile(PatternData(events: [truncated]), buffers: [0: buffer]), frames: 300).left
        #expect(abs(t[39] - buffer.samples[39]) < 1e-6)
        #expect(t[40...].allSatisfy { $0 == 0 })

        let looped = EventData(
            type: .audioCustom, time: 0, duration: 0.04, parameters: pan, useVolumeEnvelope: false, loopEnabled: true)
        let l = render(try compile(PatternData(events: [looped]), buffers: [0: buffer]), frames: 400).left
        for k in 0..<320 { #expect(abs(l[k] - buffer.samples[k % 100]) < 1e-6) }
        #expect(l[320...].allSatisfy { $0 == 0 })
    }

    @Test("AudioCustom: a stereo file at centre pan plays unchanged; a missing buffer is a compile error")
    func stereoAndMissing() throws {
        let stereo = SampleBuffer(samples: [0.1, -0.2, 0.3, -0.4], channelCount: 2, sampleRate: 8000)
        let e = EventData(type: .audioCustom, time: 0, useVolumeEnvelope: false)
        let b = render(try compile(PatternData(events: [e]), buffers: [0: stereo]), frames: 4)
        #expect(b.left == [0.1, 0.3, 0, 0] && b.right == [-0.2, -0.4, 0, 0])
        #expect(throws: CompileError.missingAudio(eventIndex: 0)) { try compile(PatternData(events: [e])) }
    }
}
