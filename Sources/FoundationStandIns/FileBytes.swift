import FoundationEssentials
import Glibc

/// Whole small files read through a descriptor, in place of Foundation's `FileHandle`: reads until the end of
/// the file or `limit` bytes, whichever comes first, so that /proc files (which say they are empty) and a wrong
/// path that names a device both stay harmless. Thread-safe; blocks on the reads.
package enum FileBytes {
    /// The bytes of the file at `path` (at most `limit`), or nil when it cannot be opened or read.
    package static func read(path: String, limit: Int) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return read(descriptor: descriptor, limit: limit)
    }

    /// The bytes from `descriptor` to its end (at most `limit`), or nil on a read error. Leaves it open.
    package static func read(descriptor: Int32, limit: Int) -> Data? {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while data.count < limit {
            let wanted = min(chunk.count, limit - data.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, wanted) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
        }
        return data
    }
}
