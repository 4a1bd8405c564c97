import Foundation
import Testing
import ThrumTestSupport

@testable import AudioResources

/// Issue 13, problem 4: a write that fails, is interrupted or is abandoned leaves nothing, and a file
/// never gets a header that wrapped around.
@Suite("Audio file writer: nothing partial")
struct WriterSafetyTests {
    static func names(_ dir: TemporaryDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    @Test("until close() succeeds the target is untouched; then it is the whole file and nothing else is left")
    func replacedOnClose() throws {
        let dir = TemporaryDirectory("audio")
        let target = dir.file("out.wav")
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let writer = try AudioFileWriter(path: target, sampleRate: 8000, channelCount: 1)
        try writer.write([Float](repeating: 0.5, count: 800))
        #expect(FileManager.default.contents(atPath: target) == Data("old".utf8))
        try writer.close()
        #expect(Self.names(dir) == ["out.wav"])
        let audio = try AudioFileLoader.load(path: target, targetSampleRate: 8000)
        #expect(audio.array == [Float](repeating: 0.5, count: 800))
    }

    @Test("a discarded or dropped writer leaves nothing and the old file as it was")
    func discardLeavesNothing() throws {
        let dir = TemporaryDirectory("audio")
        let target = dir.file("out.wav")
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let writer = try AudioFileWriter(path: target, sampleRate: 8000, channelCount: 1)
        try writer.write([Float](repeating: 0.5, count: 800))
        writer.discard()
        #expect(Self.names(dir) == ["out.wav"])
        #expect(FileManager.default.contents(atPath: target) == Data("old".utf8))
        let closing = expectAudioError { try writer.close() }
        #expect(closing == .writeFailed(path: target, reason: "nothing was written: the file was abandoned after an error"))

        do {
            let dropped = try AudioFileWriter(path: dir.file("new.flac"), sampleRate: 8000, channelCount: 1)
            try dropped.write([Float](repeating: 0.5, count: 800))
        }
        #expect(Self.names(dir) == ["out.wav"])
    }

    @Test("a write past what a 32-bit container holds fails, and removes the partial file", arguments: ["aiff", "au", "wav"])
    func thirtyTwoBitLimit(ext: String) throws {
        let dir = TemporaryDirectory("audio")
        let writer = try AudioFileWriter(path: dir.file("big.\(ext)"), sampleRate: 8000, channelCount: 2)
        #expect(writer.dataByteLimit == AudioFileWriter.thirtyTwoBitDataLimit)
        writer.dataByteLimit = 4000  // 500 float stereo frames
        try writer.write([Float](repeating: 0.1, count: 1000))
        let error = expectAudioError { try writer.write([0.1, 0.1]) }
        guard case .writeFailed(_, let reason) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.hasSuffix("files hold at most 4 GiB of audio (write .rf64, .w64, .caf or .flac)"))
        #expect(Self.names(dir).isEmpty)
        #expect(expectAudioError { try writer.close() }?.category == .writeFailed)
    }

    @Test("an AIFF or AU expected to pass 2 GiB is refused before anything is written", arguments: ["aiff", "au"])
    func refusedUpFront(ext: String) throws {
        let dir = TemporaryDirectory("audio")
        let error = expectAudioError {
            _ = try AudioFileWriter(path: dir.file("big.\(ext)"), sampleRate: 48000, channelCount: 3, expectedFrames: 200_000_000)
        }
        guard case .writeFailed(_, let reason) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("at most 4 GiB"))
        #expect(Self.names(dir).isEmpty)
    }

    @Test("a folder as the target is refused at once")
    func folderTarget() throws {
        let dir = TemporaryDirectory("audio")
        let folder = dir.folder("out.wav")
        let error = expectAudioError { _ = try AudioFileWriter(path: folder, sampleRate: 8000, channelCount: 1) }
        #expect(error == .writeFailed(path: folder, reason: "it is a folder"))
        #expect(Self.names(dir) == ["out.wav"])
    }

    @Test("a FIFO target receives the finished file and stays a FIFO")
    func fifoTarget() async throws {
        let dir = TemporaryDirectory("audio")
        let fifo = dir.file("pipe.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Task.detached { FileHandle(forReadingAtPath: fifo)!.readDataToEndOfFile() }
        let writer = try AudioFileWriter(path: fifo, sampleRate: 8000, channelCount: 1)
        try writer.write([Float](repeating: 0.25, count: 8000))
        try writer.close()
        let bytes = await reader.value
        #expect(Self.names(dir) == ["pipe.wav"])
        var status = stat()
        #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        let copy = dir.file("copy.wav")
        try bytes.write(to: URL(fileURLWithPath: copy))
        #expect(try AudioFileLoader.load(path: copy, targetSampleRate: 8000).array == [Float](repeating: 0.25, count: 8000))
    }

    @Test("a descriptor (a pipe, as standard output) receives the whole file at close")
    func descriptorTarget() throws {
        let dir = TemporaryDirectory("audio")
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let writer = try AudioFileWriter(
            descriptor: ends[1], name: "standard output", fileExtension: "wav", sampleRate: 8000, channelCount: 1)
        try writer.write([Float](repeating: -0.5, count: 1000))  // 4 kB: fits the pipe's buffer
        try writer.close()
        close(ends[1])
        let bytes = FileHandle(fileDescriptor: ends[0]).readDataToEndOfFile()
        let copy = dir.file("copy.wav")
        try bytes.write(to: URL(fileURLWithPath: copy))
        #expect(try AudioFileLoader.load(path: copy, targetSampleRate: 8000).array == [Float](repeating: -0.5, count: 1000))
    }

    /// Free bytes in the temporary folder's file system.
    static var freeTemporaryBytes: Int {
        var status = statvfs()
        guard statvfs(NSTemporaryDirectory(), &status) == 0 else { return 0 }
        return Int(status.f_bavail) * Int(status.f_frsize)
    }

    /// Whether to run tests that write files over 4 GiB: `THRUM_LARGE_FILE_TESTS=1` (CI sets it) and
    /// 12 GB free in the temporary folder.
    static var largeFilesEnabled: Bool {
        ProcessInfo.processInfo.environment["THRUM_LARGE_FILE_TESTS"] == "1" && freeTemporaryBytes > 12_000_000_000
    }

    /// Writes 4 GiB + 1 MiB of float samples for real (10–40 s, mostly disk), so it runs only on request.
    @Test(
        "a WAV expected past 4 GiB is written as RF64 and reads back with every frame",
        .enabled(
            if: largeFilesEnabled,
            "writes a 4.3 GB file: set THRUM_LARGE_FILE_TESTS=1 (CI does) with 12 GB free in the temporary folder"))
    func rf64() throws {
        let dir = TemporaryDirectory("audio")
        let path = dir.file("long.wav")
        let frames = (1 << 30) + (1 << 18)  // mono float: 4 GiB + 1 MiB of data
        let writer = try AudioFileWriter(path: path, sampleRate: 48000, channelCount: 1, expectedFrames: frames)
        let chunk = [Float](repeating: 0, count: 1 << 20)
        var written = 0
        while written < frames {
            let count = min(chunk.count, frames - written)
            try chunk.withUnsafeBufferPointer { try writer.write(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            written += count
        }
        try writer.close()
        #expect(writer.formatName.hasPrefix("RF64"))
        let info = try AudioFileInfo.probe(path)
        #expect(info.frames == frames)
        #expect(info.formatName.hasPrefix("RF64"))
    }
}
