import CSndFile
import FoundationEssentials
import Glibc
import FoundationStandIns

/// Sample encoding requested for a file written by ``AudioFileWriter``.
package enum AudioSampleFormat: String, Sendable, Equatable, CaseIterable {
    /// 32-bit IEEE float (default). Containers that cannot store float use their best
    /// alternative: FLAC → 24-bit PCM; Ogg → Vorbis (or Opus for `.opus`); MP3 → MPEG layer III.
    case float
    /// 16-bit signed PCM.
    case pcm16
    /// 24-bit signed PCM.
    case pcm24
    /// 32-bit signed PCM (what S32_LE sound cards take).
    case pcm32
}

/// Writes interleaved float frames to an audio file with libsndfile. The container is chosen
/// by the file extension (see ``supportedExtensions``).
///
/// Nothing appears at the destination until ``close()`` succeeds: the file is written under a
/// temporary name beside the target (`.NAME.thrum-XXXXXXXX.partial`) and renamed over it, so a
/// failed or interrupted write, a ``discard()`` or a writer dropped without `close()` leaves no
/// file and leaves an existing target as it was. A destination that is not a regular file
/// (standard output, a pipe, a device) receives the finished file in one copy at `close()`.
///
/// Size: WAV, AIFF and AU store 32-bit sizes. A WAV expected to pass 2 GiB (`expectedFrames`) is
/// written as RF64 that libsndfile turns back into WAV if it stays under 4 GiB
/// (`SFC_RF64_AUTO_DOWNGRADE`); any other WAV, AIFF or AU refuses audio data past 4 GiB (a failed
/// write: nothing is left), so a file never gets a header that wrapped around.
///
/// Integer formats (PCM 16/24/32, and FLAC): the writer quantises samples itself: a sample x
/// becomes `round(x × 2^(bits−1))` (halves away from zero, in Double: exact for every Float, 32 bits
/// included), clamped to the integer range, and is handed to libsndfile
/// as an exact left-aligned `Int32`, so libsndfile neither rescales (its own float → PCM path
/// scales by 2^(bits−1) − 1, which does not invert its PCM → float reading) nor wraps. Reading
/// the file back as float therefore returns every in-range sample within half a step.
/// Samples outside [-1, 1] are clamped to full scale (NaN becomes 0) and counted in
/// ``clippedSampleCount``. Float and lossy (Vorbis, Opus, MP3) formats store samples as given;
/// samples outside [-1, 1] are still counted, as they would clip on playback. Float WAV and AIFF files
/// carry no PEAK chunk (an optional summary that costs a second pass over every sample).
///
/// Not thread-safe: use one writer from one thread at a time. Not real-time safe.
package final class AudioFileWriter {
    /// The destination, as given (`"standard output"` for a writer to standard output).
    package let path: String
    /// Sample rate in Hz.
    package let sampleRate: Int
    /// Channels per frame.
    package let channelCount: Int
    /// The sample format requested.
    package let sampleFormat: AudioSampleFormat
    /// The libsndfile format code of the file (`SF_FORMAT_*` major | subtype); a WAV written as RF64
    /// says so after ``close()``.
    package private(set) var formatCode: Int32
    /// libsndfile's name for the format used, e.g. "FLAC (Free Lossless Audio Codec), Signed 24 bit PCM".
    package var formatName: String { SndFile.formatName(formatCode) }
    /// Frames written so far.
    package private(set) var framesWritten = 0
    /// Samples written so far that lay outside [-1, 1] (or were NaN); for integer formats
    /// these were clamped to full scale.
    package private(set) var clippedSampleCount = 0
    /// Most bytes of audio data the container can hold, or nil when it has no 32-bit limit.
    var dataByteLimit: Int?

    private var file: OpaquePointer?
    /// Set when the file was abandoned (``discard()`` or a failed write): `close()` then fails.
    private var discarded = false
    private let output: Destination
    /// Bits per sample when the writer quantises itself (16 or 24), or nil to pass floats through.
    private let integerBits: Int?
    private var scratch: [Int32] = []

    /// File extensions (lower case, no dot) this writer accepts.
    package static let supportedExtensions = [
        "wav", "wave", "aif", "aiff", "aifc", "caf", "au", "snd", "w64", "rf64", "flac", "ogg", "oga", "opus", "mp3",
    ]

    /// Largest audio data, in bytes, of the containers whose sizes are 32-bit (WAV, AIFF, AU), leaving
    /// room for their headers.
    static let thirtyTwoBitDataLimit = Int(UInt32.max) - 65_536
    /// Expected audio data, in bytes, above which a WAV is written as RF64 (half the 32-bit limit, so
    /// an expectation that falls a little short still ends in a readable file).
    static let rf64Threshold = 1 << 31

    /// Prepares to write `path` (created or replaced when ``close()`` succeeds).
    /// - Parameters:
    ///   - path: destination; its extension chooses the container.
    ///   - sampleRate: sample rate in Hz (> 0).
    ///   - channelCount: channels per frame (≥ 1).
    ///   - sampleFormat: requested sample encoding (default `.float`).
    ///   - expectedFrames: how many frames will be written, if known (a WAV over 2 GiB becomes RF64).
    /// - Throws: `.writeFailed` naming the file and libsndfile's message or the problem.
    package convenience init(
        path: String, sampleRate: Int, channelCount: Int, sampleFormat: AudioSampleFormat = .float,
        expectedFrames: Int? = nil
    ) throws(AudioResourceError) {
        let ext = PathName.fileExtension(path).lowercased()
        let format = try Self.checkedFormat(
            name: path, ext: ext, sampleRate: sampleRate, channelCount: channelCount, sampleFormat: sampleFormat)
        let output: PendingOutput
        do {
            output = try PendingOutput.forPath(path)
        } catch {
            throw .writeFailed(path: path, reason: error.reason)
        }
        try self.init(
            output: output, name: path, format: format, sampleRate: sampleRate, channelCount: channelCount,
            sampleFormat: sampleFormat, expectedFrames: expectedFrames)
    }

    /// Prepares to write a file of the container `fileExtension` (e.g. `"wav"`) to the open descriptor
    /// `descriptor` (standard output, a pipe), delivered whole by ``close()``; the descriptor is not
    /// closed. `name` names it in messages (e.g. "standard output"). Other parameters as for a path.
    package convenience init(
        descriptor: Int32, name: String, fileExtension: String, sampleRate: Int, channelCount: Int,
        sampleFormat: AudioSampleFormat = .float, expectedFrames: Int? = nil
    ) throws(AudioResourceError) {
        let format = try Self.checkedFormat(
            name: name, ext: fileExtension.lowercased(), sampleRate: sampleRate, channelCount: channelCount,
            sampleFormat: sampleFormat)
        let output: PendingOutput
        do {
            output = try PendingOutput.forDescriptor(descriptor)
        } catch {
            throw .writeFailed(path: name, reason: error.reason)
        }
        try self.init(
            output: output, name: name, format: format, sampleRate: sampleRate, channelCount: channelCount,
            sampleFormat: sampleFormat, expectedFrames: expectedFrames)
    }

    /// Prepares to write a file of the container `fileExtension` (e.g. `"wav"`) into memory (through
    /// libsndfile's virtual I/O: no file is made); ``bytes`` holds it after ``close()``. Other parameters as
    /// for a path.
    package convenience init(
        inMemory fileExtension: String, sampleRate: Int, channelCount: Int, sampleFormat: AudioSampleFormat = .float,
        expectedFrames: Int? = nil
    ) throws(AudioResourceError) {
        let format = try Self.checkedFormat(
            name: "memory", ext: fileExtension.lowercased(), sampleRate: sampleRate, channelCount: channelCount,
            sampleFormat: sampleFormat)
        try self.init(
            output: .memory(MemoryFile()), name: "memory", format: format, sampleRate: sampleRate, channelCount: channelCount,
            sampleFormat: sampleFormat, expectedFrames: expectedFrames)
    }

    /// The whole file written into memory, once ``close()`` succeeded; nil for a file or before.
    package var bytes: Data? {
        guard file == nil, !discarded, case .memory(let memory) = output else { return nil }
        return Data(memory.bytes)
    }

    private convenience init(
        output: PendingOutput, name: String, format: (code: Int32, bits: Int?), sampleRate: Int, channelCount: Int,
        sampleFormat: AudioSampleFormat, expectedFrames: Int?
    ) throws(AudioResourceError) {
        try self.init(
            output: .file(output), name: name, format: format, sampleRate: sampleRate, channelCount: channelCount,
            sampleFormat: sampleFormat, expectedFrames: expectedFrames)
    }

    private init(
        output: Destination, name: String, format: (code: Int32, bits: Int?), sampleRate: Int, channelCount: Int,
        sampleFormat: AudioSampleFormat, expectedFrames: Int?
    ) throws(AudioResourceError) {
        self.path = name
        self.output = output
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.sampleFormat = sampleFormat
        self.formatCode = format.code
        self.integerBits = format.bits
        let major = Int(format.code) & SF_FORMAT_TYPEMASK
        let bytesPerFrame = channelCount * (format.bits.map { $0 / 8 } ?? MemoryLayout<Float>.size)
        let large = (expectedFrames ?? 0) > Self.rf64Threshold / bytesPerFrame
        let asRF64 = major == SF_FORMAT_WAV && large
        if [SF_FORMAT_WAV, SF_FORMAT_AIFF, SF_FORMAT_AU].contains(major) && !asRF64 {
            if large {
                output.discard()
                throw .writeFailed(path: name, reason: Self.thirtyTwoBitRefusal(format.code))
            }
            dataByteLimit = Self.thirtyTwoBitDataLimit
        }

        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channelCount)
        info.format = asRF64 ? Int32(SF_FORMAT_RF64) | (format.code & Int32(SF_FORMAT_SUBMASK)) : format.code
        guard let handle = output.open(&info) else {
            output.discard()
            throw .writeFailed(path: name, reason: SndFile.errorMessage(nil))
        }
        if asRF64 { sf_command(handle, Int32(SFC_RF64_AUTO_DOWNGRADE), nil, Int32(SF_TRUE)) }
        // No PEAK chunk (optional in float WAV/AIFF): libsndfile would track it in a second, strided pass
        // over every sample written, as much work as the rest of the writing; `thrum render` reports peaks.
        sf_command(handle, Int32(SFC_SET_ADD_PEAK_CHUNK), nil, Int32(SF_FALSE))
        file = handle
    }

    /// The format for `ext` and `sampleFormat`, checked with libsndfile; throws `.writeFailed` naming `name`.
    private static func checkedFormat(
        name: String, ext: String, sampleRate: Int, channelCount: Int, sampleFormat: AudioSampleFormat
    ) throws(AudioResourceError) -> (code: Int32, bits: Int?) {
        guard sampleRate > 0 else { throw .writeFailed(path: name, reason: "the sample rate must be positive (got \(sampleRate) Hz)") }
        guard channelCount >= 1 else { throw .writeFailed(path: name, reason: "the channel count must be at least 1 (got \(channelCount))") }
        guard let (code, bits) = format(forExtension: ext, sampleFormat: sampleFormat) else {
            let known = supportedExtensions.map { "." + $0 }.joined(separator: " ")
            throw .writeFailed(
                path: name,
                reason: ext.isEmpty ? "the name has no extension to choose a format (use one of \(known))"
                    : "'.\(ext)' is not a format Thrum writes (use one of \(known))")
        }
        var info = SF_INFO()
        info.samplerate = Int32(clamping: sampleRate)
        info.channels = Int32(clamping: channelCount)
        info.format = code
        guard sf_format_check(&info) != 0 else {
            throw .writeFailed(
                path: name,
                reason: "libsndfile cannot write \(SndFile.formatName(code)) with \(channelCount) channels at \(sampleRate) Hz")
        }
        return (code, bits)
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
            case .pcm32: (Int32(major | SF_FORMAT_PCM_32), 32)
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
    /// - Throws: `.writeFailed` if the writer is closed, the count is not frame-aligned (nothing is
    ///   written; the writer stays usable), or the data cannot be written: libsndfile fails (disk full,
    ///   …) or the container's size limit would be passed. After such a failure the writer is closed
    ///   and its temporary file removed.
    package func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioResourceError) {
        guard let file else { throw .writeFailed(path: path, reason: "the writer is already closed") }
        guard samples.count % channelCount == 0 else {
            throw .writeFailed(
                path: path,
                reason: "\(samples.count) samples is not a whole number of \(channelCount)-channel frames")
        }
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        let frames = samples.count / channelCount
        if let limit = dataByteLimit, (framesWritten + frames) * bytesPerFrame > limit {
            throw failure(Self.thirtyTwoBitRefusal(formatCode))
        }

        if let bits = integerBits {
            let scale = Double(Int64(1) << (bits - 1))
            let top = scale - 1
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
                        var q: Double
                        if x.isNaN {
                            q = 0
                            clipped += 1
                        } else {
                            if x > 1 || x < -1 { clipped += 1 }
                            q = (Double(x) * scale).rounded()
                            q = min(max(q, -scale), top)
                        }
                        out[i] = Int32(q) << shift
                    }
                    return sf_writef_int(file, out.baseAddress, Int64(n))
                }
                clippedSampleCount += clipped
                if written != Int64(n) { throw failure(SndFile.errorMessage(file)) }
                done += n
                framesWritten += n
            }
        } else {
            // Counted over the raw pointer into an Int32 (NaN fails the test too), so the loop vectorises;
            // a chunk at a time, so the count cannot overflow.
            var start = 0
            while start < samples.count {
                let end = min(start + (1 << 30), samples.count)
                var outside: Int32 = 0
                for i in start..<end where !(abs(base[i]) <= 1) { outside &+= 1 }
                clippedSampleCount += Int(outside)
                start = end
            }
            let written = sf_writef_float(file, base, Int64(frames))
            if written != Int64(frames) { throw failure(SndFile.errorMessage(file)) }
            framesWritten += frames
        }
    }

    /// Appends interleaved frames from an array; same rules as the buffer version.
    package func write(_ samples: [Float]) throws(AudioResourceError) {
        try samples.withUnsafeBufferPointer { (buffer) throws(AudioResourceError) in try write(buffer) }
    }

    /// Finishes the file (writes headers), closes it and moves it into place. Calling it again does
    /// nothing. On failure nothing is left at the destination.
    /// - Throws: `.writeFailed` with libsndfile's message or the system's, or because the writer was
    ///   discarded (after ``discard()`` or a failed write).
    package func close() throws(AudioResourceError) {
        if discarded { throw .writeFailed(path: path, reason: "nothing was written: the file was abandoned after an error") }
        guard let file else { return }
        self.file = nil
        let status = sf_close(file)
        if status != 0 {
            discarded = true
            output.discard()
            throw .writeFailed(path: path, reason: String(cString: sf_error_number(status)))
        }
        var magic = [UInt8](repeating: 0, count: 4)
        if Int(formatCode) & SF_FORMAT_TYPEMASK == SF_FORMAT_WAV, output.read(&magic), magic == Array("RF64".utf8) {
            formatCode = Int32(SF_FORMAT_RF64) | (formatCode & Int32(SF_FORMAT_SUBMASK))
        }
        do {
            try output.commit()
        } catch {
            discarded = true
            throw .writeFailed(path: path, reason: error.reason)
        }
    }

    /// Abandons the file: nothing is written to the destination and the temporary file is removed.
    /// Calling it after ``close()`` (or twice) does nothing.
    package func discard() {
        guard let file else { return }
        sf_close(file)
        self.file = nil
        discarded = true
        output.discard()
    }

    /// Why a WAV, AIFF or AU file cannot take more audio.
    private static func thirtyTwoBitRefusal(_ code: Int32) -> String {
        "\(SndFile.formatName(code).split(separator: ",").first ?? "the format") files hold at most 4 GiB of audio (write .rf64, .w64, .caf or .flac)"
    }

    /// Bytes of audio data per frame in the file.
    private var bytesPerFrame: Int {
        channelCount * (integerBits.map { $0 / 8 } ?? MemoryLayout<Float>.size)
    }

    /// Closes and removes the file after a failed write, and returns the error to throw.
    private func failure(_ reason: String) -> AudioResourceError {
        discard()
        return .writeFailed(path: path, reason: reason)
    }
}

/// Where an ``AudioFileWriter``'s bytes go: a file (through ``PendingOutput``) or memory.
private enum Destination {
    case file(PendingOutput)
    case memory(MemoryFile)

    /// Opens libsndfile on it for writing.
    func open(_ info: inout SF_INFO) -> OpaquePointer? {
        switch self {
        case .file(let output): return sf_open_fd(output.descriptor, Int32(SFM_WRITE), &info, 0)
        case .memory(let memory):
            var io = MemoryFile.virtualIO
            return sf_open_virtual(&io, Int32(SFM_WRITE), &info, Unmanaged.passUnretained(memory).toOpaque())
        }
    }

    /// Reads the first `buffer.count` bytes written; whether there were that many.
    func read(_ buffer: inout [UInt8]) -> Bool {
        switch self {
        case .file(let output): return pread(output.descriptor, &buffer, buffer.count, 0) == buffer.count
        case .memory(let memory):
            guard memory.bytes.count >= buffer.count else { return false }
            buffer = Array(memory.bytes[0..<buffer.count])
            return true
        }
    }

    func commit() throws(PendingOutputError) {
        if case .file(let output) = self { try output.commit() }
    }

    func discard() {
        if case .file(let output) = self { output.discard() }
    }
}

/// A file in memory for libsndfile's virtual I/O: bytes and a position. Not thread-safe (one writer).
private final class MemoryFile {
    var bytes: [UInt8] = []
    var position = 0

    private static func file(_ pointer: UnsafeMutableRawPointer?) -> MemoryFile {
        Unmanaged<MemoryFile>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// The callbacks; `user_data` is the ``MemoryFile``, unretained (the writer keeps it).
    static let virtualIO = SF_VIRTUAL_IO(
        get_filelen: { sf_count_t(file($0).bytes.count) },
        seek: { offset, whence, pointer in
            let memory = file(pointer)
            let base = whence == SEEK_CUR ? memory.position : whence == SEEK_END ? memory.bytes.count : 0
            memory.position = max(0, base + Int(offset))
            return sf_count_t(memory.position)
        },
        read: { destination, count, pointer in
            let memory = file(pointer)
            let available = max(0, min(Int(count), memory.bytes.count - memory.position))
            guard available > 0 else { return 0 }
            memory.bytes.withUnsafeBytes { source in
                destination?.copyMemory(from: source.baseAddress! + memory.position, byteCount: available)
            }
            memory.position += available
            return sf_count_t(available)
        },
        write: { source, count, pointer in
            let memory = file(pointer)
            guard count > 0 else { return 0 }
            let end = memory.position + Int(count)
            if end > memory.bytes.count { memory.bytes += [UInt8](repeating: 0, count: end - memory.bytes.count) }
            memory.bytes.withUnsafeMutableBytes { target in
                if let source { (target.baseAddress! + memory.position).copyMemory(from: source, byteCount: Int(count)) }
            }
            memory.position = end
            return count
        },
        tell: { sf_count_t(file($0).position) })
}
