/// Exit statuses (sysexits), as docs/decisions.md fixes them: what the `thrum` command exits with, what
/// libthrum's calls return (`THRUM_STATUS_*`) and Python's `ThrumError.status`.
package enum ExitCode: Int32, Sendable {
    case ok = 0
    /// The request is wrong (an option, a combination of options).
    case usage = 64
    /// A pattern, sound, profile or setting is bad.
    case dataError = 65
    /// An input file is missing or unreadable.
    case noInput = 66
    /// No playback device, or it refuses the setup.
    case unavailable = 69
    /// A bug in Thrum.
    case software = 70
    /// An output file cannot be created (its folder is missing, …).
    case cantCreate = 73
    /// Reading or writing a file failed.
    case ioError = 74
    /// Stopped by Ctrl-C (the command line only).
    case interrupted = 130
}

/// Why a service could not do what it was asked: the exit status and the one-line message every front
/// door shows for it (the command after `thrum COMMAND: `, libthrum's `error`, Python's `ThrumError`).
/// Messages name the command line's options (`--rate`), the one spelling the documentation uses.
/// A value; thread-safe.
package struct ServiceError: Error, Equatable, Sendable {
    package let status: ExitCode
    package let message: String

    package init(_ status: ExitCode, _ message: String) {
        self.status = status
        self.message = message
    }

    /// A usage error (64).
    package static func usage(_ message: String) -> ServiceError { ServiceError(.usage, message) }
}
