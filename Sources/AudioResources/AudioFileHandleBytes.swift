import FoundationEssentials
import Glibc

extension AudioFileHandle {
    /// The whole file's bytes, read from the open (checked, confined) descriptor: Thrum Studio serves and
    /// opens files under its root this way, so what was checked is what is read.
    /// - Throws: `.fileTooLarge` when the file holds more than `limit` bytes, `.unreadable` on a read error.
    package func readAll(limit: Int) throws(AudioResourceError) -> Data {
        if byteCount > limit { throw .fileTooLarge(path: displayName, bytes: byteCount, limit: limit) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let count = pread(descriptor, &buffer, buffer.count, offset)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count >= 0 else { throw .unreadable(path: displayName, reason: String(cString: strerror(errno))) }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            offset += off_t(count)
            if data.count > limit { throw .fileTooLarge(path: displayName, bytes: data.count, limit: limit) }
        }
    }
}
