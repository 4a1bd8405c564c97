import FoundationEssentials
import FoundationStandIns

/// Why an audio resource could not be resolved, loaded, registered or written.
///
/// Every case carries the file name as the user wrote it (or the path used), and
/// ``description`` is one line naming the file, the figure, the limit and what to do.
/// Map to Core Haptics errors with ``category``.
package enum AudioResourceError: Error, LocalizedError, CustomStringConvertible, Sendable, Equatable {
    /// No file at the path; `searched` lists every full path that was tried, in order.
    case missing(path: String, searched: [String])
    /// The file exists but cannot be decoded; `reason` is libsndfile's message or a
    /// description of the damage (e.g. truncation).
    case unreadable(path: String, reason: String)
    /// The file on disk is `bytes` bytes long; the per-file limit is `limit` bytes.
    case fileTooLarge(path: String, bytes: Int, limit: Int)
    /// The file lasts `seconds` seconds; the per-file limit is `limit` seconds.
    case tooLong(path: String, seconds: Double, limit: Double)
    /// Decoding the file needs `decodedBytes` bytes of float samples, `used` bytes of the
    /// `limit`-byte budget are already taken by other resources.
    case budgetExceeded(path: String, decodedBytes: Int, used: Int, limit: Int)
    /// The path resolves (via `..` or symbolic links) outside every allowed folder in `roots`.
    case pathEscapesRoots(path: String, roots: [String])
    /// The path is absolute and absolute paths were not allowed.
    case absolutePathNotAllowed(path: String)
    /// Sample-rate conversion failed; `reason` is libsamplerate's message.
    case resampleFailed(path: String, reason: String)
    /// Writing an audio file failed; `reason` is libsndfile's message or the problem found.
    case writeFailed(path: String, reason: String)

    /// How a caller should classify the error.
    package enum Category: Sendable, Equatable {
        /// A size, length or memory limit was exceeded (→ `CHHapticError.resourceNotAvailable`).
        case limitViolation
        /// The file does not exist (→ `CHHapticError.fileNotFound`).
        case fileNotFound
        /// The file is not usable audio (→ `CHHapticError.invalidAudioResource`).
        case invalidAudio
        /// The path is not allowed by the resource-path rules.
        case pathNotAllowed
        /// Writing a file failed (I/O error).
        case writeFailed
    }

    /// The error's category (see ``Category``).
    package var category: Category {
        switch self {
        case .fileTooLarge, .tooLong, .budgetExceeded: .limitViolation
        case .missing: .fileNotFound
        case .unreadable, .resampleFailed: .invalidAudio
        case .pathEscapesRoots, .absolutePathNotAllowed: .pathNotAllowed
        case .writeFailed: .writeFailed
        }
    }

    /// True for size, length and memory-budget violations (→ `resourceNotAvailable`);
    /// false for missing, unreadable or disallowed files.
    package var isLimitViolation: Bool { category == .limitViolation }

    /// The file name or path the error is about.
    package var path: String {
        switch self {
        case .missing(let p, _), .unreadable(let p, _), .fileTooLarge(let p, _, _), .tooLong(let p, _, _),
            .budgetExceeded(let p, _, _, _), .pathEscapesRoots(let p, _), .absolutePathNotAllowed(let p),
            .resampleFailed(let p, _), .writeFailed(let p, _):
            p
        }
    }

    /// One line: the file, the figure, the limit, and what to do.
    package var description: String {
        switch self {
        case .missing(let path, let searched):
            let places = searched.isEmpty ? "no folder to search" : "looked in " + searched.joined(separator: ", ")
            return "audio file '\(path)' not found; \(places) (check the name and its case, or add its folder with --resources DIR)"
        case .unreadable(let path, let reason):
            return "audio file '\(path)' cannot be read: \(reason) (re-export it as WAV, AIFF, CAF, FLAC or Ogg Vorbis)"
        case .fileTooLarge(let path, let bytes, let limit):
            let (b, l) = Self.formatBytes(bytes, limit)
            return "audio file '\(path)' is \(b); the limit is \(l) per file (shorten or compress it, or raise the limit with --max-audio-bytes)"
        case .tooLong(let path, let seconds, let limit):
            let (s, l) = Self.formatSeconds(seconds, limit)
            return "audio file '\(path)' is \(s) long; the limit is \(l) per file (trim it, or raise the limit with --max-audio-seconds)"
        case .budgetExceeded(let path, let decodedBytes, let used, let limit):
            let (d, l) = Self.formatBytes(decodedBytes, limit)
            let (u, _) = Self.formatBytes(used, limit)
            return "audio file '\(path)' needs \(d) of decoded samples, but \(u) of the \(l) allowed for all audio resources are already in use (unregister other audio resources, use shorter or mono files, or raise the limit with --max-audio-memory)"
        case .pathEscapesRoots(let path, let roots):
            let list = roots.isEmpty ? "no folder is allowed" : "allowed: " + roots.joined(separator: ", ")
            return "audio file '\(path)' resolves outside the allowed folders (\(list)); move it into the pattern's folder or a --resources folder, or pass --allow-any-path"
        case .absolutePathNotAllowed(let path):
            return "audio file '\(path)' is an absolute path, which is not allowed; use a path relative to the pattern file or a --resources folder, or pass --allow-any-path"
        case .resampleFailed(let path, let reason):
            return "audio file '\(path)' could not be converted to the engine's sample rate: \(reason) (re-export it at the engine rate)"
        case .writeFailed(let path, let reason):
            return "cannot write audio file '\(path)': \(reason) (check that the folder exists and is writable and that the extension names a format libsndfile writes)"
        }
    }

    /// The same one-line text as ``description`` (so `localizedDescription` shows it too).
    package var errorDescription: String? { description }

    // MARK: - Formatting figures

    /// Formats two byte counts in the same unit, precise enough that different values
    /// never print the same (e.g. "5.1 MB" / "4.2 MB", "2044 bytes" / "1000 bytes").
    static func formatBytes(_ value: Int, _ limit: Int) -> (String, String) {
        func render(_ x: Int, unit: Double, name: String) -> String {
            unit == 1 ? "\(x) bytes" : String(cFormat: "%.1f", Double(x) / unit) + " \(name)"
        }
        let largest = max(value, limit)
        let (unit, name): (Double, String) =
            largest >= 1_000_000 ? (1_000_000, "MB") : largest >= 10_000 ? (1_000, "kB") : (1, "bytes")
        let a = render(value, unit: unit, name: name)
        let b = render(limit, unit: unit, name: name)
        if a == b && value != limit { return ("\(value) bytes", "\(limit) bytes") }
        return (a, b)
    }

    /// Formats two durations in seconds ("25.3 s" / "23 s"), with more digits when needed
    /// to tell them apart.
    static func formatSeconds(_ value: Double, _ limit: Double) -> (String, String) {
        func render(_ x: Double, digits: Int) -> String {
            if x == x.rounded(), abs(x) < 1e15 { return "\(Int(x)) s" }
            return String(cFormat: "%.\(digits)f s", x)
        }
        for digits in [1, 3, 6] {
            let a = render(value, digits: digits)
            let b = render(limit, digits: digits)
            if a != b || value == limit { return (a, b) }
        }
        return (render(value, digits: 9), render(limit, digits: 9))
    }
}
