import FoundationEssentials
import Glibc
import ThrumCommandLine

// Patterns, check, convert, analyze and offline render (include/thrum.h).

@_cdecl("thrum_pattern_load")
public func thrum_pattern_load(_ pathOrName: UnsafePointer<CChar>?, _ error: ErrorOut) -> OpaquePointer? {
    reporting(error, fallback: { _ in nil }) {
        guard let pathOrName else { throw nullHandle("path_or_name") }
        return handle(try LibraryCalls.loadPattern(string(pathOrName)))
    }
}

private func patternFromText(_ text: UnsafePointer<CChar>?, _ length: Int, haptic: Bool, _ error: ErrorOut) -> OpaquePointer? {
    reporting(error, fallback: { _ in nil }) {
        guard let text else { throw nullHandle("json") }
        let data = Data(bytes: text, count: length)
        return handle(try LibraryCalls.pattern(text: data, haptic: haptic))
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
    return object(pattern, as: LibraryCalls.Pattern.self).duration
}

@_cdecl("thrum_pattern_write")
public func thrum_pattern_write(
    _ pattern: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ warnings: ErrorOut, _ error: ErrorOut
) -> Int32 {
    clear(warnings)
    return status(error) {
        guard let pattern else { throw nullHandle("pattern") }
        guard let path else { throw nullHandle("path") }
        store(try LibraryCalls.write(object(pattern), to: string(path)), into: warnings)
    }
}

@_cdecl("thrum_pattern_free")
public func thrum_pattern_free(_ pattern: OpaquePointer?) { release(pattern, as: LibraryCalls.Pattern.self) }

// MARK: - Check

/// The findings of one `thrum_check`, with their texts kept as C strings until it is freed.
final class Findings {
    let findings: [LibraryCalls.Finding]
    let texts: [[UnsafeMutablePointer<CChar>]]

    init(_ findings: [LibraryCalls.Finding]) {
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
    _ path: UnsafePointer<CChar>?, _ options: StringList, _ optionCount: Int, _ diagnostics: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: ErrorOut
) -> Int32 {
    diagnostics?.pointee = nil
    return status(error) {
        guard let path else { throw nullHandle("path") }
        guard let diagnostics else { throw nullHandle("diagnostics") }
        let found = try LibraryCalls.check(string(path), options: strings(options, optionCount, what: "options"))
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

private func finding(_ list: OpaquePointer?, _ index: Int) -> LibraryCalls.Finding? {
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

// MARK: - Convert and analyze

@_cdecl("thrum_convert")
public func thrum_convert(
    _ inputs: StringList, _ inputCount: Int, _ output: UnsafePointer<CChar>?, _ options: StringList, _ optionCount: Int,
    _ warnings: ErrorOut, _ error: ErrorOut
) -> Int32 {
    clear(warnings)
    return status(error) {
        guard let output else { throw nullHandle("output") }
        let files = try strings(inputs, inputCount, what: "inputs")
        guard !files.isEmpty else { throw LibraryCalls.Failure(status: 64, message: "thrum_convert needs at least one input") }
        let arguments = try strings(options, optionCount, what: "options") + ["-o", string(output), "--"] + files
        store(try LibraryCalls.run("convert", arguments), into: warnings)
    }
}

@_cdecl("thrum_analyze")
public func thrum_analyze(
    _ sound: UnsafePointer<CChar>?, _ output: UnsafePointer<CChar>?, _ options: StringList, _ optionCount: Int,
    _ warnings: ErrorOut, _ error: ErrorOut
) -> Int32 {
    clear(warnings)
    return status(error) {
        guard let sound else { throw nullHandle("sound") }
        guard let output else { throw nullHandle("output") }
        let arguments = try strings(options, optionCount, what: "options") + ["-o", string(output), "--", string(sound)]
        store(try LibraryCalls.run("analyze", arguments), into: warnings)
    }
}

// MARK: - Render

@_cdecl("thrum_channel_count")
public func thrum_channel_count(_ channels: UnsafePointer<CChar>?, _ error: ErrorOut) -> Int32 {
    reporting(error, fallback: { _ in -1 }) {
        guard let channels else { throw nullHandle("channels") }
        return Int32(try LibraryCalls.channelCount(string(channels)))
    }
}

@_cdecl("thrum_renderer_open")
public func thrum_renderer_open(
    _ pattern: OpaquePointer?, _ options: StringList, _ optionCount: Int, _ error: ErrorOut
) -> OpaquePointer? {
    reporting(error, fallback: { _ in nil }) {
        guard let pattern else { throw nullHandle("pattern") }
        let render = try LibraryCalls.Render(object(pattern), options: strings(options, optionCount, what: "options"))
        return handle(render)
    }
}

@_cdecl("thrum_renderer_channels")
public func thrum_renderer_channels(_ renderer: OpaquePointer?) -> Int32 {
    renderer.map { Int32(object($0, as: LibraryCalls.Render.self).channelCount) } ?? -1
}

@_cdecl("thrum_renderer_sample_rate")
public func thrum_renderer_sample_rate(_ renderer: OpaquePointer?) -> Double {
    renderer.map { object($0, as: LibraryCalls.Render.self).sampleRate } ?? -1
}

@_cdecl("thrum_renderer_read")
public func thrum_renderer_read(
    _ renderer: OpaquePointer?, _ interleaved: UnsafeMutablePointer<Float>?, _ maxFrames: Int64, _ error: ErrorOut
) -> Int64 {
    reporting(error, fallback: { _ in -1 }) {
        guard let renderer else { throw nullHandle("renderer") }
        let render = object(renderer, as: LibraryCalls.Render.self)
        guard maxFrames >= 0 else { throw LibraryCalls.Failure(status: 64, message: "max_frames is negative (\(maxFrames))") }
        guard let interleaved else { return Int64(try render.skipToEnd()) }
        return Int64(try render.read(into: interleaved, maxFrames: Int(maxFrames)))
    }
}

@_cdecl("thrum_renderer_free")
public func thrum_renderer_free(_ renderer: OpaquePointer?) { release(renderer, as: LibraryCalls.Render.self) }

@_cdecl("thrum_render")
public func thrum_render(
    _ pattern: OpaquePointer?, _ sampleRate: Double, _ channels: UnsafePointer<CChar>?,
    _ interleaved: UnsafeMutablePointer<Float>?, _ maxFrames: Int64, _ error: ErrorOut
) -> Int64 {
    reporting(error, fallback: { _ in -1 }) {
        guard let pattern else { throw nullHandle("pattern") }
        guard maxFrames >= 0 else { throw LibraryCalls.Failure(status: 64, message: "max_frames is negative (\(maxFrames))") }
        let rate = sampleRate == sampleRate.rounded() && abs(sampleRate) < 1e15 ? String(Int64(sampleRate)) : String(sampleRate)
        let options = ["--sample-rate", rate] + (channels.map { ["--channels", string($0)] } ?? [])
        let render = try LibraryCalls.Render(object(pattern), options: options)
        guard let interleaved else { return Int64(try render.skipToEnd()) }
        return Int64(try render.read(into: interleaved, maxFrames: Int(maxFrames)))
    }
}
