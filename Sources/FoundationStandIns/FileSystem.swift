import Glibc

/// Questions to the file system and the environment, in place of FoundationEssentials' `FileManager`, `URL`'s
/// `resolvingSymlinksInPath()` and `ProcessInfo.environment` on the path every `thrum` command takes: those
/// bring URL parsing, percent encoding and a copy of the whole environment into a start
/// (docs/performance.md, "Start-up and footprint"). Thread-safe; each call is one or a few system calls.
package enum FileSystem {
    /// Whether something exists at `path`, following symbolic links (a dangling link does not exist), as
    /// `FileManager.fileExists(atPath:)` answers.
    package static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Whether `path` names a directory, following symbolic links; nil when nothing exists there.
    package static func isDirectory(_ path: String) -> Bool? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFDIR
    }

    /// `path` with every symbolic link resolved and `.`/`..` removed (realpath(3)), or nil when it cannot be
    /// resolved (it does not exist, or a component cannot be searched).
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// ``realPath(_:)``, or `path` as given when it cannot be resolved (as `URL.resolvingSymlinksInPath()`).
    package static func resolvingSymlinks(_ path: String) -> String {
        realPath(path) ?? path
    }

    /// The names in the directory at `path` (without `.` and `..`, in the order the system gives), or nil when
    /// it cannot be opened as a directory.
    package static func directoryEntries(_ path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            // Read the name in place up to its NUL: a record is only as long as its name (`d_reclen`),
            // so copying the whole `dirent` (`entry.pointee`) reads bytes readdir never wrote.
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Bytes from the start of a `dirent` to its `d_name`.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// `path` made absolute against the current directory, with `.` components and each `..` with the
    /// component before it removed by name (no links followed), as `URL(fileURLWithPath:).path` gives it:
    /// `"a/../b/x"` in `/tmp` → `"/tmp/b/x"`. A relative `path` stays as given when the current directory
    /// cannot be read.
    package static func absolutePath(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/") {
            guard let directory = getcwd(nil, 0) else { return path }
            full = String(cString: directory) + "/" + path
            free(directory)
        }
        var kept: [Substring] = []
        for component in full.split(separator: "/") where component != "." {
            if component == ".." { _ = kept.popLast() } else { kept.append(component) }
        }
        return "/" + kept.joined(separator: "/")
    }

    /// Makes the folder at `path` and every missing folder above it, as `mkdir -p` does (an existing folder
    /// is fine). - Returns: nil, or the system's reason it could not (`Permission denied`, `File exists` for a
    /// file in the way).
    package static func makeFolders(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o777) != 0 {
                let error = errno
                guard error == EEXIST, isDirectory(prefix) == true else { return String(cString: strerror(error)) }
            }
            prefix += "/"
        }
        return nil
    }

    /// Whether `path` names a file this process may execute (access(2) with `X_OK`), as
    /// `FileManager.isExecutableFile(atPath:)` answers.
    package static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0 && isDirectory(path) == false
    }

    /// Why a call of ``FileSystem`` failed: the system's text (`Permission denied`).
    package struct Failure: Error {
        package let reason: String
    }

    /// A new, empty folder in ``temporaryFolder`` named `prefix` and six random characters (mkdtemp(3)),
    /// readable by this user only.
    /// - Throws: ``Failure`` with the system's reason.
    package static func makeTemporaryFolder(prefix: String) throws(Failure) -> String {
        var template = Array((temporaryFolder + "/" + prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw Failure(reason: String(cString: strerror(errno))) }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The current directory (getcwd(3)), or `.` when it cannot be read.
    package static var currentDirectory: String {
        guard let directory = getcwd(nil, 0) else { return "." }
        defer { free(directory) }
        return String(cString: directory)
    }

    /// The folder for temporary files: `$TMPDIR` (without a trailing `/`) when set and not empty, else `/tmp`,
    /// as FoundationEssentials' `FileManager.temporaryDirectory` answers.
    package static var temporaryFolder: String {
        guard var folder = environment("TMPDIR"), !folder.isEmpty else { return "/tmp" }
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return folder
    }

    /// The value of the environment variable `name`, or nil when it is not set. Not to be called while
    /// another thread changes the environment (setenv/unsetenv), as for getenv(3).
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
