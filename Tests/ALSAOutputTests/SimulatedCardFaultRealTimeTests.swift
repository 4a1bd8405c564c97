import Foundation
import Synchronization
import FoundationStandIns
import Testing
import ThrumTestSupport

@testable import ALSAOutput

/// Records the one failure a playback reports through `onFailure`.
final class FailureRecorder: Sendable {
    let calls = Atomic<Int>(0)
    let error = Locked<ALSAError?>(nil)

    func callback(stopping playback: ALSAPlayback) -> @Sendable (ALSAError) -> Void {
        { [self, playback] error in
            self.error.withLock { $0 = error }
            playback.stop()
            calls.add(1, ordering: .releasing)
        }
    }
}

/// Device faults as hardware has them, on the simulated card: unplug, suspend, missing POLLERR, a
/// plugin that clears its wake-up only in `snd_pcm_poll_descriptors()`, underruns.
extension ALSAOutputSuites {
@Suite("Simulated card faults", .serialized)
struct SimulatedCardFaultRealTimeTests {
    private func configuration(_ run: SimulatedCardRun, period: Int = 256) -> ALSADeviceConfiguration {
        ALSADeviceConfiguration(
            source: run.source, sampleRate: 48_000, channels: 2, periodFrames: period, periodCount: 4,
            realtimePriority: 70, lockMemory: false)
    }

    /// The card vanishes (USB unplug) after 1 s: playback fails once with a "device went away" error naming
    /// it, having rendered at most one period past what the card could still hold.
    @Test(arguments: ["sim_vanish", "quiet"])
    func vanishingCardEndsPlaybackNamingTheDevice(_ variant: String) throws {
        // "quiet": the card disappears without waking its poller (no POLLERR): only the wait's timeout
        // and the state check behind it can notice.
        let run = variant == "quiet"
            ? try SimulatedCardRun(fields: "formats [ S32_LE ]\nchannels 2\nvanish_after 48000\nvanish_quietly yes")
            : try SimulatedCardRun(profile: variant)
        let playback = try ALSAPlayback(configuration: configuration(run))
        let recorder = FailureRecorder()
        let progress = SourceProgress()
        try playback.start(
            source: FunctionSource(progress: progress, expectedFrameCount: 256, sample: rampSample),
            onFailure: recorder.callback(stopping: playback))
        #expect(waitUntil(timeout: 10) { recorder.calls.load(ordering: .acquiring) == 1 })
        usleep(50_000)
        #expect(recorder.calls.load(ordering: .acquiring) == 1)
        #expect(playback.state == .failed)
        let error = try #require(playback.lastError)
        #expect(error.isDeviceMissing, "\(error)")
        #expect(error.description.contains("'\(run.name)"))
        #expect(error.description.contains("the device went away"))
        let rendered = progress.framesRendered.load(ordering: .acquiring)
        #expect(rendered <= 48_000 + playback.bufferFrames + playback.periodFrames, "rendered \(rendered) frames")
        playback.close()
        #expect(run.stat("vanished") == 1)
    }

    /// A suspend is resumed where it stopped: nothing is lost, the card's capture stays bit-exact.
    @Test func suspendedCardIsResumedWithoutLosingFrames() throws {
        let frames = 48_000
        let (run, setup) = try playRamp(frames: frames, sourceChannels: 2, card: {
            try SimulatedCardRun(profile: "sim_suspend")
        })
        #expect(run.stat("suspends") == 1)
        #expect(run.stat("resumes") == 1)
        let want = expectedRampBytes(format: setup.format, frames: frames, deviceChannels: 2, sourceChannels: 2)
        #expect(firstDifference(run.capture(), want, count: want.count) == nil)
    }

    /// A card that cannot resume (snd_pcm_resume "succeeds" but the state stays SUSPENDED, as ioplug
    /// reports it) is prepared, and playback goes on.
    @Test func cardThatCannotResumeIsPrepared() throws {
        let run = try SimulatedCardRun(fields: "formats [ S16_LE ]\nchannels 2\nsuspend_after 12000\nresumable no")
        let playback = try ALSAPlayback(configuration: configuration(run))
        let progress = SourceProgress()
        try playback.start(source: FunctionSource(progress: progress, expectedFrameCount: 256, sample: rampSample))
        #expect(waitUntil(timeout: 10) { playback.suspendCount == 1 })
        let after = playback.framesWritten
        #expect(waitUntil(timeout: 10) { playback.framesWritten >= after + 12_000 })
        #expect(playback.state == .running)
        playback.stop()
        playback.close()
        #expect(run.stat("suspends") == 1)
        #expect(run.stat("resumes") == 0)
        // The first start and the one after the prepare; an underrun's recovery (a stall of the machine) is a
        // start of its own, which the card counts too.
        #expect(run.stat("starts") == 2 + run.stat("underruns"))
    }

    /// pipewire-alsa before 0.3.85 clears its wake-up only in snd_pcm_poll_descriptors(): a loop that
    /// fetches the descriptors once finds them ready forever and spins. Fetched before every wait, the
    /// card wakes the thread about once per period.
    @Test func wakeUpClearedOnlyInDescriptorsDoesNotSpin() throws {
        let run = try SimulatedCardRun(fields: "formats [ S32_LE ]\nchannels 2\nclear_wakeup_in_descriptors yes")
        let playback = try ALSAPlayback(configuration: configuration(run))
        try playback.start(source: FunctionSource(progress: SourceProgress(), expectedFrameCount: 256, sample: rampSample))
        #expect(waitUntil(timeout: 10) { playback.framesWritten >= 24_000 })
        playback.stop()
        playback.close()
        let periods = run.stat("played") / 256
        let wakeups = run.stat("wakeups")
        #expect(periods > 50)
        #expect(wakeups <= 2 * periods + 8, "\(wakeups) wake-ups for \(periods) periods")
    }

    /// Underruns: Thrum recovers and counts exactly the ones the card saw.
    @Test func underrunsCountedByThrumMatchTheCard() throws {
        let run = try SimulatedCardRun(profile: "sim_scarlett")
        let playback = try ALSAPlayback(configuration: configuration(run))
        try playback.start(source: FunctionSource(progress: SourceProgress(), expectedFrameCount: 256, sample: rampSample))
        #expect(waitUntil(timeout: 10) { playback.framesWritten >= 12_000 })
        playback.injectStall(milliseconds: 100)  // the buffer holds 21 ms
        #expect(waitUntil(timeout: 10) { playback.xrunCount >= 1 })
        let after = playback.framesWritten
        #expect(waitUntil(timeout: 10) { playback.framesWritten >= after + 12_000 })
        #expect(playback.state == .running)
        playback.stop()
        playback.close()
        #expect(run.stat("underruns") == Int(playback.xrunCount))
        #expect(run.stat("underruns") >= 1)
    }
}
}
