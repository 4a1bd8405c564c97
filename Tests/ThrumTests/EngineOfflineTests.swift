import Foundation
import FoundationStandIns
import Synchronization
import Testing
import ThrumTestSupport
import Thrum

@Suite struct EngineOfflineTests {
    @Test func startAtTimeIsFrameExact() throws {
        let engine = try offlineEngine()
        let player = try engine.makePlayer(with: CHHapticPattern(events: [transient(at: 0.1)], parameters: []))
        try player.start(atTime: 0.25)
        let haptic = channel(try render(engine, frames: 8000), 2, of: 3)
        // start 0.25 s (frame 2000) + event 0.1 s (frame 800) = frame 2800, first non-zero at 2800 or 2801.
        let onset = try #require(firstSound(haptic))
        #expect(onset == 2800 || onset == 2801)
        #expect(haptic[..<2800].allSatisfy { $0 == 0 })
    }

    @Test func immediateStartBeginsAtTheNextRenderedFrame() throws {
        let engine = try offlineEngine()
        _ = try render(engine, frames: 1000)
        let player = try engine.makePlayer(with: CHHapticPattern(events: [transient(at: 0)], parameters: []))
        try player.start(atTime: CHHapticTimeImmediate)
        let haptic = channel(try render(engine, frames: 1000), 2, of: 3)
        let onset = try #require(firstSound(haptic))
        #expect(onset <= 1)
        #expect(abs(engine.currentTime - 0.25) < 1e-9)
    }

    @Test func sendParametersTakesEffectAtTheExactFrame() throws {
        let engine = try offlineEngine()
        let player = try engine.makePlayer(
            with: CHHapticPattern(events: [continuous(at: 0, duration: 1)], parameters: []))
        try player.start(atTime: 0)
        try player.sendParameters(
            [CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 0, relativeTime: 0.1)],
            atTime: 0.4)
        let haptic = channel(try render(engine, frames: 8000), 2, of: 3)
        // 0.4 + 0.1 s = frame 4000: sound before, silence from exactly there.
        #expect(peak(haptic, 3800..<4000) > 0.1)
        #expect(peak(haptic, 4000..<8000) == 0)
    }

    @Test func scheduledCurveRampsTheIntensity() throws {
        let engine = try offlineEngine()
        // Intensity 0.8 keeps the peak (0.64) under the limiter's knee, so ratios are exact.
        let player = try engine.makePlayer(
            with: CHHapticPattern(events: [continuous(at: 0, duration: 1, intensity: 0.8)], parameters: []))
        try player.start(atTime: 0)
        let curve = CHHapticParameterCurve(
            parameterID: .hapticIntensityControl,
            controlPoints: [.init(relativeTime: 0, value: 0), .init(relativeTime: 0.5, value: 1)], relativeTime: 0)
        try player.scheduleParameterCurve(curve, atTime: 0.25)
        let haptic = channel(try render(engine, frames: 8000), 2, of: 3)
        #expect(peak(haptic, 2000..<2010) < 0.01)
        let quarter = peak(haptic, 2900..<3100)
        let half = peak(haptic, 3974..<4026)
        let full = peak(haptic, 6200..<7000)
        #expect(quarter < half && half < full)
        #expect(abs(half / full - 0.25) < 0.02)  // square law: control 0.5 → amplitude 0.25
    }

    @Test func muteFlags() throws {
        let engine = try offlineEngine()
        let pattern = try CHHapticPattern(events: [continuous(at: 0, duration: 1)], parameters: [])
        let player = try engine.makePlayer(with: pattern)
        try player.start(atTime: 0)
        engine.isMutedForHaptics = true
        #expect(peak(channel(try render(engine, frames: 2000), 2, of: 3), 0..<2000) == 0)
        engine.isMutedForHaptics = false
        #expect(peak(channel(try render(engine, frames: 2000), 2, of: 3), 0..<2000) > 0.5)
        player.isMuted = true
        #expect(peak(channel(try render(engine, frames: 2000), 2, of: 3), 0..<2000) == 0)
    }

    @Test func completionAndNotifyWhenFinished() throws {
        let engine = try offlineEngine()
        let player = try engine.makeAdvancedPlayer(
            with: CHHapticPattern(events: [continuous(at: 0, duration: 0.2)], parameters: []))
        let completions = Locked(0)
        player.completionHandler = { error in
            #expect(error == nil)
            completions.withLock { $0 += 1 }
        }
        try player.start(atTime: 0)
        let notified = Locked(0)
        let stopped = Locked<[CHHapticEngine.StoppedReason]>([])
        engine.stoppedHandler = { reason in stopped.withLock { $0.append(reason) } }
        engine.notifyWhenPlayersFinished { _ in
            notified.withLock { $0 += 1 }
            return .stopEngine
        }
        var rendered = 0
        while engine.isRunning && rendered < 8000 {
            _ = try render(engine, frames: 256)
            rendered += 256
        }
        #expect(completions.withLock { $0 } == 1)
        #expect(notified.withLock { $0 } == 1)
        #expect(!engine.isRunning)
        #expect(stopped.withLock { $0 } == [.notifyWhenFinished])
        #expect((player as? ThrumPlayerState)?.endFrame.map { $0 >= 1600 } == true)
    }

    @Test func notifyWhenNothingPlaysCallsBackAtOnce() throws {
        let engine = try offlineEngine()
        let called = Locked(false)
        engine.notifyWhenPlayersFinished { _ in
            called.withLock { $0 = true }
            return .leaveEngineRunning
        }
        #expect(called.withLock { $0 })
        #expect(engine.isRunning)
    }

    @Test func playPatternNeedsNoPlayerReference() throws {
        let engine = try offlineEngine()
        try engine.playPattern(from: packageRoot.appendingPathComponent("Resources/Patterns/success.ahap"))
        let haptic = channel(try render(engine, frames: 4000), 2, of: 3)
        #expect(peak(haptic, 0..<4000) > 0.1)
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Resources/Patterns/tap.ahap"))
        try engine.playPattern(from: data)
        #expect(peak(channel(try render(engine, frames: 800), 2, of: 3), 0..<800) > 0.1)
    }

    @Test func reusedPlayerOverlapsItsStarts() throws {
        let engine = try offlineEngine()
        let player = try engine.makePlayer(with: CHHapticPattern(events: [transient(at: 0)], parameters: []))
        try player.start(atTime: 0)
        try player.start(atTime: 0.5)
        let haptic = channel(try render(engine, frames: 8000), 2, of: 3)
        #expect(peak(haptic, 0..<400) > 0.1)
        #expect(peak(haptic, 400..<4000) == 0)
        #expect(peak(haptic, 4000..<4400) > 0.1)
    }

    @Test func errorsCarryTheirCodes() throws {
        var options = CHHapticEngine.Options()
        options.output = .offline
        let engine = try CHHapticEngine(options: options)
        let pattern = try CHHapticPattern(events: [transient(at: 0)], parameters: [])
        let player = try engine.makePlayer(with: pattern)
        #expect(throws: CHHapticError(.engineNotRunning, "the engine is not running; call start()")) {
            try player.start(atTime: 0)
        }
        try engine.start()
        do {
            try player.start(atTime: -1)
            Issue.record("negative time accepted")
        } catch CHHapticError.invalidTime {}
        let bad = try CHHapticPattern(
            events: [CHHapticEvent(eventType: .init(rawValue: "Tap"), parameters: [], relativeTime: 0)], parameters: [])
        do {
            _ = try engine.makePlayer(with: bad)
            Issue.record("bad event type accepted")
        } catch CHHapticError.invalidEventType {}
        let foreign = try CHHapticPattern(
            events: [CHHapticEvent(audioResourceID: 42, parameters: [], relativeTime: 0)], parameters: [])
        #expect(throws: CHHapticError(.invalidAudioResource, "no audio resource with ID 42 is registered")) {
            try engine.makePlayer(with: foreign)
        }
        #expect(throws: CHHapticError.self) {
            try engine.registerAudioResource(URL(fileURLWithPath: "/nonexistent/click.wav"))
        }
        do {
            _ = try engine.registerAudioResource(URL(fileURLWithPath: "/nonexistent/click.wav"))
        } catch CHHapticError.fileNotFound {}
        #expect(throws: CHHapticError.self) { try CHHapticEngine(options: { var o = options; o.sampleRate = 5; return o }()) }
    }

    @Test func registeredResourcePlaysAtItsEventTime() throws {
        let engine = try offlineEngine()
        let click = packageRoot.appendingPathComponent("Resources/Audio/click.wav")
        let id = try engine.registerAudioResource(click, options: [.useVolumeEnvelope: false])
        let sound = CHHapticEvent(audioResourceID: id, parameters: [], relativeTime: 0.5)
        let player = try engine.makePlayer(with: CHHapticPattern(events: [sound], parameters: []))
        try player.start(atTime: 0)
        let output = try render(engine, frames: 8000)
        let left = channel(output, 0, of: 3)
        let onset = try #require(firstSound(left))
        #expect(onset >= 4000 && onset <= 4002)
        #expect(left[..<4000].allSatisfy { $0 == 0 })
        try engine.unregisterAudioResource(id)
        #expect(throws: CHHapticError.self) { try engine.unregisterAudioResource(id) }
    }

    @Test func resourceLimitsAreReported() throws {
        let engine = try offlineEngine { $0.resourceLimits.maxFileBytes = 100 }
        let click = packageRoot.appendingPathComponent("Resources/Audio/click.wav")
        do {
            _ = try engine.registerAudioResource(click)
            Issue.record("oversized file accepted")
        } catch let error as CHHapticError {
            #expect(error.code == .resourceNotAvailable)
            #expect(error.message.contains("click.wav"))
            #expect(error.message.contains("limit"))
        }
    }

    @Test func autoShutdownAfterIdleAndRestartOnDemand() throws {
        let engine = try offlineEngine { $0.idleTimeout = 0.05 }
        engine.isAutoShutdownEnabled = true
        let reasons = Locked<[CHHapticEngine.StoppedReason]>([])
        engine.stoppedHandler = { reason in reasons.withLock { $0.append(reason) } }
        _ = try render(engine, frames: 256)
        Thread.sleep(forTimeInterval: 0.1)
        _ = try render(engine, frames: 256)
        #expect(!engine.isRunning)
        #expect(reasons.withLock { $0 } == [.idleTimeout])
        let player = try engine.makePlayer(with: CHHapticPattern(events: [transient(at: 0)], parameters: []))
        try player.start(atTime: 0)
        #expect(engine.isRunning)
    }

    @Test func hapticsOnlyDropsAudioEvents() throws {
        let engine = try offlineEngine()
        engine.playsHapticsOnly = true
        let tone = CHHapticEvent(eventType: .audioContinuous, parameters: [], relativeTime: 0, duration: 0.2)
        let player = try engine.makePlayer(with: CHHapticPattern(events: [tone, transient(at: 0)], parameters: []))
        try player.start(atTime: 0)
        let output = try render(engine, frames: 2000)
        #expect(peak(channel(output, 0, of: 3), 0..<2000) == 0)
        #expect(peak(channel(output, 2, of: 3), 0..<2000) > 0.1)
    }

    @Test func capabilitiesReportTheParameterTable() throws {
        let capabilities = CHHapticEngine.capabilitiesForHardware()
        let intensity = try capabilities.attributes(forEventParameter: .hapticIntensity, eventType: .hapticTransient)
        #expect(intensity.maxValue == 1)
        let pan = try capabilities.attributes(forDynamicParameter: .audioPanControl)
        #expect(pan.minValue == -1)
    }
}
