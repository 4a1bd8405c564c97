import Foundation
import Testing

@testable import AudioResources

/// A fresh temporary folder, removed when the object goes away.
final class TempDir {
    let path: String

    init() {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/thrum-audio-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `path/name`, creating intermediate folders.
    func file(_ name: String) -> String {
        let full = path + "/" + name
        let folder = (full as NSString).deletingLastPathComponent
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return full
    }

    func folder(_ name: String) -> String {
        let full = path + "/" + name
        try! FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }
}

/// Interleaved sine tone; channel c has amplitude `amplitude / (c + 1)`.
func sine(frequency: Double, sampleRate: Double, frames: Int, channels: Int = 1, amplitude: Double = 0.5) -> [Float] {
    var out = [Float](repeating: 0, count: frames * channels)
    for n in 0..<frames {
        let v = sin(2 * Double.pi * frequency * Double(n) / sampleRate)
        for c in 0..<channels { out[n * channels + c] = Float(amplitude / Double(c + 1) * v) }
    }
    return out
}

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

/// Power of `frequency` in channel `channel` of interleaved `samples` (Goertzel algorithm).
func goertzel(_ samples: [Float], channels: Int = 1, channel: Int = 0, frequency: Double, sampleRate: Double) -> Double {
    let coefficient = 2 * cos(2 * Double.pi * frequency / sampleRate)
    var s1 = 0.0, s2 = 0.0
    var i = channel
    while i < samples.count {
        let s0 = Double(samples[i]) + coefficient * s1 - s2
        s2 = s1
        s1 = s0
        i += channels
    }
    return s1 * s1 + s2 * s2 - coefficient * s1 * s2
}

/// Sign changes in channel `channel` of `samples`.
func zeroCrossings(_ samples: [Float], channels: Int = 1, channel: Int = 0) -> Int {
    var count = 0
    var previous = samples[channel]
    var i = channel + channels
    while i < samples.count {
        let x = samples[i]
        if (previous < 0 && x >= 0) || (previous >= 0 && x < 0) { count += 1 }
        previous = x
        i += channels
    }
    return count
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
