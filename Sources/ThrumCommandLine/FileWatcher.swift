import Foundation
import Glibc

/// Watches one file for edits with inotify (its folder, so editors that save by renaming are seen too),
/// debounced: `changedContents()` returns the new contents once they have been quiet for `debounce`.
final class FileWatcher {
    private let path: String
    private let descriptor: Int32
    private let debounce: Duration
    private var lastContents: Data?
    private var dirtySince: ContinuousClock.Instant?

    /// Starts watching `path`; nil if inotify is unavailable.
    init?(path: String, debounce: Duration = .milliseconds(150)) {
        self.path = path
        self.debounce = debounce
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_DELETE)
        guard inotify_add_watch(descriptor, folder.isEmpty ? "." : folder, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        lastContents = FileManager.default.contents(atPath: path)
    }

    deinit { close(descriptor) }

    /// The file's new contents when it changed and has been quiet for the debounce time; else nil.
    func changedContents() -> Data? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(descriptor, &buffer, buffer.count) > 0 { dirtySince = .now }
        guard let since = dirtySince, ContinuousClock.now - since >= debounce else { return nil }
        dirtySince = nil
        guard let contents = FileManager.default.contents(atPath: path), contents != lastContents else { return nil }
        lastContents = contents
        return contents
    }
}
