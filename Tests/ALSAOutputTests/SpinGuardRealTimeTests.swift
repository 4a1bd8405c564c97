import Foundation
import Testing
import ThrumTestSupport

@testable import ALSAOutput

/// A plugin whose wake-up never clears (its descriptor stays readable once it fired) on the simulated
/// card: the playback thread must not spin at real-time priority. It counts the empty wake-ups, reports
/// the spin, paces itself by the clock, and the card still receives every frame in order, with no underrun
/// (in an 85 ms buffer: this VM's host stalls it for 20 ms and more at times, which a 21 ms one does not survive).
extension ALSAOutputSuites {
@Suite("Spin guard", .serialized)
struct SpinGuardRealTimeTests {
    @Test func wakeUpThatNeverClearsIsReportedAndDoesNotSpin() throws {
        let run = try SimulatedCardRun(fields: "formats [ S32_LE ]\nchannels 2\nwakeup_never_clears yes")
        let playback = try ALSAPlayback(
            configuration: ALSADeviceConfiguration(
                source: run.source, sampleRate: 48_000, channels: 2, periodFrames: 256, periodCount: 16,
                realtimePriority: 70, lockMemory: false))
        try playback.start(source: FunctionSource(progress: SourceProgress(), expectedFrameCount: 256, sample: rampSample))
        #expect(waitUntil(timeout: 10) { playback.framesWritten >= 48_000 })
        playback.stop()
        playback.close()
        let periods = run.stat("played") / 256
        let wakeups = run.stat("wakeups")
        #expect(periods > 150)
        // Spinning, the thread would ask the card thousands of times per period.
        #expect(wakeups <= 16 * periods, "\(wakeups) wake-ups for \(periods) periods")
        #expect(playback.spinCount >= 1)
        #expect(playback.emptyWakeUpCount >= UInt64(SpinGuard.spinThreshold))
        #expect(run.stat("underruns") == 0)
        #expect(playback.xrunCount == 0)
    }
}
}
