import Glibc
import Synchronization

/// Writing to the process's standard output and standard error with `write(2)`, so that a closed or
/// full standard output is an I/O error the command reports (exit 74), never a crash.
///
/// ``prepare()`` runs once at start: standard descriptors that are closed are reopened on `/dev/null`
/// (so no file the command opens can take their number), and a closed standard output is remembered
/// as failed. `SIGPIPE` is ignored, so a reader that went away is `EPIPE` here. Thread-safe.
enum StandardStreams {
    /// The `errno` of the first failed write to standard output, or 0.
    private static let firstOutputError = Atomic<Int32>(0)

    /// Reopens closed standard descriptors on `/dev/null` and ignores `SIGPIPE`. Call once, first.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            if descriptor == STDOUT_FILENO { firstOutputError.store(EBADF, ordering: .relaxed) }
            let null = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if null >= 0 && null != descriptor {
                dup2(null, descriptor)
                close(null)
            }
        }
    }

    /// The `errno` of the first failed write to standard output, or nil when every write succeeded.
    static var outputError: Int32? {
        let error = firstOutputError.load(ordering: .relaxed)
        return error == 0 ? nil : error
    }

    /// Writes all of `text` to `descriptor`; after a failure on standard output, nothing more is written there.
    static func write(_ text: String, to descriptor: Int32) {
        if descriptor == STDOUT_FILENO && firstOutputError.load(ordering: .relaxed) != 0 { return }
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    if descriptor == STDOUT_FILENO {
                        _ = firstOutputError.compareExchange(expected: 0, desired: count < 0 ? errno : EIO, ordering: .relaxed)
                    }
                    return
                }
                done += count
            }
        }
    }
}
