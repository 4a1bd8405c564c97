import FoundationEssentials
import Glibc

/// Where a command writes: standard output and standard error, or buffers in tests.
package struct Console: Sendable {
    let writeOut: @Sendable (String) -> Void
    let writeErr: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress and status lines are shown only then).
    package let errIsTerminal: Bool

    /// Creates a console from two writers.
    package init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        errIsTerminal: Bool = false
    ) {
        writeOut = out
        writeErr = err
        self.errIsTerminal = errIsTerminal
    }

    /// The process's standard output and standard error (see ``StandardStreams``: a failed write to
    /// standard output is remembered and ends the command with exit 74).
    package static var standard: Console {
        Console(
            out: { text in StandardStreams.write(text, to: STDOUT_FILENO) },
            err: { text in StandardStreams.write(text, to: STDERR_FILENO) },
            errIsTerminal: isatty(STDERR_FILENO) == 1)
    }

    /// Writes `text` and a newline to standard output, control characters escaped (``TerminalText``).
    func print(_ text: String) { writeOut(TerminalText.escaped(text) + "\n") }
    /// Writes `text` and a newline to standard output exactly as it is (`--json` output).
    func printExact(_ text: String) { writeOut(text + "\n") }
    /// Writes `text` and a newline to standard error, control characters escaped (``TerminalText``).
    func error(_ text: String) { writeErr(TerminalText.escaped(text) + "\n") }
}
