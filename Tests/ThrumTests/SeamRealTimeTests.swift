import Foundation
import Testing
import Thrum
import ThrumTestSupport

/// `SeamRaceTests` on the real-time path: a live engine on the PulseAudio null sink (ALSA `pulse`, 256 × 4),
/// its render thread woken by the device, 127 muted players in the slots ahead of the probe's. Each setting
/// is made right after `start()` returns; its effect is read from the player's position, which the render
/// thread publishes each period.
@Suite(.serialized, .enabled(if: pulseAvailable, "needs the PulseAudio null sink Tools/test.sh starts (THRUM_PULSE_TESTS=1)"))
struct SeamRealTimeTests {
    static let races = 60

    static func liveEngine() throws -> (CHHapticEngine, [any CHHapticAdvancedPatternPlayer]) {
        var options = CHHapticEngine.Options()
        options.output = .device("pulse")
        options.sampleRate = 48000
        options.periodFrames = 256
        options.periodCount = 4
        options.maxPlayers = 130  // the fillers, the probe, and slots for probes whose end is not reported yet
        options.maxVoices = 256
        let engine = try CHHapticEngine(options: options)
        try engine.start()
        var fillers: [any CHHapticAdvancedPatternPlayer] = []
        for _ in 0..<127 {
            let player = try engine.makeAdvancedPlayer(with: SeamRaceTests.longPattern())
            player.isMuted = true
            try player.start(atTime: 0)
            fillers.append(player)
        }
        return (engine, fillers)
    }

    /// (engine time, pattern position) of `player`, which must be playing.
    static func sample(_ engine: CHHapticEngine, _ player: any CHHapticAdvancedPatternPlayer) throws -> (Double, Double) {
        (engine.currentTime, try SeamRaceTests.position(player).seconds)
    }

    @Test func aRateSetRightAfterStartIsNeverLost() throws {
        let (engine, fillers) = try Self.liveEngine()
        defer { withExtendedLifetime(fillers) { engine.stop() } }
        let probe = try engine.makeAdvancedPlayer(with: SeamRaceTests.longPattern())
        var lost = 0
        for _ in 0..<Self.races {
            probe.playbackRate = 1
            try probe.start(atTime: 0)
            probe.playbackRate = 2
            usleep(40_000)  // several periods: the setting is applied by now
            let (t1, p1) = try Self.sample(engine, probe)
            usleep(100_000)
            let (t2, p2) = try Self.sample(engine, probe)
            // Pattern seconds per engine second: 2 with the rate applied, 1 without.
            if (p2 - p1) / (t2 - t1) < 1.5 { lost += 1 }
            try probe.stop(atTime: 0)
            usleep(20_000)
        }
        #expect(lost == 0, "rate lost in \(lost) of \(Self.races) races")
    }

    @Test func aLoopSetRightAfterStartIsNeverLost() throws {
        let (engine, fillers) = try Self.liveEngine()
        defer { withExtendedLifetime(fillers) { engine.stop() } }
        let probe = try engine.makeAdvancedPlayer(with: SeamRaceTests.longPattern())
        var lost = 0
        for _ in 0..<Self.races {
            probe.loopEnabled = false
            try probe.start(atTime: 0)
            probe.loopEnd = 0.05
            probe.loopEnabled = true
            usleep(150_000)  // three loop lengths: looping, the position is back inside the loop
            if try SeamRaceTests.position(probe).seconds >= 0.05 { lost += 1 }
            try probe.stop(atTime: 0)
            usleep(20_000)
        }
        #expect(lost == 0, "loop lost in \(lost) of \(Self.races) races")
    }
}
