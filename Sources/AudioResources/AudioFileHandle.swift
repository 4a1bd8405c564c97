import CSndFile
import FoundationEssentials
import Glibc

/// An audio file opened for reading: a file descriptor whose type and size were checked with `fstat`.
///
/// Everything decided about a file (that it is a regular file, its size, that it lies inside an
/// allowed folder) is decided on this open descriptor, and the same descriptor is what libsndfile
/// reads, so a file renamed, replaced or swapped for a symbolic link after opening is never read
/// in its place. Opening never blocks: a FIFO or device is opened non-blocking and refused.
///
/// Not thread-safe (reads share the descriptor's offset): use one handle from one thread at a time.
/// The descriptor is closed when the handle goes away. Not for the real-time thread.
package final class AudioFileHandle {
    /// Identifies a file independently of its name: the same file opened by two names (links)
    /// has the same identity.
    package struct Identity: Hashable, Sendable {
        /// `st_dev` of the file.
        package var device: UInt64
        /// `st_ino` of the file.
        package var inode: UInt64
    }

    /// The open descriptor (read-only, close-on-exec, blocking).
    let descriptor: Int32
    /// The path the file was opened by.
    package let path: String
    /// The name used in messages: the path as the pattern or the caller wrote it.
    package let displayName: String
    /// Device and inode of the open file.
    package let identity: Identity
    /// Size of the file in bytes, from `fstat` of the open descriptor.
    package let byteCount: Int

    /// Flags for opening a resource file: read-only, and never blocking on a FIFO or device.
    static let openFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC

    /// An open regular file, before it has a name for messages.
    struct OpenFile {
        var descriptor: Int32
        var identity: Identity
        var byteCount: Int
    }

    /// What opening a name found.
    enum Outcome {
        /// A regular file, opened (the caller owns the descriptor).
        case file(OpenFile)
        /// Nothing by that name.
        case missing
        /// A folder by that name (it does not count as the file).
        case folder
        /// The name leads outside the folder it was looked up in.
        case outside
        /// The name exists but cannot be used; `reason` says why.
        case unusable(reason: String)
    }

    /// Opens `path` (symbolic links followed, no confinement), for a caller that named the file itself.
    /// - Parameters:
    ///   - path: the file.
    ///   - displayName: the name for messages (default: `path`).
    /// - Throws: `.missing` when nothing is there, `.unreadable` for a folder, a FIFO, a device or a
    ///   file that cannot be opened.
    package convenience init(path: String, displayName: String? = nil) throws(AudioResourceError) {
        let name = displayName ?? path
        switch Self.check(FileSystemPath.withCString(path) { open($0, Self.openFlags) }) {
        case .file(let file): self.init(file, path: path, displayName: name)
        case .missing, .outside: throw .missing(path: name, searched: [path])
        case .folder: throw .unreadable(path: name, reason: "it is a folder, not a file")
        case .unusable(let reason): throw .unreadable(path: name, reason: reason)
        }
    }

    /// Takes ownership of an open file's descriptor.
    init(_ file: OpenFile, path: String, displayName: String) {
        descriptor = file.descriptor
        self.path = path
        identity = file.identity
        byteCount = file.byteCount
        self.displayName = displayName
    }

    deinit { close(descriptor) }

    /// Checks what `open` returned: keeps a regular file (made blocking again), closes anything else.
    /// Reads `errno` when `descriptor` is negative.
    static func check(_ descriptor: Int32) -> Outcome {
        guard descriptor >= 0 else {
            let error = errno
            switch error {
            case ENOENT, ENOTDIR: return .missing
            case EXDEV: return .outside
            default: return .unusable(reason: String(cString: strerror(error)))
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            return .unusable(reason: reason)
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            return type == S_IFDIR ? .folder : .unusable(reason: "it is not a regular file")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return .file(
            OpenFile(
                descriptor: descriptor, identity: Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)),
                byteCount: Int(status.st_size)))
    }

    /// Opens the file with libsndfile from its start. The descriptor stays owned by the handle.
    /// - Returns: the libsndfile handle and the header it read, or nil (libsndfile's message is then
    ///   ``SndFile/errorMessage(_:)`` of nil).
    func openSoundFile(_ info: inout SF_INFO) -> OpaquePointer? {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { return nil }
        return sf_open_fd(descriptor, Int32(SFM_READ), &info, 0)
    }
}
