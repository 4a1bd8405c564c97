import AHAPCodec
import AudioResources
import FoundationEssentials
import FoundationStandIns
import Glibc
import HapticFormats
import ThrumModel

/// How much one pattern may cost to read, check, render and draw, so that a small hostile file cannot
/// make a command work or allocate without bound. Each limit is raised by the option its message names.
struct PatternLimits {
    /// Largest pattern file in bytes (`--max-pattern-bytes`); the largest file in the corpus is 0.2 MB.
    var maxBytes = 4_000_000
    /// Most events and parameter steps together (`--max-events`).
    var maxEvents = 100_000
    /// Most curve control points, all curves together (`--max-curve-points`).
    var maxCurvePoints = 100_000

    static let options: [OptionSpec] = [
        .value(.maxPatternBytes, placeholder: "N", help: "largest pattern file read, in bytes (default 4000000)"),
        .value(.maxEvents, placeholder: "N", help: "most events and parameter steps in a pattern (default 100000)"),
        .value(.maxCurvePoints, placeholder: "N", help: "most curve control points in a pattern (default 100000)"),
    ]

    /// The defaults.
    init() {}

    /// The limits given on the command line, defaults for the others.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        maxBytes = try arguments.int(.maxPatternBytes, in: 1...Int(Int32.max)) ?? maxBytes
        maxEvents = try arguments.int(.maxEvents, in: 1...100_000_000) ?? maxEvents
        maxCurvePoints = try arguments.int(.maxCurvePoints, in: 1...100_000_000) ?? maxCurvePoints
    }

    /// The count limits `pattern` passes, each as one message naming the figure, the limit and its option.
    func problems(in pattern: PatternData) -> [String] {
        var problems: [String] = []
        let events = pattern.events.count + pattern.parameters.count
        if events > maxEvents {
            problems.append(
                "the pattern has \(events) events and parameter steps; the limit is \(maxEvents) (raise it with --max-events N)")
        }
        let points = pattern.curves.reduce(0) { $0 + $1.points.count }
        if points > maxCurvePoints {
            problems.append(
                "the pattern has \(points) curve control points; the limit is \(maxCurvePoints) (raise it with --max-curve-points N)")
        }
        return problems
    }
}

/// Reading a pattern argument: a file, or `-` for standard input.
enum PatternInput {
    /// The name standard input has in messages and diagnostics.
    static let standardInputName = "<stdin>"

    /// The absolute folder of a pattern file, against which its audio files resolve: `"a/x.ahap"` in `/tmp`
    /// → `"/tmp/a"`.
    static func folder(of path: String) -> String {
        PathName.parent(FileSystem.absolutePath(path))
    }

    /// The name of `argument` in messages: the path, or `<stdin>` for `-`.
    static func displayName(_ argument: String) -> String {
        argument == "-" ? standardInputName : argument
    }

    /// Why a pattern argument could not be read.
    struct Failure: Error {
        /// 66 (missing, a folder, unreadable) or 65 (over the size limit).
        let code: ExitCode
        /// What is wrong, without the name: "no such file", "it is a folder, not a pattern file".
        let reason: String
        /// The one-line message for a command: `cannot read 'NAME': REASON`.
        func message(_ name: String) -> String {
            if code == .dataError { return "\(name): \(reason)" }
            if reason == Self.noSuchFile { return "cannot open '\(name)': no such file (check the path)" }
            return "cannot read '\(name)': \(reason)"
        }

        /// The reason for a name that does not exist.
        static let noSuchFile = "no such file"
    }

    /// The bytes of the pattern `argument` (`-`: standard input), at most `limits.maxBytes`.
    /// - Throws: ``Failure``: 66 when it is missing, a folder or unreadable; 65 over the size limit.
    static func read(_ argument: String, limits: PatternLimits) throws(Failure) -> Data {
        let descriptor =
            argument == "-"
            ? dup(STDIN_FILENO) : FileSystemPath.withCString(argument) { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY) }
        guard descriptor >= 0 else {
            let error = errno
            throw Failure(
                code: .noInput,
                reason: error == ENOENT || error == ENOTDIR ? Failure.noSuchFile : String(cString: strerror(error)))
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR {
                throw Failure(code: .noInput, reason: "it is a folder, not a pattern file")
            }
            if status.st_mode & S_IFMT == S_IFREG && Int(status.st_size) > limits.maxBytes {
                throw tooLarge("\(status.st_size) bytes", limits: limits)
            }
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Failure(code: .noInput, reason: String(cString: strerror(errno))) }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            if data.count > limits.maxBytes { throw tooLarge("more than \(limits.maxBytes) bytes", limits: limits) }
        }
    }

    private static func tooLarge(_ size: String, limits: PatternLimits) -> Failure {
        Failure(
            code: .dataError,
            reason: "the file is \(size); the limit for a pattern file is \(limits.maxBytes) bytes (raise it with --max-pattern-bytes N)")
    }
}

/// A pattern file decoded: AHAP, or `.haptic`, HJIF or `.hmpg` by extension (its pattern is the one Thrum plays for it).
struct LoadedPattern {
    /// The pattern; nil when there is an error.
    let pattern: PatternData?
    /// Its diagnostics.
    let diagnostics: [Diagnostic]
    /// Where an AHAP file's entries are (empty for `.haptic`).
    let sourcePaths: AHAPDecodeResult.SourcePaths
    /// The `.haptic` file itself, when it is one without errors.
    let hapticFile: HapticFile?
    /// The MPEG haptics document, when the file is HJIF or `.hmpg` without errors.
    var hjifDocument: HJIFDocument? = nil
}

extension PatternInput {
    /// Decodes the bytes of the pattern called `name` (standard input is AHAP); `.haptic` files are
    /// checked in `mode`.
    static func decode(_ data: Data, name: String, mode: HapticValidationMode = .legacyCompatibility) -> LoadedPattern {
        if PatternFormat.ofInput(name) != .ahap {
            let result = PatternFiles.read(data: data, file: name, mode: mode)
            return LoadedPattern(
                pattern: result.pattern, diagnostics: result.diagnostics, sourcePaths: .init(), hapticFile: result.hapticFile,
                hjifDocument: result.hjifDocument)
        }
        let result = AHAPDecoder.decode(data: data, file: name)
        let fileName = name == standardInputName ? nil : AHAPDecoder.fileNameWarning(name)
        return LoadedPattern(
            pattern: result.pattern, diagnostics: (fileName.map { [$0] } ?? []) + result.diagnostics,
            sourcePaths: result.sourcePaths, hapticFile: nil)
    }
}

/// Reads and decodes one pattern argument for a command (AHAP, or `.haptic` by extension): missing or
/// unreadable is exit 66, errors in it (and counts over `limits`) exit 65.
func loadPattern(_ argument: String, limits: PatternLimits) throws -> (pattern: PatternData, loaded: LoadedPattern) {
    let name = PatternInput.displayName(argument)
    let data: Data
    do {
        data = try PatternInput.read(argument, limits: limits)
    } catch {
        throw CommandFailure(error.code, error.message(name))
    }
    let rerun = argument == "-" ? "" : " (run 'thrum check \(argument)' for every problem)"
    return try acceptPattern(PatternInput.decode(data, name: name), name: name, limits: limits, rerun: rerun)
}

/// The pattern of a decoded file; exit 65 with its first error (followed by `rerun`, a hint) or with the
/// first count over `limits`.
func acceptPattern(
    _ loaded: LoadedPattern, name: String, limits: PatternLimits, rerun: String
) throws -> (pattern: PatternData, loaded: LoadedPattern) {
    guard let pattern = loaded.pattern, !loaded.diagnostics.contains(where: { $0.severity == .error }) else {
        let first = loaded.diagnostics.first { $0.severity == .error }
        throw CommandFailure(.dataError, (first?.formatted ?? "\(name): the pattern cannot be loaded") + rerun)
    }
    if let problem = limits.problems(in: pattern).first { throw CommandFailure(.dataError, "\(name): \(problem)") }
    return (pattern, loaded)
}
