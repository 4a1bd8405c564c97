@preconcurrency import Dispatch
import Glibc
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into a flag that `play` and `render` poll, so they stop cleanly
/// (playback drained, a half-written file removed) and exit 130.
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

    init() {
        for number in Self.signals {
            // Dispatch needs the signal ignored; `signal` also says what it was.
            let previous = Glibc.signal(number, SIG_IGN)
            if Self.isIgnore(previous) { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [received] in received.number.store(number, ordering: .relaxed) }
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

    deinit {
        for source in sources {
            source.cancel()
            Glibc.signal(Int32(source.handle), SIG_DFL)
        }
    }
}
