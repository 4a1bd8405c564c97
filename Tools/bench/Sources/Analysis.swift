import AudioAnalysis
import AudioResources
import Foundation

// MARK: - analysis

/// 60 s of a 48 kHz stereo music-like mixture (kick, hi-hat noise, bass), as interleaved samples.
func analysisMixture(seconds: Int, rate: Int) -> [Float] {
    var out = [Float](repeating: 0, count: seconds * rate * 2)
    var noise: UInt32 = 22_222
    for i in 0..<(seconds * rate) {
        let t = Double(i) / Double(rate)
        let beat = t.truncatingRemainder(dividingBy: 0.5)
        let eighth = t.truncatingRemainder(dividingBy: 0.25)
        noise = noise &* 1_664_525 &+ 1_013_904_223
        let white = Double(noise >> 8) / Double(1 << 24) * 2 - 1
        let kick = 0.6 * exp(-beat / 0.08) * sin(2 * .pi * 55 * beat)
        let hat = 0.1 * exp(-eighth / 0.02) * white
        let bass = 0.2 * sin(2 * .pi * 82.4 * t) * (0.6 + 0.4 * sin(2 * .pi * 0.5 * t))
        out[2 * i] = Float(kick + hat + bass)
        out[2 * i + 1] = Float(kick - hat + bass)
    }
    return out
}

/// Analysis speed on one core (`AudioAnalyzer`, the work `thrum analyze` does after decoding) on 60 s of
/// 48 kHz stereo, and decode + analysis from a WAV file, beside `sox FILE -n stats` reading the same file.
func benchAnalysis(runs: Int) throws {
    let dir = try TempDir("analysis")
    defer { dir.cleanup() }
    let rate = 48_000
    let soundSeconds = 60
    progress("analysis: generating \(soundSeconds) s of 48 kHz stereo")
    let samples = analysisMixture(seconds: soundSeconds, rate: rate)
    let file = dir.path("mixture.wav")
    let writer = try AudioFileWriter(path: file, sampleRate: rate, channelCount: 2, sampleFormat: .pcm16)
    try samples.withUnsafeBufferPointer { try writer.write($0) }
    try writer.close()
    let limits = AudioResourceLimits(maxFileBytes: 1 << 30, maxDurationSeconds: 3600, maxTotalDecodedBytes: 1 << 31)

    var memoryTimes: [Double] = []
    var fileTimes: [Double] = []
    var soxTimes: [Double] = []
    var transients = 0
    for iteration in 1...max(runs, 3) {
        progress("analysis: run \(iteration): in memory, from the file, sox stats")
        var start = nowNanos()
        let analysis = samples.withUnsafeBufferPointer {
            AudioAnalyzer.analyze(samples: $0, channels: 2, sampleRate: Double(rate), settings: .general)
        }
        memoryTimes.append(seconds(since: start))
        transients = analysis.transients.count

        start = nowNanos()
        let decoded = try AudioFileLoader.load(path: file, targetSampleRate: Double(rate), limits: limits)
        _ = decoded.withUnsafeSamples {
            AudioAnalyzer.analyze(samples: $0, channels: decoded.channelCount, sampleRate: decoded.sampleRate, settings: .general)
        }
        fileTimes.append(seconds(since: start))

        let sox = try run("sox", [file, "-n", "stats"])
        guard sox.status == 0 else { throw BenchFailure("sox failed (\(sox.status)): \(sox.stderr)") }
        soxTimes.append(sox.seconds)
    }
    let memory = median(memoryTimes)
    let fromFile = median(fileTimes)
    let sox = median(soxTimes)
    progress("analysis: \(transients) transients; in memory \(fmt(memory, 3)) s, from the file \(fmt(fromFile, 3)) s, sox \(fmt(sox, 3)) s")
    let command = "`thrum-bench analysis`"
    let length = Double(soundSeconds)
    emit(Row(
        figure: "Analyse 60 s of 48 kHz stereo (one core, in memory)", value: "\(fmt(memory, 3)) s (\(fmt(length / memory, 0))× real time)",
        target: "≥ 200× real time", command: command))
    emit(Row(
        figure: "Decode the 16-bit WAV and analyse it", value: "\(fmt(fromFile, 3)) s (\(fmt(length / fromFile, 0))× real time)",
        target: "—", command: command))
    emit(Row(figure: "`sox FILE -n stats` on the same file", value: "\(fmt(sox, 3)) s", target: "—", command: command))
}
