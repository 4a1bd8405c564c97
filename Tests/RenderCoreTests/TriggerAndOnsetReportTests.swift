import Foundation
import Testing
import ThrumModel
import ThrumTestSupport

@testable import RenderCore

/// The trigger bus and the onset reports, against the pattern's own event times: an onset is at frame
/// round(time × rate) (the pattern's clock; `thrum render` and the device count the same frames), and the
/// trigger pulse is 1 ms wide.
@Suite("Trigger and onset reports")
struct TriggerAndOnsetReportTests {
    /// Events of every kind, some closer than a pulse apart (their pulses merge), at 48 kHz.
    static let times: [(CHHapticEvent.EventType, Double)] = [
        (.hapticTransient, 0.0), (.hapticContinuous, 0.0125), (.audioContinuous, 0.1), (.hapticTransient, 0.10002),
        (.hapticTransient, 0.2501), (.audioContinuous, 0.333),
    ]

    static func pattern(rate: Double) throws -> CompiledPattern {
        let events = times.map { type, time in
            type == .hapticTransient ? event(type, time, [(.hapticIntensity, 0.5)]) : event(type, time, duration: 0.05)
        }
        return try compile(PatternData(events: events), rate: rate)
    }

    /// Renders the pattern in blocks of `block` frames with a trigger bus; returns the trigger and the renderer.
    static func renderTrigger(rate: Double, frames: Int, block: Int, reports: Int = 64) throws -> ([Float], Renderer) {
        let renderer = Renderer(
            configuration: RendererConfiguration(sampleRate: rate, maxBlockFrames: block, onsetReportCapacity: reports))
        let compiled = try pattern(rate: rate)  // kept alive while it plays: the renderer holds a view only
        #expect(renderer.startPlayer(InstanceID(slot: 0, generation: 7), pattern: compiled, atFrame: 0))
        var trigger = [Float](repeating: -1, count: frames)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 3 * block)
        defer { scratch.deallocate() }
        var done = 0
        trigger.withUnsafeMutableBufferPointer { out in
            while done < frames {
                let n = min(block, frames - done)
                renderer.render(
                    frameCount: n, audioL: scratch, audioR: scratch + block, haptics: scratch + 2 * block, hapticStride: block,
                    trigger: out.baseAddress! + done)
                done += n
            }
        }
        withExtendedLifetime(compiled) {}
        return (trigger, renderer)
    }

    /// The expected trigger: 1.0 on [round(t × rate), + 1 ms) for every event, 0 elsewhere.
    static func expectedTrigger(rate: Double, frames: Int) -> [Float] {
        let width = Int((rate / 1000).rounded())
        var expected = [Float](repeating: 0, count: frames)
        for (_, time) in times {
            let onset = Int((time * rate).rounded())
            for frame in onset..<min(onset + width, frames) { expected[frame] = 1 }
        }
        return expected
    }

    @Test("the trigger is 1.0 for exactly 1 ms from each onset frame, whatever the block size", arguments: [
        (48_000.0, 256), (48_000.0, 7), (44_100.0, 1000),
    ])
    func triggerPulses(rate: Double, block: Int) throws {
        let frames = Int(0.4 * rate)
        let (trigger, _) = try Self.renderTrigger(rate: rate, frames: frames, block: block)
        let expected = Self.expectedTrigger(rate: rate, frames: frames)
        let wrong = (0..<frames).filter { trigger[$0] != expected[$0] }
        #expect(wrong.isEmpty, "\(wrong.count) frames differ, first at \(wrong.first ?? -1)")
        // An isolated pulse is exactly 48 frames at 48 kHz (1 ms): the one at 0.2501 s.
        if rate == 48_000 {
            let start = Int((0.2501 * rate).rounded())
            #expect(trigger[start - 1] == 0 && trigger[start] == 1 && trigger[start + 47] == 1 && trigger[start + 48] == 0)
        }
    }

    @Test("every onset is reported once, in order, with its event, pattern time, frame and instance")
    func reports() throws {
        let rate = 48_000.0
        let (_, renderer) = try Self.renderTrigger(rate: rate, frames: Int(0.4 * rate), block: 333)
        let reports = try #require(renderer.onsetReports)
        var onsets: [EventOnset] = []
        while let onset = reports.pop() { onsets.append(onset) }
        // The pattern's events sorted by time (stable: file order among equal times).
        let expected = Self.times.enumerated().sorted { $0.element.1 < $1.element.1 }
        #expect(onsets.count == expected.count)
        for (onset, (index, (type, time))) in zip(onsets, expected) {
            #expect(onset.eventIndex == index)
            #expect(onset.patternTime == time)
            #expect(onset.frame == UInt64((time * rate).rounded()))
            #expect(onset.instance == InstanceID(slot: 0, generation: 7))
            #expect(onset.loopPass == 0)
            #expect((onset.kind == .transient) == (type == .hapticTransient))
        }
        #expect(reports.lostCount == 0)
    }

    @Test("a full ring counts what it could not hold; nothing is lost silently")
    func losses() throws {
        let rate = 48_000.0
        let (_, renderer) = try Self.renderTrigger(rate: rate, frames: Int(0.4 * rate), block: 512, reports: 2)
        let reports = try #require(renderer.onsetReports)
        var kept = 0
        while reports.pop() != nil { kept += 1 }
        #expect(reports.capacity == 2)
        #expect(kept == 2)
        #expect(reports.lostCount == Self.times.count - 2)
    }

    @Test("no ring without a capacity; loops report their pass")
    func loopPasses() throws {
        #expect(Renderer(configuration: RendererConfiguration()).onsetReports == nil)
        let rate = 8000.0
        let renderer = Renderer(configuration: RendererConfiguration(sampleRate: rate, onsetReportCapacity: 16))
        let tap = try compile(PatternData(events: [event(.hapticTransient, 0.05, [(.hapticIntensity, 1)])]), rate: rate)
        renderer.startPlayer(0, pattern: tap, atFrame: 0, loopEnd: 0.2, passes: 3)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 3 * 4096)
        defer { buffer.deallocate() }
        renderer.render(frameCount: 4096, audioL: buffer, audioR: buffer + 4096, haptics: buffer + 8192, hapticStride: 4096)
        withExtendedLifetime(tap) {}
        var onsets: [EventOnset] = []
        while let onset = renderer.onsetReports?.pop() { onsets.append(onset) }
        #expect(onsets.map(\.loopPass) == [0, 1, 2])
        #expect(onsets.map(\.frame) == [400, 2000, 3600])  // 0.05 s + k × 0.2 s at 8 kHz
        #expect(onsets.allSatisfy { $0.patternTime == 0.05 })
    }

    @Test("the channel map takes T and writes the trigger bus there")
    func channelMap() throws {
        let map = try ChannelMap(parsing: "L,R,H,t")
        #expect(map.sources == [.left, .right, .haptic, .trigger])
        #expect(map.carriesTrigger && !ChannelSource.trigger.carriesAudio && !ChannelSource.trigger.carriesHaptics)
        #expect(map.description == "L,R,H,T")
        let ones: [Float] = [0.5, 0.5]
        let trigger: [Float] = [1, 0]
        var out = [Float](repeating: -1, count: 8)
        ones.withUnsafeBufferPointer { a in
            trigger.withUnsafeBufferPointer { t in
                map.interleave(
                    audioL: a.baseAddress!, audioR: a.baseAddress!, haptics: a.baseAddress!, hapticStride: 2,
                    trigger: t.baseAddress!, frameCount: 2, into: &out)
            }
        }
        #expect(out[3] == 1 && out[7] == 0)
        // Without a trigger bus, T is silent.
        ones.withUnsafeBufferPointer { a in
            map.interleave(
                audioL: a.baseAddress!, audioR: a.baseAddress!, haptics: a.baseAddress!, hapticStride: 2, frameCount: 2,
                into: &out)
        }
        #expect(out[3] == 0 && out[7] == 0)
    }
}
