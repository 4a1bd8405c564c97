import Foundation
import Synchronization
import Testing
import ThrumTestSupport

@testable import ALSAOutput

/// Where the playback thread stops in its second period's render until the test opens the gate.
final class RenderGate: Sendable {
    let reached = Atomic<Bool>(false)
    let opened = Atomic<Bool>(false)
}

/// Renders silence; its second render waits for the gate: the playback thread preempted while it fills the
/// buffer, before the stream starts, as on a loaded machine. A test double: the wait is not real-time safe.
final class GatedSource: ALSARenderSource {
    let gate: RenderGate
    private var periods = 0

    init(gate: RenderGate) { self.gate = gate }

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int, channelCount: Int) {
        periods += 1
        guard periods == 2 else { return }
        gate.reached.store(true, ordering: .releasing)
        while !gate.opened.load(ordering: .acquiring) { usleep(1_000) }
    }
}

/// CLOCK_MONOTONIC now, in seconds.
private func monotonicNow() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// What counts as played before the stream's first DAC clock reading (issue 23: an onset delivered in that
/// gap was logged with `dac_time` null, because the frames written so far counted as played).
extension ALSAOutputSuites {
@Suite("DAC clock at the start of a stream", .serialized)
struct DACClockStartRealTimeTests {
    /// With one period written and the stream not started, nothing counts as played, checked against the
    /// simulated card's own clock (its `timing` file: frame 0 began to play only after the gate opened).
    @Test(arguments: [ALSAAccess.rwInterleaved, .mmapInterleaved])
    func nothingCountsAsPlayedBeforeTheStreamRuns(access: ALSAAccess) throws {
        let run = try SimulatedCardRun(profile: "sim_hda")
        let playback = try ALSAPlayback(
            configuration: ALSADeviceConfiguration(
                source: run.source, periodFrames: 256, periodCount: 4, preferredAccess: access, realtimePriority: 70,
                lockMemory: false))
        #expect(playback.setup.access == access)
        let gate = RenderGate()
        try playback.start(source: GatedSource(gate: gate))
        let reached = waitUntil(timeout: 10) { gate.reached.load(ordering: .acquiring) }
        let written = playback.framesWritten
        let estimate = playback.dacTimeEstimate
        let known = playback.framesKnownPlayed
        let opened = monotonicNow()
        gate.opened.store(true, ordering: .releasing)
        let ran = waitUntil(timeout: 10) { playback.framesKnownPlayed > 0 }
        playback.stop()
        playback.close()

        try #require(reached, "the playback thread never rendered its second period")
        #expect(written == 256)
        #expect(estimate == nil)
        #expect(known == 0, "\(known) of the \(written) frames written counted as played before the stream started")
        #expect(ran, "no frame counted as played once the stream ran")
        let timing = try String(contentsOfFile: "\(run.directory)/sim_hda.timing", encoding: .utf8)
        let first = try #require(timing.split(separator: "\n").first?.split(separator: " ").compactMap { UInt64($0) })
        try #require(first.count == 4 && first[0] == 0, "timing line \(first)")
        #expect(Double(first[1]) / 1e9 > opened, "frame 0 began to play \(Double(first[1]) / 1e9 - opened) s after the gate opened")
    }

    /// ALSA's `null` takes every frame at once and never reports a running stream: no reading will come, so
    /// every frame written counts as played (onsets are then delivered with no DAC time).
    @Test func aDeviceThatNeverStartsCountsWhatItWasGiven() throws {
        let playback = try ALSAPlayback(
            configuration: ALSADeviceConfiguration(
                source: .named("null"), periodFrames: 256, periodCount: 4, realtimePriority: nil, lockMemory: false))
        let progress = SourceProgress()
        try playback.start(source: FunctionSource(progress: progress, expectedFrameCount: 256, sample: rampSample))
        let wrote = waitUntil(timeout: 10) { playback.framesWritten >= 10 * UInt64(playback.bufferFrames) }
        let known = playback.framesKnownPlayed
        let written = playback.framesWritten
        playback.stop()
        #expect(wrote)
        #expect(playback.dacTimeEstimate == nil)
        #expect(known >= 10 * UInt64(playback.bufferFrames) && known <= written, "\(known) of \(written) frames")
        playback.close()
    }
}
}
