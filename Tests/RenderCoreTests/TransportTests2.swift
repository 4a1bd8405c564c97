import Foundation
import Testing
import ThrumTestSupport
import ThrumModel

@testable import RenderCore

@Suite("Transport: pause and resume")
struct TransportPauseTests {
    static let sr = 8000.0
    static let file = sineFile(seconds: 0.3, hz: 250)

    static func pattern() throws -> CompiledPattern {
        let events = [
            event(.hapticContinuous, 0.01, duration: 0.2, [(.hapticIntensity, 0.6), (.releaseTime, 0.2)]),
            event(.audioContinuous, 0.02, duration: 0.15, [(.audioBrightness, 0.5)]),
            EventData(type: .audioCustom, time: 0.03),
            event(.hapticTransient, 0.1, [(.hapticIntensity, 0.5)]),
        ]
        let curve = ParameterCurveData(
            id: .hapticIntensityControl, time: 0.02,
            points: [ControlPointData(time: 0, value: 1), ControlPointData(time: 0.28, value: 0.3)])
        return try compile(PatternData(events: events, curves: [curve]), rate: sr, buffers: [2: file])
    }

    @Test("after the resume, continuous voices and controls continue exactly from the paused position")
    func continuesFromPausedPosition() throws {
        let p = try Self.pattern()
        let fade = fadeFrames(Self.sr)
        let pause = 830  // the transient (800…960) is under way; the continuous events too
        let resume = 2000
        let delta = resume - pause
        let (x, _) = render(rate: Self.sr, frames: 6000) { r in r.startPlayer(0, pattern: p, atFrame: 0) }
        let (y, r) = render(rate: Self.sr, frames: 6000, blockSize: { _ in 97 }) { r in
            r.enableOnsetLog(capacity: 64)
            r.startPlayer(0, pattern: p, atFrame: 0)
            r.pausePlayer(0, atFrame: UInt64(pause))
            r.resumePlayer(0, atFrame: UInt64(resume))
        }
        #expect(Array(y.haptic[..<pause]) == Array(x.haptic[..<pause]))
        #expect(Array(y.left[..<pause]) == Array(x.left[..<pause]))
        // Silent while paused (after the fade).
        for bus in [y.haptic, y.left, y.right] { #expect(bus[(pause + fade)..<resume].allSatisfy { $0 == 0 }) }
        // After the fade-in: bit-identical to the unpaused render, shifted by the pause length
        // (haptics once the unpaused transient, which is not restarted, has ended).
        let end = 6000 - delta
        #expect(Array(y.left[(resume + fade)..<6000]) == Array(x.left[(pause + fade)..<end]))
        #expect(Array(y.right[(resume + fade)..<6000]) == Array(x.right[(pause + fade)..<end]))
        let transientEnd = 800 + p.transientFrames
        #expect(Array(y.haptic[(transientEnd + delta)..<6000]) == Array(x.haptic[transientEnd..<end]))
        // The fade-in is a linear ramp over 5 ms of the continued signal.
        for m in 0..<fade {
            let g = Float(m) / Float(fade)
            #expect(abs(y.left[resume + m] - x.left[pause + m] * g) <= 1e-6 + abs(x.left[pause + m]) * 1e-5)
        }
        // Total sounding length preserved: everything ends exactly delta later.
        #expect(lastSound(y.haptic)! == lastSound(x.haptic)! + delta)
        #expect(lastSound(y.left)! == lastSound(x.left)! + delta)
        // No jump larger than the 5 ms fades allow.
        for (a, b) in [(x.haptic, y.haptic), (x.left, y.left), (x.right, y.right)] {
            #expect(maxJump(b) <= maxJump(a) + peak(a, 0..<6000) / Float(fade) + 1e-6)
        }
        // Three voices continued at the resume (not the transient); no new event onsets.
        let resumed = r.loggedOnsets().filter(\.resumed)
        #expect(resumed.count == 3 && resumed.allSatisfy { $0.frame == resume && $0.kind != .transient })
    }

    @Test("a transient under way at the pause is not restarted; controls are frozen while paused")
    func transientNotRestarted() throws {
        let p = try compile(
            PatternData(
                events: [event(.hapticTransient, 0.01, [(.hapticIntensity, 1)])],
                curves: [
                    ParameterCurveData(
                        id: .audioPitchControl, time: 0,
                        points: [ControlPointData(time: 0, value: -1), ControlPointData(time: 1, value: 1)])
                ]), rate: Self.sr)
        let (y, r) = render(rate: Self.sr, frames: 3000) { r in
            r.startPlayer(0, pattern: p, atFrame: 0)
            r.pausePlayer(0, atFrame: 120)
            r.resumePlayer(0, atFrame: 1000)
        }
        #expect(y.haptic[81..<120].contains { $0 != 0 })
        #expect(y.haptic[(120 + fadeFrames(Self.sr))...].allSatisfy { $0 == 0 })
        // Pitch ramp −1 → 1 over 8000 frames: frozen during the pause, so at 3000 it is at pattern frame 2120.
        #expect(abs(r.laneValue(0, .audioPitch, 3000) - (-1 + 2 * 2120 / 8000)) < 1e-4)
        #expect(abs(r.position(of: 0).seconds - 2120 / 8000) < 1e-9)
    }

    @Test("paused position is reported; a resume before the pause frame cancels the pause")
    func cancelAndReadback() throws {
        let p = try Self.pattern()
        let (x, _) = render(rate: Self.sr, frames: 4000) { r in r.startPlayer(0, pattern: p, atFrame: 0) }
        let (y, r) = render(rate: Self.sr, frames: 4000) { r in
            r.startPlayer(0, pattern: p, atFrame: 0)
            r.pausePlayer(0, atFrame: 2000)
            r.resumePlayer(0, atFrame: 1000)
        }
        #expect(y.bitsEqual(x))
        #expect(r.nextNotification()?.reason == .finished)

        let renderer = Renderer(configuration: RendererConfiguration(sampleRate: Self.sr, maxBlockFrames: 512))
        func block(_ n: Int) {
            var l = [Float](repeating: 0, count: 512)
            var rr = l
            var h = l
            l.withUnsafeMutableBufferPointer { l in
                rr.withUnsafeMutableBufferPointer { rr in
                    h.withUnsafeMutableBufferPointer { h in
                        renderer.render(frameCount: n, into: l.baseAddress!, rr.baseAddress!, h.baseAddress!)
                    }
                }
            }
        }
        renderer.startPlayer(0, pattern: p, atFrame: 0)
        renderer.pausePlayer(0, atFrame: 400)
        block(500)
        var position = renderer.position(of: 0)
        #expect(position.phase == .paused && abs(position.seconds - 0.05) < 1e-12)
        #expect(renderer.statistics.position(of: 0) == position)
        renderer.seekPlayer(0, toOffset: 0.2, atFrame: 0)
        block(10)
        #expect(renderer.position(of: 0).seconds == 0.2)
        renderer.resumePlayer(0, atFrame: 0)
        block(80)
        position = renderer.position(of: 0)
        #expect(position.phase == .playing && abs(position.seconds - 0.21) < 1e-12)
        #expect(renderer.statistics.position(of: 0) == position)
        renderer.stopPlayer(0, atFrame: 0)
        block(100)
        #expect(renderer.nextNotification()?.reason == .stopped)
    }
}

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

@Suite("Transport: loop changes, alignment and block independence")
struct TransportMixTests {
    static let sr = 8000.0

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

    static func alignedPattern() throws -> CompiledPattern {
        let file = sineFile(seconds: 0.02, hz: 500)
        return try compile(
            PatternData(events: [
                event(.hapticTransient, 0.02, [(.hapticIntensity, 0.8)]), EventData(type: .audioCustom, time: 0.02),
                event(.hapticTransient, 0.0731, [(.hapticIntensity, 0.8)]), EventData(type: .audioCustom, time: 0.0731),
            ]), rate: Self.sr, buffers: [1: file, 3: file])
    }

    static func allOperations(_ r: Renderer, _ p: CompiledPattern) {
        r.startPlayer(0, pattern: p, atFrame: 17, loopEnd: 0.1)
        r.setPlaybackRate(0, rate: 1.37, atFrame: 2111)
        r.seekPlayer(0, toOffset: 0.0531, atFrame: 3003)
        r.pausePlayer(0, atFrame: 4321)
        r.resumePlayer(0, atFrame: 5000)
        r.setPlaybackRate(0, rate: 0.61, atFrame: 6007)
        r.setLoop(0, loopEnd: 0.09, atFrame: 7001)
        r.seekPlayer(0, toOffset: 0.25, atFrame: 8500)
        r.pausePlayer(0, atFrame: 9000)
        r.setPlaybackRate(0, rate: 2.3, atFrame: 9100)
        r.resumePlayer(0, atFrame: 9555)
        r.setParameter(0, .audioVolume, value: 0.5, atFrame: 9600)
    }

    @Test("an AudioCustom event and a transient at the same time stay aligned through loop, seek, pause, rate")
    func audioHapticAlignment() throws {
        let p = try Self.alignedPattern()
        let (buses, r) = render(rate: Self.sr, frames: 12_000) { r in
            r.enableOnsetLog(capacity: 256)
            Self.allOperations(r, p)
        }
        let haptic = onsetFrames(r, kind: .transient)
        let audio = onsetFrames(r, kind: .audioCustom)
        #expect(haptic.count > 20)
        #expect(haptic == audio)
        for f in haptic {
            #expect(buses.haptic[f + 1] != 0 && buses.left[f + 2] != 0, "onset \(f)")
        }
    }

    static func busy(_ blockSize: @escaping (inout SplitMix64) -> Int, seed: UInt64 = 1) throws -> Buses {
        let p = try OnsetAndBlockTests.busyPattern()
        let q = try Self.alignedPattern()
        return render(rate: Self.sr, frames: 12_000, blockSize: blockSize, seed: seed) { r in
            r.startPlayer(1, pattern: p, atFrame: 5, loopEnd: 0.37)
            r.pausePlayer(1, atFrame: 1777)
            r.seekPlayer(1, toOffset: 0.21, atFrame: 1900)
            r.resumePlayer(1, atFrame: 2500)
            r.setPlaybackRate(1, rate: 0.73, atFrame: 3100)
            r.pausePlayer(1, atFrame: 4100)
            r.resumePlayer(1, atFrame: 4444)
            r.setLoop(1, loopEnd: nil, atFrame: 7000)
            r.setParameter(1, .hapticSharpness, value: 0.4, atFrame: 4200)
            Self.allOperations(r, q)
        }.0
    }

    @Test("block sizes 1, 7, 64, 512 are bit-identical to one block with every transport operation", arguments: [1, 7, 64, 512])
    func blockIndependence(size: Int) throws {
        let whole = try Self.busy { _ in 12_000 }
        #expect(whole.haptic.contains { $0 != 0 } && whole.left.contains { $0 != 0 })
        #expect(try Self.busy { _ in size }.bitsEqual(whole))
    }

    @Test("random block sizes are bit-identical to one block with every transport operation", arguments: [UInt64(3), 4, 5])
    func randomBlocks(seed: UInt64) throws {
        let whole = try Self.busy { _ in 12_000 }
        #expect(try Self.busy({ rng in Int(rng.next() % 400) + 1 }, seed: seed).bitsEqual(whole))
    }
}
