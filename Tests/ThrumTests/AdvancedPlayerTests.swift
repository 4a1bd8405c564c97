import Foundation
import Testing
import ThrumTestSupport
import Thrum

/// The advanced player through the offline engine (the render core's transport has its own exhaustive
/// tests; these check the engine wiring and the Core Haptics semantics end to end).
@Suite struct AdvancedPlayerTests {
    /// A transient at 0 and an AudioCustom click at 0, 0.5 s long in all.
    func tapWithClick(_ engine: CHHapticEngine) throws -> CHHapticPattern {
        let click = try engine.registerAudioResource(
            packageRoot.appendingPathComponent("Resources/Audio/click.wav"), options: [.useVolumeEnvelope: false])
        let sound = CHHapticEvent(audioResourceID: click, parameters: [], relativeTime: 0)
        let end = CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 1, relativeTime: 0.5)
        return try CHHapticPattern(events: [transient(at: 0), sound], parameters: [end])
    }

    /// Frames where a channel goes from silence to sound.
    func onsets(_ samples: [Float], minimumGap: Int) -> [Int] {
        var result: [Int] = []
        var last = -minimumGap
        for (index, sample) in samples.enumerated() where sample != 0 {
            if index - last >= minimumGap { result.append(index) }
            last = index
        }
        return result
    }

    @Test func loopsRepeatAtTheLoopEndAndStopAfterThePassLimit() throws {
        let engine = try offlineEngine()
        let player = try engine.makeAdvancedPlayer(with: tapWithClick(engine))
        player.loopEnabled = true
        (player as? ThrumPlayerState)?.loopPassLimit = 4
        try player.start(atTime: 0)
        let output = try render(engine, frames: 24000)
        let haptic = onsets(channel(output, 2, of: 3), minimumGap: 1000)
        let audio = onsets(channel(output, 0, of: 3), minimumGap: 1000)
        // One pass every 4000 frames (the 0.5 s loop at 8 kHz). A haptic burst starts at phase 0, so its first
        // non-zero sample may be one frame later.
        #expect(haptic.count == 4)
        for (pass, onset) in haptic.enumerated() {
            #expect((0...1).contains(onset - pass * 4000), "pass \(pass) starts at frame \(onset)")
        }
        #expect(haptic.count == audio.count && zip(haptic, audio).allSatisfy { $0 - $1 == 0 || $0 - $1 == 1 })
        #expect((player as? ThrumPlayerState)?.endFrame == 16000)
    }

    /// At rate 2 the second tap comes at 0.25 s, but what sounds keeps its pitch: the first tap's burst is
    /// the rate-1 burst sample for sample, and a continuous event's frequency (upward zero crossings) is
    /// the rate-1 frequency.
    @Test func rateScalesOnsetsButNotPitch() throws {
        func play(_ events: [CHHapticEvent], rate: Float, frames: Int) throws -> [Float] {
            let engine = try offlineEngine()
            let player = try engine.makeAdvancedPlayer(with: CHHapticPattern(events: events, parameters: []))
            player.playbackRate = rate
            try player.start(atTime: 0)
            return channel(try render(engine, frames: frames), 2, of: 3)
        }
        let taps = [transient(at: 0), transient(at: 0.5)]
        let haptic = try play(taps, rate: 2, frames: 8000)
        let found = onsets(haptic, minimumGap: 500)
        #expect(found.count == 2)
        #expect(found.last.map { abs($0 - 2000) <= 1 } == true)

        let normal = try play(taps, rate: 1, frames: 8000)
        let burst = 0..<1500  // the first tap, before the second one at either rate
        #expect(peak(normal, burst) > 0.5)
        #expect(Array(haptic[burst]) == Array(normal[burst]), "the tap's burst changed with the rate")

        let hum = [continuous(at: 0, duration: 1)]
        let fast = zeroCrossingFrequency(try play(hum, rate: 2, frames: 4000), rate: 8000, from: 400, to: 3600)
        let slow = zeroCrossingFrequency(try play(hum, rate: 1, frames: 4000), rate: 8000, from: 400, to: 3600)
        #expect(slow > 20)
        #expect(abs(fast - slow) < 0.01 * slow, "\(fast) Hz at rate 2, \(slow) Hz at rate 1")
    }

    @Test func seekBeforeStartSkipsEarlierEvents() throws {
        let engine = try offlineEngine()
        let pattern = try CHHapticPattern(
            events: [transient(at: 0), transient(at: 0.25), transient(at: 0.75)], parameters: [])
        let player = try engine.makeAdvancedPlayer(with: pattern)
        try player.seek(toOffset: 0.5)
        try player.start(atTime: 0)
        let haptic = channel(try render(engine, frames: 8000), 2, of: 3)
        #expect(onsets(haptic, minimumGap: 500).map { $0 / 2 } == [1000])  // only the 0.75 s tap, at 0.25 s
    }

    @Test func pauseAndResumeShiftTheRestOfThePattern() throws {
        let engine = try offlineEngine()
        let pattern = try CHHapticPattern(events: [transient(at: 0), transient(at: 0.5)], parameters: [])
        let player = try engine.makeAdvancedPlayer(with: pattern)
        try player.start(atTime: 0)
        try player.pause(atTime: 0.25)
        try player.resume(atTime: 0.75)
        let haptic = channel(try render(engine, frames: 12000), 2, of: 3)
        // The second tap was 0.25 s after the pause point: it plays 0.25 s after the resume, at 1.0 s.
        let found = onsets(haptic, minimumGap: 500)
        #expect(found.count == 2)
        #expect(found.last.map { abs($0 - 8000) <= 1 } == true)
    }

    @Test func midPlayRateChangeMovesOnlyLaterOnsets() throws {
        let engine = try offlineEngine()
        let pattern = try CHHapticPattern(
            events: [transient(at: 0), transient(at: 0.25), transient(at: 1.0)], parameters: [])
        let player = try engine.makeAdvancedPlayer(with: pattern)
        try player.start(atTime: 0)
        var haptic = channel(try render(engine, frames: 4000), 2, of: 3)  // to 0.5 s
        player.playbackRate = 2  // from frame 4000: the 1.0 s tap (0.5 s of pattern left) comes 0.25 s later
        haptic += channel(try render(engine, frames: 8000), 2, of: 3)
        let found = onsets(haptic, minimumGap: 500)
        #expect(found.count == 3)
        #expect(found.count == 3 && abs(found[1] - 2000) <= 1)
        #expect(found.count == 3 && abs(found[2] - 6000) <= 1)
    }

    @Test func completionHandlerRunsOnceAfterTheLastPass() throws {
        let engine = try offlineEngine()
        let player = try engine.makeAdvancedPlayer(with: CHHapticPattern(events: [transient(at: 0)], parameters: []))
        let calls = UncheckedCounter()
        player.completionHandler = { _ in calls.increment() }
        try player.start(atTime: 0)
        _ = try render(engine, frames: 4000)
        #expect(calls.value == 1)
    }

    @Test func negativeSeekIsInvalidTime() throws {
        let engine = try offlineEngine()
        let player = try engine.makeAdvancedPlayer(with: CHHapticPattern(events: [transient(at: 0)], parameters: []))
        do {
            try player.seek(toOffset: -1)
            Issue.record("negative seek accepted")
        } catch CHHapticError.invalidTime {}
    }
}

/// A counter the completion handler can bump (it runs on the rendering thread in offline mode).
final class UncheckedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
