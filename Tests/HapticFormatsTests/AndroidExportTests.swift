import Foundation
import HapticFormats
import Testing

/// The Android export against values computed by hand or by the tests' own reading of the `.haptic` spec.
@Suite("AndroidExport")
struct AndroidExportTests {
    func file(_ amplitude: [(Double, Double)]) -> HapticFile {
        HapticFile(amplitude: amplitude.map { HapticFile.AmplitudeBreakpoint(time: $0.0, amplitude: $0.1) })
    }

    @Test func waveformStepsHoldTheAmplitudeAtTheirStart() {
        // 255 × 0.8 × k/10 = 20.4 k, rounded.
        let (ramp, _) = AndroidExport.convert(file([(0, 0), (0.1, 0.8)]), resolution: 10)
        #expect(ramp.timings == Array(repeating: 10, count: 10))
        #expect(ramp.amplitudes == [0, 20, 41, 61, 82, 102, 122, 143, 163, 184])
        let (short, _) = AndroidExport.convert(file([(0, 0.5), (0.035, 0.5)]), resolution: 10)
        #expect(short.timings == [10, 10, 10, 5], "the last step is cut at the end of the effect")
        #expect(short.amplitudes == [128, 128, 128, 128])
    }

    @Test func waveformFollowsTheEnvelope() throws {
        let path = TestPaths.fixture("gear.haptic")
        let meaning = try HapticMeaning(json: try jsonObject(file: path))
        let gear = try #require(HapticFileDecoder.decode(contentsOfFile: path).file)
        for resolution in [1, 7, 10] {
            let (vibration, _) = AndroidExport.convert(gear, resolution: resolution)
            #expect(vibration.timings.reduce(0, +) == 910)
            var start = 0
            for (timing, amplitude) in zip(vibration.timings, vibration.amplitudes) {
                let t = Double(start) / 1000
                var expected = meaning.amplitude(at: t)
                // The emphasis at 0.49 s (0.8) is a 20 ms pulse.
                if t < 0.51 && t + Double(timing) / 1000 > 0.49 { expected = max(expected, 0.8) }
                #expect(amplitude == Int((expected * 255).rounded()), "step at \(start) ms, resolution \(resolution)")
                start += timing
            }
        }
    }

    @Test func emphasisBecomesAPulse() throws {
        let taps = try #require(HapticFileDecoder.decode(contentsOfFile: TestPaths.fixture("taps.haptic")).file)
        let (vibration, issues) = AndroidExport.convert(taps, resolution: 10)
        var amplitudes = Array(repeating: 0, count: 50)
        amplitudes[0] = 255
        amplitudes[1] = 255
        amplitudes[25] = 128
        amplitudes[26] = 128
        #expect(vibration.amplitudes == amplitudes)
        #expect(issues.map(\.path) == ["signals.continuous.envelopes.amplitude[0].emphasis"])
        // Envelope: pulses of √amplitude at the emphasis' sharpness, rising in 1 ms, back to the envelope
        // (0, sharpness 0.5: no frequency envelope) after 20 ms; no other loss.
        let points = vibration.controlPoints.map { [$0.intensity, $0.sharpness, Double($0.durationMillis)] }
        let expected: [[Double]] = [[1, 0.9, 1], [0, 0.5, 19], [0, 0.5, 230], [(0.5).squareRoot(), 0.2, 1], [0, 0.5, 19], [0, 0.5, 230]]
        #expect(points.count == expected.count)
        for (a, b) in zip(points, expected) { #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-12 }, "\(a) vs \(b)") }
    }

    @Test func envelopeHitsEveryBreakpointAndEndsAtZero() throws {
        let path = TestPaths.fixture("gear.haptic")
        let meaning = try HapticMeaning(json: try jsonObject(file: path))
        let gear = try #require(HapticFileDecoder.decode(contentsOfFile: path).file)
        let vibration = AndroidExport.convert(gear).vibration
        #expect(vibration.controlPoints.last?.intensity == 0)
        #expect(vibration.controlPoints.allSatisfy { $0.durationMillis >= 1 })
        #expect(vibration.controlPoints.map(\.durationMillis).reduce(0, +) == 910)
        #expect(abs(vibration.initialSharpness - 0) < 1e-12)
        var at: [Int: AndroidVibration.ControlPoint] = [:]
        var millis = 0
        for point in vibration.controlPoints {
            millis += point.durationMillis
            at[millis] = point
        }
        for (time, amplitude) in meaning.amplitude where time > 0 && !(0.49...0.51).contains(time) {
            let point = try #require(at[Int((time * 1000).rounded())], "a control point at \(time) s")
            #expect(abs(point.intensity - amplitude.squareRoot()) < 1e-9)
            #expect(abs(point.sharpness - meaning.frequency(at: time)) < 1e-9)
        }
        let peak = try #require(at[491])
        #expect(abs(peak.intensity - (0.8).squareRoot()) < 1e-9 && peak.sharpness == 0.5)
    }

    @Test func jumpsBecomeOneMillisecondRamps() {
        let (vibration, issues) = AndroidExport.convert(file([(0.1, 0.25), (0.2, 0.25)]))
        let points = vibration.controlPoints.map { [$0.intensity, Double($0.durationMillis)] }
        // Silent until 99 ms, 0.5 (√0.25) at 100 ms, held to 200 ms, 0 one millisecond later.
        #expect(points == [[0, 99], [0.5, 1], [0.5, 100], [0, 1]])
        #expect(!issues.contains { $0.message.contains("merged") })
    }

    @Test func jsonHasBothForms() throws {
        let (vibration, _) = AndroidExport.convert(file([(0, 0), (0.02, 1)]), resolution: 10)
        let json = try jsonObject(text: AndroidExport.json(vibration, source: "x.haptic"))
        let waveform = try #require(json["waveform"] as? [String: Any])
        #expect(waveform["timings"] as? [Int] == [10, 10])
        #expect(waveform["amplitudes"] as? [Int] == [0, 128])
        let envelope = try #require(json["envelope"] as? [String: Any])
        let points = try #require(envelope["controlPoints"] as? [[String: Any]])
        #expect(points.count == 2)
        #expect(json["durationMillis"] as? Int == 20)
    }
}
