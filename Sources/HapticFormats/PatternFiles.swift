import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import ThrumModel

/// The pattern file formats Thrum reads and writes, told apart by extension.
package enum PatternFormat: String, Sendable, CaseIterable {
    /// Apple's AHAP (`.ahap`, or `.json` when read).
    case ahap
    /// Meta Haptics Studio / Lofelt `.haptic`, version 1.
    case haptic
    /// Android vibration effects as JSON (`.json` when written): `createWaveform` and `BasicEnvelopeBuilder`.
    case android
    /// MPEG haptics (ISO/IEC 23090-31) as HJIF JSON (`.hjif`, media type `haptics/hjif`).
    case hjif
    /// MPEG haptics as its binary stream (`.hmpg`, media type `haptics/hmpg`).
    case hmpg

    /// The format of a file to read: `.haptic`, `.hjif` and `.hmpg` by extension; anything else is read as
    /// AHAP (whose decoder warns about an extension Core Haptics would not take).
    package static func ofInput(_ path: String) -> PatternFormat {
        switch PathName.fileExtension(path).lowercased() {
        case "haptic": .haptic
        case "hjif": .hjif
        case "hmpg": .hmpg
        default: .ahap
        }
    }

    /// The format of a file to write: `.ahap`, `.haptic`, `.hjif`, `.hmpg`, or `.json` (Android); nil for
    /// another extension.
    package static func ofOutput(_ path: String) -> PatternFormat? {
        switch PathName.fileExtension(path).lowercased() {
        case "ahap": .ahap
        case "haptic": .haptic
        case "json": .android
        case "hjif": .hjif
        case "hmpg": .hmpg
        default: nil
        }
    }

    /// Whether the format is MPEG haptics (HJIF or `.hmpg`).
    package var isMPEG: Bool { self == .hjif || self == .hmpg }
}

/// What reading a pattern file produced: the pattern to play (nil when there is an error) and every
/// diagnostic. A value type; thread-safe.
package struct PatternReadResult: Sendable {
    /// The format the file was read as.
    package var format: PatternFormat
    /// The playable pattern: the AHAP pattern, or `HapticPlayback`'s form of a `.haptic` file.
    package var pattern: PatternData?
    /// The `.haptic` file itself, when the file is one and has no errors.
    package var hapticFile: HapticFile?
    /// The MPEG haptics document, when the file is HJIF or `.hmpg` and has no errors.
    package var hjifDocument: HJIFDocument?
    /// Every problem found, in source order.
    package var diagnostics: [Diagnostic]

    /// Whether any diagnostic is an error.
    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Reads AHAP, `.haptic`, HJIF and `.hmpg` files by extension into playable patterns. Pure and thread-safe.
package enum PatternFiles {
    /// Reads the file at `path`; `.haptic` files are checked in `mode`.
    package static func read(
        contentsOfFile path: String, mode: HapticValidationMode = .legacyCompatibility
    ) -> PatternReadResult {
        let format = PatternFormat.ofInput(path)
        if format.isMPEG {
            guard let data = AHAPDecoder.readPatternFile(path) else {
                return PatternReadResult(format: format, pattern: nil, diagnostics: [AHAPDecoder.unreadableFile(path)])
            }
            return read(data: data, file: path)
        }
        switch format {
        case .haptic:
            let result = HapticFileDecoder.decode(contentsOfFile: path, mode: mode)
            return PatternReadResult(
                format: .haptic, pattern: result.file.map(HapticPlayback.pattern(for:)), hapticFile: result.file,
                diagnostics: result.diagnostics)
        case .ahap, .android, .hjif, .hmpg:
            let result = AHAPDecoder.decode(contentsOfFile: path)
            return PatternReadResult(format: .ahap, pattern: result.pattern, diagnostics: result.diagnostics)
        }
    }

    /// Reads `data` as the file `path` would be read (for editors that re-read what was saved).
    package static func read(
        data: Data, file path: String, mode: HapticValidationMode = .legacyCompatibility
    ) -> PatternReadResult {
        switch PatternFormat.ofInput(path) {
        case .haptic:
            let result = HapticFileDecoder.decode(data: data, file: path, mode: mode)
            return PatternReadResult(
                format: .haptic, pattern: result.file.map(HapticPlayback.pattern(for:)), hapticFile: result.file,
                diagnostics: result.diagnostics)
        case .hjif, .hmpg:
            let format = PatternFormat.ofInput(path)
            let result = format == .hjif ? HJIFDecoder.decode(data: data, file: path) : HMPGDecoder.decode(data: data, file: path)
            return PatternReadResult(
                format: format, pattern: result.document.map(HJIFPlayback.pattern(for:)), hjifDocument: result.document,
                diagnostics: result.diagnostics)
        case .ahap, .android:
            let result = AHAPDecoder.decode(data: data, file: path)
            return PatternReadResult(format: .ahap, pattern: result.pattern, diagnostics: result.diagnostics)
        }
    }
}
