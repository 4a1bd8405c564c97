import AudioResources
import FoundationStandIns

/// Sound files: which names are sounds, how long a sound may be for the analysis (and when played on its
/// own), and decoding one with one-line failures.
package enum Sounds {
    /// Extensions of sound files a pattern argument may name: the sound plays as one AudioCustom event.
    package static let extensions: Set<String> = ["wav", "aif", "aiff", "aifc", "flac", "ogg", "oga", "caf", "au", "w64"]

    /// Whether `path` names a sound file (by its extension).
    package static func isSound(_ path: String) -> Bool {
        extensions.contains(PathName.fileExtension(path).lowercased())
    }

    /// Longest sound `thrum analyze` reads (30 minutes), and the file and memory limits that go with it.
    package static let analysisLimits = AudioResourceLimits(
        maxFileBytes: 2_000_000_000, maxDurationSeconds: 1800, maxTotalDecodedBytes: 1800 * 384_000 * 2 * 4)

    /// Decodes the sound at `path` at its own sample rate.
    /// - Throws: ``ServiceError``: 66 missing, 65 unreadable or longer than 30 minutes.
    package static func load(_ path: String) throws(ServiceError) -> DecodedAudio {
        do {
            let info = try AudioFileInfo.probe(path)
            return try AudioFileLoader.load(path: path, targetSampleRate: Double(info.sampleRate), limits: analysisLimits)
        } catch {
            switch error {
            case .missing:
                throw ServiceError(.noInput, "cannot open '\(path)': no such file (check the path)")
            case .unreadable(_, let reason):
                throw ServiceError(.dataError, "'\(path)' cannot be read as audio: \(reason) (re-export it as WAV, AIFF, FLAC or Ogg Vorbis)")
            case .fileTooLarge, .tooLong, .budgetExceeded:
                throw ServiceError(.dataError, "'\(path)' is too long: thrum analyze reads up to 30 minutes (cut it into parts)")
            default:
                throw ServiceError(.dataError, "'\(path)': \(error)")
            }
        }
    }
}
