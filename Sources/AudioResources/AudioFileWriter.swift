import CSndFile
import Foundation

/// Sample encoding requested for a file written by ``AudioFileWriter``.
public enum AudioSampleFormat: String, Sendable, Equatable, CaseIterable {
    /// 32-bit IEEE float (default). Containers that cannot store float use their best
    /// alternative: FLAC → 24-bit PCM; Ogg → Vorbis (or Opus for `.opus`); MP3 → MPEG layer III.
    case float
    /// 16-bit signed PCM.
    case pcm16
    /// 24-bit signed PCM.
    case pcm24
}

/// Writes interleaved float frames to an audio file with libsndfile. The container is chosen
/// by the file extension (see ``supportedExtensions``).
///
/// Integer formats (PCM 16/24, and FLAC): the writer quantises samples itself: a sample x
/// becomes `round(x × 2^(bits−1))`, clamped to the integer range, and is handed to libsndfile
/// as an exact left-aligned `Int32`, so libsndfile neither rescales (its own float → PCM path
/// scales by 2^(bits−1) − 1, which does not invert its PCM → float reading) nor wraps. Reading
/// the file back as float therefore returns every in-range sample within half a step.
/// Samples outside [-1, 1] are clamped to full scale (NaN becomes 0) and counted in
/// ``clippedSampleCount``. Float and lossy (Vorbis, Opus, MP3) formats store samples as given;
/// samples outside [-1, 1] are still counted, as they would clip on playback.
///
/// Not thread-safe: use one writer from one thread at a time. Not real-time safe.
public final class AudioFileWriter {
    /// Path being written.
    public let path: String
    /// Sample rate in Hz.
    public let sampleRate: Int
    /// Channels per frame.
    public let channelCount: Int
    /// The sample format requested.
    public let sampleFormat: AudioSampleFormat
    /// The libsndfile format code actually used (`SF_FORMAT_*` major | subtype).
    public let formatCode: Int32
    /// libsndfile's name for the format used, e.g. "FLAC (Free Lossless Audio Codec), Signed 24 bit PCM".
    public var formatName: String { SndFile.formatName(formatCode) }
    /// Frames written so far.
    public private(set) var framesWritten = 0
    /// Samples written so far that lay outside [-1, 1] (or were NaN); for integer formats
    /// these were clamped to full scale.
    public private(set) var clippedSampleCount = 0

    private var file: OpaquePointer?
    /// Bits per sample when the writer quantises itself (16 or 24), or nil to pass floats through.
    private let integerBits: Int?
    private var scratch: [Int32] = []

    /// File extensions (lower case, no dot) this writer accepts.
    public static let supportedExtensions = [
        "wav", "wave", "aif", "aiff", "aifc", "caf", "au", "snd", "w64", "rf64", "flac", "ogg", "oga", "opus", "mp3",
    ]

    /// Creates (or replaces) the file at `path`.
    /// - Parameters:
    ///   - path: destination; its extension chooses the container.
    ///   - sampleRate: sample rate in Hz (> 0).
    ///   - channelCount: channels per frame (≥ 1).
    ///   - sampleFormat: requested sample encoding (default `.float`).
    /// - Throws: `.writeFailed` naming the file and libsndfile's message or the problem.
    public init(path: String, sampleRate: Int, channelCount: Int, sampleFormat: AudioSampleFormat = .float) throws(AudioResourceError) {
        self.path = path
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.sampleFormat = sampleFormat
        guard sampleRate > 0 else { throw .writeFailed(path: path, reason: "the sample rate must be positive (got \(sampleRate) Hz)") }
        guard channelCount >= 1 else { throw .writeFailed(path: path, reason: "the channel count must be at least 1 (got \(channelCount))") }

        let ext = (path as NSString).pathExtension.lowercased()
        guard let (code, bits) = Self.format(forExtension: ext, sampleFormat: sampleFormat) else {
            let known = Self.supportedExtensions.map { "." + $0 }.joined(separator: " ")
            throw .writeFailed(
                path: path,
                reason: ext.isEmpty ? "the name has no extension to choose a format (use one of \(known))"
                    : "'.\(ext)' is not a format Thrum writes (use one of \(known))")
        }
        self.formatCode = code
        self.integerBits = bits

        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channelCount)
        info.format = code
        guard sf_format_check(&info) != 0 else {
            throw .writeFailed(
                path: path,
                reason: "libsndfile cannot write \(SndFile.formatName(code)) with \(channelCount) channels at \(sampleRate) Hz")
        }
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw .writeFailed(path: path, reason: SndFile.errorMessage(nil))
        }
        file = handle
    }

    deinit {
        if let file { sf_close(file) }
    }

    /// The libsndfile format and, for integer formats, the bits the writer quantises to.
    static func format(forExtension ext: String, sampleFormat: AudioSampleFormat) -> (Int32, Int?)? {
        func pcm(_ major: Int) -> (Int32, Int?) {
            switch sampleFormat {
            case .float: (Int32(major | SF_FORMAT_FLOAT), nil)
            case .pcm16: (Int32(major | SF_FORMAT_PCM_16), 16)
            case .pcm24: (Int32(major | SF_FORMAT_PCM_24), 24)
            }
        }
        switch ext {
        case "wav", "wave": return pcm(SF_FORMAT_WAV)
        case "aif", "aiff", "aifc": return pcm(SF_FORMAT_AIFF)
        case "caf": return pcm(SF_FORMAT_CAF)
        case "au", "snd": return pcm(SF_FORMAT_AU)
        case "w64": return pcm(SF_FORMAT_W64)
        case "rf64": return pcm(SF_FORMAT_RF64)
        case "flac":
            return sampleFormat == .pcm16 ? (Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), 16)
                : (Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24), 24)
        case "ogg", "oga": return (Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS), nil)
        case "opus": return (Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS), nil)
        case "mp3": return (Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III), nil)
        default: return nil
        }
    }

    /// Appends interleaved frames. `samples.count` must be a multiple of ``channelCount``.
    /// - Throws: `.writeFailed` if the writer is closed, the count is not frame-aligned,
    ///   or libsndfile fails (disk full, …).
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioResourceError) {
        guard let file else { throw .writeFailed(path: path, reason: "the writer is already closed") }
        guard samples.count % channelCount == 0 else {
            throw .writeFailed(
                path: path,
                reason: "\(samples.count) samples is not a whole number of \(channelCount)-channel frames")
        }
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        let frames = samples.count / channelCount

        if let bits = integerBits {
            let scale = Float(1 << (bits - 1))
            let top = Float((1 << (bits - 1)) - 1)
            let shift = Int32(32 - bits)
            let chunkFrames = 4096
            if scratch.count < chunkFrames * channelCount { scratch = [Int32](repeating: 0, count: chunkFrames * channelCount) }
            var done = 0
            while done < frames {
                let n = min(chunkFrames, frames - done)
                var clipped = 0
                let written: Int64 = scratch.withUnsafeMutableBufferPointer { out in
                    for i in 0..<(n * channelCount) {
                        let x = base[done * channelCount + i]
                        var q: Float
                        if x.isNaN {
                            q = 0
                            clipped += 1
                        } else {
                            if x > 1 || x < -1 { clipped += 1 }
                            q = (x * scale).rounded()
                            q = min(max(q, -scale), top)
                        }
                        out[i] = Int32(q) << shift
                    }
                    return sf_writef_int(file, out.baseAddress, Int64(n))
                }
                clippedSampleCount += clipped
                if written != Int64(n) { throw .writeFailed(path: path, reason: SndFile.errorMessage(file)) }
                done += n
                framesWritten += n
            }
        } else {
            for x in samples where !(x >= -1 && x <= 1) { clippedSampleCount += 1 }
            let written = sf_writef_float(file, base, Int64(frames))
            if written != Int64(frames) { throw .writeFailed(path: path, reason: SndFile.errorMessage(file)) }
            framesWritten += frames
        }
    }

    /// Appends interleaved frames from an array; same rules as the buffer version.
    public func write(_ samples: [Float]) throws(AudioResourceError) {
        try samples.withUnsafeBufferPointer { (buffer) throws(AudioResourceError) in try write(buffer) }
    }

    /// Finishes the file (writes headers) and closes it. Calling it again does nothing.
    /// - Throws: `.writeFailed` with libsndfile's message if closing fails.
    public func close() throws(AudioResourceError) {
        guard let file else { return }
        self.file = nil
        let status = sf_close(file)
        if status != 0 {
            throw .writeFailed(path: path, reason: String(cString: sf_error_number(status)))
        }
    }
}
