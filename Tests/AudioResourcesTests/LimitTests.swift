import Foundation
import Testing
import ThrumTestSupport

@testable import AudioResources

@Suite("Limits and damaged files")
struct LimitTests {
    @Test("a file larger than maxFileBytes is rejected before decoding")
    func tooLarge() throws {
        let dir = TemporaryDirectory("audio")
        let path = try writeFile(dir.file("big.wav"), [Float](repeating: 0.1, count: 1000), sampleRate: 8000, format: .pcm16)
        let size = fileSize(path)
        #expect(size == 2044)
        let limits = AudioResourceLimits(maxFileBytes: 1000)
        let error = expectAudioError {
            _ = try AudioFileLoader.load(path: path, targetSampleRate: 8000, limits: limits, displayName: "Sounds/big.wav")
        }
        #expect(error == .fileTooLarge(path: "Sounds/big.wav", bytes: 2044, limit: 1000))
        #expect(error?.isLimitViolation == true)
        #expect(
            error?.description
                == "audio file 'Sounds/big.wav' is 2044 bytes; the limit is 1000 bytes per file (shorten or compress it, or raise the limit with --max-audio-bytes)"
        )
        // Exactly at the limit is fine.
        _ = try AudioFileLoader.load(path: path, targetSampleRate: 8000, limits: AudioResourceLimits(maxFileBytes: 2044))
    }

    @Test("the default limit's message reads in MB")
    func defaultLimitMessage() {
        let error = AudioResourceError.fileTooLarge(path: "Sounds/boom.wav", bytes: 5_100_000, limit: 4_200_000)
        #expect(
            error.description
                == "audio file 'Sounds/boom.wav' is 5.1 MB; the limit is 4.2 MB per file (shorten or compress it, or raise the limit with --max-audio-bytes)"
        )
        let close = AudioResourceError.fileTooLarge(path: "a.wav", bytes: 4_200_001, limit: 4_200_000)
        #expect(close.description.contains("is 4200001 bytes; the limit is 4200000 bytes"))
        #expect(AudioResourceLimits.default.maxFileBytes == 4_200_000)
        #expect(AudioResourceLimits.default.maxDurationSeconds == 23)
        #expect(AudioResourceLimits.default.maxTotalDecodedBytes == 92_160_000)
    }

    @Test("a file longer than maxDurationSeconds is rejected")
    func tooLong() throws {
        let dir = TemporaryDirectory("audio")
        let path = try writeFile(dir.file("long.wav"), [Float](repeating: 0, count: 1000), sampleRate: 1000, format: .pcm16)
        let limits = AudioResourceLimits(maxDurationSeconds: 0.5)
        let error = expectAudioError { _ = try AudioFileLoader.load(path: path, targetSampleRate: 1000, limits: limits) }
        #expect(error == .tooLong(path: path, seconds: 1, limit: 0.5))
        #expect(error?.isLimitViolation == true)
        #expect(error?.description.contains("'\(path)' is 1 s long; the limit is 0.5 s per file") == true)
        #expect(error?.description.contains("--max-audio-seconds") == true)
        let long = AudioResourceError.tooLong(path: "x.wav", seconds: 25.26, limit: 23)
        #expect(long.description.contains("is 25.3 s long; the limit is 23 s per file"))
    }

    @Test("a file whose decoded size alone exceeds the memory limit is rejected before reading")
    func tooMuchMemory() throws {
        let dir = TemporaryDirectory("audio")
        let path = try writeFile(dir.file("mem.wav"), [Float](repeating: 0, count: 1000), sampleRate: 8000, format: .pcm16)
        let limits = AudioResourceLimits(maxTotalDecodedBytes: 10_000)
        // 1000 frames at 8 kHz → 6000 frames at 48 kHz → 24 000 bytes.
        let error = expectAudioError { _ = try AudioFileLoader.load(path: path, targetSampleRate: 48_000, limits: limits) }
        #expect(error == .budgetExceeded(path: path, decodedBytes: 24_000, used: 0, limit: 10_000))
        #expect(error?.description.contains("needs 24.0 kB of decoded samples, but 0.0 kB of the 10.0 kB allowed") == true)
    }

    @Test("random bytes named .wav are unreadable, with libsndfile's message")
    func corrupt() throws {
        let dir = TemporaryDirectory("audio")
        let path = dir.file("noise.wav")
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let error = expectAudioError { _ = try AudioFileLoader.load(path: path, targetSampleRate: 48000) }
        guard case .unreadable(let p, let reason) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(p == path)
        #expect(!reason.isEmpty)
        #expect(error?.category == .invalidAudio)
        #expect(error?.isLimitViolation == false)
        #expect(error?.description.hasPrefix("audio file '\(path)' cannot be read: \(reason)") == true)
        // probe agrees.
        let probeError = expectAudioError { _ = try AudioFileInfo.probe(path) }
        #expect(probeError?.category == .invalidAudio)
    }

    @Test("a truncated file is unreadable, not partly loaded", arguments: ["wav", "aiff", "flac", "ogg"])
    func truncated(_ ext: String) throws {
        let dir = TemporaryDirectory("audio")
        let path = try writeFile(
            dir.file("cut.\(ext)"), sine(frequency: 440, rate: 44100, frames: 44100), sampleRate: 44100,
            format: ext == "ogg" ? .float : .pcm16)
        truncate(path, keeping: 1.0 / 3)
        let error = expectAudioError { _ = try AudioFileLoader.load(path: path, targetSampleRate: 44100) }
        guard case .unreadable(_, let reason) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(error?.description.contains("cut.\(ext)") == true)
        if ext == "wav" {
            // 44 100 frames × 2 bytes declared; a third of the 88 244-byte file remains.
            #expect(reason == "the file is truncated: its header declares 88200 bytes of audio data but only 29370 are present")
        }
        if ext != "ogg" { #expect(reason.contains("truncated")) }
        if ext == "flac" {
            #expect(reason.contains("declares 44100 frames but only"))
        }
    }

    @Test("an Ogg stream cut anywhere is unreadable", arguments: [0.2, 0.4, 0.5, 0.6, 0.8, 0.95])
    func truncatedOgg(_ fraction: Double) throws {
        let dir = TemporaryDirectory("audio")
        let path = try writeFile(
            dir.file("cut.ogg"), sine(frequency: 440, rate: 44100, frames: 44100, channels: 2), sampleRate: 44100,
            channels: 2)
        truncate(path, keeping: fraction)
        let error = expectAudioError { _ = try AudioFileLoader.load(path: path, targetSampleRate: 44100) }
        guard case .unreadable(_, let reason) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("truncated") || reason.contains("malformed"))
    }

    @Test("a truncated header is unreadable")
    func truncatedHeader() throws {
        let dir = TemporaryDirectory("audio")
        let path = try writeFile(dir.file("head.wav"), [0.1, 0.2], sampleRate: 8000)
        let handle = FileHandle(forWritingAtPath: path)!
        try handle.truncate(atOffset: 20)
        try handle.close()
        let error = expectAudioError { _ = try AudioFileLoader.load(path: path, targetSampleRate: 8000) }
        guard case .unreadable = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test("a missing file names where it looked")
    func missing() {
        let error = expectAudioError {
            _ = try AudioFileLoader.load(path: "/nonexistent/thrum/none.wav", targetSampleRate: 48000, displayName: "none.wav")
        }
        #expect(error == .missing(path: "none.wav", searched: ["/nonexistent/thrum/none.wav"]))
        #expect(error?.category == .fileNotFound)
        #expect(
            error?.description
                == "audio file 'none.wav' not found; looked in /nonexistent/thrum/none.wav (check the name and its case, or add its folder with --resources DIR)"
        )
    }

    @Test("a folder is unreadable")
    func folder() {
        let dir = TemporaryDirectory("audio")
        let folder = dir.folder("x.wav")
        let error = expectAudioError { _ = try AudioFileLoader.load(path: folder, targetSampleRate: 48000) }
        #expect(error == .unreadable(path: folder, reason: "it is a folder, not a file"))
    }
}

@Suite("Loader odds and ends")
struct LoaderMiscTests {
    @Test("a device file is not loaded")
    func device() {
        let error = expectAudioError { _ = try AudioFileLoader.load(path: "/dev/zero", targetSampleRate: 48000) }
        #expect(error == .unreadable(path: "/dev/zero", reason: "it is not a regular file"))
    }

    @Test("several threads can load at once")
    func concurrentLoads() async throws {
        let dir = TemporaryDirectory("audio")
        var paths: [String] = []
        for i in 0..<8 {
            paths.append(try writeFile(
                dir.file("t\(i).wav"), sine(frequency: 440, rate: 44100, frames: 4410 + i), sampleRate: 44100))
        }
        let counts = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for (i, path) in paths.enumerated() {
                group.addTask { (i, try AudioFileLoader.load(path: path, targetSampleRate: 48000).frameCount) }
            }
            return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        for i in 0..<8 {
            #expect(counts[i] == AudioFileLoader.outputFrameCount(4410 + i, ratio: 48000.0 / 44100))
        }
    }
}

@Suite("Streamed WAV headers")
struct StreamedHeaderTests {
    /// Sets the 32-bit little-endian size after the first `chunk` marker to `value`.
    static func patchChunkSize(_ path: String, chunk: String, to value: UInt32) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        let marker = Data(chunk.utf8)
        let at = data.range(of: marker)!.upperBound
        for i in 0..<4 { data[at + i] = UInt8((value >> (8 * UInt32(i))) & 0xFF) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    @Test("a WAV whose sizes were never filled in (0xFFFFFFFF, as piped encoders write) loads in full")
    func unfilledSizes() throws {
        let dir = TemporaryDirectory("audio")
        let tone = sine(frequency: 440, rate: 8000, frames: 800)
        let path = try writeFile(dir.file("piped.wav"), tone, sampleRate: 8000, format: .pcm16)
        try Self.patchChunkSize(path, chunk: "RIFF", to: 0xFFFF_FFFF)
        try Self.patchChunkSize(path, chunk: "data", to: 0xFFFF_FFFF)
        let audio = try AudioFileLoader.load(path: path, targetSampleRate: 8000)
        #expect(audio.frameCount == 800)
        let worst = zip(audio.array, tone).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= 1.0 / 32768)
    }

    @Test("a WAV whose data size is larger than the file is truncated")
    func oversizedDataChunk() throws {
        let dir = TemporaryDirectory("audio")
        let path = try writeFile(dir.file("liar.wav"), [Float](repeating: 0.25, count: 800), sampleRate: 8000, format: .pcm16)
        try Self.patchChunkSize(path, chunk: "data", to: 3200)
        let error = expectAudioError { _ = try AudioFileLoader.load(path: path, targetSampleRate: 8000) }
        #expect(error == .unreadable(
            path: path, reason: "the file is truncated: its header declares 3200 bytes of audio data but only 1600 are present"))
    }
}
