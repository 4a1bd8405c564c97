import Foundation
import Testing
import ThrumTestSupport
import ThrumModel

@testable import RenderCore


@Suite("Transport: playback rate")
struct TransportRateTests {
    static let sr = 8000.0

    @Test("onsets at t / rate", arguments: [0.5, 1.7, 2.0])
    func onsets(rate: Double) throws {
        let times = [0.01, 0.05, 0.1234, 0.2]
        let p = try compile(PatternData(events: times.map { event(.hapticTransient, $0, [(.hapticIntensity, 0.5)]) }), rate: Self.sr)
        let (buses, r) = render(rate: Self.sr, frames: 4000) { r in
            r.enableOnsetLog(capacity: 16)
            r.startPlayer(0, pattern: p, atFrame: 0, playbackRate: rate)
        }
        let expected = times.map { Int(($0 * Self.sr / rate).rounded()) }
        #expect(onsetFrames(r) == expected)
        #expect(firstSound(buses.haptic) == expected[0] + 1)
    }

    @Test("oscillator frequency, tone pitch and file samples do not change with the rate")
    func pitchUnchanged() throws {
        let file = sineFile(seconds: 0.05, hz: 300)
        let events = [
            event(.hapticContinuous, 0, duration: 0.2, [(.hapticSharpness, 0.5), (.hapticIntensity, 0.5)]),
            event(.audioContinuous, 0, duration: 0.2, [(.audioBrightness, 0)]),
        ]
        let p = try compile(PatternData(events: events), rate: Self.sr)
        let custom = try compile(PatternData(events: [EventData(type: .audioCustom, time: 0.1)]), rate: Self.sr, buffers: [0: file])
        func run(_ pattern: CompiledPattern, _ rate: Double) -> Buses {
            render(rate: Self.sr, frames: 4000) { r in r.startPlayer(0, pattern: pattern, atFrame: 0, playbackRate: rate) }.0
        }
        let slow = run(p, 1)
        let fast = run(p, 2)  // 0.1 s long now
        let f1 = zeroCrossingFrequency(slow.haptic, rate: Self.sr, from: 200, to: 700)
        let f2 = zeroCrossingFrequency(fast.haptic, rate: Self.sr, from: 200, to: 700)
        #expect(abs(f1 - 155) < 3 && abs(f2 - f1) < 1)
        let t1 = zeroCrossingFrequency(slow.left, rate: Self.sr, from: 200, to: 700)
        let t2 = zeroCrossingFrequency(fast.left, rate: Self.sr, from: 200, to: 700)
        #expect(abs(t1 - 440) < 5 && abs(t2 - t1) < 1)
        // The file plays the same samples at natural speed, only earlier.
        let a = run(custom, 1)
        let b = run(custom, 2)
        #expect(Array(a.left[800..<1300]) == Array(b.left[400..<900]))
    }

    @Test("a mid-play rate change moves later onsets only; sounding voices keep their length")
    func midPlayChange() throws {
        let times = [0.05, 0.1, 0.15, 0.2, 0.25]
        var events = times.map { event(.hapticTransient, $0, [(.hapticIntensity, 0.5)]) }
        events.append(event(.audioContinuous, 0.11, duration: 0.05))
        let p = try compile(PatternData(events: events), rate: Self.sr)
        let change = 1000  // 0.125 s
        let (x, _) = render(rate: Self.sr, frames: 3000) { r in r.startPlayer(0, pattern: p, atFrame: 0) }
        let (y, r) = render(rate: Self.sr, frames: 3000, blockSize: { _ in 33 }) { r in
            r.enableOnsetLog(capacity: 16)
            r.startPlayer(0, pattern: p, atFrame: 0)
            r.setPlaybackRate(0, rate: 2, atFrame: UInt64(change))
        }
        let expected = times.map { t in
            t * Self.sr < Double(change) ? Int((t * Self.sr).rounded()) : change + Int(((t - 0.125) * 4000).rounded())
        }
        #expect(onsetFrames(r, kind: .transient) == expected)
        #expect(Array(y.haptic[..<change]) == Array(x.haptic[..<change]))
        // The tone started at 0.11 s (before the change) keeps its 0.05 s (+ release) length.
        #expect(lastSound(y.left) == lastSound(x.left))
        #expect(!r.setPlaybackRate(0, rate: 0, atFrame: 0) && !r.setPlaybackRate(0, rate: .nan, atFrame: 0))
        #expect(!r.setPlaybackRate(0, rate: -1, atFrame: 0) && !r.setPlaybackRate(0, rate: .infinity, atFrame: 0))
    }

    @Test("a rate change re-times a curve in progress from the change frame")
    func curveRetimed() throws {
        let curve = ParameterCurveData(
            id: .audioPanControl, time: 0, points: [ControlPointData(time: 0, value: -1), ControlPointData(time: 0.5, value: 1)])
        let p = try compile(PatternData(events: [event(.hapticTransient, 1)], curves: [curve]), rate: Self.sr)
        let (_, r) = render(rate: Self.sr, frames: 1001) { r in
            r.startPlayer(0, pattern: p, atFrame: 0)
            r.setPlaybackRate(0, rate: 4, atFrame: 1000)
        }
        // At 0.125 s the pan is −0.5; the rest (0.375 s of pattern time) now takes 750 frames.
        #expect(abs(r.laneValue(0, ControlLane.audioPan, 1000) - (-0.5)) < 1e-5)
        #expect(abs(r.laneValue(0, ControlLane.audioPan, 1375) - 0.25) < 1e-4)
    }
}
