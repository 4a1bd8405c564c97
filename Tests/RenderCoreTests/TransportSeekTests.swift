import Foundation
import Testing
import ThrumTestSupport
import ThrumModel

@testable import RenderCore


@Suite("Transport: seek")
struct TransportSeekTests {
    static let sr = 8000.0
    static let file = sineFile(seconds: 0.04, hz: 440)

    /// No event straddles 0.1 s: those before end by 0.07 s.
    static func pattern(straddler: Bool = false) throws -> CompiledPattern {
        var events = [
            event(.hapticTransient, 0.02, [(.hapticIntensity, 0.7)]),
            event(.hapticContinuous, 0.03, duration: 0.03, [(.hapticIntensity, 0.6), (.releaseTime, 0)]),
            event(.hapticTransient, 0.1, [(.hapticIntensity, 0.9), (.hapticSharpness, 0.8)]),
            event(.audioContinuous, 0.1103, duration: 0.06, [(.audioPitch, 0.3), (.releaseTime, 0.1)]),
            event(.hapticContinuous, 0.1317, duration: 0.05, [(.hapticIntensity, 0.8), (.releaseTime, 0.2)]),
            EventData(type: .audioCustom, time: 0.1501),
            event(.hapticTransient, 0.2341, [(.hapticIntensity, 0.5)]),
        ]
        if straddler { events.append(event(.hapticContinuous, 0.05, duration: 0.1, [(.hapticIntensity, 1)])) }
        let curve = ParameterCurveData(
            id: .hapticIntensityControl, time: 0.05,
            points: [ControlPointData(time: 0, value: 1), ControlPointData(time: 0.2, value: 0.3)])
        let steps = [
            DynamicParameterData(id: .hapticSharpnessControl, value: -0.3, time: 0.08),
            DynamicParameterData(id: .audioPitchControl, value: 0.4, time: 0.17),
        ]
        let customIndex = 5
        return try compile(PatternData(events: events, parameters: steps, curves: [curve]), rate: sr, buffers: [customIndex: file])
    }

    static func full(_ p: CompiledPattern, frames: Int = 4000) -> Buses {
        render(rate: sr, frames: frames) { r in r.startPlayer(0, pattern: p, atFrame: 0) }.0
    }

    static func equalFrom(_ a: Buses, _ aStart: Int, _ b: Buses, _ bStart: Int, count: Int) -> Bool {
        let l = a.left[aStart..<aStart + count].map(\.bitPattern) == b.left[bStart..<bStart + count].map(\.bitPattern)
        let r = a.right[aStart..<aStart + count].map(\.bitPattern) == b.right[bStart..<bStart + count].map(\.bitPattern)
        let h = a.haptic[aStart..<aStart + count].map(\.bitPattern) == b.haptic[bStart..<bStart + count].map(\.bitPattern)
        return l && r && h
    }

    @Test("rendering from offset x equals the full render from x on (bit-exact), controls included")
    func seekAtStartEqualsTail() throws {
        let p = try Self.pattern()
        let whole = Self.full(p)
        let (seeked, r) = render(rate: Self.sr, frames: 3200) { r in
            r.startPlayer(0, pattern: p, atFrame: 0)
            r.seekPlayer(0, toOffset: 0.1, atFrame: 0)
        }
        #expect(whole.haptic[800..<3200].contains { $0 != 0 } && whole.left[800..<3200].contains { $0 != 0 })
        #expect(Self.equalFrom(seeked, 0, whole, 800, count: 3200))
        #expect(r.nextNotification()?.reason == .finished)
    }

    @Test("seek while playing: after the 5 ms fade the output is the render from the offset")
    func seekWhilePlaying() throws {
        let p = try Self.pattern()
        let whole = Self.full(p)
        let f = 1000
        let fade = fadeFrames(Self.sr)
        let (seeked, _) = render(rate: Self.sr, frames: 4000) { r in
            r.startPlayer(0, pattern: p, atFrame: 0)
            r.seekPlayer(0, toOffset: 0.1, atFrame: UInt64(f))
        }
        #expect(Self.equalFrom(seeked, 0, whole, 0, count: f))
        #expect(Self.equalFrom(seeked, f + fade, whole, 800 + fade, count: 4000 - f - fade))
    }

    @Test("an event under way at the offset is not started part-way")
    func straddlingEventAbsent() throws {
        let with = try Self.pattern(straddler: true)
        let without = try Self.pattern()
        let wholeWith = Self.full(with)
        let (seeked, _) = render(rate: Self.sr, frames: 3200) { r in
            r.startPlayer(0, pattern: with, atFrame: 0)
            r.seekPlayer(0, toOffset: 0.1, atFrame: 0)
        }
        // The straddler sounds at 0.1 s in the full render, but not after the seek.
        #expect(wholeWith.haptic[795..<800].contains { $0 != 0 })
        #expect(Self.equalFrom(seeked, 0, Self.full(without), 800, count: 3200))
        #expect(!Self.equalFrom(seeked, 0, wholeWith, 800, count: 3200))
    }

    @Test("seek while scheduled applies at the start; while paused at the resume")
    func seekScheduledAndPaused() throws {
        let p = try Self.pattern()
        let whole = Self.full(p)
        let (scheduled, r1) = render(rate: Self.sr, frames: 3700) { r in
            r.startPlayer(0, pattern: p, atFrame: 500)
            r.seekPlayer(0, toOffset: 0.1, atFrame: 0)
        }
        #expect(scheduled.haptic[..<500].allSatisfy { $0 == 0 })
        #expect(Self.equalFrom(scheduled, 500, whole, 800, count: 3200))
        #expect(r1.nextNotification()?.reason == .finished)

        let (paused, _) = render(rate: Self.sr, frames: 4200, blockSize: { _ in 100 }) { r in
            r.startPlayer(0, pattern: p, atFrame: 0)
            r.pausePlayer(0, atFrame: 300)
            r.seekPlayer(0, toOffset: 0.1, atFrame: 400)
            r.resumePlayer(0, atFrame: 1000)
        }
        #expect(Self.equalFrom(paused, 0, whole, 0, count: 300))
        #expect(paused.haptic[(300 + fadeFrames(Self.sr))..<1000].allSatisfy { $0 == 0 })
        #expect(Self.equalFrom(paused, 1000, whole, 800, count: 3200))
    }

    @Test("offset ≥ duration ends a non-looping player (.finished); a looping one jumps to the loop start")
    func seekPastTheEnd() throws {
        let p = try Self.pattern()
        let (_, r) = render(rate: Self.sr, frames: 1200) { r in
            r.startPlayer(0, pattern: p, atFrame: 0)
            r.seekPlayer(0, toOffset: 10, atFrame: 1000)
        }
        let n = try #require(r.nextNotification())
        #expect(n.reason == .finished && n.instance.slot == 0 && n.frame >= 1000 && n.frame <= 1000 + UInt64(fadeFrames(Self.sr)))
        #expect(r.phase(of: 0) == .idle)

        func looped(_ offset: Double) -> Buses {
            render(rate: Self.sr, frames: 3000) { r in
                r.startPlayer(0, pattern: p, atFrame: 0, loopEnd: 0.2)
                r.seekPlayer(0, toOffset: offset, atFrame: 0)
            }.0
        }
        #expect(looped(0.45).bitsEqual(looped(0.0)))
        #expect(looped(0.2).bitsEqual(looped(0.0)))
        #expect(!looped(0.05).bitsEqual(looped(0.0)))
    }

    @Test("seek sets pattern-controlled lanes to their value at the offset; other lanes keep external values")
    func seekControls() throws {
        let p = try Self.pattern()
        let (_, r) = render(rate: Self.sr, frames: 1010) { r in
            r.startPlayer(0, pattern: p, atFrame: 0)
            r.setParameter(0, .audioPan, value: 0.5, atFrame: 10)
            r.setParameter(0, .hapticIntensity, value: 0.2, atFrame: 10)
            r.seekPlayer(0, toOffset: 0.2, atFrame: 1000)
        }
        // Intensity curve at 0.2 s: 1 − 0.7 × 0.75 = 0.475, falling 0.7 / 1600 per frame.
        #expect(abs(r.laneValue(0, .hapticIntensity, 1000) - 0.475) < 1e-4)
        #expect(abs(r.laneValue(0, .hapticIntensity, 1160) - (0.475 - 0.07)) < 1e-4)
        #expect(r.laneValue(0, .hapticSharpness, 1000) == -0.3)  // step at 0.08
        #expect(r.laneValue(0, .audioPitch, 1000) == 0.4)  // step at 0.17
        #expect(r.laneValue(0, .audioPan, 1000) == 0.5)  // not used by the pattern: external value kept
        let position = r.position(of: 0)
        #expect(abs(position.seconds - (0.2 + 10.0 / 8000)) < 1e-9 && position.phase == .playing)
    }
}
