@preconcurrency import Dispatch
import Glibc
import Synchronization
import ThrumServices

/// Turns SIGINT, SIGTERM and SIGHUP into a flag that `play` and `render` poll, so they stop cleanly
/// (playback drained, a half-written file removed) and exit 130.
///
/// With a watchdog (`play`), the process ends within a second of the first signal whatever ALSA is doing
/// (a plugin stuck on a dead server): the watchdog restores the terminal and exits with 130; a second
/// signal exits at once. `render` has no device to wait for and goes without, so it always gets to
/// remove its unfinished file.
///
/// A signal the process inherited as ignored stays ignored (`nohup` ignores SIGHUP; a shell script
/// ignores SIGINT in the jobs it starts with `&`). The previous handling is restored when the flag goes
/// away. Not thread-safe to create; `signalNumber` may be read from any thread.
final class InterruptFlag {
    /// The signals that interrupt a command.
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    private final class Received: Sendable {
        let number = Atomic<Int32>(0)
    }
    private let received = Received()
    private var sources: [any DispatchSourceSignal] = []

    /// Seconds from the first signal to the watchdog's forced exit.
    static let watchdogSeconds = 0.9

    /// Starts turning the signals into the flag; `watchdog` names the command in the forced exit's message
    /// (nil: no watchdog).
    init(watchdog: String? = nil) {
        for number in Self.signals {
            // Dispatch needs the signal ignored; `signal` also says what it was.
            let previous = Glibc.signal(number, SIG_IGN)
            if Self.isIgnore(previous) { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [received] in
                let first = received.number.exchange(number, ordering: .relaxed) == 0
                guard let watchdog else { return }
                if !first { Self.forceExit(watchdog, "interrupted twice") }
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.watchdogSeconds) {
                    Self.forceExit(watchdog, "the device did not stop within a second of the interrupt; exiting anyway")
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Whether `handler` is `SIG_IGN` (C function pointers are compared by address).
    private static func isIgnore(_ handler: __sighandler_t?) -> Bool {
        unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// The signal received, or 0.
    var signalNumber: Int32 { received.number.load(ordering: .relaxed) }

    /// Whether a signal has been received.
    var isSet: Bool { signalNumber != 0 }

    /// Restores the terminal and ends the process with 130 without running exit handlers (which could
    /// wait on the stuck device).
    private static func forceExit(_ command: String, _ reason: String) -> Never {
        restoreTerminalBeforeExit()
        let line = Array("\r\u{1B}[K\(command): \(reason)\n".utf8)
        _ = line.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
        _exit(ExitCode.interrupted.rawValue)
    }

    deinit {
        for source in sources {
            source.cancel()
            Glibc.signal(Int32(source.handle), SIG_DFL)
        }
    }
}
