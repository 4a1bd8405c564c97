import AudioResources
import FoundationEssentials
import FoundationStandIns
import Glibc
import RenderCore
import Thrum

/// The sample formats of a rendered file (`thrum render --format`), by name.
package let renderFormats: [(name: String, format: AudioSampleFormat)] = [
    ("float", .float), ("pcm16", .pcm16), ("pcm24", .pcm24), ("pcm32", .pcm32),
]

/// A render written to an audio file (`thrum render -o FILE`): any format libsndfile writes, chosen by the
/// extension, or WAV to standard output (`-`). The file appears when the render is complete: an error or
/// a stop leaves nothing.
package struct RenderFile {
    /// What was written.
    package struct Written: Sendable {
        /// The file, or "standard output".
        package var destination: String
        package var frames: Int
        package var sampleRate: Int
        /// libsndfile's name for the format written.
        package var formatName: String
        /// Each channel's label (from the channel map) and peak (linear, 0 for silence).
        package var peaks: [(label: String, peak: Float)]
        /// Samples outside [-1, 1] (clamped in integer formats).
        package var clippedSamples: Int
        /// What the render made and lost.
        package var outcome: OfflineRender.Outcome
    }

    /// The path, or `-` for standard output.
    package let output: String
    package let format: AudioSampleFormat

    /// Checks the destination's extension and the format's name (nil: float).
    /// - Throws: 64 naming `-o` and the formats Thrum writes.
    package init(output: String, formatName: String?) throws(ServiceError) {
        let fileExtension = output == "-" ? "wav" : PathName.fileExtension(output).lowercased()
        guard AudioFileWriter.supportedExtensions.contains(fileExtension) else {
            let known = AudioFileWriter.supportedExtensions.map { "." + $0 }.joined(separator: " ")
            throw .usage(
                "-o \(output): "
                    + (fileExtension.isEmpty ? "the name has no extension to choose a format" : "'.\(fileExtension)' is not a format Thrum writes")
                    + " (use one of \(known), or - for WAV on standard output)")
        }
        let name = formatName ?? "float"
        guard let format = renderFormats.first(where: { $0.name == name })?.format else {
            throw .usage("--format takes float, pcm16, pcm24 or pcm32, not '\(name)'")
        }
        self.output = output
        self.format = format
    }

    /// Renders `render` into the file: `progress` gets the frames written after each block; when
    /// `shouldStop` says so, nothing is written and the call throws 130.
    /// - Throws: ``ServiceError``: 74 the file cannot be written, 130 stopped; the render's failures.
    package func write(
        _ render: Render, progress: (Int) -> Void = { _ in }, shouldStop: () -> Bool = { false }
    ) throws(ServiceError) -> Written {
        let toStandardOutput = output == "-"
        let channels = render.channelCount
        let rate = Int(render.sampleRate)
        let writer: AudioFileWriter
        do {
            writer =
                toStandardOutput
                ? try AudioFileWriter(
                    descriptor: STDOUT_FILENO, name: "standard output", fileExtension: "wav", sampleRate: rate,
                    channelCount: channels, sampleFormat: format, expectedFrames: render.expectedFrames)
                : try AudioFileWriter(
                    path: output, sampleRate: rate, channelCount: channels, sampleFormat: format,
                    expectedFrames: render.expectedFrames)
        } catch {
            throw ServiceError(.ioError, "\(error)")
        }
        var meter = OutputMeter(channels: channels)
        let outcome: OfflineRender.Outcome
        do {
            outcome = try render.run { block in
                if shouldStop() { throw ServiceError(.interrupted, "interrupted; nothing was written") }
                meter.measure(block)
                try writer.write(block)
                progress(meter.frames)
            }
            try writer.close()
        } catch let error as AudioResourceError {
            writer.discard()
            throw ServiceError(.ioError, error.description)
        } catch {
            writer.discard()
            throw .engine(error, pattern: "")
        }
        let labels = render.options.channelMap.description.split(separator: ",").map(String.init)
        return Written(
            destination: toStandardOutput ? "standard output" : output, frames: outcome.frames, sampleRate: rate,
            formatName: writer.formatName, peaks: Array(zip(labels, meter.peaks)).map { ($0, $1) },
            clippedSamples: writer.clippedSampleCount, outcome: outcome)
    }
}

/// The peak of each channel of a rendered file.
///
/// One contiguous pass per block, free of per-sample division or modulo: the block is read in runs of
/// `lanes.count` samples (a whole number of frames), each sample folded into the lane of its position in
/// the run, so lane `j` holds the peak of channel `j % channels`; `peaks` folds the lanes into channels.
/// Not thread-safe (a value).
package struct OutputMeter {
    /// Frames measured so far.
    package private(set) var frames = 0
    private let channels: Int
    /// Running peaks, `framesPerRun` frames of `channels` interleaved lanes.
    private var lanes: [Float]
    private static let framesPerRun = 16

    package init(channels: Int) {
        self.channels = channels
        lanes = Array(repeating: 0, count: channels * Self.framesPerRun)
    }

    /// The largest magnitude seen on each channel (linear, 0 for silence).
    package var peaks: [Float] {
        (0..<channels).map { channel in stride(from: channel, to: lanes.count, by: channels).map { lanes[$0] }.max() ?? 0 }
    }

    /// Folds `samples` (interleaved, a whole number of frames) into the peaks.
    package mutating func measure(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        let count = samples.count
        lanes.withUnsafeMutableBufferPointer { lanes in
            let lane = lanes.baseAddress!
            let run = lanes.count
            var start = 0
            while start + run <= count {
                let block = base + start
                for j in 0..<run { lane[j] = Self.larger(lane[j], abs(block[j])) }
                start += run
            }
            // The rest is shorter than a run but starts on a frame, so lane j is still channel j % channels.
            let block = base + start
            for j in 0..<(count - start) { lane[j] = Self.larger(lane[j], abs(block[j])) }
        }
        frames += count / channels
    }

    /// `magnitude` if it exceeds `peak`, else `peak` (a plain select, which vectorises; `Swift.max` does not).
    @inline(__always)
    private static func larger(_ peak: Float, _ magnitude: Float) -> Float { peak < magnitude ? magnitude : peak }

    package static func decibels(_ peak: Float) -> String {
        peak > 0 ? String(cFormat: "%.1f dBFS", 20 * log10(Double(peak))) : "silent"
    }
}
