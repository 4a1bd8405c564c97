// libFuzzer harness for audio-resource header handling: the input is written to a temporary file,
// then `AudioFileInfo.probe` and `AudioFileLoader.load` (small limits, fastest resampler) read it.
// Any thrown AudioResourceError is a clean rejection; crashes, hangs, memory errors and a loaded result
// that breaks the limits are findings. libsndfile itself is not instrumented (system library), so
// coverage guidance covers the Swift side only.
import AudioResources
import Foundation
import FuzzSupport

#if canImport(Glibc)
    import Glibc
#endif

let limits = AudioResourceLimits(maxFileBytes: 1 << 20, maxDurationSeconds: 2, maxTotalDecodedBytes: 1 << 20)
let targetRate = 8_000.0
let scratchPath: String = {
    let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    return "\(directory)/thrum-fuzz-audio-\(getpid()).bin"
}()

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let fd = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { fuzzFailure("cannot create \(scratchPath): errno \(errno)") }
    var written = 0
    while written < size, let data {
        let n = write(fd, data + written, size - written)
        guard n > 0 else { fuzzFailure("cannot write \(scratchPath): errno \(errno)") }
        written += n
    }
    close(fd)

    if let info = try? AudioFileInfo.probe(scratchPath) {
        _ = info.durationSeconds
        _ = info.formatName
    }
    do {
        let audio = try AudioFileLoader.load(
            path: scratchPath, targetSampleRate: targetRate, limits: limits, quality: .fastest, displayName: "fuzz.bin")
        let bytes = audio.frameCount * audio.channelCount * MemoryLayout<Float>.size
        if audio.channelCount < 1 || audio.channelCount > AudioFileLoader.maxChannels {
            fuzzFailure("loaded \(audio.channelCount) channels")
        }
        if bytes > limits.maxTotalDecodedBytes {
            fuzzFailure("loaded \(bytes) bytes, over the \(limits.maxTotalDecodedBytes)-byte limit")
        }
    } catch {
        _ = error.localizedDescription
    }
    return 0
}

/// The program: libFuzzer's driver with ``testOneInput``; the scratch file is removed at exit.
@main
enum FuzzAudio {
    static func main() {
        atexit { unlink(scratchPath) }
        runFuzzer(testOneInput)
    }
}
