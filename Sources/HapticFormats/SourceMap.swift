import AHAPCodec
import FoundationEssentials
import ThrumModel

/// A problem or a loss, found in a `.haptic` file or while converting, at a JSON path of its source.
/// `SourceMap` turns it into a positioned `Diagnostic`. A value type; thread-safe.
package struct HapticIssue: Sendable, Equatable {
    package var severity: Diagnostic.Severity
    /// The Core Haptics error it corresponds to; nil when none fits (losses in a conversion).
    package var code: CHHapticError.Code?
    /// One line saying what is wrong or what is lost.
    package var message: String
    /// What to do about it, when there is something simple.
    package var suggestion: String?
    /// The JSON path in the source document (`signals.continuous.envelopes.amplitude[3].time`,
    /// `Pattern[2].Event`); "" for the whole document.
    package var path: String
    /// Which input it is in, when several documents are converted together (their index); else 0.
    package var source: Int

    /// Creates an issue.
    package init(
        _ severity: Diagnostic.Severity, _ code: CHHapticError.Code? = nil, _ message: String,
        suggestion: String? = nil, path: String, source: Int = 0
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.suggestion = suggestion
        self.path = path
        self.source = source
    }
}

/// Where the values of one source document are: its file name and the position of each JSON path.
/// A value type; thread-safe.
package struct SourceMap: Sendable {
    /// The file name used in diagnostics; nil for text without one.
    package var file: String?
    /// JSON path → the position where its value starts.
    package var positions: SourcePositions

    /// Creates a map.
    package init(file: String?, positions: SourcePositions = SourcePositions()) {
        self.file = file
        self.positions = positions
    }

    /// The diagnostic for `issue`, at the position of its path or of the nearest ancestor that has one.
    package func diagnostic(_ issue: HapticIssue) -> Diagnostic {
        let position = SourcePosition.nearest(to: issue.path, in: positions)
        return Diagnostic(
            issue.severity, file: file, line: position?.line, column: position?.column, path: issue.path,
            message: issue.message, suggestion: issue.suggestion, code: issue.code)
    }
}
