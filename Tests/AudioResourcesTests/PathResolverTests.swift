import Foundation
import Testing

@testable import AudioResources

@Suite("Resource path resolution")
struct PathResolverTests {
    /// tmp/project/patterns/p.ahap, tmp/project/patterns/Sounds/a.wav, tmp/project/lib/b.wav,
    /// tmp/outside/secret.wav.
    final class Layout {
        let dir = TempDir()
        var patterns: String { dir.path + "/project/patterns" }
        var lib: String { dir.path + "/project/lib" }
        var lib2: String { dir.path + "/project/lib2" }
        var outside: String { dir.path + "/outside/secret.wav" }

        init() {
            for name in ["project/patterns/Sounds/a.wav", "project/lib/b.wav", "project/lib2/b.wav", "project/lib2/c.wav", "outside/secret.wav"] {
                #expect(FileManager.default.createFile(atPath: dir.file(name), contents: Data([1, 2, 3])))
            }
        }

        func real(_ path: String) -> String { ResourcePathResolver.realPath(path)! }
    }

    @Test("resolves against the pattern's folder first, then each root in order")
    func order() throws {
        let l = Layout()
        let resolver = ResourcePathResolver(roots: [l.lib, l.lib2], allowAnyPath: false)
        #expect(try resolver.resolve("Sounds/a.wav", relativeTo: l.patterns) == l.real(l.patterns + "/Sounds/a.wav"))
        #expect(try resolver.resolve("b.wav", relativeTo: l.patterns) == l.real(l.lib + "/b.wav"))
        #expect(try resolver.resolve("c.wav", relativeTo: l.patterns) == l.real(l.lib2 + "/c.wav"))
        #expect(try resolver.resolve("c.wav", relativeTo: nil) == l.real(l.lib2 + "/c.wav"))
        // ".." that stays inside a root is fine.
        #expect(try resolver.resolve("../lib/b.wav", relativeTo: l.lib2) == l.real(l.lib + "/b.wav"))
    }

    @Test("a missing file lists every place searched")
    func missing() {
        let l = Layout()
        let resolver = ResourcePathResolver(roots: [l.lib, l.lib2], allowAnyPath: false)
        let error = expectAudioError { _ = try resolver.resolve("nope.wav", relativeTo: l.patterns) }
        let searched = [l.patterns + "/nope.wav", l.lib + "/nope.wav", l.lib2 + "/nope.wav"]
        #expect(error == .missing(path: "nope.wav", searched: searched))
        #expect(error?.description.contains("audio file 'nope.wav' not found; looked in " + searched.joined(separator: ", ")) == true)
        #expect(error?.category == .fileNotFound)
    }

    @Test("'..' escaping every root is rejected unless any path is allowed")
    func dotDotEscape() throws {
        let l = Layout()
        let resolver = ResourcePathResolver(roots: [l.lib], allowAnyPath: false)
        let error = expectAudioError { _ = try resolver.resolve("../../outside/secret.wav", relativeTo: l.patterns) }
        #expect(error == .pathEscapesRoots(path: "../../outside/secret.wav", roots: [l.patterns, l.lib]))
        #expect(error?.description.contains("audio file '../../outside/secret.wav' resolves outside the allowed folders (allowed: \(l.patterns), \(l.lib))") == true)
        #expect(error?.description.contains("--allow-any-path") == true)
        #expect(error?.category == .pathNotAllowed)
        #expect(error?.isLimitViolation == false)

        let open = ResourcePathResolver(roots: [l.lib], allowAnyPath: true)
        #expect(try open.resolve("../../outside/secret.wav", relativeTo: l.patterns) == l.real(l.outside))
    }

    @Test("a symbolic link leading out of the root is rejected")
    func symlinkEscape() throws {
        let l = Layout()
        let link = l.lib + "/link.wav"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: l.outside)
        let resolver = ResourcePathResolver(roots: [l.lib], allowAnyPath: false)
        let error = expectAudioError { _ = try resolver.resolve("link.wav", relativeTo: nil) }
        #expect(error == .pathEscapesRoots(path: "link.wav", roots: [l.lib]))
        #expect(error?.description.contains("'link.wav'") == true)
        #expect(error?.description.contains(l.lib) == true)

        // A folder link out of the root is caught the same way.
        try FileManager.default.createSymbolicLink(atPath: l.lib + "/out", withDestinationPath: l.dir.path + "/outside")
        let error2 = expectAudioError { _ = try resolver.resolve("out/secret.wav", relativeTo: nil) }
        #expect(error2 == .pathEscapesRoots(path: "out/secret.wav", roots: [l.lib]))

        // A link that stays inside the root is fine.
        try FileManager.default.createSymbolicLink(atPath: l.lib + "/alias.wav", withDestinationPath: l.lib + "/b.wav")
        #expect(try resolver.resolve("alias.wav", relativeTo: nil) == l.real(l.lib + "/b.wav"))
        #expect(try ResourcePathResolver(roots: [l.lib], allowAnyPath: true).resolve("link.wav", relativeTo: nil) == l.real(l.outside))
    }

    @Test("an absolute path is rejected unless any path is allowed")
    func absolute() throws {
        let l = Layout()
        let resolver = ResourcePathResolver(roots: [l.lib], allowAnyPath: false)
        let error = expectAudioError { _ = try resolver.resolve(l.outside, relativeTo: l.patterns) }
        #expect(error == .absolutePathNotAllowed(path: l.outside))
        #expect(error?.description == "audio file '\(l.outside)' is an absolute path, which is not allowed; use a path relative to the pattern file or a --resources folder, or pass --allow-any-path")
        // Even when it points inside a root.
        let inside = expectAudioError { _ = try resolver.resolve(l.lib + "/b.wav", relativeTo: nil) }
        #expect(inside == .absolutePathNotAllowed(path: l.lib + "/b.wav"))

        let open = ResourcePathResolver(roots: [], allowAnyPath: true)
        #expect(try open.resolve(l.outside, relativeTo: nil) == l.real(l.outside))
        let missing = expectAudioError { _ = try open.resolve(l.outside + ".gone", relativeTo: nil) }
        #expect(missing == .missing(path: l.outside + ".gone", searched: [l.outside + ".gone"]))
    }

    @Test("a folder with the file's name does not count as the file")
    func folderIsNotFile() throws {
        let l = Layout()
        _ = l.dir.folder("project/patterns/b.wav")
        let resolver = ResourcePathResolver(roots: [l.lib], allowAnyPath: false)
        #expect(try resolver.resolve("b.wav", relativeTo: l.patterns) == l.real(l.lib + "/b.wav"))
    }
}
