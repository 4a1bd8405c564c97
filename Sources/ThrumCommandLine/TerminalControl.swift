import FoundationEssentials
import FoundationStandIns
import Glibc

/// The terminal settings saved before raw mode, restored on every way out (normal exit, Ctrl-C, crash).
/// A global because the crash handlers are C signal handlers; written once before they are installed.
nonisolated(unsafe) private var savedTerminal = termios()
nonisolated(unsafe) private var terminalIsRaw = false

/// Restores the saved terminal settings, even from the background (SIGTTOU is blocked meanwhile, so a
/// job moved to the background is not stopped for it). Async-signal-safe (`pthread_sigmask`, `tcsetattr`).
private func restoreTerminal() {
    guard terminalIsRaw else { return }
    var blocked = sigset_t()
    var previous = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGTTOU)
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    tcsetattr(STDIN_FILENO, TCSANOW, &savedTerminal)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
}

/// Whether this process is in the terminal's foreground process group: only then may it set the
/// terminal's mode, read keys or draw a status line (a background job that does is stopped, SIGTTOU
/// or SIGTTIN, as `thrum play … &` would be).
func isForegroundOnTerminal() -> Bool {
    isatty(STDIN_FILENO) == 1 && tcgetpgrp(STDIN_FILENO) == getpgrp()
}

/// Restores the terminal before an exit that skips exit handlers (`_exit`). Async-signal-safe.
func restoreTerminalBeforeExit() { restoreTerminal() }

/// Restores the terminal, then lets the crash signal kill the process as it would have.
private let crashHandler: @convention(c) (Int32) -> Void = { number in
    restoreTerminal()
    signal(number, SIG_DFL)
    raise(number)
}

/// A key `thrum play` reacts to.
enum PlayKey: Equatable {
    case pauseResume, seekBack, seekForward, faster, slower, toggleLoop, toggleHapticMute, quit
}

/// Raw, non-blocking keyboard input on a terminal, with the terminal restored on exit and on crashes.
final class TerminalKeys {
    private var pending: [UInt8] = []

    /// Puts the terminal in non-canonical, no-echo mode; nil when stdin or stderr is not a terminal, or
    /// the process runs in the background (`thrum play … &` then leaves the terminal alone, like `aplay &`).
    init?() {
        guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1, isForegroundOnTerminal() else { return nil }
        guard tcgetattr(STDIN_FILENO, &savedTerminal) == 0 else { return nil }
        var raw = savedTerminal
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)  // ISIG stays on: Ctrl-C still raises SIGINT
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        terminalIsRaw = true
        for number in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] { signal(number, crashHandler) }
        atexit { restoreTerminal() }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    deinit { restore() }

    /// Restores the terminal now (also done on exit).
    func restore() {
        restoreTerminal()
        terminalIsRaw = false
    }

    /// The keys typed since the last call; none while the job is in the background (reading would stop it).
    func read() -> [PlayKey] {
        guard isForegroundOnTerminal() else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = Glibc.read(STDIN_FILENO, &buffer, buffer.count)
        if count > 0 { pending += buffer[0..<count] }
        return Self.parse(&pending)
    }

    /// Decodes key bytes (arrows are `ESC [ C` / `ESC [ D`), leaving an incomplete escape sequence pending.
    static func parse(_ bytes: inout [UInt8]) -> [PlayKey] {
        var keys: [PlayKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                guard index + 2 < bytes.count else { break }
                if bytes[index + 1] == UInt8(ascii: "[") {
                    if bytes[index + 2] == UInt8(ascii: "C") { keys.append(.seekForward) }
                    if bytes[index + 2] == UInt8(ascii: "D") { keys.append(.seekBack) }
                }
                index += 3
                continue
            }
            switch byte {
            case UInt8(ascii: " "): keys.append(.pauseResume)
            case UInt8(ascii: "+"), UInt8(ascii: "="): keys.append(.faster)
            case UInt8(ascii: "-"), UInt8(ascii: "_"): keys.append(.slower)
            case UInt8(ascii: "l"), UInt8(ascii: "L"): keys.append(.toggleLoop)
            case UInt8(ascii: "m"), UInt8(ascii: "M"): keys.append(.toggleHapticMute)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): keys.append(.quit)
            default: break
            }
            index += 1
        }
        bytes.removeFirst(index)
        return keys
    }
}

/// The one-line status `thrum play` shows on a terminal.
struct StatusLine {
    var position: Double
    var duration: Double
    var loopCount: Int
    var looping: Bool
    var rate: Double
    var xruns: UInt64
    var paused: Bool
    var hapticsMuted: Bool

    static func clock(_ seconds: Double) -> String {
        let total = max(0, seconds)
        return String(cFormat: "%ld:%05.2f", Int(total) / 60, total.truncatingRemainder(dividingBy: 60))
    }

    var text: String {
        var parts = [
            (paused ? "❚❚ " : "▶ ") + "\(Self.clock(position)) / \(Self.clock(duration))",
            looping ? "loop \(loopCount + 1)" : "once",
            String(cFormat: "rate ×%.2f", rate),
            "xruns \(xruns)",
        ]
        if hapticsMuted { parts.append("haptics muted") }
        parts.append("[space ←/→ +/- l m q]")
        return parts.joined(separator: "  ")
    }
}
