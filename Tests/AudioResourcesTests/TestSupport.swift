import Foundation
import Testing
import ThrumTestSupport

@testable import AudioResources

/// Writes `samples` with AudioFileWriter and returns the path.
@discardableResult
func writeFile(
    _ path: String, _ samples: [Float], sampleRate: Int, channels: Int = 1, format: AudioSampleFormat = .float
) throws -> String {
    let writer = try AudioFileWriter(path: path, sampleRate: sampleRate, channelCount: channels, sampleFormat: format)
    try writer.write(samples)
    try writer.close()
    return path
}

extension DecodedAudio {
    var array: [Float] { Array(samples) }
}

func fileSize(_ path: String) -> Int {
    (try! FileManager.default.attributesOfItem(atPath: path)[.size] as! NSNumber).intValue
}

/// Keeps the first `fraction` of the file's bytes.
func truncate(_ path: String, keeping fraction: Double) {
    let size = fileSize(path)
    let handle = FileHandle(forWritingAtPath: path)!
    try! handle.truncate(atOffset: UInt64(Double(size) * fraction))
    try! handle.close()
}

/// Runs `body`, expecting an AudioResourceError, and returns it.
func expectAudioError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> AudioResourceError? {
    do {
        try body()
        Issue.record("expected an AudioResourceError, nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as AudioResourceError {
        return error
    } catch {
        Issue.record("expected an AudioResourceError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
