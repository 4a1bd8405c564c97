import Foundation
import Testing
import ThrumTestSupport
import ThrumModel

@testable import RenderCore

// Advanced-player transport on rendered samples: loop, seam fades, seek, pause/resume, rate, loop changes,
// audio/haptic alignment, position readback and block independence.

/// Fade length in frames at `rate` for the default 5 ms.
func fadeFrames(_ rate: Double) -> Int { Int((0.005 * rate).rounded()) }

/// Largest |x[n] − x[n−1]|.
func maxJump(_ x: [Float]) -> Float {
    var m: Float = 0
    for i in 1..<x.count { m = max(m, abs(x[i] - x[i - 1])) }
    return m
}

/// A mono sine file (`seconds` long, `hz`) at `rate`.
func sineFile(seconds: Double, hz: Double = 300, rate: Double = 8000, amplitude: Float = 0.5) -> SampleBuffer {
    SampleBuffer(
        samples: sine(frequency: hz, rate: rate, frames: Int(seconds * rate), amplitude: Double(amplitude)), sampleRate: rate)
}

/// Onsets (non-resumed voice starts) of one slot, as frames.
func onsetFrames(_ r: Renderer, kind: VoiceKind? = nil) -> [Int] {
    r.loggedOnsets().filter { !$0.resumed && (kind == nil || $0.kind == kind) }.map(\.frame)
}

@Suite("Transport: loop")
struct TransportLoopTests {
    static func drift(rate playbackRate: Double, loop: Double, rateChange: (frame: Int, rate: Double)? = nil) throws
        -> (onsets: [Int], buses: Buses)
    {
        let sr = 1000.0
        let pattern = try compile(PatternData(events: [event(.hapticTransient, 0, [(.hapticIntensity, 0.5)])]), rate: sr)
        let iterations = 10_000
        let frames = Int(Double(iterations) * loop * sr / min(playbackRate, rateChange?.rate ?? playbackRate)) + 50
        let (buses, r) = render(rate: sr, frames: frames, blockSize: { rng in Int(rng.next() % 700) + 1 }, seed: 42) { r in
            r.enableOnsetLog(capacity: 2 * iterations + 100)
            r.startPlayer(0, pattern: pattern, atFrame: 0, playbackRate: playbackRate, loopEnd: loop)
            if let change = rateChange { r.setPlaybackRate(0, rate: change.rate, atFrame: UInt64(change.frame)) }
        }
        return (onsetFrames(r), buses)
    }

    @Test("10 000 loops: onset k at round(k × loopEnd × sampleRate / rate), 0 frames drift", arguments: [1.0, 1.7, 0.8])
    func tenThousandLoops(playbackRate: Double) throws {
        let loop = 0.0537  // 53.7 frames at 1000 Hz, longer than the 20-frame transient
        let (onsets, buses) = try Self.drift(rate: playbackRate, loop: loop)
        #expect(onsets.count >= 10_001)
        let fps = 1000.0 / playbackRate
        var mismatches = 0
        for k in 0...10_000 {
            let expected = Int((Double(k) * loop * fps).rounded())
            let exact = Double(k) * loop * 1000 / playbackRate
            if onsets[k] != expected || abs(Double(onsets[k]) - exact) > 0.5 + 1e-6 { mismatches += 1 }
        }
        #expect(mismatches == 0)
        // From the samples: nothing at the onset frame, sound on the next (the burst starts at phase 0).
        for k in [1, 2, 999, 5000, 9999, 10_000] {
            let f = onsets[k]
            #expect(buses.haptic[f] == 0 && buses.haptic[f - 1] == 0 && buses.haptic[f + 1] != 0, "k=\(k) at \(f)")
        }
    }

    @Test("a rate change re-anchors the loop at the change frame; no drift afterwards")
    func rateChangeReanchors() throws {
        let loop = 0.0537
        let change = 100_003
        let (onsets, _) = try Self.drift(rate: 1, loop: loop, rateChange: (change, 1.25))
        let before = onsets.filter { $0 <= change }
        for (k, f) in before.enumerated() { #expect(f == Int((Double(k) * loop * 1000).rounded())) }
        let anchor = try #require(before.last)
        let s0 = Double(change - anchor) / 1000
        let after = onsets.filter { $0 > change }
        #expect(after.count > 5000)
        var mismatches = 0
        for (j, f) in after.enumerated() where f != change + Int(((Double(j + 1) * loop - s0) * 800).rounded()) {
            mismatches += 1
        }
        #expect(mismatches == 0)
    }

    @Test("seams: continuous and audio voices are cut with a 1 ms fade at the seam; transients ring on")
    func seamFades() throws {
        let sr = 8000.0
        let fade = Int((0.001 * sr).rounded())  // docs/decisions.md: the 1 ms de-click ramp
        let file = sineFile(seconds: 0.3)
        let events = [
            event(.hapticContinuous, 0, duration: 0.5, [(.hapticIntensity, 0.5), (.hapticSharpness, 0.4)]),
            EventData(type: .audioCustom, time: 0),
            event(.hapticTransient, 0.095, [(.hapticIntensity, 0.5)]),
        ]
        let pattern = try compile(PatternData(events: events), rate: sr, buffers: [1: file])
        let seam = 800
        let (looped, _) = render(rate: sr, frames: 1600) { r in r.startPlayer(0, pattern: pattern, atFrame: 0, loopEnd: 0.1) }
        let (plain, _) = render(rate: sr, frames: 1600) { r in r.startPlayer(0, pattern: pattern, atFrame: 0) }
        // Continuous-only and transient-only references.
        let continuousOnly = try compile(PatternData(events: [events[0], events[1]]), rate: sr, buffers: [1: file])
        let (fresh, _) = render(rate: sr, frames: 1600) { r in r.startPlayer(0, pattern: continuousOnly, atFrame: 0) }
        #expect(Array(looped.haptic[..<seam]) == Array(plain.haptic[..<seam]))
        #expect(Array(looped.left[..<seam]) == Array(plain.left[..<seam]))
        // The transient at 760 rings past the seam exactly as without a loop (the next one is at 1560).
        let transientEnd = 760 + pattern.transientFrames
        #expect(transientEnd > seam + fade)
        // After the fade only the new pass sounds: it equals a fresh start (audio), and for haptics the
        // fresh continuous voice plus the ringing transient, which ends at 920.
        for m in 0..<(700 - fade) {
            #expect(looped.left[seam + fade + m] == fresh.left[fade + m])
        }
        for m in (transientEnd - seam)..<700 { #expect(looped.haptic[seam + m] == fresh.haptic[m]) }
        // Within the fade the old voices fall linearly (no click) while the new pass's file rises over the same
        // frames: |looped − fresh| ≤ (|old| + |fresh|) × (1 − m/fade).
        for m in 0..<fade {
            let bound = (abs(plain.left[seam + m]) + abs(fresh.left[m])) * (1 - Float(m) / Float(fade))
            #expect(abs(looped.left[seam + m] - fresh.left[m]) <= bound + 1e-6)
        }
        #expect(maxJump(looped.left) <= maxJump(plain.left) + peak(plain.left, 0..<1600) / Float(fade) + 1e-6)
    }
}

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
