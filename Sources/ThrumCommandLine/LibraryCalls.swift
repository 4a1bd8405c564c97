import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import HapticFormats
import RenderCore
import Thrum

/// What libthrum (the C ABI, Sources/ThrumC) calls: the CLI's commands as functions, with the CLI's own
/// checks, options (spelled as on its command line) and one-line messages. The C layer only marshals.
package enum LibraryCalls {
    /// A failed call: the exit status the CLI ends with (sysexits: 64 usage, 65 data, 66 no input, 69 no
    /// device, 70 internal, 74 I/O) and the message it prints after `thrum COMMAND: `.
    package struct Failure: Error {
        package let status: Int32
        package let message: String

        package init(status: Int32, message: String) {
            self.status = status
            self.message = message
        }
    }

    /// `error` as a ``Failure``; an engine error (`CHHapticError`) is named after `patternPath` as the CLI does.
    package static func failure(_ error: any Error, patternPath: String = "") -> Failure {
        switch error {
        case let failure as Failure: return failure
        case let usage as UsageError: return Failure(status: ExitCode.usage.rawValue, message: usage.message)
        case let command as CommandFailure: return Failure(status: command.code.rawValue, message: command.message)
        case let read as PatternInput.Failure: return Failure(status: read.code.rawValue, message: read.message(patternPath))
        default:
            let command = commandFailure(error, patternPath: patternPath)
            return Failure(status: command.code.rawValue, message: command.message)
        }
    }

    /// Parses `options` (as on the command line, e.g. `["--loops", "3"]`) against the options of `command`
    /// that `allowed` names (nil: all of them); no positional argument is taken.
    static func parseOptions(_ options: [String], of command: Subcommand, allowed: Set<String>? = nil) throws
        -> ParsedArguments
    {
        let spec = command.spec
        let optionsOnly = CommandSpec(
            name: spec.name, summary: spec.summary, positionalUsage: "", minPositionals: 0, maxPositionals: 0,
            options: spec.options.filter { allowed?.contains($0.long) ?? true }, details: "")
        let parsed = try ParsedArguments.parse(options, for: optionsOnly)
        if parsed.wantsHelp { throw UsageError(message: "--help is not an option of a library call") }
        return parsed
    }

    // MARK: - Patterns

    /// A pattern loaded as `thrum render` and `thrum play` load one. Immutable, so thread-safe.
    package final class Pattern: @unchecked Sendable {
        let argument: PatternArgument
        /// The pattern's duration in seconds (release tails excluded).
        package var duration: Double { argument.pattern.duration }
        /// The name in messages: the file (a bundled pattern's full path), or `<json>` / `<haptic>` for text.
        package var name: String { argument.path }

        init(_ argument: PatternArgument) { self.argument = argument }
    }

    /// The pattern a `PATTERN[@ACTUATOR]` argument of `render` names: a file (AHAP, or `.haptic` by
    /// extension), a bundled pattern by name, or a sound file played as it is.
    package static func loadPattern(_ pathOrName: String) throws -> Pattern {
        let target = PatternTarget(pathOrName)
        let (pattern, path) = try EngineArguments.pattern(target.pattern, limits: PatternLimits())
        return Pattern(PatternArgument(target: target, pattern: pattern, path: path))
    }

    /// A pattern from the text of an AHAP document (`haptic` false, named `<json>` in messages) or of a
    /// `.haptic` file (named `<haptic>`); its audio files resolve against the resource folders only.
    package static func pattern(text: Data, haptic: Bool) throws -> Pattern {
        let name = haptic ? "<haptic>" : "<json>"
        let loaded: LoadedPattern
        if haptic {
            let result = HapticFileDecoder.decode(data: text, file: name)
            loaded = LoadedPattern(
                pattern: result.file.map(HapticPlayback.pattern(for:)), diagnostics: result.diagnostics,
                sourcePaths: .init(), hapticFile: result.file)
        } else {
            let result = AHAPDecoder.decode(data: text, file: name)
            loaded = LoadedPattern(
                pattern: result.pattern, diagnostics: result.diagnostics, sourcePaths: result.sourcePaths, hapticFile: nil)
        }
        let data = try acceptPattern(loaded, name: name, limits: PatternLimits(), rerun: "").pattern
        let target = PatternTarget(pattern: name, locality: nil)
        return Pattern(PatternArgument(target: target, pattern: CHHapticPattern(data: data), path: name))
    }

    /// Writes `pattern` to `path` as AHAP (`.ahap`) or `.haptic` (what `thrum convert` writes for it), through
    /// a temporary file and a rename.
    /// - Returns: the conversion's losses, one formatted line each (`.haptic` only).
    package static func write(_ pattern: Pattern, to path: String) throws -> [String] {
        let data = pattern.argument.pattern.data
        switch PatternFormat.ofOutput(path) {
        case .ahap:
            try writeText(AHAPEncoder.encode(data), to: path)
            return []
        case .haptic:
            let converted = AHAPToHaptic.convert([AHAPSource(pattern: data)])
            let losses = converted.issues.map { issue in
                Diagnostic(issue.severity, file: pattern.name, path: "", message: issue.message, code: issue.code)
            }
            guard let file = converted.file else {
                throw CommandFailure(
                    .dataError, "nothing written: " + (losses.first { $0.severity == .error }?.formatted ?? "no haptic content"))
            }
            try writeText(HapticFileEncoder.encode(file), to: path)
            return losses.map(\.formatted)
        case .android, .hjif, .hmpg, nil:
            throw UsageError(message: "'\(path)': a pattern is written as .ahap or .haptic (use thrum_convert for Android JSON)")
        }
    }

    // MARK: - Check

    /// One finding of `check`.
    package struct Finding: Sendable {
        package let file: String
        /// 1-based; 0 when unknown.
        package let line: Int
        /// 1-based; 0 when unknown.
        package let column: Int
        /// `error` or `warning`.
        package let severity: String
        /// What is wrong: `PATH: MESSAGE; SUGGESTION [CHHapticError.NAME]`, the line's text after the severity.
        package let message: String
        /// The whole line `thrum check` prints.
        package let text: String
    }

    /// The findings `thrum check FILE OPTIONS` prints for one file (options: `--strict`, `--sample-rate`,
    /// `--voices`, `--profile`, `--resources`, `--allow-any-path`, the audio and pattern limits).
    /// - Throws: a ``Failure`` with status 66 when the file is missing or unreadable, 64 for a bad option.
    package static func check(_ path: String, options: [String]) throws -> [Finding] {
        let arguments = try parseOptions(options, of: checkCommand, allowed: checkOptionNames)
        let diagnostics: [Diagnostic]
        do {
            diagnostics = try checkFile(path, limits: PatternLimits(arguments), arguments: arguments)
        } catch {
            throw failure(error, patternPath: PatternInput.displayName(path))
        }
        return diagnostics.map { diagnostic in
            let prefix = diagnostic.formatted.firstRange(of: ": \(diagnostic.severity.rawValue): ")
            return Finding(
                file: diagnostic.file ?? PatternInput.displayName(path), line: diagnostic.line ?? 0,
                column: diagnostic.column ?? 0, severity: diagnostic.severity.rawValue,
                message: prefix.map { String(diagnostic.formatted[$0.upperBound...]) } ?? diagnostic.message,
                text: diagnostic.formatted)
        }
    }

    static let checkOptionNames: Set<String> = [
        "strict", "sample-rate", "voices", "profile", "resources", "allow-any-path", "max-audio-bytes",
        "max-audio-seconds", "max-audio-memory", "max-pattern-bytes", "max-events", "max-curve-points",
    ]

    // MARK: - Commands run whole

    /// Runs `thrum NAME ARGUMENTS` in this process (its output captured, nothing on the terminal).
    /// - Returns: the lines it wrote to standard error (warnings) when it succeeded.
    /// - Throws: a ``Failure`` with its exit status and its last line without `thrum NAME: `.
    package static func run(_ name: String, _ arguments: [String]) throws -> [String] {
        let captured = CapturedLines()
        let console = Console(out: { _ in }, err: { captured.append($0) })
        let status = ThrumCommandLine.run([name] + arguments, console: console)
        let lines = captured.lines
        guard status == ExitCode.ok.rawValue else {
            let last = lines.last ?? "thrum \(name): failed"
            let prefix = "thrum \(name): "
            throw Failure(status: status, message: last.hasPrefix(prefix) ? String(last.dropFirst(prefix.count)) : last)
        }
        return lines
    }

    // MARK: - Render

    /// The channels per frame of a channel map (`L,R,H`, `M+H`, …) as `--channels` reads it.
    package static func channelCount(_ channels: String) throws -> Int {
        do {
            return try ChannelMap(parsing: channels).channelCount
        } catch {
            throw UsageError(message: "--channels: \(error)")
        }
    }

    /// An offline render of one pattern with `thrum render`'s options (`--loops`, `--loop`, `--loop-end`,
    /// `--rate`, `--seek`, `--duration`, `--sample-rate`, `--channels`, `--layout`, `--profile`, `--voices`,
    /// the resource options, `--haptics-from-audio`, `--preset`), read block by block: the samples
    /// `thrum render PATTERN OPTIONS --format float` writes. Not thread-safe: one caller at a time.
    package final class Render {
        let plan: RenderPlan
        /// Interleaved channels per frame (the channel map's).
        package let channelCount: Int
        /// Frames per second.
        package let sampleRate: Double
        private var rendered = 0
        private var ended = false

        package init(_ pattern: Pattern, options: [String]) throws {
            let arguments = try LibraryCalls.parseOptions(options, of: renderCommand, allowed: Render.optionNames)
            plan = try RenderPlan(arguments) { [pattern.argument] }
            channelCount = plan.options.channelMap.channelCount
            sampleRate = plan.options.sampleRate
        }

        static let optionNames = Set(renderCommand.spec.options.map(\.long)).subtracting(["output", "format"])

        /// Renders the next frames into `buffer` (room for `maxFrames` frames).
        /// - Returns: the frames written; fewer than `maxFrames` only at the end, 0 once it is over.
        package func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws -> Int {
            var written = 0
            while written < maxFrames && !ended {
                // Blocks of 4096 frames, as `thrum render` renders them.
                let count = min(4096, maxFrames - written, (plan.limit ?? .max) - rendered)
                if count <= 0 {
                    end()
                    break
                }
                let step = try plan.render.step(
                    into: buffer + written * channelCount, frameCount: count, rendered: rendered, limit: plan.limit)
                written += step.frames
                rendered += step.frames
                if step.ended { end() }
            }
            return written
        }

        /// Renders the rest without keeping it. - Returns: the frames it had.
        package func skipToEnd() throws -> Int {
            var scratch = [Float](repeating: 0, count: 4096 * channelCount)
            var total = 0
            while true {
                let count = try scratch.withUnsafeMutableBufferPointer { try read(into: $0.baseAddress!, maxFrames: 4096) }
                if count == 0 { return total }
                total += count
            }
        }

        private func end() {
            guard !ended else { return }
            ended = true
            _ = plan.render.finish(frames: rendered)
        }

        deinit { end() }
    }
}

/// Lines written by a command in this process, gathered from any thread.
private final class CapturedLines: @unchecked Sendable {
    private let lock = Lock()
    private var text = ""

    func append(_ chunk: String) { lock.withLock { text += chunk } }

    var lines: [String] { lock.withLock { text.split(separator: "\n").map(String.init) } }
}
