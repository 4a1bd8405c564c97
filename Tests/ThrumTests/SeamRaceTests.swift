import Foundation
import Synchronization
import Testing
import Thrum
import ThrumTestSupport

/// An offline engine (or device) rendered without pause by a thread of its own, as a live engine's render
/// thread would render it, so that calls from the test thread race the render side's period at every point.
/// `hold()` parks the thread between two blocks, so the test can then render and measure on its own thread
/// what the race left behind, however late the scheduler ran either thread.
final class ContinuousRender: @unchecked Sendable {
    // @unchecked: only atomics and semaphores are shared.
    private let running = Atomic<Bool>(true)
    private let holdRequested = Atomic<Bool>(false)
    private let parked = DispatchSemaphore(value: 0)
    private let resumed = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Renders `engine` (offline) in blocks of `block` frames.
    init(_ engine: CHHapticEngine, block: Int = 64) {
        let channels = engine.options.channelMap.channelCount
        let thread = Thread { [self] in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block * channels)
            defer { buffer.deallocate() }
            while running.load(ordering: .relaxed) {
                if holdRequested.load(ordering: .acquiring) {
                    parked.signal()
                    resumed.wait()
                    continue
                }
                guard (try? engine.renderOffline(frameCount: block, into: buffer)) != nil else { break }
            }
            finished.signal()
        }
        thread.start()
    }

    /// Waits until the thread has finished its block and parked.
    func hold() {
        holdRequested.store(true, ordering: .releasing)
        parked.wait()
    }

    /// Lets the parked thread render again.
    func release() {
        holdRequested.store(false, ordering: .releasing)
        resumed.signal()
    }

    /// Ends the thread (which must not be held) and waits for it.
    func stop() {
        running.store(false, ordering: .relaxed)
        finished.wait()
    }
}

/// The peak of channel `channel` over interleaved `samples` of `channels` channels, from frame `from` on.
func peak(_ samples: [Float], channel: Int, of channels: Int, from: Int = 0) -> Float {
    stride(from: from * channels + channel, to: samples.count, by: channels).reduce(0) { max($0, abs(samples[$1])) }
}

/// Settings and commands made right after `start()` returns, or racing it, reach the instance they address
/// whatever the render side is doing (issue 23: the seam lost `playbackRate`, the loop, `isMuted` and the
/// engine's mute in up to 10 % of runs, and an engine stop on a shared device in 1.5 %). Each race runs
/// with 0, 31 and 127 other players in the slots ahead of the probe's, so the render side's settings pass
/// reaches the probe's slot at different moments after its command drain.
@Suite(.serialized) struct SeamRaceTests {
    static let rate = 8000.0
    /// Races per filler count: 400 (1,200 per property), 100 under a sanitizer.
    static let racesPerSetup = runningUnderSanitizer ? 100 : 400
    static let fillerCounts = [0, 31, 127]
    /// Frames the test renders itself after each race (0.1 s).
    static let measuredFrames = 800

    /// A 100 s continuous haptic event at intensity 1 (never ends within a race).
    static func longPattern() throws -> CHHapticPattern {
        try CHHapticPattern(events: [continuous(at: 0, duration: 100)], parameters: [])
    }

    /// An offline engine with `fillers` muted looping players occupying the first slots (voices to spare),
    /// rendered continuously.
    static func setUp(fillers: Int) throws -> (CHHapticEngine, ContinuousRender, [any CHHapticAdvancedPatternPlayer]) {
        let engine = try offlineEngine(rate: rate) {
            $0.maxPlayers = 128
            $0.maxVoices = 256
        }
        var players: [any CHHapticAdvancedPatternPlayer] = []
        for _ in 0..<fillers {
            let player = try engine.makeAdvancedPlayer(with: longPattern())
            player.isMuted = true
            try player.start(atTime: 0)
            players.append(player)
        }
        return (engine, ContinuousRender(engine), players)
    }

    /// The probe's position (s), which must be playing.
    static func position(_ player: any CHHapticAdvancedPatternPlayer) throws -> ThrumPlayerPosition {
        try #require((player as? ThrumPlayerState)?.position, "the probe is not playing")
    }

    /// Runs `race` right after the probe's `start()` (`prepare` before it) `racesPerSetup` times for each
    /// filler count while the render thread runs; then holds the render thread, renders `measuredFrames`
    /// on this thread and counts the races whose `check` of that render failed (the setting was lost).
    static func lost(
        prepare: (CHHapticEngine, any CHHapticAdvancedPatternPlayer) throws -> Void,
        race: (CHHapticEngine, any CHHapticAdvancedPatternPlayer) throws -> Void,
        check: (CHHapticEngine, any CHHapticAdvancedPatternPlayer) throws -> Bool
    ) throws -> [Int] {
        try fillerCounts.map { fillers in
            let (engine, renderer, fillerPlayers) = try setUp(fillers: fillers)
            defer {
                renderer.stop()
                withExtendedLifetime(fillerPlayers) {}
            }
            let probe = try engine.makeAdvancedPlayer(with: longPattern())
            var lost = 0
            for _ in 0..<racesPerSetup {
                try prepare(engine, probe)
                try probe.start(atTime: 0)
                try race(engine, probe)
                renderer.hold()
                if try !check(engine, probe) { lost += 1 }
                try probe.stop(atTime: 0)
                _ = try render(engine, frames: 128)  // the 5 ms fade; the instance ends
                renderer.release()
            }
            return lost
        }
    }

    /// The pattern seconds the probe advances over `measuredFrames` rendered now.
    static func advance(_ engine: CHHapticEngine, _ probe: any CHHapticAdvancedPatternPlayer) throws -> Double {
        let before = try position(probe).seconds
        _ = try render(engine, frames: measuredFrames)
        return try position(probe).seconds - before
    }

    @Test func aRateSetRightAfterStartIsNeverLost() throws {
        // 0.1 s of engine time advances the pattern 0.2 s at rate 2, 0.1 s at rate 1.
        let lost = try Self.lost(
            prepare: { _, player in player.playbackRate = 1 },
            race: { _, player in player.playbackRate = 2 },
            check: { engine, player in try Self.advance(engine, player) > 0.15 })
        #expect(lost == [0, 0, 0], "rate lost in \(lost) of \(Self.racesPerSetup) races (0/31/127 fillers)")
    }

    @Test func aLoopSetRightAfterStartIsNeverLost() throws {
        // A 0.25 s loop inside the 100 s event: looping, the position is back below 0.25 s after 0.3 s more;
        // not looping, it is past 0.3 s.
        var tooLate = 0
        let lost = try Self.lost(
            prepare: { _, player in player.loopEnabled = false },
            race: { _, player in
                player.loopEnd = 0.25
                player.loopEnabled = true
            },
            check: { engine, player in
                guard try Self.position(player).seconds < 0.2 else {  // too late to tell: not counted
                    tooLate += 1
                    return true
                }
                _ = try render(engine, frames: Int(0.3 * Self.rate))
                return try Self.position(player).seconds < 0.25
            })
        #expect(lost == [0, 0, 0], "loop lost in \(lost) of \(Self.racesPerSetup) races (0/31/127 fillers)")
        #expect(tooLate < Self.racesPerSetup, "\(tooLate) of \(3 * Self.racesPerSetup) races were checked too late to tell")
    }

    /// Whether the haptic channel (index 2 of L,R,H) peaks over 0.1 in the last half of `measuredFrames`
    /// rendered now (intensity 1 on the default profile peaks near its gain, well over 0.1).
    static func sounds(_ engine: CHHapticEngine) throws -> Bool {
        peak(try render(engine, frames: measuredFrames), channel: 2, of: 3, from: measuredFrames / 2) > 0.1
    }

    @Test func anUnmuteRightAfterStartIsNeverLost() throws {
        let lost = try Self.lost(
            prepare: { _, player in player.isMuted = true },
            race: { _, player in player.isMuted = false },
            check: { engine, _ in try Self.sounds(engine) })
        #expect(lost == [0, 0, 0], "unmute lost in \(lost) of \(Self.racesPerSetup) races (0/31/127 fillers)")
    }

    @Test func anEngineUnmuteRightAfterStartIsNeverLost() throws {
        let lost = try Self.lost(
            prepare: { engine, _ in engine.isMutedForHaptics = true },
            race: { engine, _ in engine.isMutedForHaptics = false },
            check: { engine, _ in try Self.sounds(engine) })
        #expect(lost == [0, 0, 0], "engine unmute lost in \(lost) of \(Self.racesPerSetup) races (0/31/127 fillers)")
    }

    @Test func aRateSetOnAnotherThreadWhileStartRunsIsNeverLost() throws {
        // Whichever lands first, the setter or the start, the instance must end up at rate 2.
        let (engine, renderer, fillers) = try Self.setUp(fillers: 127)
        defer {
            renderer.stop()
            withExtendedLifetime(fillers) {}
        }
        let probe = try engine.makeAdvancedPlayer(with: Self.longPattern())
        nonisolated(unsafe) let shared = probe
        var lost = 0
        for _ in 0..<Self.racesPerSetup {
            probe.playbackRate = 1
            let go = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            Thread {
                go.wait()
                shared.playbackRate = 2
                done.signal()
            }.start()
            go.signal()
            try probe.start(atTime: 0)
            done.wait()
            renderer.hold()
            if try Self.advance(engine, probe) <= 0.15 { lost += 1 }
            try probe.stop(atTime: 0)
            _ = try render(engine, frames: 128)
            renderer.release()
        }
        #expect(lost == 0, "a rate set on another thread during start() was lost in \(lost) races")
    }

    @Test func anEngineStopOnASharedDeviceAlwaysStopsItsPattern() throws {
        // Two engines on one offline device (H:leftHandle,H:rightHandle); the left one starts a pattern and
        // stops at once while the right one's render goes on. After the 5 ms stop fade the left handle
        // (channel 0) must be silent.
        let device = try offlineDevice("H:leftHandle,H:rightHandle", rate: Self.rate)
        let left = try #require(device.createEngine(withLocality: .leftHandle))
        let right = try #require(device.createEngine(withLocality: .rightHandle))
        try right.start()
        let renderer = ContinuousRender(right)
        defer { renderer.stop() }
        var playedOn = 0
        for _ in 0..<Self.racesPerSetup * 3 {
            try left.start()
            let player = try left.makeAdvancedPlayer(with: Self.longPattern())
            try player.start(atTime: 0)
            left.stop()
            renderer.hold()
            if peak(try render(right, frames: Self.measuredFrames), channel: 0, of: 2, from: 80) > 0 { playedOn += 1 }
            renderer.release()
        }
        #expect(playedOn == 0, "the stopped engine's pattern played on in \(playedOn) of \(Self.racesPerSetup * 3) races")
    }
}
