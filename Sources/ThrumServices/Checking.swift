import AHAPCodec
import FoundationEssentials
import HapticFormats
import RenderCore
import ThrumModel

/// What `check` is asked: strict mode, the engine settings the file is checked against (rate, voices,
/// profiles, resource folders and audio limits: those `play` would use) and the pattern limits.
package struct CheckRequest: Sendable {
    /// Every warning is an error; `.haptic` files are read in the spec's strict mode (`--strict`).
    package var strict = false
    package var engine = EngineSettings()
    package var limits = PatternLimits()

    package init(strict: Bool = false, engine: EngineSettings = EngineSettings(), limits: PatternLimits = PatternLimits()) {
        self.strict = strict
        self.engine = engine
        self.limits = limits
    }
}

/// One file checked: its findings, or why it could not be read.
package struct CheckedFile: Sendable {
    /// The file as named in messages (`<stdin>`, a bundled pattern's path).
    package let name: String
    /// Every finding, in `thrum check`'s order; empty when `unreadable`.
    package let diagnostics: [Diagnostic]
    /// Why the file could not be read (missing, a folder, unreadable: 66), or nil.
    package let unreadable: PatternInput.Failure?

    /// The findings, or the file's failure as a ``ServiceError`` (66).
    package func findings() throws(ServiceError) -> [Diagnostic] {
        if let unreadable { throw ServiceError(unreadable.code, unreadable.message(name)) }
        return diagnostics
    }
}

/// `check`: every problem Core Haptics would find in a pattern file, and what `play` would refuse or lose.
package enum Checking {
    /// Every finding for the file `argument` names (a path, a bundled pattern's name, `-` for standard
    /// input); with `strict` every warning is an error. A file over the size limit is one error.
    /// - Throws: 64 for a bad engine setting.
    package static func check(_ argument: String, _ request: CheckRequest) throws(ServiceError) -> CheckedFile {
        let path = Patterns.path(of: argument)
        let name = PatternInput.displayName(path)
        var diagnostics: [Diagnostic]
        do {
            let data = try PatternInput.read(path, limits: request.limits)
            let decoded = PatternInput.decode(data, name: name, mode: request.strict ? .strict : .legacyCompatibility)
            diagnostics = try check(decoded, path: path, engine: request.engine, limits: request.limits)
        } catch let failure as PatternInput.Failure where failure.code == .noInput {
            return CheckedFile(name: name, diagnostics: [], unreadable: failure)
        } catch let failure as PatternInput.Failure {
            diagnostics = [Diagnostic(.error, file: name, path: "", message: failure.reason)]
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(.software, "\(error)")
        }
        if request.strict {
            diagnostics = diagnostics.map { diagnostic in
                var promoted = diagnostic
                promoted.severity = .error
                return promoted
            }
        }
        return CheckedFile(name: name, diagnostics: diagnostics, unreadable: nil)
    }

    /// The findings for a file already decoded: the decoder's, then the count limits, then what `play`
    /// would refuse or lose (``PlayCheck``), each stage only when the one before found no error.
    /// - Throws: 64 for a bad engine setting.
    package static func check(
        _ decoded: LoadedPattern, path: String, engine: EngineSettings, limits: PatternLimits
    ) throws(ServiceError) -> [Diagnostic] {
        let name = PatternInput.displayName(path)
        guard let pattern = decoded.pattern, !decoded.diagnostics.contains(where: { $0.severity == .error }) else {
            return decoded.diagnostics
        }
        let problems = limits.problems(in: pattern)
        guard problems.isEmpty else {
            return decoded.diagnostics + problems.map { Diagnostic(.error, file: name, path: "", message: $0) }
        }
        let options = try engine.engineOptions(patternPaths: [path], defaultChannels: .separate)
        let folder = path == "-" ? nil : PatternInput.folder(of: path)
        return decoded.diagnostics + PlayCheck.diagnostics(decoded, file: name, folder: folder, options: options)
    }

    /// What checking a document's text finds: its findings and the pattern it decoded.
    package struct CheckedText: Sendable {
        /// The findings, in `thrum check`'s order.
        package var diagnostics: [Diagnostic]
        /// The pattern decoded from the text; nil when the text could not be decoded.
        package var pattern: PatternData?
        /// Where the text's entries are (for diagnostics and conversion losses).
        package var sourcePaths: AHAPDecodeResult.SourcePaths
    }

    /// The findings for `text` read as the AHAP file at `path` (absolute: its folder holds its audio files),
    /// with `resources` searched too, as `thrum check --resources ROOT PATH` finds them; the text is
    /// decoded once. A setting that cannot be used is one error.
    package static func check(text: Data, path: String, resources: [String]) -> CheckedText {
        let decoded = PatternInput.decode(text, name: PatternInput.displayName(path))
        var engine = EngineSettings()
        engine.resources = resources
        let diagnostics: [Diagnostic]
        do {
            diagnostics = try check(decoded, path: path, engine: engine, limits: PatternLimits())
        } catch {
            diagnostics = [Diagnostic(.error, file: path, path: "", message: error.message)]
        }
        return CheckedText(diagnostics: diagnostics, pattern: decoded.pattern, sourcePaths: decoded.sourcePaths)
    }
}
