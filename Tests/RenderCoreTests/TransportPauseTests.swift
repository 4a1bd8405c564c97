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
