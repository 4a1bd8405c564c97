import Foundation
import Testing
import ThrumTestSupport
import ThrumModel

@testable import RenderCore

@Suite("Onsets and block independence")
struct OnsetAndBlockTests {
    @Test("each event's first non-zero sample is at round(t × rate) or +1", arguments: [UInt64(1), 2, 3])
    func randomOnsets(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let rate = 8000.0
        for _ in 0..<40 {
            let t = rng.range(0, 0.4)
            let transient = rng.unit() < 0.5
            let e =
                transient
                ? event(
                    .hapticTransient, t,
                    [(.hapticIntensity, Float(rng.range(0.2, 1))), (.hapticSharpness, Float(rng.unit()))])
                : event(
                    .hapticContinuous, t, duration: rng.range(0.01, 0.1),
                    [(.hapticIntensity, Float(rng.range(0.2, 1))), (.hapticSharpness, Float(rng.unit())),
                     (.attackTime, Float(rng.range(0, 0.5)))])
            let pattern = try compile(PatternData(events: [e]), rate: rate)
            let onset = Int((t * rate).rounded())
            let buses = render(pattern, frames: onset + 400, blockSize: 64)
            let first = try #require(firstSound(buses.haptic))
            #expect(first == onset || first == onset + 1, "t=\(t) onset \(onset) first \(first)")
        }
    }

    @Test("several events: each rendered alone starts on its frame, together nothing precedes the first")
    func severalEvents() throws {
        var rng = SplitMix64(seed: 99)
        let rate = 8000.0
        var events: [EventData] = []
        for _ in 0..<12 {
            events.append(event(.hapticTransient, rng.range(0.05, 0.5), [(.hapticIntensity, 0.8)]))
            events.append(event(.hapticContinuous, rng.range(0.05, 0.5), duration: 0.05, [(.hapticIntensity, 0.6)]))
            events.append(event(.audioContinuous, rng.range(0.05, 0.5), duration: 0.05))
        }
        for e in events {
            let buses = render(try compile(PatternData(events: [e]), rate: rate), frames: 4400)
            let onset = Int((e.time * rate).rounded())
            let bus = e.type.isAudio ? buses.left : buses.haptic
            let first = try #require(firstSound(bus))
            #expect(first == onset || first == onset + 1)
        }
        let all = render(try compile(PatternData(events: events), rate: rate), frames: 4400, blockSize: 7)
        let earliest = Int((events.map(\.time).min()! * rate).rounded())
        #expect(all.haptic[..<earliest].allSatisfy { $0 == 0 })
        #expect(all.left[..<earliest].allSatisfy { $0 == 0 })
    }

    static func busyPattern() throws -> CompiledPattern {
        let rate = 8000.0
        let file = SampleBuffer(samples: (0..<900).map { Float(sin(Double($0) * 0.05)) * 0.5 }, sampleRate: rate)
        var stereoSamples: [Float] = []
        for i in 0..<600 {
            stereoSamples.append(Float(i % 50) / 50)
            stereoSamples.append(-Float(i % 30) / 30)
        }
        let stereo = SampleBuffer(samples: stereoSamples, channelCount: 2, sampleRate: rate)
        var events: [EventData] = []
        events.append(event(.hapticTransient, 0.01, [(.hapticIntensity, 1), (.hapticSharpness, 0.3)]))
        events.append(
            event(.hapticContinuous, 0.02, duration: 0.4, [(.hapticIntensity, 0.9), (.attackTime, 0.3), (.releaseTime, 0.3)]))
        events.append(event(.hapticContinuous, 0.1003, duration: 0.2, [(.sustained, 0), (.decayTime, 0.4)]))
        events.append(
            event(.audioContinuous, 0.05, duration: 0.3, [(.audioPitch, 0.2), (.audioBrightness, 0.4), (.audioPan, -0.3)]))
        events.append(EventData(type: .audioCustom, time: 0.07, parameters: [EventParameterData(id: .audioPan, value: 0.5)]))
        events.append(EventData(type: .audioCustom, time: 0.2, duration: 0.2, loopEnabled: true))
        events.append(event(.hapticTransient, 0.3333, [(.hapticSharpness, 1)]))
        let steps: [DynamicParameterData] = [
            DynamicParameterData(id: .hapticIntensityControl, value: 0.5, time: 0.15),
            DynamicParameterData(id: .audioVolumeControl, value: 0.7, time: 0.12),
        ]
        let sharpnessPoints: [ControlPointData] = [
            ControlPointData(time: 0, value: 0), ControlPointData(time: 0.1, value: 0.6),
            ControlPointData(time: 0.05, value: -0.4),
        ]
        let pitchPoints: [ControlPointData] = [
            ControlPointData(time: 0, value: -0.5), ControlPointData(time: 0.2, value: 0.5),
        ]
        let intensityPoints: [ControlPointData] = [
            ControlPointData(time: 0, value: 1), ControlPointData(time: 0.1, value: 0.2),
        ]
        let curves: [ParameterCurveData] = [
            ParameterCurveData(id: .hapticSharpnessControl, time: 0.03, points: sharpnessPoints),
            ParameterCurveData(id: .audioPitchControl, time: 0.06, points: pitchPoints),
            ParameterCurveData(id: .hapticIntensityControl, time: 0.2, points: intensityPoints),
        ]
        let data = PatternData(events: events, parameters: steps, curves: curves)
        return try CompiledPattern(compiling: data, sampleRate: rate) { _, i in
            i == 4 ? file : i == 5 ? stereo : nil
        }
    }

    static func renderBusy(blockSize: @escaping (inout SplitMix64) -> Int, seed: UInt64 = 1) throws -> Buses {
        let pattern = try busyPattern()
        let second = try busyPattern()
        return render(frames: 5000, blockSize: blockSize, seed: seed) { r in
            r.startPlayer(0, pattern: pattern, atFrame: 13)
            r.startPlayer(1, pattern: second, atFrame: 1201)
            r.setParameter(0, .hapticIntensity, value: 0.3, atFrame: 2100)
            r.setParameter(0, .hapticSharpness, value: 0.5, atFrame: 777)
            r.setParameter(1, .audioPan, value: 1, atFrame: 1900)
            r.stopPlayer(1, atFrame: 3011)
        }.0
    }

    @Test("block sizes 1, 7, 64, 512 and random mixes are bit-identical to one block", arguments: [1, 7, 64, 512])
    func blockIndependence(size: Int) throws {
        let whole = try Self.renderBusy(blockSize: { _ in 5000 })
        #expect(whole.haptic.contains { $0 != 0 } && whole.left.contains { $0 != 0 })
        let split = try Self.renderBusy(blockSize: { _ in size })
        #expect(split.bitsEqual(whole))
    }

    @Test("random mixed block sizes are bit-identical to one block", arguments: [UInt64(5), 6, 7])
    func randomBlocks(seed: UInt64) throws {
        let whole = try Self.renderBusy(blockSize: { _ in 5000 })
        let split = try Self.renderBusy(blockSize: { rng in Int(rng.next() % 300) + 1 }, seed: seed)
        #expect(split.bitsEqual(whole))
    }
}

@Suite("Loop")
struct LoopTests {
    @Test("a looped pattern restarts every loopEnd, frame-exact and drift-free over many loops")
    func loopOnsets() throws {
        // loopEnd 0.0301 s at 8000 Hz = 240.8 frames: iteration k starts at round(k × 240.8).
        let pattern = try compile(PatternData(events: [event(.hapticTransient, 0, [(.hapticIntensity, 0.5)])]))
        let rate = 8000.0
        let loop = 0.0301
        let (buses, renderer) = render(frames: 24_000, blockSize: { rng in Int(rng.next() % 200) + 1 }) { r in
            r.startPlayer(0, pattern: pattern, atFrame: 0, loopEnd: loop)
        }
        for k in [0, 1, 2, 37, 50, 99] {
            let start = Int((Double(k) * loop * rate).rounded())
            #expect(buses.haptic[start] == 0 && buses.haptic[start - (k > 0 ? 1 : 0)] == 0)
            #expect(buses.haptic[start + 1] != 0, "iteration \(k) at \(start)")
        }
        #expect(renderer.phase(of: 0) == .playing)
        #expect(renderer.nextNotification() == nil)
    }

    @Test("events at or after loopEnd do not play; loop output is block-size independent")
    func loopCutsAndBlocks() throws {
        let pattern = try compile(
            PatternData(events: [
                event(.hapticContinuous, 0, duration: 0.02, [(.hapticIntensity, 0.6)]),
                event(.hapticTransient, 0.05, [(.hapticIntensity, 1)]),
            ]))
        func run(_ size: Int) -> Buses {
            render(frames: 4000, blockSize: { _ in size }) { r in r.startPlayer(0, pattern: pattern, atFrame: 5, loopEnd: 0.04) }.0
        }
        let whole = run(4000)
        #expect(peak(whole.haptic, 0..<4000) < 0.5)  // the transient (peak ≈ 0.8) never plays
        #expect(peak(whole.haptic, 325..<400) > 0.1)  // second iteration
        for size in [1, 7, 64] { #expect(run(size).bitsEqual(whole)) }
    }
}
