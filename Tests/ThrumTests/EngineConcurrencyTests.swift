import Foundation
import Synchronization
import FoundationStandIns
import Testing
@testable import Thrum
import ThrumTestSupport

/// The public API used from several threads at once, with a live render thread (ALSA's `null` plugin,
/// in memory: unpaced, so the render thread runs flat out), engines released while they run, stops during
/// housekeeping, and concurrent loads of one audio file. Tools/test.sh runs this suite under
/// ThreadSanitizer too; nothing here asserts timing (deadlines only bound a hang).
@Suite struct EngineConcurrencyTests {
    /// A live engine on an in-memory ALSA `null` device, at normal scheduling.
    static func liveEngine(_ configure: (inout CHHapticEngine.Options) -> Void = { _ in }) throws -> CHHapticEngine {
        var options = CHHapticEngine.Options()
        options.output = .alsaConfiguration(text: "pcm.thrumnull { type null }", pcmName: "thrumnull")
        options.sampleRate = 48_000
        options.periodFrames = 256
        options.realtimePriority = nil
        options.channelMap = .separate
        configure(&options)
        return try CHHapticEngine(options: options)
    }

    static func patterns() throws -> [CHHapticPattern] {
        [
            try CHHapticPattern(events: [continuous(at: 0, duration: 0.05)], parameters: []),
            try CHHapticPattern(events: [transient(at: 0), transient(at: 0.02)], parameters: []),
            try CHHapticPattern(events: [continuous(at: 0, duration: 0.1), transient(at: 0.05)], parameters: []),
        ]
    }

    /// Waits until `condition` holds or `seconds` pass (a bound on a hang, not a timing assertion).
    static func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(1000)
        }
        return true
    }

    @Test func thePublicAPIFromFourThreadsAtOnce() throws {
        let engine = try Self.liveEngine()
        try engine.start()
        let patterns = try Self.patterns()
        let players = Bag<any CHHapticAdvancedPatternPlayer>()
        let unexpected = Locked<[String]>([])
        let completions = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var random = SplitMix64(seed: UInt64(thread + 1))
            var own: [any CHHapticAdvancedPatternPlayer] = []
            for _ in 0..<250 {
                do {
                    if own.count < 3 || random.next() % 16 == 0 {
                        let player = try engine.makeAdvancedPlayer(with: patterns[Int(random.next() % 3)])
                        player.completionHandler = { _ in completions.add(1, ordering: .relaxed) }
                        own.append(player)
                        players.add(player)
                    }
                    let player = own[Int(random.next() % UInt64(own.count))]
                    let soon = engine.currentTime + random.unit() * 0.02
                    switch random.next() % 10 {
                    case 0, 1: try player.start(atTime: random.next() % 2 == 0 ? CHHapticTimeImmediate : soon)
                    case 2: try player.stop(atTime: CHHapticTimeImmediate)
                    case 3:
                        try player.sendParameters(
                            [CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: Float(random.unit()), relativeTime: 0)],
                            atTime: soon)
                    case 4:
                        let curve = CHHapticParameterCurve(
                            parameterID: .hapticIntensityControl,
                            controlPoints: [.init(relativeTime: 0, value: 1), .init(relativeTime: 0.01, value: 0.2)],
                            relativeTime: 0)
                        try player.scheduleParameterCurve(curve, atTime: CHHapticTimeImmediate)
                    case 5: try player.seek(toOffset: random.unit() * 0.05)
                    case 6: try player.pause(atTime: CHHapticTimeImmediate)
                    case 7: try player.resume(atTime: CHHapticTimeImmediate)
                    case 8: player.playbackRate = Float(0.5 + random.unit())
                    default:
                        player.loopEnabled.toggle()
                        player.isMuted.toggle()
                    }
                } catch let error as CHHapticError where error.code == .resourceNotAvailable {
                    // A full engine says so; that is an answer, not a failure.
                } catch {
                    unexpected.withLock { $0.append("\(error)") }
                }
            }
        }
        let all = players.items
        for player in all {
            player.loopEnabled = false
            try player.stop(atTime: CHHapticTimeImmediate)
        }
        let finished = Atomic<Bool>(false)
        engine.notifyWhenPlayersFinished { _ in
            finished.store(true, ordering: .releasing)
            return .leaveEngineRunning
        }
        #expect(Self.eventually(30) { finished.load(ordering: .acquiring) }, "every instance ends after its stop")
        #expect(unexpected.withLock { $0 }.isEmpty, "\(unexpected.withLock { $0 })")
        #expect(completions.load(ordering: .relaxed) > 0)
        engine.stop()
    }

    /// An engine whose last reference goes while its render thread runs and a player loops shuts down:
    /// it is freed (no cycle through its slot table keeps it), its render thread is joined.
    @Test func anEngineReleasedWhileItPlaysIsFreed() throws {
        let pattern = try CHHapticPattern(events: [continuous(at: 0, duration: 0.1)], parameters: [])
        for _ in 0..<10 {
            weak var released: CHHapticEngine?
            try {
                let engine = try Self.liveEngine()
                try engine.start()
                let player = try engine.makeAdvancedPlayer(with: pattern)
                player.loopEnabled = true
                try player.start(atTime: CHHapticTimeImmediate)
                usleep(2000)
                released = engine
            }()
            #expect(Self.eventually(10) { released == nil }, "the engine is still alive after its last reference went")
        }
    }

    /// Completion handlers that stop the engine (on the housekeeping thread) while this thread stops and
    /// starts it too: no deadlock, no crash, and the engine starts again every round.
    @Test func stopsDuringHousekeeping() throws {
        let engine = try Self.liveEngine()
        let pattern = try CHHapticPattern(events: [transient(at: 0)], parameters: [])
        let handled = Atomic<Int>(0)
        var random = SplitMix64(seed: 7)
        for _ in 0..<30 {
            try engine.start()
            let player = try engine.makeAdvancedPlayer(with: pattern)
            player.completionHandler = { _ in
                handled.add(1, ordering: .relaxed)
                engine.stop()
            }
            do { try player.start(atTime: CHHapticTimeImmediate) } catch let error as CHHapticError {
                #expect(error.code == .engineNotRunning)  // a handler of the last round stopped it first
            }
            usleep(UInt32(random.next() % 3000))
            engine.stop()
        }
        #expect(handled.load(ordering: .relaxed) > 0)
        try engine.start()
        #expect(engine.isRunning)
        engine.stop()
    }

    /// Two `makePlayer` calls on patterns naming the same audio file, at once: one decode and one budget
    /// reservation (the budget holds the file once and a half; a second reservation fails one of them).
    @Test func twoPlayersOfOneAudioFileMadeAtOnceShareOneDecode() throws {
        let folder = TemporaryDirectory("thrum-concurrent-load")
        let seconds = 4.0
        try writeWAV(to: folder.file("long.wav"), frames: Int(seconds * 48_000))
        let decodedBytes = Int(seconds * 48_000) * 4
        let ahap = """
            {"Pattern": [{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "long.wav"}}]}
            """
        try ahap.write(toFile: folder.file("sound.ahap"), atomically: true, encoding: .utf8)
        let url = URL(fileURLWithPath: folder.file("sound.ahap"))
        for _ in 0..<8 {
            var options = CHHapticEngine.Options()
            options.output = .offline
            options.resourceLimits.maxTotalDecodedBytes = decodedBytes * 3 / 2
            let engine = try CHHapticEngine(options: options)
            let failures = Locked<[String]>([])
            let ready = Atomic<Int>(0)
            let done = Atomic<Int>(0)
            for _ in 0..<2 {
                Thread.detachNewThread {
                    ready.add(1, ordering: .acquiringAndReleasing)
                    while ready.load(ordering: .acquiring) < 2 {}  // both threads load at the same moment
                    do {
                        _ = try engine.makePlayer(with: CHHapticPattern(contentsOf: url))
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                    done.add(1, ordering: .releasing)
                }
            }
            #expect(Self.eventually(30) { done.load(ordering: .acquiring) == 2 })
            let seen = failures.withLock { $0 }
            #expect(seen.isEmpty, "\(seen)")
            if !seen.isEmpty { break }
        }
    }

    /// A mono 16-bit 48 kHz WAV of a quiet sine.
    func writeWAV(to path: String, frames: Int) throws {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        append(UInt32(36 + frames * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(1))
        append(UInt32(48_000))
        append(UInt32(96_000))
        append(UInt16(2))
        append(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        append(UInt32(frames * 2))
        for i in 0..<frames { append(Int16(sin(Double(i) * 0.0576) * 3000)) }
        try data.write(to: URL(fileURLWithPath: path))
    }
}

/// Values collected from several threads (players are not `Sendable`; the lock makes the hand-over safe).
final class Bag<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Element] = []
    func add(_ element: Element) { lock.withLock { stored.append(element) } }
    var items: [Element] { lock.withLock { stored } }
}

/// Completion without polling: the housekeeping thread sleeps until the render thread signals an end.
@Suite struct HousekeepingWakeUpTests {
    @Test func anIdleEngineWakesNoThreadAndAnEndWakesItOnce() throws {
        let engine = try EngineConcurrencyTests.liveEngine()
        try engine.start()
        defer { engine.stop() }
        let run = try #require(engine.state.withLock { $0.run })
        usleep(300_000)
        #expect(run.wakeUps.load(ordering: .relaxed) == 0, "a 5 ms poll would have woken it about 60 times")
        let player = try engine.makeAdvancedPlayer(
            with: CHHapticPattern(events: [transient(at: 0)], parameters: []))
        let completed = Atomic<Bool>(false)
        player.completionHandler = { _ in completed.store(true, ordering: .releasing) }
        try player.start(atTime: CHHapticTimeImmediate)
        #expect(EngineConcurrencyTests.eventually(10) { completed.load(ordering: .acquiring) })
        usleep(100_000)
        let wakeUps = run.wakeUps.load(ordering: .relaxed)
        #expect(wakeUps == 1, "\(wakeUps) wake-ups for one end")
    }
}

/// `stop` while the render side still plays a pattern nobody else holds (`playPattern` keeps no player):
/// the pattern may be freed only after the render side is done with it (AddressSanitizer, in Tools/test.sh,
/// sees a use after free otherwise).
@Suite struct StopWhileRenderingTests {
    static let ahap = Data(
        """
        {"Pattern": [
          {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 5,
                     "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}]}},
          {"Event": {"Time": 0.001, "EventType": "HapticTransient", "EventParameters": []}},
          {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0,
                              "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 1}, {"Time": 4, "ParameterValue": 0.2}]}}
        ]}
        """.utf8)

    @Test func offline() throws {
        var options = CHHapticEngine.Options()
        options.output = .offline
        let engine = try CHHapticEngine(options: options)
        let rendering = Atomic<Bool>(true)
        let renders = Atomic<Int>(0)
        let thread = Thread {
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 256 * 2)
            defer { buffer.deallocate() }
            while rendering.load(ordering: .acquiring) {
                if (try? engine.renderOffline(frameCount: 256, into: buffer)) != nil { renders.add(1, ordering: .relaxed) }
            }
        }
        thread.start()
        var random = SplitMix64(seed: 3)
        for _ in 0..<200 {
            try engine.start()
            try engine.playPattern(from: Self.ahap)
            usleep(UInt32(random.next() % 500))
            engine.stop()
        }
        rendering.store(false, ordering: .releasing)
        #expect(renders.load(ordering: .relaxed) > 0)
    }

    @Test func live() throws {
        let engine = try EngineConcurrencyTests.liveEngine()
        var random = SplitMix64(seed: 4)
        var playing = 0  // rounds in which the render thread was under way when stop came
        for _ in 0..<50 {
            try engine.start()
            try engine.playPattern(from: Self.ahap)
            usleep(UInt32(random.next() % 3000))
            if engine.currentTime > 0 { playing += 1 }
            engine.stop()
        }
        #expect(playing > 0, "the render thread never ran before a stop: the race was not exercised")
    }
}
