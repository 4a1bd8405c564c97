import CConfinedOpen
import FoundationEssentials
import Glibc

/// Opens a relative path below a folder so that the file opened is inside that folder at the moment it
/// is opened: `..`, absolute symbolic links and relative links that climb out are refused during the
/// lookup itself, so no rename or link swap between a check and the open can redirect it.
///
/// Two ways, same rules: `openat2(2)` with `RESOLVE_BENEATH` (Linux 5.6+), and where the kernel or a
/// seccomp filter refuses that call, a walk one name at a time with `openat(… O_NOFOLLOW)` from
/// descriptors already open, following links by reading them (`readlinkat`) and keeping `..` on its
/// own stack of open folders, never above the starting folder.
///
/// Hard links cannot be told apart: a hard link inside the folder is the file, wherever its other names
/// are (making one needs write access to the folder and, with `fs.protected_hardlinks`, to the file).
enum ConfinedOpen {
    /// How the lookup is confined.
    enum Method: CaseIterable {
        /// `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`.
        case openat2
        /// One `openat(… O_NOFOLLOW)` per name.
        case walk
    }

    /// Most symbolic links followed in one lookup (the kernel's own limit).
    static let maxLinks = 40

    /// Opens `path` (relative) below the folder `folder` (a descriptor) and checks what it found.
    /// `method` nil tries `openat2` and walks when the system refuses it.
    static func open(_ path: String, beneath folder: Int32, method: Method? = nil) -> AudioFileHandle.Outcome {
        if method != .walk {
            var attempts = 0
            while true {
                let descriptor = thrum_open_beneath(folder, path, AudioFileHandle.openFlags)
                let error = errno
                // EAGAIN: a rename raced with a `..` lookup; the kernel asks for a retry.
                if descriptor < 0 && error == EAGAIN && attempts < 16 {
                    attempts += 1
                    continue
                }
                if descriptor < 0 && method == nil && [ENOSYS, EPERM, E2BIG, EINVAL].contains(error) { break }
                errno = error
                return AudioFileHandle.check(descriptor)
            }
        }
        return walk(path, beneath: folder)
    }

    /// The `openat` walk (see the type's description). Names are handled as bytes, exactly as stored.
    static func walk(_ path: String, beneath folder: Int32) -> AudioFileHandle.Outcome {
        // Names still to look up, the next one last.
        var pending = components(FileSystemPath.bytes(path))
        // Folders entered below `folder`, innermost last; `..` leaves the innermost.
        var entered: [Int32] = []
        defer { for descriptor in entered { close(descriptor) } }
        var links = 0
        while let name = pending.popLast() {
            if name == [UInt8(ascii: ".")] { continue }
            if name == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                guard let innermost = entered.popLast() else { return .outside }
                close(innermost)
                continue
            }
            let parent = entered.last ?? folder
            let isLast = pending.isEmpty
            let flags = isLast ? AudioFileHandle.openFlags | O_NOFOLLOW : thrum_o_path | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
            let descriptor = withCString(name) { openat(parent, $0, flags) }
            if descriptor >= 0 {
                if isLast { return AudioFileHandle.check(descriptor) }
                entered.append(descriptor)
                continue
            }
            let error = errno
            // O_NOFOLLOW refuses a link (ELOOP, or ENOTDIR when a folder was asked for): read and follow it.
            guard error == ELOOP || error == ENOTDIR, let target = readLink(name, in: parent) else {
                errno = error
                return AudioFileHandle.check(-1)
            }
            links += 1
            if links > maxLinks { return .unusable(reason: String(cString: strerror(ELOOP))) }
            if target.first == UInt8(ascii: "/") { return .outside }
            pending += components(target)
        }
        // The path named a folder (it ends in `.` or `..`).
        return .folder
    }

    /// The names of a relative path, last first; empty names (`a//b`) are dropped.
    static func components(_ path: [UInt8]) -> [[UInt8]] {
        path.split(separator: UInt8(ascii: "/")).reversed().map(Array.init)
    }

    /// Calls `body` with `name` as a NUL-terminated C string.
    static func withCString<R>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// The target of the symbolic link `name` in `folder` (bytes as stored), or nil when it is not a link.
    static func readLink(_ name: [UInt8], in folder: Int32) -> [UInt8]? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = withCString(name) { readlinkat(folder, $0, &buffer, buffer.count) }
        guard count >= 0 else { return nil }
        return buffer[0..<count].map { UInt8(bitPattern: $0) }
    }
}
