import ALSAOutput
import AudioResources
import FoundationEssentials
import FoundationStandIns
import Thrum
import ThrumModel
import ThrumServices

/// One `thrum` subcommand.
struct Subcommand: Sendable {
    let spec: CommandSpec
    let run: @Sendable (ParsedArguments, Console) throws -> ExitCode
}

/// The `thrum` command line: parses arguments and runs a subcommand.
package enum ThrumCommandLine {
    /// Thrum's version, printed by `thrum --version`.
    package static let version = ThrumVersion.string

    static let commands: [Subcommand] = [
        playCommand, renderCommand, plotCommand, checkCommand, infoCommand, analyzeCommand, convertCommand, listCommand,
        devicesCommand, studioCommand, measureCommand,
        completionsCommand,
        importCommand,
    ]

    /// Commands that help does not list: `man`, which the package build runs.
    static let hiddenCommands: [Subcommand] = [manCommand]

    static var overview: String {
        let width = (commands.map(\.spec.name.count).max() ?? 0) + 2
        var lines = [
            "usage: thrum COMMAND [options] [arguments]", "",
            "Thrum plays and renders Core Haptics patterns (AHAP files, and .haptic files) on Linux.", "", "commands:",
        ]
        for command in commands {
            lines.append("  " + command.spec.name.padded(to: width) + command.spec.summary)
        }
        lines += [
            "", "Run 'thrum COMMAND --help' for a command's options; 'thrum --version' for the version.",
            "Exit codes: 0 ok, 64 usage, 65 bad pattern or audio data, 66 input missing, 69 no device,",
            "70 internal error, 73 cannot create a file, 74 I/O error, 130 interrupted.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The process's `thrum`: prepares the standard streams, runs its arguments on them and returns the
    /// exit status; a failed write to standard output makes it 74. Arguments are read byte for byte,
    /// so file names that are not UTF-8 reach the file system unchanged (``FileSystemPath``).
    package static func main() -> Int32 {
        StandardStreams.prepare()
        let arguments = (1..<Int(CommandLine.argc)).map { index in
            let argument = CommandLine.unsafeArgv[index]!
            return FileSystemPath.string(fromBytes: UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
        let console = Console.standard
        let status = run(arguments, console: console)
        if let error = StandardStreams.outputError {
            // A reader that went away (`thrum list | head -1`) is not worth a message; the status says it.
            if error != EPIPE { console.error("thrum: cannot write to standard output: \(String(cString: strerror(error)))") }
            return ExitCode.ioError.rawValue
        }
        return status
    }

    /// Runs `thrum` with `arguments` (without the program name) and returns the exit status.
    package static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        // alsa-lib prints its own errors to stderr; Thrum reports them in one line instead.
        if FileSystem.environment("THRUM_ALSA_DEBUG") == nil {
            ALSADevices.setLibraryDiagnostics(enabled: false)
        }
        if arguments.first == "--version" {
            console.writeOut("thrum \(version)\n")
            return ExitCode.ok.rawValue
        }
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            if arguments.isEmpty {
                console.writeErr(overview)
                return ExitCode.usage.rawValue
            }
            if arguments.count > 1, let command = commands.first(where: { $0.spec.name == arguments[1] }) {
                console.writeOut(command.spec.helpText)
            } else {
                console.writeOut(overview)
            }
            return ExitCode.ok.rawValue
        }
        guard let command = (commands + hiddenCommands).first(where: { $0.spec.name == name }) else {
            let guess = Suggestions.closest(to: name, in: commands.map(\.spec.name))
            console.error(
                "thrum: unknown command '\(name)'" + (guess.map { "; did you mean '\($0)'?" } ?? "")
                    + " (see 'thrum --help')")
            return ExitCode.usage.rawValue
        }
        do {
            let parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), for: command.spec)
            if parsed.wantsHelp {
                console.writeOut(command.spec.helpText)
                return ExitCode.ok.rawValue
            }
            return try command.run(parsed, console).rawValue
        } catch let error as UsageError {
            console.error("thrum \(name): \(error.message)")
            return ExitCode.usage.rawValue
        } catch let failure as ServiceError {
            console.error("thrum \(name): \(failure.message)")
            return failure.status.rawValue
        } catch {
            console.error("thrum \(name): internal error: \(error)")
            return ExitCode.software.rawValue
        }
    }
}
