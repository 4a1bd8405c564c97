import Foundation
import Synchronization
import FoundationStandIns
import Testing
import Thrum
import ThrumTestSupport

/// The engines of one `GCDeviceHaptics` used from several threads at once with a live render thread (ALSA's
/// `null` plugin, in memory, unpaced): each thread drives its own engine's players (start, stop, parameters,
/// panning, seek, pause, resume) and stops and restarts its engine, which leaves and joins the shared
/// stream while the others play. Tools/test.sh runs this suite under ThreadSanitizer too; nothing here
/// asserts timing (deadlines only bound a hang).
@Suite struct DeviceConcurrencyTests {
    @Test("three engines of one device from three threads, each stopping and restarting its own")
    func enginesOfOneDeviceFromThreeThreads() throws {
        var options = CHHapticEngine.Options()
        options.output = .alsaConfiguration(text: "pcm.thrumnull { type null }", pcmName: "thrumnull")
        options.sampleRate = 48_000
        options.periodFrames = 256
        options.realtimePriority = nil
        options.channelMap = .dualSense
        let device = try GCDeviceHaptics(options: options)
        let engines = [GCHapticsLocality.leftHandle, .rightHandle, .handles].compactMap {
            device.createEngine(withLocality: $0)
        }
        try #require(engines.count == 3)
        for engine in engines { try engine.start() }
        let patterns = try EngineConcurrencyTests.patterns()
        let unexpected = Locked<[String]>([])
        let completions = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: engines.count) { thread in
            let engine = engines[thread]
            var random = SplitMix64(seed: UInt64(thread + 11))
            var own: [any CHHapticAdvancedPatternPlayer] = []
            for _ in 0..<200 {
                do {
                    if own.count < 3 || random.next() % 16 == 0 {
                        let player = try engine.makeAdvancedPlayer(with: patterns[Int(random.next() % 3)])
                        player.completionHandler = { _ in completions.add(1, ordering: .relaxed) }
                        own.append(player)
                    }
                    let player = own[Int(random.next() % UInt64(own.count))]
                    switch random.next() % 8 {
                    case 0, 1: try player.start(atTime: CHHapticTimeImmediate)
                    case 2: try player.stop(atTime: CHHapticTimeImmediate)
                    case 3:
                        try player.sendParameters(
                            [
                                CHHapticDynamicParameter(
                                    parameterID: .thrumHapticPanX, value: Float(random.unit() * 2 - 1), relativeTime: 0)
                            ], atTime: CHHapticTimeImmediate)
                    case 4: try player.seek(toOffset: random.unit() * 0.05)
                    case 5: try player.pause(atTime: CHHapticTimeImmediate)
                    case 6: try player.resume(atTime: CHHapticTimeImmediate)
                    default:
                        // Leave the shared stream and join it again while the other engines play.
                        engine.stop()
                        try engine.start()
                        own.removeAll()
                    }
                } catch let error as CHHapticError where error.code == .resourceNotAvailable {
                    // A full device says so; that is an answer, not a failure.
                } catch {
                    unexpected.withLock { $0.append("engine \(thread): \(error)") }
                }
            }
        }
        #expect(unexpected.withLock { $0 }.isEmpty, "\(unexpected.withLock { $0 })")
        #expect(completions.load(ordering: .relaxed) > 0)
        let running = engines.allSatisfy { $0.isRunning }
        #expect(running)
        // One device, one clock: read in turn while the render thread runs, each engine's time lies between
        // the first engine's time read before and after it (an engine with a clock of its own, restarted at
        // another moment, would fall outside).
        let times = [engines[0].currentTime, engines[1].currentTime, engines[2].currentTime, engines[0].currentTime]
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(times)")
        for engine in engines { engine.stop() }
        let stopped = engines.allSatisfy { !$0.isRunning }
        #expect(stopped)
    }
}
