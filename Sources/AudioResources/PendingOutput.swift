import FoundationEssentials
import FoundationStandIns
import Glibc

/// Where a file being written lives until it is complete, so that a failed, interrupted or abandoned
/// write leaves nothing behind and never damages what was there.
///
/// - A regular file (or a new name) is written to a temporary file beside it (same folder, so the
///   same file system) and renamed over the target on ``commit()`` (not flushed with `fsync`: the
///   promise is no partial file after an error or a signal, not durability across a power cut).
/// - Anything else (standard output, a pipe, a terminal, `/dev/null`) is written to an anonymous
///   temporary file in the temporary folder and copied to the destination on ``commit()``, so formats
///   whose header is written last (WAV, RF64) still reach a destination that cannot seek.
///
/// ``discard()`` (also run when the object goes away uncommitted) removes the temporary file.
/// Not thread-safe. Not real-time safe.
final class PendingOutput {
    /// The temporary file, open for reading and writing.
    let descriptor: Int32
    private var isOpen = true
    private var finish: Finish?

    private enum Finish {
        /// Rename `temporary` over `target`.
        case rename(temporary: String, target: String)
        /// Copy the anonymous file to `destination`, closing it afterwards when `owned`.
        case copy(destination: Int32, owned: Bool)
    }

    private init(descriptor: Int32, finish: Finish) {
        self.descriptor = descriptor
        self.finish = finish
    }

    deinit { discard() }

    /// Prepares to write `path`.
    /// - Throws: the reason as text (the folder is missing or not writable, the target is a folder).
    static func forPath(_ path: String) throws(PendingOutputError) -> PendingOutput {
        var status = stat()
        if FileSystemPath.withCString(path, { stat($0, &status) }) == 0 {
            let type = status.st_mode & S_IFMT
            if type == S_IFDIR { throw PendingOutputError("it is a folder") }
            if type != S_IFREG {
                // A device or FIFO: written through, once complete (opening a FIFO waits for a reader).
                let destination = FileSystemPath.withCString(path) { open($0, O_WRONLY | O_CLOEXEC | O_NOCTTY) }
                guard destination >= 0 else { throw PendingOutputError(errno: errno) }
                do {
                    return try anonymous(copyingTo: destination, owned: true)
                } catch {
                    close(destination)
                    throw error
                }
            }
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        for _ in 0..<16 {
            let temporary = folder + "." + name + ".thrum-" + String(UInt32.random(in: .min ... .max), radix: 16) + ".partial"
            let descriptor = FileSystemPath.withCString(temporary) {
                open($0, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
            }
            if descriptor >= 0 { return PendingOutput(descriptor: descriptor, finish: .rename(temporary: temporary, target: path)) }
            if errno != EEXIST { throw PendingOutputError(errno: errno) }
        }
        throw PendingOutputError("no free temporary name beside it")
    }

    /// Prepares to write to the open descriptor `destination` (e.g. standard output), which is not closed.
    static func forDescriptor(_ destination: Int32) throws(PendingOutputError) -> PendingOutput {
        try anonymous(copyingTo: destination, owned: false)
    }

    private static func anonymous(copyingTo destination: Int32, owned: Bool) throws(PendingOutputError) -> PendingOutput {
        var template = Array((FileSystem.temporaryFolder + "/thrum-output-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw PendingOutputError("cannot create a temporary file: \(String(cString: strerror(errno)))") }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return PendingOutput(descriptor: descriptor, finish: .copy(destination: destination, owned: owned))
    }

    /// Moves the finished file into place: rename, or copy to the destination.
    /// On failure the temporary file is removed and the target is left as it was (a copy to a pipe
    /// or device may have been partly delivered). Everything is closed afterwards.
    func commit() throws(PendingOutputError) {
        guard let finish else { return }
        switch finish {
        case .rename(let temporary, let target):
            let renamed = FileSystemPath.withCString(temporary) { from in
                FileSystemPath.withCString(target) { to in rename(from, to) }
            }
            guard renamed == 0 else {
                let error = PendingOutputError(errno: errno)
                discard()
                throw error
            }
            self.finish = nil
        case .copy(let destination, _):
            do {
                try copy(to: destination)
            } catch {
                discard()
                throw error
            }
        }
        discard()
    }

    /// Removes the temporary file (if it is still there) and closes everything. Safe to call twice.
    func discard() {
        if let finish {
            self.finish = nil
            if case .rename(let temporary, _) = finish { FileSystemPath.withCString(temporary) { _ = unlink($0) } }
            if case .copy(let destination, true) = finish { close(destination) }
        }
        if isOpen {
            isOpen = false
            close(descriptor)
        }
    }

    private func copy(to destination: Int32) throws(PendingOutputError) {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw PendingOutputError(errno: errno) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw PendingOutputError(errno: errno) }
            if count == 0 { return }
            var done = 0
            while done < count {
                let written = buffer.withUnsafeBytes { Glibc.write(destination, $0.baseAddress! + done, count - done) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw PendingOutputError(errno: written < 0 ? errno : EIO) }
                done += written
            }
        }
    }
}

/// Why a ``PendingOutput`` could not be prepared or committed, as text for a message.
struct PendingOutputError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
    init(errno number: Int32) { reason = String(cString: strerror(number)) }
}

/// Writes whole files the way ``AudioFileWriter`` does: under a temporary name beside the target,
/// renamed over it once complete (a destination that is not a regular file gets one copy), so a
/// failure leaves nothing and an existing file is never half-replaced. Any thread; not real-time safe.
package enum OutputFile {
    /// Writes `data` to `path`.
    /// - Throws: `.writeFailed` naming the file and the system's reason.
    package static func write(_ data: Data, to path: String) throws(AudioResourceError) {
        try write(together: [(path, data)])
    }

    /// Writes each file under a temporary name beside its target, then renames them all into place: a
    /// failure while writing leaves none of them (a target that existed before is replaced only at its
    /// rename).
    /// - Throws: `.writeFailed` naming the file that failed and the system's reason.
    package static func write(together files: [(path: String, data: Data)]) throws(AudioResourceError) {
        var pending: [PendingOutput] = []
        defer { for output in pending { output.discard() } }
        for file in files {
            do throws(PendingOutputError) {
                let output = try PendingOutput.forPath(file.path)
                pending.append(output)
                try output.write(file.data)
            } catch {
                throw .writeFailed(path: file.path, reason: error.reason)
            }
        }
        for (output, file) in zip(pending, files) {
            do throws(PendingOutputError) {
                try output.commit()
            } catch {
                throw .writeFailed(path: file.path, reason: error.reason)
            }
        }
    }
}

extension PendingOutput {
    /// Writes all of `data` to the temporary file.
    func write(_ data: Data) throws(PendingOutputError) {
        let failure: Int32 = data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return count < 0 ? errno : EIO }
                done += count
            }
            return 0
        }
        guard failure == 0 else { throw PendingOutputError(errno: failure) }
    }
}
