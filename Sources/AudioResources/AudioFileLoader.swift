import CSampleRate
import CSndFile
import FoundationEssentials

/// Decodes audio files with libsndfile and converts them to the engine's sample rate with
/// libsamplerate, enforcing ``AudioResourceLimits``.
///
/// A control-side API: it reads files, allocates and may take a noticeable time (decoding and
/// high-quality sample-rate conversion of up to 23 s of audio). Never call it from the
/// real-time thread. It holds no shared state, so several threads may load files at once
/// (libsndfile's message for a failed `sf_open` is global, so concurrent failures may swap
/// messages).
///
/// Channels: mono and stereo files keep their channel count. Files with more than two channels
/// keep their first two channels (front left and right in WAV/CAF/FLAC channel order); the
/// others are dropped, not mixed in.
///
/// Damaged files: a file whose header promises more audio than it holds (truncated mid-data) is
/// rejected with `.unreadable` describing the truncation; no partial or garbage data is returned.
package enum AudioFileLoader {
    /// libsamplerate converter quality.
    package enum ResampleQuality: Sendable, Equatable {
        /// `SRC_SINC_BEST_QUALITY`: slowest, best.
        case best
        /// `SRC_SINC_MEDIUM_QUALITY`: the default, indistinguishable for haptic-audio use.
        case medium
        /// `SRC_SINC_FASTEST`.
        case fastest

        var converterType: Int32 {
            switch self {
            case .best: Int32(SRC_SINC_BEST_QUALITY)
            case .medium: Int32(SRC_SINC_MEDIUM_QUALITY)
            case .fastest: Int32(SRC_SINC_FASTEST)
            }
        }
    }

    /// Highest channel count kept in ``DecodedAudio``.
    package static let maxChannels = 2
    /// Sample rates accepted from a file header, in Hz.
    package static let acceptedSampleRates = 1...1_536_000

    /// Opens `path` (symbolic links followed, no confinement) and loads it: see ``load(_:targetSampleRate:limits:quality:)``.
    ///
    /// - Parameters:
    ///   - path: file to read.
    ///   - targetSampleRate: output rate in Hz (the engine rate).
    ///   - limits: size, length and memory limits.
    ///   - quality: libsamplerate converter (default ``ResampleQuality/medium``).
    ///   - displayName: the name used in error messages (e.g. the pattern's `EventWaveformPath`);
    ///     defaults to `path`.
    /// - Returns: the decoded audio, 1 or 2 channels, at `targetSampleRate`.
    package static func load(
        path: String,
        targetSampleRate: Double,
        limits: AudioResourceLimits = .default,
        quality: ResampleQuality = .medium,
        displayName: String? = nil
    ) throws(AudioResourceError) -> DecodedAudio {
        try load(
            AudioFileHandle(path: path, displayName: displayName), targetSampleRate: targetSampleRate, limits: limits,
            quality: quality)
    }

    /// Checks an open file against `limits` and decodes it, converted to `targetSampleRate`.
    ///
    /// Order of checks: its size on disk (of the open file) ≤ `limits.maxFileBytes`; libsndfile
    /// opens it; its declared length (frames ÷ file rate) ≤ `limits.maxDurationSeconds`; the
    /// decoded size at the target rate fits `limits.maxTotalDecodedBytes` on its own; then the
    /// samples are read (as 32-bit float) and converted.
    ///
    /// - Parameters:
    ///   - file: the open file; its ``AudioFileHandle/displayName`` names it in errors.
    ///   - targetSampleRate: output rate in Hz (the engine rate). The output has
    ///     `round(frames × targetSampleRate / fileRate)` frames; pitch and duration are kept.
    ///   - limits: size, length and memory limits.
    ///   - quality: libsamplerate converter (default ``ResampleQuality/medium``).
    /// - Returns: the decoded audio, 1 or 2 channels, at `targetSampleRate`.
    package static func load(
        _ file: AudioFileHandle,
        targetSampleRate: Double,
        limits: AudioResourceLimits = .default,
        quality: ResampleQuality = .medium
    ) throws(AudioResourceError) -> DecodedAudio {
        let name = file.displayName
        let path = file.path
        precondition(targetSampleRate > 0 && targetSampleRate.isFinite, "targetSampleRate must be positive")

        if file.byteCount > limits.maxFileBytes {
            throw .fileTooLarge(path: name, bytes: file.byteCount, limit: limits.maxFileBytes)
        }

        var info = SF_INFO()
        guard let sound = file.openSoundFile(&info) else {
            throw .unreadable(path: name, reason: SndFile.errorMessage(nil))
        }
        defer { sf_close(sound) }

        let channels = Int(info.channels)
        let fileRate = Int(info.samplerate)
        guard channels >= 1 else { throw .unreadable(path: name, reason: "the file declares \(channels) channels") }
        guard acceptedSampleRates.contains(fileRate) else {
            throw .unreadable(path: name, reason: "the file declares an unusable sample rate of \(fileRate) Hz")
        }
        if let note = SndFile.truncationNote(inLog: SndFile.log(sound)) {
            throw .unreadable(path: name, reason: note)
        }

        // Duration and memory checks before reading anything.
        let declaredFrames: Int? = info.frames >= 0 && info.frames < Int64.max ? Int(info.frames) : nil
        let maxFrames = Int((limits.maxDurationSeconds * Double(fileRate)).rounded(.down))
        let outChannels = min(channels, maxChannels)
        let ratio = targetSampleRate / Double(fileRate)
        if let declaredFrames {
            let seconds = Double(declaredFrames) / Double(fileRate)
            if seconds > limits.maxDurationSeconds {
                throw .tooLong(path: name, seconds: seconds, limit: limits.maxDurationSeconds)
            }
            let decoded = outputFrameCount(declaredFrames, ratio: ratio) * outChannels * MemoryLayout<Float>.size
            if decoded > limits.maxTotalDecodedBytes {
                throw .budgetExceeded(path: name, decodedBytes: decoded, used: 0, limit: limits.maxTotalDecodedBytes)
            }
        }

        // Read everything as float, keeping at most two channels.
        var samples: [Float] = []
        samples.reserveCapacity((declaredFrames ?? 0) * outChannels)
        let chunkFrames = 16_384
        var chunk = [Float](repeating: 0, count: chunkFrames * channels)
        var framesRead = 0
        while true {
            let got = chunk.withUnsafeMutableBufferPointer { sf_readf_float(sound, $0.baseAddress, Int64(chunkFrames)) }
            if got <= 0 { break }
            let n = Int(got)
            framesRead += n
            if declaredFrames == nil && framesRead > maxFrames {
                throw .tooLong(path: name, seconds: Double(framesRead) / Double(fileRate), limit: limits.maxDurationSeconds)
            }
            if channels == outChannels {
                samples.append(contentsOf: chunk[0..<(n * channels)])
            } else {
                for frame in 0..<n {
                    for channel in 0..<outChannels { samples.append(chunk[frame * channels + channel]) }
                }
            }
            if let declaredFrames, framesRead >= declaredFrames { break }
        }
        let status = sf_error(sound)
        if status != 0 {
            throw .unreadable(path: name, reason: "decoding failed after \(framesRead) frames: \(SndFile.errorMessage(sound))")
        }
        if let declaredFrames, framesRead != declaredFrames {
            throw .unreadable(
                path: name,
                reason: "the file is truncated or damaged: its header declares \(declaredFrames) frames but only \(framesRead) could be decoded")
        }
        if declaredFrames == nil {
            if let note = SndFile.truncationNote(inLog: SndFile.log(sound)) {
                throw .unreadable(path: name, reason: note)
            }
            // Length was unknown up front: apply the memory check now, before converting.
            let decoded = outputFrameCount(framesRead, ratio: ratio) * outChannels * MemoryLayout<Float>.size
            if decoded > limits.maxTotalDecodedBytes {
                throw .budgetExceeded(path: name, decodedBytes: decoded, used: 0, limit: limits.maxTotalDecodedBytes)
            }
        }

        if Double(fileRate) == targetSampleRate || framesRead == 0 {
            let storage = UnsafeMutableBufferPointer<Float>.allocate(capacity: samples.count)
            _ = storage.initialize(from: samples)
            return DecodedAudio(adopting: storage, channelCount: outChannels, sampleRate: targetSampleRate, sourcePath: path)
        }
        let converted = try resample(
            samples, frames: framesRead, channels: outChannels, ratio: ratio, quality: quality, name: name,
            fromRate: fileRate, toRate: targetSampleRate)
        return DecodedAudio(adopting: converted, channelCount: outChannels, sampleRate: targetSampleRate, sourcePath: path)
    }

    /// Frames produced by converting `frames` frames at `ratio` (output rate ÷ input rate).
    package static func outputFrameCount(_ frames: Int, ratio: Double) -> Int {
        Int((Double(frames) * ratio).rounded())
    }

    /// Converts interleaved `samples` with libsamplerate into newly allocated storage of exactly
    /// `round(frames × ratio)` frames (any frames the converter does not produce are silence).
    static func resample(
        _ samples: [Float], frames: Int, channels: Int, ratio: Double, quality: ResampleQuality, name: String,
        fromRate: Int, toRate: Double
    ) throws(AudioResourceError) -> UnsafeMutableBufferPointer<Float> {
        let target = toRate == toRate.rounded() ? "\(Int(toRate))" : "\(toRate)"
        let rates = "\(fromRate) Hz → \(target) Hz"
        guard src_is_valid_ratio(ratio) != 0 else {
            throw .resampleFailed(path: name, reason: "\(rates) is outside libsamplerate's range (ratio 1/256…256)")
        }
        let outFrames = outputFrameCount(frames, ratio: ratio)
        let output = UnsafeMutableBufferPointer<Float>.allocate(capacity: outFrames * channels)
        output.initialize(repeating: 0)
        let error: Int32 = samples.withUnsafeBufferPointer { input in
            var data = SRC_DATA()
            data.data_in = input.baseAddress
            data.data_out = output.baseAddress
            data.input_frames = frames
            data.output_frames = outFrames
            data.end_of_input = 1
            data.src_ratio = ratio
            return src_simple(&data, quality.converterType, Int32(channels))
        }
        if error != 0 {
            output.deallocate()
            let reason = src_strerror(error).map { String(cString: $0) } ?? "error \(error)"
            throw .resampleFailed(path: name, reason: "\(rates): \(reason)")
        }
        return output
    }
}
