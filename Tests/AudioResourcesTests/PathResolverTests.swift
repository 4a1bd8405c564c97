import Foundation
import Synchronization
import Testing
import ThrumTestSupport

@testable import AudioResources

/// Every rule holds for both confinement methods: `openat2` and the `openat` walk.
@Suite("Resource path resolution")
struct PathResolverTests {
    /// tmp/project/patterns/p.ahap, tmp/project/patterns/Sounds/a.wav, tmp/project/lib/b.wav,
    /// tmp/outside/secret.wav.
    final class Layout {
        let dir = TemporaryDirectory("audio")
        var patterns: String { dir.path + "/project/patterns" }
        var lib: String { dir.path + "/project/lib" }
        var lib2: String { dir.path + "/project/lib2" }
        var outside: String { dir.path + "/outside/secret.wav" }

        init() {
            for name in ["project/patterns/Sounds/a.wav", "project/lib/b.wav", "project/lib2/b.wav", "project/lib2/c.wav", "outside/secret.wav"] {
                #expect(FileManager.default.createFile(atPath: dir.file(name), contents: Data(name.utf8)))
            }
        }

        /// The identity of the file at `path` (links followed), from stat(2).
        func identity(_ path: String) -> AudioFileHandle.Identity {
            var status = stat()
            #expect(stat(path, &status) == 0, "\(path) should exist")
            return AudioFileHandle.Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        }
    }

    static let methods = ConfinedOpen.Method.allCases

    @Test("resolves against the pattern's folder first, then each root in order", arguments: methods)
    func order(method: ConfinedOpen.Method) throws {
        let l = Layout()
        let resolver = ResourcePathResolver(roots: [l.lib, l.lib2], allowAnyPath: false)
        func open(_ path: String, _ folder: String?) throws -> AudioFileHandle {
            try resolver.open(path, relativeTo: folder, method: method)
        }
        #expect(try open("Sounds/a.wav", l.patterns).identity == l.identity(l.patterns + "/Sounds/a.wav"))
        #expect(try open("b.wav", l.patterns).identity == l.identity(l.lib + "/b.wav"))
        #expect(try open("c.wav", l.patterns).identity == l.identity(l.lib2 + "/c.wav"))
        #expect(try open("c.wav", nil).identity == l.identity(l.lib2 + "/c.wav"))
        // ".." that stays inside the folder is fine; so are "." and doubled slashes.
        #expect(try open("Sounds/../Sounds/./a.wav", l.patterns).identity == l.identity(l.patterns + "/Sounds/a.wav"))
        #expect(try open("Sounds//a.wav", l.patterns).identity == l.identity(l.patterns + "/Sounds/a.wav"))
        let file = try open("Sounds/a.wav", l.patterns)
        #expect(file.displayName == "Sounds/a.wav")
        #expect(file.path == l.patterns + "/Sounds/a.wav")
        #expect(file.byteCount == "project/patterns/Sounds/a.wav".utf8.count)
    }

    @Test("a missing file lists every place searched", arguments: methods)
    func missing(method: ConfinedOpen.Method) {
        let l = Layout()
        let resolver = ResourcePathResolver(roots: [l.lib, l.lib2], allowAnyPath: false)
        let error = expectAudioError { _ = try resolver.open("nope.wav", relativeTo: l.patterns, method: method) }
        let searched = [l.patterns + "/nope.wav", l.lib + "/nope.wav", l.lib2 + "/nope.wav"]
        #expect(error == .missing(path: "nope.wav", searched: searched))
        #expect(error?.description.contains("audio file 'nope.wav' not found; looked in " + searched.joined(separator: ", ")) == true)
        #expect(error?.category == .fileNotFound)
    }

    @Test("'..' leaving the folder is rejected, whether or not the file exists, unless any path is allowed", arguments: methods)
    func dotDotEscape(method: ConfinedOpen.Method) throws {
        let l = Layout()
        let resolver = ResourcePathResolver(roots: [l.lib], allowAnyPath: false)
        let error = expectAudioError { _ = try resolver.open("../../outside/secret.wav", relativeTo: l.patterns, method: method) }
        #expect(error == .pathEscapesRoots(path: "../../outside/secret.wav", roots: [l.patterns, l.lib]))
        #expect(error?.description.contains("audio file '../../outside/secret.wav' resolves outside the allowed folders (allowed: \(l.patterns), \(l.lib))") == true)
        #expect(error?.description.contains("--allow-any-path") == true)
        #expect(error?.category == .pathNotAllowed)
        #expect(error?.isLimitViolation == false)
        let absent = expectAudioError { _ = try resolver.open("../../outside/absent.wav", relativeTo: l.patterns, method: method) }
        #expect(absent == .pathEscapesRoots(path: "../../outside/absent.wav", roots: [l.patterns, l.lib]))
        // Out of one allowed folder into another is still out of the folder it was looked up in.
        let across = expectAudioError { _ = try resolver.open("../lib/b.wav", relativeTo: l.patterns, method: method) }
        #expect(across == .pathEscapesRoots(path: "../lib/b.wav", roots: [l.patterns, l.lib]))

        let open = ResourcePathResolver(roots: [l.lib], allowAnyPath: true)
        #expect(try open.open("../../outside/secret.wav", relativeTo: l.patterns, method: method).identity == l.identity(l.outside))
    }

    @Test("a symbolic link leading out of the folder is rejected, whether or not its target exists", arguments: methods)
    func symlinkEscape(method: ConfinedOpen.Method) throws {
        let l = Layout()
        let resolver = ResourcePathResolver(roots: [l.lib], allowAnyPath: false)
        func refusal(_ path: String) -> AudioResourceError? {
            expectAudioError { _ = try resolver.open(path, relativeTo: nil, method: method) }
        }
        let links = [
            "link.wav": l.outside, "dangling.wav": l.outside + ".gone", "relative.wav": "../../outside/secret.wav",
            "out": l.dir.path + "/outside", "relative-out": "../../outside",
        ]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(atPath: l.lib + "/" + name, withDestinationPath: target)
        }
        for path in ["link.wav", "dangling.wav", "relative.wav", "out/secret.wav", "relative-out/secret.wav", "out/absent.wav"] {
            #expect(refusal(path) == .pathEscapesRoots(path: path, roots: [l.lib]))
        }

        // A link that stays inside the folder is fine, relative or through a linked folder.
        try FileManager.default.createSymbolicLink(atPath: l.lib + "/alias.wav", withDestinationPath: "b.wav")
        try FileManager.default.createSymbolicLink(atPath: l.lib + "/here", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: l.lib + "/loop", withDestinationPath: "loop")
        #expect(try resolver.open("alias.wav", relativeTo: nil, method: method).identity == l.identity(l.lib + "/b.wav"))
        #expect(try resolver.open("here/here/alias.wav", relativeTo: nil, method: method).identity == l.identity(l.lib + "/b.wav"))
        #expect(refusal("loop")?.category == .invalidAudio)
        #expect(try ResourcePathResolver(roots: [l.lib], allowAnyPath: true).open("link.wav", relativeTo: nil).identity == l.identity(l.outside))
    }

    @Test("an absolute path is rejected unless any path is allowed")
    func absolute() throws {
        let l = Layout()
        let resolver = ResourcePathResolver(roots: [l.lib], allowAnyPath: false)
        let error = expectAudioError { _ = try resolver.open(l.outside, relativeTo: l.patterns) }
        #expect(error == .absolutePathNotAllowed(path: l.outside))
        #expect(error?.description == "audio file '\(l.outside)' is an absolute path, which is not allowed; use a path relative to the pattern file or a --resources folder, or pass --allow-any-path")
        // Even when it points inside a root, and whether or not it exists.
        #expect(expectAudioError { _ = try resolver.open(l.lib + "/b.wav", relativeTo: nil) } == .absolutePathNotAllowed(path: l.lib + "/b.wav"))
        #expect(expectAudioError { _ = try resolver.open("/no/such.wav", relativeTo: nil) } == .absolutePathNotAllowed(path: "/no/such.wav"))

        let open = ResourcePathResolver(roots: [], allowAnyPath: true)
        #expect(try open.open(l.outside, relativeTo: nil).identity == l.identity(l.outside))
        let missing = expectAudioError { _ = try open.open(l.outside + ".gone", relativeTo: nil) }
        #expect(missing == .missing(path: l.outside + ".gone", searched: [l.outside + ".gone"]))
    }

    @Test("a folder with the file's name does not count as the file", arguments: methods)
    func folderIsNotFile(method: ConfinedOpen.Method) throws {
        let l = Layout()
        _ = l.dir.folder("project/patterns/b.wav")
        let resolver = ResourcePathResolver(roots: [l.lib], allowAnyPath: false)
        #expect(try resolver.open("b.wav", relativeTo: l.patterns, method: method).identity == l.identity(l.lib + "/b.wav"))
        #expect(expectAudioError { _ = try resolver.open("Sounds", relativeTo: l.patterns, method: method) }?.category == .fileNotFound)
    }

    @Test("a FIFO is refused at once, without waiting for a writer", arguments: methods)
    func fifo(method: ConfinedOpen.Method) throws {
        let l = Layout()
        #expect(mkfifo(l.lib + "/pipe.wav", 0o600) == 0)
        let resolver = ResourcePathResolver(roots: [l.lib], allowAnyPath: false)
        let error = expectAudioError { _ = try resolver.open("pipe.wav", relativeTo: nil, method: method) }
        #expect(error == .unreadable(path: "pipe.wav", reason: "it is not a regular file"))
        #expect(expectAudioError { _ = try AudioFileLoader.load(path: l.lib + "/pipe.wav", targetSampleRate: 8000) }
            == .unreadable(path: l.lib + "/pipe.wav", reason: "it is not a regular file"))
    }

    @Test("a hard link inside the folder is the file it links to (documented)", arguments: methods)
    func hardLink(method: ConfinedOpen.Method) throws {
        let l = Layout()
        #expect(link(l.outside, l.lib + "/hard.wav") == 0)
        let resolver = ResourcePathResolver(roots: [l.lib], allowAnyPath: false)
        #expect(try resolver.open("hard.wav", relativeTo: nil, method: method).identity == l.identity(l.outside))
    }

    /// Issue 13, problem 9, at the resolver: `sub` is swapped between a real folder and a link to an
    /// outside folder while the same name is opened again and again.
    @Test("a folder swapped for a symbolic link during the lookup never opens the outside file", arguments: methods)
    func swapRace(method: ConfinedOpen.Method) throws {
        let l = Layout()
        let stash = l.lib + "/real"
        _ = l.dir.folder("project/lib/real")
        #expect(FileManager.default.createFile(atPath: stash + "/secret.wav", contents: Data("inside".utf8)))
        try FileManager.default.createSymbolicLink(atPath: l.lib + "/link", withDestinationPath: l.dir.path + "/outside")
        let outside = l.identity(l.outside)
        let stop = Atomic<Bool>(false)
        let (sub, link) = (l.lib + "/sub", l.lib + "/link")
        let swapper = Thread {
            while !stop.load(ordering: .relaxed) {
                rename(stash, sub)
                rename(sub, stash)
                rename(link, sub)
                rename(sub, link)
            }
        }
        swapper.start()
        defer { stop.store(true, ordering: .relaxed) }
        let resolver = ResourcePathResolver(roots: [l.lib], allowAnyPath: false)
        var inside = 0
        var escapes = 0
        for _ in 0..<20_000 {
            guard let file = try? resolver.open("sub/secret.wav", relativeTo: nil, method: method) else { continue }
            if file.identity == outside { escapes += 1 } else { inside += 1 }
        }
        #expect(escapes == 0)
        #expect(inside > 0, "the inside file was never opened: the race was not exercised")
    }
}

/// File names that are not UTF-8 survive the trip through a Swift string unchanged.
@Suite struct FileSystemPathTests {
    @Test func bytesRoundTrip() {
        let names: [[UInt8]] = [
            Array("plain.wav".utf8), Array("ünïcødé ✓.wav".utf8), [0x66, 0xFF, 0xFE, 0x2E, 0x77], [0xC3], [0xE2, 0x82],
            [0xED, 0xA0, 0x80], [0xF8, 0x80, 0x80, 0x80, 0x80], [0xC0, 0x80], Array(0...255).filter { $0 != 0 && $0 != 0x2F },
        ]
        for name in names {
            let string = FileSystemPath.string(fromBytes: name)
            #expect(FileSystemPath.bytes(string) == name)
        }
        #expect(FileSystemPath.string(fromBytes: Array("ünïcødé".utf8)) == "ünïcødé")
        #expect(FileSystemPath.string(fromBytes: [0x61, 0xFF]).unicodeScalars.last?.value == 0x10_FFFF)
    }

    @Test func aNameThatIsNotUTF8OpensAndWrites() throws {
        let dir = TemporaryDirectory("audio")
        let name = dir.path + "/" + FileSystemPath.string(fromBytes: [0x63, 0xE9, 0x2E, 0x77, 0x61, 0x76])
        try writeFile(name, [0.5, 0.25], sampleRate: 8000)
        #expect(try AudioFileLoader.load(path: name, targetSampleRate: 8000).array == [0.5, 0.25])
        var status = stat()
        #expect(stat(dir.path + "/c\u{E9}.wav", &status) != 0, "the name on disk is the byte 0xE9, not UTF-8 é")
    }
}
