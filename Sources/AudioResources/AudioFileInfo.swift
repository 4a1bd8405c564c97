import CSndFile
import FoundationEssentials

/// What libsndfile reports about an audio file, without decoding it (for `thrum info`).
package struct AudioFileInfo: Sendable, Equatable {
    /// Length in frames as declared by the file, or nil when the format does not say
    /// (e.g. an Ogg stream without an end marker).
    package var frames: Int?
    /// Channels per frame.
    package var channels: Int
    /// Sample rate in Hz.
    package var sampleRate: Int
    /// libsndfile's name for the container and encoding, e.g. "WAV (Microsoft), 16 bit PCM".
    package var formatName: String
    /// The raw libsndfile format code (`SF_FORMAT_*` major | subtype).
    package var formatCode: Int32
    /// Size of the file on disk in bytes.
    package var fileBytes: Int

    /// Length in seconds (`frames / sampleRate`), or nil when unknown.
    package var durationSeconds: Double? {
        guard let frames, sampleRate > 0 else { return nil }
        return Double(frames) / Double(sampleRate)
    }

    /// Opens `path` with libsndfile and reads its header. Any thread; not real-time safe.
    /// - Throws: `.missing` if there is no file, `.unreadable` with libsndfile's message otherwise.
    package static func probe(_ path: String) throws(AudioResourceError) -> AudioFileInfo {
        try probe(AudioFileHandle(path: path))
    }

    /// Reads the header of an open file with libsndfile. Any thread; not real-time safe.
    /// - Throws: `.unreadable` with libsndfile's message.
    package static func probe(_ file: AudioFileHandle) throws(AudioResourceError) -> AudioFileInfo {
        var info = SF_INFO()
        guard let sound = file.openSoundFile(&info) else {
            throw .unreadable(path: file.displayName, reason: SndFile.errorMessage(nil))
        }
        defer { sf_close(sound) }
        return AudioFileInfo(
            frames: info.frames >= 0 && info.frames < Int64.max ? Int(info.frames) : nil,
            channels: Int(info.channels),
            sampleRate: Int(info.samplerate),
            formatName: SndFile.formatName(info.format),
            formatCode: info.format,
            fileBytes: file.byteCount)
    }
}
