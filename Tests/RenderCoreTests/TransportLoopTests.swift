import Foundation
import Testing
import ThrumTestSupport
import ThrumModel

@testable import RenderCore


@Suite("Transport: loop")
struct TransportLoopTests {
    static let sr = 8000.0

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

    @Test("setLoop: enable mid-play, shorten below the position, disable and finish")
    func loopChanges() throws {
        let times = [0.01, 0.05, 0.09]
        let p = try compile(
            PatternData(
                events: times.map { event(.hapticTransient, $0, [(.hapticIntensity, 0.5)]) },
                parameters: [DynamicParameterData(id: .audioPanControl, value: 0, time: 0.2)]), rate: Self.sr)
        let (_, r) = render(rate: Self.sr, frames: 5000) { r in
            r.enableOnsetLog(capacity: 64)
            r.startPlayer(0, pattern: p, atFrame: 0)
            r.setLoop(0, loopEnd: 0.06, atFrame: 200)  // seams at 480k
            r.setLoop(0, loopEnd: 0.03, atFrame: 1300)  // position 0.0425 ≥ 0.03: seam now, then every 240
            r.setLoop(0, loopEnd: nil, atFrame: 2000)  // pass started at 1780 runs to its end
        }
        #expect(
            onsetFrames(r) == [80, 400, 560, 880, 1040, 1300 + 80, 1540 + 80, 1780 + 80, 1780 + 400, 1780 + 720])
        #expect(!r.setLoop(0, loopEnd: -1, atFrame: 0))
        let n = try #require(r.nextNotification())
        #expect(n.reason == .finished && n.frame == UInt64(1780 + 1600))
    }

    @Test("loop count and position are published")
    func loopCount() throws {
        let p = try compile(PatternData(events: [event(.hapticTransient, 0)]), rate: Self.sr)
        let (_, r) = render(rate: Self.sr, frames: 8000 + 123) { r in r.startPlayer(0, pattern: p, atFrame: 0, loopEnd: 0.1) }
        let position = r.position(of: 0)
        #expect(position.loopCount == 10 && position.phase == .playing)
        #expect(abs(position.seconds - 123.0 / 8000) < 1e-12)
        #expect(r.statistics.position(of: 0) == position)
        #expect(r.statistics.position(of: 99) == (0, 0, .idle))
    }
}
