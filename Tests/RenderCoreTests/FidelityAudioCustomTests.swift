import Foundation
import Testing
import ThrumModel
import ThrumTestSupport

@testable import RenderCore

// Issue 14 on rendered samples: AudioCustom per docs/decisions.md "Audio events" — its length counts in the
// pattern's duration, de-click ramps of at most 1 ms (t(x) ramps with AttackTime/ReleaseTime), varispeed
// AudioPitch, the tone's low-pass for AudioBrightness, constant-power panning of a stereo image.

/// A file of `frames` frames holding `value` (mono, 8 kHz unless given).
func constantFile(_ value: Float, frames: Int, rate: Double = 8000) -> SampleBuffer {
    SampleBuffer(samples: [Float](repeating: value, count: frames), sampleRate: rate)
}

/// An AudioCustom event panned hard left (so the left bus carries the file at cos(0) = 1).
func fileEvent(
    _ time: Double, duration: Double? = nil, _ parameters: [(CHHapticEvent.ParameterID, Float)] = [],
    envelope: Bool? = nil, loop: Bool? = nil
) -> EventData {
    EventData(
        type: .audioCustom, time: time, duration: duration,
        parameters: [EventParameterData(id: .audioPan, value: -1)] + parameters.map { EventParameterData(id: $0.0, value: $0.1) },
        useVolumeEnvelope: envelope, loopEnabled: loop)
}

@Suite("Fidelity: an audio file's length counts in the pattern's duration")
struct AudioFileDurationTests {
    let rate = 8000.0
    let file = sineFile(seconds: 0.5, hz: 200)

    @Test("a 0.5 s file at 0.1 s: duration 0.6 s; two passes play it at 0.1 s and 0.7 s")
    func fileAfterStart() throws {
        let pattern = try compile(PatternData(events: [fileEvent(0.1)]), buffers: [0: file])
        #expect(abs(pattern.duration - 0.6) < 1e-9)
        let (buses, _) = render(frames: Int(1.4 * rate)) { r in
            r.startPlayer(0, pattern: pattern, atFrame: 0, loopEnd: 0, passes: 2)
        }
        let l = buses.left
        #expect(l[..<800].allSatisfy { $0 == 0 })
        #expect(peak(l, 800..<1600) > 0.4, "the first pass sounds")
        #expect(peak(l, Int(0.55 * rate)..<Int(0.6 * rate)) > 0.4, "the file plays whole (to 0.6 s)")
        #expect(l[Int(0.6 * rate)..<Int(0.7 * rate)].allSatisfy { $0 == 0 })
        #expect(firstSound(l, from: Int(0.6 * rate)).map { abs($0 - Int(0.7 * rate)) } ?? 99 <= 1, "second pass at 0.7 s")
    }

    @Test("a file at 0 s alone loops over its own length")
    func fileAloneLoops() throws {
        let pattern = try compile(PatternData(events: [fileEvent(0)]), buffers: [0: file])
        let (buses, _) = render(frames: Int(1.6 * rate)) { r in
            r.startPlayer(0, pattern: pattern, atFrame: 0, loopEnd: 0, passes: 3)
        }
        for pass in 0..<3 { #expect(peak(buses.left, (pass * 4000 + 100)..<(pass * 4000 + 3900)) > 0.4, "pass \(pass)") }
        #expect(buses.left[12_000...].allSatisfy { $0 == 0 })
    }

    @Test("a file followed by a tap is not cut at the tap: the loop ends where the file does")
    func fileThenTap() throws {
        let pattern = try compile(
            PatternData(events: [fileEvent(0), event(.hapticTransient, 0.1, [(.hapticIntensity, 0.8)])]), buffers: [0: file])
        #expect(abs(pattern.duration - 0.5) < 1e-9)
        let (buses, _) = render(frames: Int(1.2 * rate)) { r in
            r.startPlayer(0, pattern: pattern, atFrame: 0, loopEnd: 0, passes: 2)
        }
        #expect(peak(buses.left, Int(0.3 * rate)..<Int(0.45 * rate)) > 0.4)
        // Second pass: the tap at 0.5 + 0.1 s.
        #expect(firstSound(buses.haptic, from: Int(0.3 * rate)).map { abs($0 - Int(0.6 * rate)) } ?? 99 <= 1)
    }

    @Test("AudioPitch transposes by varispeed: ±1 = ±12 semitones, the length changes accordingly", arguments: [
        (Float(1), Float(0), 400.0), (Float(-1), Float(0), 100.0), (Float(0), Float(0.5), 200 * 2.0.squareRoot()),
    ])
    func varispeed(pitch: Float, control: Float, hz: Double) throws {
        let pattern = try compile(
            PatternData(
                events: [fileEvent(0, [(.audioPitch, pitch)])],
                parameters: [DynamicParameterData(id: .audioPitchControl, value: control, time: 0)]),
            buffers: [0: file])
        let seconds = 0.5 * 200 / hz
        if control == 0 { #expect(abs(pattern.duration - seconds) < 1 / rate, "duration \(pattern.duration)") }
        let l = render(pattern, frames: Int(1.2 * rate)).left
        let measured = zeroCrossingFrequency(l, rate: rate, from: 100, to: Int(seconds * rate) - 100)
        #expect(abs(measured / hz - 1) < 0.005, "measured \(measured) Hz")
        let last = try #require(lastSound(l))
        #expect(abs(Double(last) / rate - seconds) < 0.002, "ends at \(Double(last) / rate) s")
        // Interpolated, not stepped: the level stays that of the file.
        #expect(abs(peak(l, 200..<(Int(seconds * rate) - 200)) - 0.5) < 0.01)
    }

    @Test("AudioBrightness applies the tone's one-pole low-pass (≈500 Hz at 0, open at 1); the control adds")
    func brightness() throws {
        let sr = 16_000.0
        let low = sine(frequency: 250, rate: sr, frames: 16_000, amplitude: 0.3)
        let high = sine(frequency: 2000, rate: sr, frames: 16_000, amplitude: 0.3)
        let file = SampleBuffer(samples: zip(low, high).map { $0 + $1 }, sampleRate: sr)
        func ratio(_ b: Float, control: Float = 0) throws -> Double {
            let pattern = try compile(
                PatternData(
                    events: [fileEvent(0, [(.audioBrightness, b)])],
                    parameters: [DynamicParameterData(id: .audioBrightnessControl, value: control, time: 0)]),
                rate: sr, buffers: [0: file])
            let l = render(pattern, frames: 16_000).left
            return toneAmplitude(l, rate: sr, frequency: 2000, from: 2000, to: 14_000)
                / toneAmplitude(l, rate: sr, frequency: 250, from: 2000, to: 14_000)
        }
        // |H(f)| of y += c (x − y), c = 1 − e^(−2π·500/rate).
        let c = 1 - exp(-2 * Double.pi * 500 / sr)
        func gain(_ f: Double) -> Double {
            let w = 2 * Double.pi * f / sr
            return c / (1 - 2 * (1 - c) * cos(w) + (1 - c) * (1 - c)).squareRoot()
        }
        let dark = try ratio(0)
        #expect(abs(dark / (gain(2000) / gain(250)) - 1) < 0.02, "dark ratio \(dark)")
        #expect(abs(try ratio(1) - 1) < 0.01)
        #expect(abs(try ratio(0, control: 1) - 1) < 0.01)
    }
}

@Suite("Fidelity: AudioCustom envelope and pan")
struct AudioCustomEnvelopeTests {
    let rate = 8000.0

    @Test("de-click ramps last 1 ms: a file that starts and ends off zero reaches its level after 8 frames at 8 kHz")
    func oneMillisecondRamps() throws {
        let l = render(try compile(PatternData(events: [fileEvent(0)]), buffers: [0: constantFile(0.5, frames: 400)]), frames: 500).left
        #expect(l[0] == 0)
        #expect(abs(l[4] - 0.25) < 1e-6)
        for k in 8..<392 { #expect(abs(l[k] - 0.5) < 1e-6) }
        #expect(abs(l[396] - 0.5 * 4 / 8) < 1e-6)
        #expect(l[400...].allSatisfy { $0 == 0 })
    }

    @Test("a click that starts and ends at zero keeps every sample (its peak included)")
    func clickKeepsItsPeak() throws {
        var click = [Float](repeating: 0, count: 160)  // 20 ms at 8 kHz
        for k in 1..<150 { click[k] = Float(sin(Double(k) * 0.9) * exp(-Double(k) / 30) * 0.7) }
        let file = SampleBuffer(samples: click, sampleRate: rate)
        let l = render(try compile(PatternData(events: [fileEvent(0)]), buffers: [0: file]), frames: 300).left
        for k in 0..<160 { #expect(abs(l[k] - click[k]) < 1e-6, "frame \(k)") }
    }

    @Test("EventDuration that cuts a file mid-waveform ends it with a 1 ms ramp")
    func truncationRamp() throws {
        let l = render(
            try compile(PatternData(events: [fileEvent(0, duration: 0.02)]), buffers: [0: constantFile(0.5, frames: 400)]),
            frames: 300
        ).left
        #expect(abs(l[150] - 0.5) < 1e-6)
        #expect(abs(l[156] - 0.5 * 4 / 8) < 1e-6)
        #expect(l[160...].allSatisfy { $0 == 0 })
    }

    @Test("AttackTime / ReleaseTime on the event: the ramps follow t(x)")
    func envelopeTimes() throws {
        let ramp = envelopeSeconds(0.5) * rate  // ≈ 572 frames
        let l = render(
            try compile(
                PatternData(events: [fileEvent(0, [(.attackTime, 0.5), (.releaseTime, 0.5)])]),
                buffers: [0: constantFile(0.5, frames: 4000)]),
            frames: 4400
        ).left
        #expect(abs(l[Int(ramp / 2)] - 0.25) < 0.005)
        #expect(abs(l[Int(ramp) + 10] - 0.5) < 1e-6)
        #expect(abs(l[4000 - Int(ramp / 2)] - 0.25) < 0.005)
        #expect(abs(l[4000 - Int(ramp) - 10] - 0.5) < 1e-6)
    }

    @Test("AudioReleaseTimeControl sent while the file plays lengthens its release ramp")
    func releaseControl() throws {
        let pattern = try compile(
            PatternData(
                events: [fileEvent(0, [(.releaseTime, 0.25)])],
                parameters: [DynamicParameterData(id: .audioReleaseTimeControl, value: 0.25, time: 0.1)]),
            buffers: [0: constantFile(0.5, frames: 4000)])
        let l = render(pattern, frames: 4400).left
        let ramp = envelopeSeconds(0.5) * rate
        #expect(abs(l[4000 - Int(ramp / 2)] - 0.25) < 0.005, "\(l[4000 - Int(ramp / 2)])")
    }

    @Test("AudioPan on a stereo file pans its image with constant power (not a balance)", arguments: [
        Float(-1), -0.5, 0, 0.5, 1,
    ])
    func stereoPan(pan: Float) throws {
        // Left channel: a 300 Hz sine; right channel: silence.
        let left = sine(frequency: 300, rate: rate, frames: 800, amplitude: 0.5)
        var samples: [Float] = []
        for x in left { samples += [x, 0] }
        let file = SampleBuffer(samples: samples, channelCount: 2, sampleRate: rate)
        let e = EventData(
            type: .audioCustom, time: 0, parameters: [EventParameterData(id: .audioPan, value: pan)], useVolumeEnvelope: false)
        let b = render(try compile(PatternData(events: [e]), buffers: [0: file]), frames: 800)
        // The left channel sits at position clamp(2 × pan − 1, −1, 1); constant power: cos/sin of (position + 1) π/4.
        let position = min(max(2 * Double(pan) - 1, -1), 1)
        let angle = (position + 1) * Double.pi / 4
        for k in 0..<800 {
            #expect(abs(Double(b.left[k]) - cos(angle) * Double(left[k])) < 1e-5)
            #expect(abs(Double(b.right[k]) - sin(angle) * Double(left[k])) < 1e-5)
        }
    }
}
