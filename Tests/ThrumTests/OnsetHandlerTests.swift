import Foundation
import Testing
import Thrum
import ThrumTestSupport

/// Collects onsets from the engine's handler (any thread).
final class OnsetCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [ThrumOnset] = []
    func add(_ onset: ThrumOnset) { lock.withLock { items.append(onset) } }
    var onsets: [ThrumOnset] { lock.withLock { items } }
}

/// `Options.onsetHandler` offline: what it reports against the pattern's own events (time × rate frames),
/// the players it names, and losses counted when the handler falls behind.
@Suite struct OnsetHandlerTests {
    static let times: [TimeInterval] = [0, 0.01, 0.0505, 0.125, 0.2]

    static func taps() throws -> CHHapticPattern {
        try CHHapticPattern(events: times.map { transient(at: $0) }, parameters: [])
    }

    @Test("offline, every onset reaches the handler on the caller's thread with its pattern time, frame and player")
    func offlineOnsets() throws {
        let collector = OnsetCollector()
        let rate = 48_000.0
        let engine = try offlineEngine(rate: rate) { $0.onsetHandler = { collector.add($0) } }
        let first = try engine.makePlayer(with: try Self.taps())
        let second = try engine.makePlayer(
            with: try CHHapticPattern(
                events: [continuous(at: 0.03, duration: 0.05), CHHapticEvent(eventType: .audioContinuous, parameters: [], relativeTime: 0.04, duration: 0.02)],
                parameters: []))
        try first.start(atTime: 0)
        try second.start(atTime: 0.1)
        _ = try render(engine, frames: Int(0.35 * rate), block: 500)
        let onsets = collector.onsets
        let firstID = try #require((first as? ThrumPlayerState)?.playerID)
        let secondID = try #require((second as? ThrumPlayerState)?.playerID)
        #expect(firstID != secondID)
        // Expected from the patterns: (player, pattern time, engine start) sorted by frame.
        var expected: [(Int, Double, Double, CHHapticEvent.EventType, Int)] =
            Self.times.enumerated().map { (firstID, $1, 0, .hapticTransient, $0) }
        expected += [(secondID, 0.03, 0.1, .hapticContinuous, 0), (secondID, 0.04, 0.1, .audioContinuous, 1)]
        expected.sort { ($0.1 + $0.2) < ($1.1 + $1.2) }
        #expect(onsets.count == expected.count)
        for (onset, (player, time, start, type, index)) in zip(onsets, expected) {
            let frame = UInt64(((start + time) * rate).rounded())
            #expect(onset.playerID == player)
            #expect(onset.patternTime == time)
            #expect(onset.streamFrame == frame)
            #expect(onset.engineTime == Double(frame) / rate)
            #expect(onset.dacTime == nil)
            #expect(onset.eventType == type)
            #expect(onset.eventIndex == index)
            #expect(onset.loopPass == 0)
        }
        #expect(Set(onsets.filter { $0.playerID == firstID }.map(\.instance)).count == 1)
        #expect(engine.lostOnsetCount == 0)
        #expect(engine.outputTime(forEngineTime: 0) == nil && engine.engineTime(forOutputTime: 1) == nil)
    }

    @Test("a handler that falls behind loses onsets, and they are counted")
    func lostOnsets() throws {
        let collector = OnsetCollector()
        let engine = try offlineEngine(rate: 8000) {
            $0.onsetHandler = { collector.add($0) }
            $0.maxPendingOnsets = 2
        }
        let player = try engine.makePlayer(with: try Self.taps())
        try player.start(atTime: 0)
        _ = try render(engine, frames: 2400, block: 2400)  // all five onsets in one period
        #expect(collector.onsets.count == 2)
        #expect(engine.lostOnsetCount == Self.times.count - 2)
    }

    @Test("without a handler nothing is reported and a T channel still carries the pulses")
    func triggerWithoutHandler() throws {
        let rate = 48_000.0
        let engine = try offlineEngine(rate: rate) { $0.channelMap = try! ChannelMap(parsing: "H,T") }
        let player = try engine.makePlayer(with: try Self.taps())
        try player.start(atTime: 0)
        let frames = Int(0.25 * rate)
        let samples = try render(engine, frames: frames, block: 256)
        let trigger = (0..<frames).map { samples[2 * $0 + 1] }
        var expected = [Float](repeating: 0, count: frames)
        for time in Self.times {
            let onset = Int((time * rate).rounded())
            for frame in onset..<(onset + 48) { expected[frame] = 1 }
        }
        #expect(trigger == expected)
        #expect(engine.lostOnsetCount == 0)
    }
}
