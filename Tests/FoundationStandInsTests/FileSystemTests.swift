import Foundation
import Glibc
import Testing
import FoundationStandIns

/// `FileSystem` against Foundation's own answers for the same files: a file, a folder, a link to each, a
/// dangling link and a missing name, in a fresh temporary folder.
@Suite struct FileSystemTests {
    /// A temporary folder with `file`, `folder/`, `folder/inner`, `to-file` → file, `to-folder` → folder,
    /// `dangling` → missing.
    private static func tree() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-fs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: root + "/folder", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/file"))
        try Data().write(to: URL(fileURLWithPath: root + "/folder/inner"))
        try FileManager.default.createSymbolicLink(atPath: root + "/to-file", withDestinationPath: root + "/file")
        try FileManager.default.createSymbolicLink(atPath: root + "/to-folder", withDestinationPath: "folder")
        try FileManager.default.createSymbolicLink(atPath: root + "/dangling", withDestinationPath: root + "/missing")
        return root
    }

    @Test func existenceAndKindAreFoundations() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in ["file", "folder", "folder/inner", "to-file", "to-folder", "dangling", "missing", "file/not-a-folder"] {
            let path = root + "/" + name
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            #expect(FileSystem.exists(path) == exists, "\(name)")
            #expect(FileSystem.isDirectory(path) == (exists ? isDirectory.boolValue : nil), "\(name)")
        }
    }

    @Test func linksResolveAsFoundationResolvesThem() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in ["file", "to-file", "to-folder", "to-folder/inner", "folder/../file", "./to-file"] {
            let path = root + "/" + name
            #expect(FileSystem.resolvingSymlinks(path) == URL(fileURLWithPath: path).resolvingSymlinksInPath().path, "\(name)")
        }
        // Nothing to resolve: the path comes back as given.
        #expect(FileSystem.resolvingSymlinks(root + "/missing/x") == root + "/missing/x")
    }

    @Test func aFolderListsWhatFoundationLists() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listed = try #require(FileSystem.directoryEntries(root))
        #expect(listed.sorted() == (try FileManager.default.contentsOfDirectory(atPath: root)).sorted())
        #expect(FileSystem.directoryEntries(root + "/file") == nil)
        #expect(FileSystem.directoryEntries(root + "/missing") == nil)
    }

    @Test(arguments: ["x.ahap", "a/x.ahap", "/abs/x.ahap", "./x.ahap", "../x.ahap", "a/../b/x.ahap", "a//b/./c", "/", "/.."])
    func relativePathsBecomeAbsoluteAsInAFileURL(path: String) {
        #expect(FileSystem.absolutePath(path) == URL(fileURLWithPath: path).standardizedFileURL.path)
    }

    @Test func theEnvironmentReadsAsProcessInfoReadsIt() {
        setenv("THRUM_FILE_SYSTEM_TEST", "a=b c", 1)
        defer { unsetenv("THRUM_FILE_SYSTEM_TEST") }
        for name in ["THRUM_FILE_SYSTEM_TEST", "PATH", "THRUM_NOT_SET_ANYWHERE"] {
            #expect(FileSystem.environment(name) == ProcessInfo.processInfo.environment[name], "\(name)")
        }
    }
}
