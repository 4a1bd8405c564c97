import AudioResources
import Foundation
import Synchronization
import Testing

@testable import ThrumCommandLine

/// Issue 13, problem 10: `play --watch` reacts to the watched file only, so a busy neighbour (a log, a
/// recording) written more often than the debounce cannot keep it from ever reloading.
@Suite struct FileWatcherTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "thrum-watch-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Polls `watcher` for up to `seconds`; true as soon as it reports a change.
    static func changes(_ watcher: FileWatcher, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if watcher.changed() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    @Test func aSaveIsSeenWhileAnotherFileInTheFolderIsWrittenConstantly() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pattern = folder + "/p.ahap"
        try "one".write(toFile: pattern, atomically: false, encoding: .utf8)
        let watcher = try #require(FileWatcher(path: pattern, debounce: .milliseconds(150)))
        let stop = Atomic<Bool>(false)
        let log = folder + "/recording.log"
        let writer = Thread {
            let handle = FileManager.default.createFile(atPath: log, contents: nil) ? FileHandle(forWritingAtPath: log) : nil
            while !stop.load(ordering: .relaxed) {
                handle?.write(Data("tick\n".utf8))
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        writer.start()
        defer { stop.store(true, ordering: .relaxed) }
        #expect(!Self.changes(watcher, within: 0.5), "writes to another file are not changes")
        try "two".write(toFile: pattern, atomically: false, encoding: .utf8)
        #expect(Self.changes(watcher, within: 3))
        #expect(!watcher.changed(), "each change is reported once")
    }

    @Test func aSaveByRenameIsSeen() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pattern = folder + "/p.ahap"
        try "one".write(toFile: pattern, atomically: false, encoding: .utf8)
        let watcher = try #require(FileWatcher(path: pattern, debounce: .milliseconds(50)))
        try "two".write(toFile: folder + "/.p.ahap.swp", atomically: false, encoding: .utf8)
        #expect(rename(folder + "/.p.ahap.swp", pattern) == 0)
        #expect(Self.changes(watcher, within: 3))
    }
}
