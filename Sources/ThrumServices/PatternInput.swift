import AHAPCodec
import AudioResources
import FoundationEssentials
import FoundationStandIns
import Glibc
import HapticFormats
import ThrumModel

/// Reading a pattern argument: a file, or `-` for standard input.
package enum PatternInput {
    /// The name standard input has in messages and diagnostics.
    package static let standardInputName = "<stdin>"

    /// The absolute folder of a pattern file, against which its audio files resolve: `"a/x.ahap"` in `/tmp`
    /// → `"/tmp/a"`.
    package static func folder(of path: String) -> String {
        PathName.parent(FileSystem.absolutePath(path))
    }

    /// The name of `argument` in messages: the path, or `<stdin>` for `-`.
    package static func displayName(_ argument: String) -> String {
        argument == "-" ? standardInputName : argument
    }

    /// Why a pattern argument could not be read.
    package struct Failure: Error {
        /// 66 (missing, a folder, unreadable) or 65 (over the size limit).
        package let code: ExitCode
        /// What is wrong, without the name: "no such file", "it is a folder, not a pattern file".
        package let reason: String
        /// The one-line message for a command: `cannot read 'NAME': REASON`.
        package func message(_ name: String) -> String {
            if code == .dataError { return "\(name): \(reason)" }
            if reason == Self.noSuchFile { return "cannot open '\(name)': no such file (check the path)" }
            return "cannot read '\(name)': \(reason)"
        }

        /// The reason for a name that does not exist.
        static let noSuchFile = "no such file"
    }

    /// The bytes of the pattern `argument` (`-`: standard input), at most `limits.maxBytes`.
    /// - Throws: ``Failure``: 66 when it is missing, a folder or unreadable; 65 over the size limit.
    package static func read(_ argument: String, limits: PatternLimits) throws(Failure) -> Data {
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
package struct LoadedPattern {
    /// The pattern; nil when there is an error.
    package let pattern: PatternData?
    /// Its diagnostics.
    package let diagnostics: [Diagnostic]
    /// Where an AHAP file's entries are (empty for `.haptic`).
    package let sourcePaths: AHAPDecodeResult.SourcePaths
    /// The `.haptic` file itself, when it is one without errors.
    package let hapticFile: HapticFile?
    /// The MPEG haptics document, when the file is HJIF or `.hmpg` without errors.
    package var hjifDocument: HJIFDocument? = nil
}

extension PatternInput {
    /// Decodes the bytes of the pattern called `name` (standard input is AHAP); `.haptic` files are
    /// checked in `mode`.
    package static func decode(_ data: Data, name: String, mode: HapticValidationMode = .legacyCompatibility) -> LoadedPattern {
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
package func loadPattern(_ argument: String, limits: PatternLimits) throws(ServiceError)
    -> (pattern: PatternData, loaded: LoadedPattern)
{
    let name = PatternInput.displayName(argument)
    let data: Data
    do {
        data = try PatternInput.read(argument, limits: limits)
    } catch {
        throw ServiceError(error.code, error.message(name))
    }
    let rerun = argument == "-" ? "" : " (run 'thrum check \(argument)' for every problem)"
    return try acceptPattern(PatternInput.decode(data, name: name), name: name, limits: limits, rerun: rerun)
}

/// The pattern of a decoded file; exit 65 with its first error (followed by `rerun`, a hint) or with the
/// first count over `limits`.
package func acceptPattern(
    _ loaded: LoadedPattern, name: String, limits: PatternLimits, rerun: String
) throws(ServiceError) -> (pattern: PatternData, loaded: LoadedPattern) {
    guard let pattern = loaded.pattern, !loaded.diagnostics.contains(where: { $0.severity == .error }) else {
        let first = loaded.diagnostics.first { $0.severity == .error }
        throw ServiceError(.dataError, (first?.formatted ?? "\(name): the pattern cannot be loaded") + rerun)
    }
    if let problem = limits.problems(in: pattern).first { throw ServiceError(.dataError, "\(name): \(problem)") }
    return (pattern, loaded)
}
