import AHAPCodec
import CThrumABI
import FoundationEssentials
import Glibc
import ThrumServices

// Patterns, check, convert, analyze, import and offline render (include/thrum.h).

@_cdecl("thrum_pattern_load")
public func thrum_pattern_load(_ pathOrName: UnsafePointer<CChar>?, _ error: ErrorOut) -> OpaquePointer? {
    reporting(error, fallback: { _ in nil }) {
        guard let pathOrName else { throw nullHandle("path_or_name") }
        return handle(PatternHandle(try Patterns.load(string(pathOrName))))
    }
}

private func patternFromText(_ text: UnsafePointer<CChar>?, _ length: Int, haptic: Bool, _ error: ErrorOut) -> OpaquePointer? {
    reporting(error, fallback: { _ in nil }) {
        guard let text else { throw nullHandle("json") }
        let data = Data(bytes: text, count: length)
        return handle(PatternHandle(try Patterns.load(text: data, haptic: haptic)))
    }
}

@_cdecl("thrum_pattern_from_json")
public func thrum_pattern_from_json(_ json: UnsafePointer<CChar>?, _ length: Int, _ error: ErrorOut) -> OpaquePointer? {
    patternFromText(json, length, haptic: false, error)
}

@_cdecl("thrum_pattern_from_haptic")
public func thrum_pattern_from_haptic(_ json: UnsafePointer<CChar>?, _ length: Int, _ error: ErrorOut) -> OpaquePointer? {
    patternFromText(json, length, haptic: true, error)
}

@_cdecl("thrum_pattern_duration")
public func thrum_pattern_duration(_ pattern: OpaquePointer?) -> Double {
    guard let pattern else { return -1 }
    return object(pattern, as: PatternHandle.self).pattern.duration
}

@_cdecl("thrum_pattern_write")
public func thrum_pattern_write(
    _ pattern: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ warnings: ErrorOut, _ error: ErrorOut
) -> Int32 {
    clear(warnings)
    return status(error) {
        guard let pattern else { throw nullHandle("pattern") }
        guard let path else { throw nullHandle("path") }
        store(try object(pattern, as: PatternHandle.self).pattern.write(to: string(path)), into: warnings)
    }
}

@_cdecl("thrum_pattern_free")
public func thrum_pattern_free(_ pattern: OpaquePointer?) { release(pattern, as: PatternHandle.self) }

// MARK: - Check

/// One finding of `thrum_check`, as the header gives it.
struct Finding {
    let file: String
    /// 1-based; 0 when unknown.
    let line: Int
    /// 1-based; 0 when unknown.
    let column: Int
    /// `error` or `warning`.
    let severity: String
    /// What is wrong: `PATH: MESSAGE; SUGGESTION [CHHapticError.NAME]`, the line's text after the severity.
    let message: String
    /// The whole line `thrum check` prints.
    let text: String

    init(_ diagnostic: Diagnostic, fileName: String) {
        let prefix = diagnostic.formatted.firstRange(of: ": \(diagnostic.severity.rawValue): ")
        file = diagnostic.file ?? fileName
        line = diagnostic.line ?? 0
        column = diagnostic.column ?? 0
        severity = diagnostic.severity.rawValue
        message = prefix.map { String(diagnostic.formatted[$0.upperBound...]) } ?? diagnostic.message
        text = diagnostic.formatted
    }
}

/// The findings of one `thrum_check`, with their texts kept as C strings until it is freed.
final class Findings {
    let findings: [Finding]
    let texts: [[UnsafeMutablePointer<CChar>]]

    init(_ findings: [Finding]) {
        self.findings = findings
        texts = findings.map { [cString($0.file), cString($0.severity), cString($0.message), cString($0.text)] }
    }

    deinit { for strings in texts { for text in strings { free(text) } } }

    func text(_ index: Int, _ field: Int) -> UnsafePointer<CChar>? {
        index >= 0 && index < texts.count ? UnsafePointer(texts[index][field]) : nil
    }
}

@_cdecl("thrum_check")
public func thrum_check(
    _ path: UnsafePointer<CChar>?, _ options: UnsafePointer<thrum_check_options>?,
    _ diagnostics: UnsafeMutablePointer<OpaquePointer?>?, _ error: ErrorOut
) -> Int32 {
    diagnostics?.pointee = nil
    return status(error) {
        guard let path else { throw nullHandle("path") }
        guard let diagnostics else { throw nullHandle("diagnostics") }
        let checked = try Checking.check(string(path), checkRequest(options))
        let found = try checked.findings().map { Finding($0, fileName: checked.name) }
        diagnostics.pointee = handle(Findings(found))
    }
}

@_cdecl("thrum_diagnostics_count")
public func thrum_diagnostics_count(_ list: OpaquePointer?) -> Int {
    list.map { object($0, as: Findings.self).findings.count } ?? 0
}

@_cdecl("thrum_diagnostics_errors")
public func thrum_diagnostics_errors(_ list: OpaquePointer?) -> Int {
    list.map { object($0, as: Findings.self).findings.filter { $0.severity == "error" }.count } ?? 0
}

@_cdecl("thrum_diagnostic_file")
public func thrum_diagnostic_file(_ list: OpaquePointer?, _ index: Int) -> UnsafePointer<CChar>? {
    list.flatMap { object($0, as: Findings.self).text(index, 0) }
}

@_cdecl("thrum_diagnostic_severity")
public func thrum_diagnostic_severity(_ list: OpaquePointer?, _ index: Int) -> UnsafePointer<CChar>? {
    list.flatMap { object($0, as: Findings.self).text(index, 1) }
}

@_cdecl("thrum_diagnostic_message")
public func thrum_diagnostic_message(_ list: OpaquePointer?, _ index: Int) -> UnsafePointer<CChar>? {
    list.flatMap { object($0, as: Findings.self).text(index, 2) }
}

@_cdecl("thrum_diagnostic_text")
public func thrum_diagnostic_text(_ list: OpaquePointer?, _ index: Int) -> UnsafePointer<CChar>? {
    list.flatMap { object($0, as: Findings.self).text(index, 3) }
}

private func finding(_ list: OpaquePointer?, _ index: Int) -> Finding? {
    guard let list else { return nil }
    let findings = object(list, as: Findings.self).findings
    return index >= 0 && index < findings.count ? findings[index] : nil
}

@_cdecl("thrum_diagnostic_line")
public func thrum_diagnostic_line(_ list: OpaquePointer?, _ index: Int) -> Int32 {
    Int32(clamping: finding(list, index)?.line ?? 0)
}

@_cdecl("thrum_diagnostic_column")
public func thrum_diagnostic_column(_ list: OpaquePointer?, _ index: Int) -> Int32 {
    Int32(clamping: finding(list, index)?.column ?? 0)
}

@_cdecl("thrum_diagnostics_free")
public func thrum_diagnostics_free(_ list: OpaquePointer?) { release(list, as: Findings.self) }

// MARK: - Convert, analyze and import

@_cdecl("thrum_convert")
public func thrum_convert(
    _ inputs: StringList, _ inputCount: Int, _ output: UnsafePointer<CChar>?, _ options: UnsafePointer<thrum_convert_options>?,
    _ warnings: ErrorOut, _ error: ErrorOut
) -> Int32 {
    clear(warnings)
    return status(error) {
        guard let output else { throw nullHandle("output") }
        let files = try strings(inputs, inputCount, what: "inputs")
        guard !files.isEmpty else { throw ServiceError.usage("thrum_convert needs at least one input") }
        var diagnostics: [Diagnostic] = []
        defer { store(diagnostics.map(\.formatted), into: warnings) }
        _ = try Converting.convert(convertRequest(options, inputs: files, output: string(output)), diagnostics: &diagnostics)
    }
}

@_cdecl("thrum_analyze")
public func thrum_analyze(
    _ sound: UnsafePointer<CChar>?, _ output: UnsafePointer<CChar>?, _ options: UnsafePointer<thrum_analyze_options>?,
    _ warnings: ErrorOut, _ error: ErrorOut
) -> Int32 {
    clear(warnings)
    return status(error) {
        guard let sound else { throw nullHandle("sound") }
        guard let output else { throw nullHandle("output") }
        let request = try analysisRequest(options, sound: string(sound), output: string(output))
        var lines: [String] = []
        defer { store(lines, into: warnings) }
        let chosen = try Analyzing.settings(request)
        lines += chosen.notes.map { "note: \($0)" }
        let analyzed = try Analyzing.analyze(request, with: chosen)
        lines += analyzed.warnings.map { "warning: \($0)" }
    }
}

@_cdecl("thrum_import")
public func thrum_import(
    _ project: UnsafePointer<CChar>?, _ folder: UnsafePointer<CChar>?, _ options: UnsafePointer<thrum_import_options>?,
    _ written: ErrorOut, _ warnings: ErrorOut, _ error: ErrorOut
) -> Int32 {
    clear(written)
    clear(warnings)
    return status(error) {
        guard let project else { throw nullHandle("project") }
        guard let folder else { throw nullHandle("folder") }
        let imported = try ProjectImport.run(importRequest(options, project: string(project), folder: string(folder)))
        store(imported.written.flatMap(\.files), into: written)
        store(imported.notes.map { "note: \($0)" } + imported.failures.map { "error: \($0.message)" }, into: warnings)
        if let summary = imported.failureSummary { throw ServiceError(imported.status, summary) }
    }
}

// MARK: - Render

@_cdecl("thrum_channel_count")
public func thrum_channel_count(_ channels: UnsafePointer<CChar>?, _ error: ErrorOut) -> Int32 {
    reporting(error, fallback: { _ in -1 }) {
        guard let channels else { throw nullHandle("channels") }
        return Int32(try EngineSettings.channelCount(string(channels)))
    }
}

@_cdecl("thrum_renderer_open")
public func thrum_renderer_open(
    _ pattern: OpaquePointer?, _ options: UnsafePointer<thrum_render_options>?, _ error: ErrorOut
) -> OpaquePointer? {
    reporting(error, fallback: { _ in nil }) {
        guard let pattern else { throw nullHandle("pattern") }
        let (transport, engine) = try renderRequest(options)
        return handle(try Render([object(pattern, as: PatternHandle.self).pattern], transport: transport, engine: engine))
    }
}

@_cdecl("thrum_renderer_channels")
public func thrum_renderer_channels(_ renderer: OpaquePointer?) -> Int32 {
    renderer.map { Int32(object($0, as: Render.self).channelCount) } ?? -1
}

@_cdecl("thrum_renderer_sample_rate")
public func thrum_renderer_sample_rate(_ renderer: OpaquePointer?) -> Double {
    renderer.map { object($0, as: Render.self).sampleRate } ?? -1
}

/// Reads up to `maxFrames` frames of `render` into `interleaved` (NULL: renders the rest, keeping nothing).
private func read(_ render: Render, _ interleaved: UnsafeMutablePointer<Float>?, _ maxFrames: Int64) throws -> Int64 {
    guard maxFrames >= 0 else { throw ServiceError.usage("max_frames is negative (\(maxFrames))") }
    guard let interleaved else { return Int64(try render.skipToEnd()) }
    return Int64(try render.read(into: interleaved, maxFrames: Int(maxFrames)))
}

@_cdecl("thrum_renderer_read")
public func thrum_renderer_read(
    _ renderer: OpaquePointer?, _ interleaved: UnsafeMutablePointer<Float>?, _ maxFrames: Int64, _ error: ErrorOut
) -> Int64 {
    reporting(error, fallback: { _ in -1 }) {
        guard let renderer else { throw nullHandle("renderer") }
        return try read(object(renderer, as: Render.self), interleaved, maxFrames)
    }
}

@_cdecl("thrum_renderer_free")
public func thrum_renderer_free(_ renderer: OpaquePointer?) { release(renderer, as: Render.self) }

@_cdecl("thrum_render")
public func thrum_render(
    _ pattern: OpaquePointer?, _ sampleRate: Double, _ channels: UnsafePointer<CChar>?,
    _ interleaved: UnsafeMutablePointer<Float>?, _ maxFrames: Int64, _ error: ErrorOut
) -> Int64 {
    reporting(error, fallback: { _ in -1 }) {
        guard let pattern else { throw nullHandle("pattern") }
        guard maxFrames >= 0 else { throw ServiceError.usage("max_frames is negative (\(maxFrames))") }
        var engine = EngineSettings()
        engine.sampleRate = try Checked.whole(sampleRate, "sample-rate", in: EngineSettings.sampleRates)
        engine.channels = channels.map(string)
        return try read(Render([object(pattern, as: PatternHandle.self).pattern], engine: engine), interleaved, maxFrames)
    }
}

/// A loaded pattern behind a `thrum_pattern` handle. Immutable, so thread-safe.
final class PatternHandle: Sendable {
    let pattern: PatternToPlay

    init(_ pattern: PatternToPlay) { self.pattern = pattern }
}
