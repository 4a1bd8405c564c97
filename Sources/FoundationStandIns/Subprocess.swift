import Glibc

/// Other programs run from Thrum (the PNG converter of `thrum plot`, the browser opener of `thrum studio`), in
/// place of Foundation's `Process`: posix_spawn(3) with the caller's environment, every signal at its default
/// action, standard input from /dev/null, standard output and error into files. Thread-safe.
package enum Subprocess {
    /// Why a program could not be started: one line naming it and the system's reason.
    package struct SpawnError: Error, CustomStringConvertible {
        package var description: String
    }

    /// How a program ended.
    package enum Ending: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (its number).
        case signalled(Int32)
    }

    /// Starts the program at `path` with `arguments` (without the program's own name, which is `path`); its
    /// standard output and error go to the files `output` and `error` (created or truncated, mode 0600; both
    /// /dev/null when nil). Returns at once with the child's process ID; ``wait(_:)`` reaps it.
    /// - Throws: ``SpawnError`` when the program cannot be started (missing, not executable, a file that cannot
    ///   be created).
    package static func spawn(_ path: String, _ arguments: [String], output: String? = nil, error: String? = nil)
        throws(SpawnError) -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let writeFlags = O_WRONLY | O_CREAT | O_TRUNC  // no O_CLOEXEC: these become the program's own 1 and 2
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", writeFlags, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, error ?? "/dev/null", writeFlags, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The program starts with every signal at its default action and none blocked, whatever this process
        // ignores or blocks (thrum ignores SIGINT and SIGTERM to receive them through Dispatch).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var child = pid_t()
        let status = posix_spawn(&child, path, &actions, &attributes, argv, environ)
        guard status == 0 else { throw SpawnError(description: "cannot run \(path): \(String(cString: strerror(status)))") }
        return child
    }

    /// Waits for the child `process` to end and reaps it.
    package static func wait(_ process: pid_t) -> Ending {
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 && errno == EINTR {}
        // The wait(2) status: the low 7 bits are the signal that ended the child (0: it exited); bits 8-15
        // its exit status.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
}
