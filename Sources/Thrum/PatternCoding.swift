internal import AHAPCodec
import FoundationEssentials
import HapticFormats
import ThrumModel

extension CHHapticPattern {
    /// Creates a pattern from an AHAP dictionary (keys `CHHapticPattern.Key` or their strings).
    /// - Throws: `CHHapticError` with the first error's code and its message (`invalidPatternDictionary`,
    ///   `invalidEventType`, …). Warnings (clamped values, unknown keys) do not throw.
    public convenience init(dictionary patternDict: [CHHapticPattern.Key: Any]) throws {
        let result = AHAPDecoder.decode(dictionary: patternDict)
        self.init(data: try Self.accept(result.pattern, result.diagnostics))
    }

    /// Creates a pattern from an AHAP file (`.ahap` or `.json`) or, a Linux addition, a `.haptic` file
    /// (Meta Haptics Studio / Lofelt v1, read in legacy-compatibility mode and played with its own meaning:
    /// see `HapticPlayback`).
    /// - Throws: `CHHapticError.fileNotFound` for a missing file or a non-file URL, `.notSupported` for
    ///   another extension, and the first error of the file otherwise (its message says file:line:column).
    public convenience init(contentsOf ahapURL: URL) throws {
        guard ahapURL.isFileURL else {
            throw CHHapticError(.fileNotFound, "\(ahapURL.absoluteString) is not a file URL")
        }
        let ext = ahapURL.pathExtension.lowercased()
        guard ext == "ahap" || ext == "json" || ext == "haptic" else {
            throw CHHapticError(.notSupported, "\(ahapURL.path) is not an .ahap, .json or .haptic file")
        }
        guard FileManager.default.fileExists(atPath: ahapURL.path) else {
            throw CHHapticError(.fileNotFound, "\(ahapURL.path): no such file")
        }
        let read = PatternFiles.read(contentsOfFile: ahapURL.path)
        self.init(
            data: try Self.accept(read.pattern, read.diagnostics), sourceFolder: ahapURL.deletingLastPathComponent().path)
    }

    /// The pattern as an AHAP dictionary.
    /// - Throws: `CHHapticError.operationNotPermitted` when an event plays a registered resource ID or is
    ///   the emphasis of a `.haptic` file (which the intensity control does not scale).
    public func exportDictionary() throws -> [CHHapticPattern.Key: Any] {
        let dictionary = try AHAPEncoder.dictionary(data)
        return Dictionary(uniqueKeysWithValues: dictionary.map { (CHHapticPattern.Key(rawValue: $0.key), $0.value) })
    }

    /// `pattern` when `diagnostics` hold no error; else the first error as a `CHHapticError`.
    static func accept(_ pattern: PatternData?, _ diagnostics: [Diagnostic]) throws -> PatternData {
        if let error = diagnostics.first(where: { $0.severity == .error }) {
            var place = error.file ?? "<pattern>"
            if let line = error.line, let column = error.column { place += ":\(line):\(column)" }
            let message = [place, error.path.isEmpty ? nil : error.path, error.message].compactMap { $0 }
                .joined(separator: ": ") + (error.suggestion.map { "; \($0)" } ?? "")
            throw CHHapticError(error.code ?? .invalidPatternDictionary, message)
        }
        guard let pattern else {
            throw CHHapticError(.invalidPatternDictionary, "the pattern cannot be read")
        }
        return pattern
    }
}
