import ThrumModel

/// The diagnostics of one JSON document being read (an AHAP file, a `.haptic` file): what every reader of
/// such a document shares. Conforming types keep the file name and the diagnostics; the extension builds
/// each diagnostic and reads typed members in one style.
package protocol JSONReadingContext {
    /// The file name used in diagnostics; nil for text without one.
    var file: String? { get }
    /// The diagnostics so far, in the order they were found.
    var diagnostics: [Diagnostic] { get set }
}

extension JSONReadingContext {
    /// Adds a diagnostic about the value at JSON `path`, placed at `position` (nil when unknown).
    package mutating func report(
        _ severity: Diagnostic.Severity, _ code: CHHapticError.Code?, _ message: String, suggestion: String? = nil,
        path: String, at position: SourcePosition?
    ) {
        diagnostics.append(
            Diagnostic(
                severity, file: file, line: position?.line, column: position?.column, path: path, message: message,
                suggestion: suggestion, code: code))
    }

    /// The string in `member`, or nil after reporting what it holds instead.
    package mutating func string(_ member: JSONMember, path: String) -> String? {
        if case .string(let text) = member.value.value { return text }
        report(
            .error, .invalidPatternDictionary, "\(member.key) must be a string, found \(member.value.typeDescription)",
            path: path, at: member.value.position)
        return nil
    }
}

extension Diagnostic {
    /// `diagnostics` in source order; position-less ones first, keeping their order (a stable sort).
    package static func inSourceOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            let pa = a.element.position ?? SourcePosition(line: 0, column: 0)
            let pb = b.element.position ?? SourcePosition(line: 0, column: 0)
            if pa != pb { return pa < pb }
            return a.offset < b.offset
        }.map(\.element)
    }
}
