import Thrum
import ThrumModel

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

extension ServiceError {
    /// 64: `--OPTION takes a whole number from A to B, not 'TEXT'`.
    package static func notWholeNumber(_ option: String, _ range: ClosedRange<Int>, given text: String) -> ServiceError {
        .usage("--\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }

    /// 64: `--OPTION takes a number from A to B, not 'TEXT'`.
    package static func notNumber(_ option: String, _ range: ClosedRange<Double>, given text: String) -> ServiceError {
        .usage(
            "--\(option) takes a number from \(PatternValidator.formatted(range.lowerBound)) to "
                + "\(PatternValidator.formatted(range.upperBound)), not '\(text)'")
    }

    /// The status and message for an error from the engine (`CHHapticError`), naming `pattern`; anything
    /// else is a bug (70).
    package static func engine(_ error: any Error, pattern: String) -> ServiceError {
        if let error = error as? ServiceError { return error }
        guard let error = error as? CHHapticError else { return ServiceError(.software, "\(error)") }
        switch error.code {
        case .serverInitFailed, .serverInterrupted:
            return ServiceError(.unavailable, error.message)
        case .fileNotFound, .invalidAudioResource, .resourceNotAvailable:
            return ServiceError(.dataError, "\(pattern): \(error.message)")
        default:
            return ServiceError(.dataError, "\(pattern): \(error.message) [\(error.code)]")
        }
    }
}

/// Typed values checked against the ranges the command line's options take, with the options' messages
/// (the command line checks the text first with the same ranges; libthrum and Python pass numbers).
package enum Checked {
    /// `value` when it lies in `range` (nil passes); else ``ServiceError/notWholeNumber(_:_:given:)``.
    package static func whole(_ value: Int?, _ option: String, in range: ClosedRange<Int>) throws(ServiceError) -> Int? {
        guard let value else { return nil }
        guard range.contains(value) else { throw .notWholeNumber(option, range, given: "\(value)") }
        return value
    }

    /// `value` as a whole number in `range` (nil passes); a fraction or a value outside is refused.
    package static func whole(_ value: Double?, _ option: String, in range: ClosedRange<Int>) throws(ServiceError) -> Int? {
        guard let value else { return nil }
        guard value.isFinite, value == value.rounded(), Double(range.lowerBound) <= value, value <= Double(range.upperBound)
        else { throw .notWholeNumber(option, range, given: PatternValidator.formatted(value)) }
        return Int(value)
    }

    /// `value` when it is finite and lies in `range` (nil passes); else ``ServiceError/notNumber(_:_:given:)``.
    package static func number(_ value: Double?, _ option: String, in range: ClosedRange<Double>) throws(ServiceError) -> Double? {
        guard let value else { return nil }
        guard value.isFinite, range.contains(value) else { throw .notNumber(option, range, given: PatternValidator.formatted(value)) }
        return value
    }
}
