import Foundation
import Synchronization
import Testing
import ThrumTestSupport

@testable import ALSAOutput

/// What a profile must negotiate when fed `sourceChannels` channels at 48 kHz (rate not required).
struct ProfileExpectation: Sendable, CustomStringConvertible {
    var profile: String
    var sourceChannels: Int
    var format: ALSASampleFormat
    var access: ALSAAccess
    var deviceChannels: Int
    var rate: Int
    var periodRequest = 512
    var description: String { profile }
}

/// Plays a ramp through one simulated card and returns the card run and the negotiated setup, after a
/// drained stop. The buffer is 16 periods: what the callers check (negotiation, the samples) does not
/// depend on it, and the machine's host takes its CPUs away for seconds at a time (docs/testing.md). A run
/// in which the card underran anyway (a loaded machine legitimately loses frames) is repeated on a fresh
/// card (repeatWhileTheMachineSpoils).
func playRamp(
    frames: Int, sourceChannels: Int, card: () throws -> SimulatedCardRun,
    adjust: (inout ALSADeviceConfiguration) -> Void = { _ in }
) throws -> (SimulatedCardRun, ALSAStreamSetup) {
    try repeatWhileTheMachineSpoils("the card underran") {
        let run = try card()
        var configuration = ALSADeviceConfiguration(
            source: run.source, sampleRate: 48_000, channels: sourceChannels, periodFrames: 512, periodCount: 16,
            realtimePriority: 70, lockMemory: false)
        adjust(&configuration)
        let playback = try ALSAPlayback(configuration: configuration)
        let setup = playback.setup
        let progress = SourceProgress()
        try playback.start(
            source: FunctionSource(
                progress: progress, expectedFrameCount: setup.periodFrames, limit: frames, sample: rampSample))
        let done = waitUntil(timeout: 20) { playback.framesWritten >= UInt64(frames + setup.bufferFrames) }
        playback.stop(drain: true)
        playback.close()
        try #require(done, "the card took \(playback.framesWritten) frames in 20 s")
        #expect(progress.wrongFrameCount.load(ordering: .relaxed) == 0)
        let cardUnderruns = run.stat("underruns")
        #expect(UInt64(max(cardUnderruns, 0)) == playback.xrunCount, "the card and Thrum count underruns alike")
        if cardUnderruns == 0 { return .done((run, setup)) }
        return .spoiled("\(cardUnderruns) underruns")
    }
}

extension ALSAOutputSuites {
@Suite("Simulated sound cards", .serialized)
struct SimulatedCardRealTimeTests {
    static let profiles: [ProfileExpectation] = [
        .init(profile: "sim_hda", sourceChannels: 2, format: .s32LE, access: .rwInterleaved, deviceChannels: 2, rate: 48_000),
        .init(profile: "sim_scarlett", sourceChannels: 2, format: .s32LE, access: .rwInterleaved, deviceChannels: 2, rate: 48_000),
        .init(profile: "sim_umc", sourceChannels: 3, format: .s24x3LE, access: .rwInterleaved, deviceChannels: 4, rate: 48_000),
        .init(profile: "sim_8ch", sourceChannels: 2, format: .s32LE, access: .rwInterleaved, deviceChannels: 8, rate: 48_000),
        .init(profile: "sim_rme", sourceChannels: 4, format: .s32LE, access: .rwNonInterleaved, deviceChannels: 8, rate: 48_000),
        .init(profile: "sim_dongle", sourceChannels: 2, format: .s16LE, access: .rwInterleaved, deviceChannels: 2, rate: 48_000),
        .init(profile: "sim_44k", sourceChannels: 2, format: .s16LE, access: .rwInterleaved, deviceChannels: 2, rate: 44_100),
        .init(profile: "sim_step32", sourceChannels: 2, format: .s32LE, access: .rwInterleaved, deviceChannels: 2, rate: 48_000,
              periodRequest: 500),
        .init(profile: "sim_fast", sourceChannels: 2, format: .s32LE, access: .rwInterleaved, deviceChannels: 2, rate: 48_000),
    ]

    /// Each profile: what is negotiated is what the card itself reports, and it receives the ramp bit for bit.
    @Test(arguments: profiles)
    func profilePlaysBitExact(_ expected: ProfileExpectation) throws {
        let frames = 24_000
        let (run, setup) = try playRamp(frames: frames, sourceChannels: expected.sourceChannels, card: {
            try SimulatedCardRun(profile: expected.profile)
        }, adjust: { $0.periodFrames = expected.periodRequest })
        #expect(setup.format == expected.format)
        #expect(setup.access == expected.access)
        #expect(setup.deviceChannels == expected.deviceChannels)
        #expect(setup.sourceChannels == expected.sourceChannels)
        #expect(setup.sampleRate == expected.rate)
        let stats = run.stats()
        #expect(stats["format"] == expected.format.rawValue)
        #expect(stats["access"] == expected.access.rawValue)
        #expect(stats["channels"] == String(expected.deviceChannels))
        #expect(stats["rate"] == String(expected.rate))
        #expect(stats["period"] == String(setup.periodFrames))
        #expect(stats["buffer"] == String(setup.bufferFrames))
        if expected.profile == "sim_step32" {
            #expect(setup.periodFrames % 32 == 0 && abs(setup.periodFrames - 500) < 32, "period \(setup.periodFrames)")
        }
        let want = expectedRampBytes(
            format: expected.format, frames: frames, deviceChannels: expected.deviceChannels,
            sourceChannels: expected.sourceChannels)
        let got = run.capture()
        #expect(got.count >= want.count, "captured \(got.count) bytes, want at least \(want.count)")
        #expect(firstDifference(got, want, count: want.count) == nil)
    }

    /// The four access types carry the same samples (a card offering all four, each one forced).
    @Test(arguments: ALSAAccess.allCases)
    func everyAccessCarriesTheSameSamples(_ access: ALSAAccess) throws {
        let frames = 12_000
        let (run, setup) = try playRamp(frames: frames, sourceChannels: 2, card: {
            try SimulatedCardRun(fields: """
                formats [ S24_3LE ]
                channels 3
                access [ RW_INTERLEAVED RW_NONINTERLEAVED MMAP_INTERLEAVED MMAP_NONINTERLEAVED ]
                """)
        }, adjust: { $0.preferredAccess = access })
        #expect(setup.access == access)
        #expect(run.stats()["access"] == access.rawValue)
        let want = expectedRampBytes(format: .s24x3LE, frames: frames, deviceChannels: 3, sourceChannels: 2)
        #expect(firstDifference(run.capture(), want, count: want.count) == nil)
    }

    /// Every format Thrum writes, each on a card that accepts only it (big-endian twins included).
    @Test(arguments: ALSASampleFormat.allCases)
    func everyFormatIsWrittenAsTheCardExpects(_ format: ALSASampleFormat) throws {
        let frames = 6_000
        let (run, setup) = try playRamp(frames: frames, sourceChannels: 2, card: {
            try SimulatedCardRun(fields: "formats [ \(format.rawValue) ]\nchannels 2")
        })
        #expect(setup.format == format)
        let want = expectedRampBytes(format: format, frames: frames, deviceChannels: 2, sourceChannels: 2)
        #expect(firstDifference(run.capture(), want, count: want.count) == nil)
    }

    @Test func capabilitiesAreReadFromTheCard() throws {
        let umc = try SimulatedCardRun(profile: "sim_umc")
        let capabilities = try ALSADevices.capabilities(of: umc.source)
        #expect(capabilities.formats == [.s24x3LE])
        #expect(capabilities.otherFormats.isEmpty)
        #expect(capabilities.channels == 4...4)
        #expect(capabilities.commonRates == [44_100, 48_000, 88_200, 96_000, 176_400, 192_000])
        #expect(capabilities.accesses == [.rwInterleaved, .mmapInterleaved])
        let rme = try SimulatedCardRun(profile: "sim_rme")
        #expect(try ALSADevices.capabilities(of: rme.source).accesses == [.rwNonInterleaved, .mmapNonInterleaved])
        let step = try SimulatedCardRun(profile: "sim_step32")
        let stepCapabilities = try ALSADevices.capabilities(of: step.source)
        #expect(stepCapabilities.periodFrames == 32...4096)
        #expect(stepCapabilities.commonRates == [48_000])
    }

    /// Refusals name every mismatch with what the card accepts, before anything is set.
    @Test func refusalsNameEveryMismatch() throws {
        let scarlett = try SimulatedCardRun(profile: "sim_scarlett")
        do {
            _ = try ALSAPlayback(configuration: ALSADeviceConfiguration(source: scarlett.source, channels: 3))
            Issue.record("3 channels on a 2-channel card should be refused")
        } catch {
            #expect(error.mismatches == [.channels(requested: 3, supported: 2...2)])
            #expect(error.description.contains("3 channels asked, it has 2 (use a channel map of at most 2 entries)"))
        }
        let only44 = try SimulatedCardRun(profile: "sim_44k")
        do {
            _ = try ALSAPlayback(configuration: ALSADeviceConfiguration(source: only44.source, channels: 4, requireExactRate: true))
            Issue.record("an exact 48 kHz on a 44.1 kHz-only card should be refused")
        } catch {
            #expect(error.mismatches == [.channels(requested: 4, supported: 2...2), .rate(requested: 48_000, offered: [44_100], range: 44_100...44_100)])
            #expect(error.description.contains("48000 Hz asked, it plays 44100 Hz"))
            #expect(error.description.contains("plughw:"))
        }
        let unsigned = try SimulatedCardRun(fields: "formats [ U8 S8 ]")
        do {
            _ = try ALSAPlayback(configuration: ALSADeviceConfiguration(source: unsigned.source))
            Issue.record("a card taking only U8 and S8 should be refused")
        } catch {
            #expect(error.mismatches == [.format(offered: ["S8", "U8"])])
            #expect(error.description.contains("it accepts S8, U8, none of which Thrum writes"))
        }
    }
}
}
