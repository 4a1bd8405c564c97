import FoundationEssentials
import ThrumModel

/// One problem found in an AHAP document: where it is, what is wrong, what to do, and which
/// Core Haptics error it corresponds to.
package struct Diagnostic: Sendable, Equatable {
    /// How serious a diagnostic is.
    package enum Severity: String, Sendable {
        /// Core Haptics would refuse the pattern (or the text is not JSON).
        case error
        /// Core Haptics accepts it but changes or ignores something.
        case warning
    }

    package var severity: Severity
    /// The file name as given to the decoder; nil for text or dictionaries without one.
    package var file: String?
    /// 1-based line; nil when unknown (e.g. a pattern from a dictionary).
    package var line: Int?
    /// 1-based column in characters; nil when unknown.
    package var column: Int?
    /// The JSON path of the value (`Pattern[3].Event.EventParameters[1]`, `Version`); "" for the document.
    package var path: String
    /// One line saying what is wrong.
    package var message: String
    /// What to do about it, when there is something simple.
    package var suggestion: String?
    /// The Core Haptics error this is (or would be, for a warning); nil when none fits.
    package var code: CHHapticError.Code?

    /// Creates a diagnostic.
    package init(
        _ severity: Severity, file: String? = nil, line: Int? = nil, column: Int? = nil, path: String,
        message: String, suggestion: String? = nil, code: CHHapticError.Code? = nil
    ) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
        self.suggestion = suggestion
        self.code = code
    }

    /// The source position, when the line is known.
    package var position: SourcePosition? {
        guard let line else { return nil }
        return SourcePosition(line: line, column: column ?? 1)
    }

    /// Compiler-style text:
    /// `FILE:LINE:COL: error: PATH: MESSAGE; SUGGESTION [CHHapticError.NAME]`.
    ///
    /// Missing parts are left out; with no file name `<input>` is used, and with no line only `FILE:`.
    package var formatted: String {
        var text = file ?? "<input>"
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": \(severity.rawValue): "
        if !path.isEmpty { text += "\(path): " }
        text += message
        if let suggestion { text += "; \(suggestion)" }
        if let code { text += " [CHHapticError.\(code.name)]" }
        return text
    }

    /// The diagnostic for tools, as a JSON-ready dictionary with keys `file`, `line`, `column`,
    /// `severity`, `path`, `message`, `suggestion`, `code` (the name) and `codeValue` (Apple's number).
    /// Absent values are ``JSONNull``.
    package var jsonObject: [String: Any] {
        [
            "file": file ?? JSONNull(),
            "line": line ?? JSONNull(),
            "column": column ?? JSONNull(),
            "severity": severity.rawValue,
            "path": path,
            "message": message,
            "suggestion": suggestion ?? JSONNull(),
            "code": code?.name ?? JSONNull(),
            "codeValue": code?.rawValue ?? JSONNull(),
        ]
    }

    /// The diagnostic as one line of compact JSON with the keys of `jsonObject`, in that order.
    package var jsonText: String {
        func string(_ value: String?) -> String { value.map(AHAPEncoder.quoted) ?? "null" }
        func int(_ value: Int?) -> String { value.map(String.init) ?? "null" }
        return "{\"file\":\(string(file)),\"line\":\(int(line)),\"column\":\(int(column)),"
            + "\"severity\":\(string(severity.rawValue)),\"path\":\(string(path)),\"message\":\(string(message)),"
            + "\"suggestion\":\(string(suggestion)),\"code\":\(string(code?.name)),\"codeValue\":\(int(code?.rawValue))}"
    }
}
