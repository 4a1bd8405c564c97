import Foundation
import Synchronization
import Testing

@testable import ALSAOutput

private func requireSendable<T: Sendable>(_: T.Type) {}

extension ALSAOutputSuites {
@Suite("ALSAOutput (hermetic)")
struct ALSAOutputHermeticTests {
    @Test func publicTypesAreSendable() {
        requireSendable(ALSAPlayback.self)
        requireSendable(ALSAError.self)
        requireSendable(ALSADeviceConfiguration.self)
        requireSendable(ALSADeviceInfo.self)
        requireSendable(ALSAPlaybackState.self)
    }

    /// Plays a ramp through `file` → `null` and checks the file holds exactly what the source produced.
    @Test(arguments: [ALSASampleFormat.float32LE, .s16LE])
    func filePluginReceivesExactSamples(format: ALSASampleFormat) throws {
        let path = temporaryPath("file-\(format)")
        defer { unlink(path) }
        let config = ALSADeviceConfiguration(
            source: .configuration(text: fileOverNullConfiguration(name: "thrumtest", path: path), pcmName: "thrumtest"),
            sampleRate: 48_000, channels: 2, periodFrames: 256, periodCount: 4,
            preferredFormat: format, realtimePriority: nil, lockMemory: false)
        let playback = try ALSAPlayback(configuration: config)
        #expect(playback.format == format)
        #expect(playback.periodFrames == 256)
        #expect(playback.bufferFrames == 1024)
        #expect(playback.sampleRate == 48_000)
        #expect(playback.state == .ready)

        let progress = SourceProgress()
        let periods = 50
        try playback.start(source: FunctionSource(progress: progress, expectedFrameCount: 256, sample: rampSample))
        #expect(waitUntil(timeout: 10) { progress.framesRendered.load(ordering: .acquiring) >= periods * 256 })
        playback.stop()
        #expect(playback.state == .stopped)
        let written = Int(playback.framesWritten)
        #expect(written >= periods * 256)
        #expect(written % 256 == 0)
        #expect(progress.wrongFrameCount.load(ordering: .relaxed) == 0)
        #expect(playback.xrunCount == 0)
        playback.close()
        #expect(playback.state == .closed)

        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.count == written * 2 * format.bytesPerSample)
        var mismatches = 0
        var firstMismatch: Int?
        data.withUnsafeBytes { raw in
            switch format {
            case .float32LE:
                let got = raw.bindMemory(to: UInt32.self)
                for i in 0..<got.count where got[i] != rampSample(frame: i / 2, channel: i % 2).bitPattern {
                    mismatches += 1
                    if firstMismatch == nil { firstMismatch = i }
                }
            case .s16LE:
                let got = raw.bindMemory(to: Int16.self)
                for i in 0..<got.count where got[i] != rampS16(frame: i / 2, channel: i % 2) {
                    mismatches += 1
                    if firstMismatch == nil { firstMismatch = i }
                }
            default:
                Issue.record("format \(format) is not tested here")
            }
        }
        #expect(mismatches == 0, "first mismatch at sample \(firstMismatch ?? -1)")
    }

    @Test func missingDeviceErrorNamesDeviceAndSuggestsDeviceOption() {
        do {
            _ = try ALSAPlayback(configuration: ALSADeviceConfiguration(device: "hw:99,0"))
            Issue.record("opening hw:99,0 should fail")
        } catch {
            #expect(error.operation == .open)
            #expect(error.device == "hw:99,0")
            #expect(error.isDeviceMissing)
            #expect(error.code > 0)
            #expect(!error.message.isEmpty)
            #expect(error.description.contains("'hw:99,0'"))
            #expect(error.description.contains("--device"))
            #expect(error.description.hasPrefix("cannot open ALSA device 'hw:99,0': "))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func badConfigurationTextIsReported() {
        let config = ALSADeviceConfiguration(source: .configuration(text: "pcm.x { type ", pcmName: "x"))
        #expect(throws: ALSAError.self) { try ALSAPlayback(configuration: config) }
        do {
            _ = try ALSAPlayback(configuration: config)
        } catch {
            #expect(error.operation == .loadConfiguration)
            #expect(error.description.contains("'x'"))
        }
    }

    @Test func errorDescriptionExample() {
        let error = ALSAError.open(device: "hw:5,0", code: -ENOENT)
        #expect(
            error.description
                == "cannot open ALSA device 'hw:5,0': No such file or directory (try --device, see `thrum devices`, or use `thrum render`)"
        )
        #expect(error.isDeviceMissing)
        #expect(!ALSAError.open(device: "hw:0", code: -EBUSY).isDeviceMissing)
        #expect(ALSAError.open(device: "hw:0", code: -EBUSY).description.contains("busy"))
    }

    @Test func deviceListingIncludesNullOrDefault() {
        let devices = ALSADevices.playbackDevices()
        #expect(!devices.isEmpty)
        #expect(devices.contains { $0.name == "null" || $0.name == "default" })
        #expect(devices.filter(\.isDefault).allSatisfy { $0.name == "default" })
        #expect(ALSADevices.isOpenable(name: "null"))
        #expect(!ALSADevices.isOpenable(name: "hw:99,0"))
    }

    /// Stop joins the thread and leaves a stopped state; start again continues on the same device.
    @Test func stopIsCleanAndRestartWorks() throws {
        let config = ALSADeviceConfiguration(
            source: .configuration(text: "pcm.n { type null }", pcmName: "n"),
            periodFrames: 128, periodCount: 3, realtimePriority: nil, lockMemory: false)
        let playback = try ALSAPlayback(configuration: config)
        #expect(playback.state == .ready)
        playback.stop()  // Not running: no-op.
        #expect(playback.state == .ready)

        for round in 1...3 {
            let progress = SourceProgress()
            let before = playback.framesWritten
            try playback.start(source: FunctionSource(progress: progress, expectedFrameCount: 128, sample: rampSample))
            #expect(playback.state == .running)
            // Starting twice is an error, not a second thread.
            #expect(throws: ALSAError.self) {
                try playback.start(source: FunctionSource(progress: SourceProgress(), expectedFrameCount: 128, sample: rampSample))
            }
            #expect(waitUntil(timeout: 5) { progress.framesRendered.load(ordering: .acquiring) >= 10 * 128 })
            let clock = ContinuousClock()
            let elapsed = clock.measure { playback.stop(drain: round == 2) }
            #expect(elapsed < .seconds(2))
            #expect(playback.state == .stopped)
            // After stop returned the thread is gone: the source is never called again.
            let calls = progress.renderCalls.load(ordering: .acquiring)
            usleep(20_000)
            #expect(progress.renderCalls.load(ordering: .acquiring) == calls)
            #expect(playback.framesWritten > before)
        }
        playback.close()
        #expect(playback.state == .closed)
        #expect(throws: ALSAError.self) {
            try playback.start(source: FunctionSource(progress: SourceProgress(), expectedFrameCount: 128, sample: rampSample))
        }
        playback.close()  // Twice is fine.
    }

    @Test func realtimeRequestIsBestEffort() throws {
        let config = ALSADeviceConfiguration(
            source: .configuration(text: "pcm.n { type null }", pcmName: "n"), realtimePriority: 10, lockMemory: true)
        let playback = try ALSAPlayback(configuration: config)
        let progress = SourceProgress()
        try playback.start(source: FunctionSource(progress: progress, expectedFrameCount: 256, sample: rampSample))
        #expect(waitUntil(timeout: 5) { progress.renderCalls.load(ordering: .acquiring) >= 4 })
        // Either the thread really runs SCHED_FIFO or a warning explains why not.
        #expect(playback.isRealtime || playback.realtimeWarning != nil)
        playback.stop()
        playback.close()
    }
}
}
