import FoundationEssentials
import FoundationStandIns
import Glibc

/// Watches one file for edits with inotify. It watches the file's folder, so editors that save by
/// writing a new file and renaming it over the old one are seen too, but only events about the
/// watched file's own name count: a log or a recording written beside it changes nothing.
/// `changed()` is true once the file has been quiet for `debounce` after an edit. Used by `thrum play --watch`
/// and Thrum Studio. Not thread-safe.
package final class FileWatcher {
    private let descriptor: Int32
    /// The watched file's name in its folder, as bytes (names are compared byte for byte).
    private let name: [UInt8]
    private let debounce: Duration
    private var dirtySince: ContinuousClock.Instant?

    /// Starts watching `path`; nil if inotify is unavailable.
    package init?(path: String, debounce: Duration = .milliseconds(150)) {
        self.debounce = debounce
        name = FileSystemPath.bytes(PathName.lastComponent(path))
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let folder = PathName.parent(path)
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_DELETE | IN_MOVED_FROM)
        guard FileSystemPath.withCString(folder.isEmpty ? "." : folder, { inotify_add_watch(descriptor, $0, mask) }) >= 0 else {
            close(descriptor)
            return nil
        }
    }

    deinit { close(descriptor) }

    /// Whether the file changed (was written, replaced, created or removed) and has been quiet since for
    /// the debounce time. Each change is reported once.
    package func changed() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            if Self.names(in: buffer[0..<count]).contains(name) { dirtySince = .now }
        }
        guard let since = dirtySince, ContinuousClock.now - since >= debounce else { return false }
        dirtySince = nil
        return true
    }

    /// The names carried by the `inotify_event` records in `bytes` (header: wd, mask, cookie, len; then
    /// `len` bytes of NUL-padded name).
    package static func names(in bytes: ArraySlice<UInt8>) -> [[UInt8]] {
        var names: [[UInt8]] = []
        let header = MemoryLayout<inotify_event>.size
        var offset = bytes.startIndex
        while offset + header <= bytes.endIndex {
            let length = bytes[(offset + 12)..<(offset + 16)].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
            let start = offset + header
            guard start + length <= bytes.endIndex else { break }
            names.append(Array(bytes[start..<(start + length)].prefix { $0 != 0 }))
            offset = start + length
        }
        return names
    }
}
