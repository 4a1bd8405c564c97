import Foundation
import FoundationStandIns
import Synchronization
import Testing

/// FoundationStandIns stands in for full Foundation in the modules the command line links; its oracle is Foundation
/// itself, which a test target may link: every answer must be Foundation's.
@Suite struct CFormatTests {
    @Test(arguments: [0.0, -0.0, 1, 0.1234567, 1e7, 123_456_789.25, 2.5e-12, -42.5, .infinity, -.infinity, .nan])
    func doublesFormatAsFoundationDoes(value: Double) {
        for format in ["%g", "%.3g", "%.1f", "%.0f", "%8.2f", "%+.4e", "%.2f %%"] {
            #expect(String(cFormat: format, value) == String(format: format, value), "format \(format)")
        }
    }

    @Test func integersAndHexFormatAsFoundationDoes() {
        for value in [0, 7, 255, 65_535, 1_048_575, Int(Int32.max)] {
            #expect(String(cFormat: "%04X", value) == String(format: "%04X", value))
            #expect(String(cFormat: "0x%06X", value) == String(format: "0x%06X", value))
            #expect(String(cFormat: "%ld", value) == String(format: "%ld", value))
            #expect(String(cFormat: "%5d", Int32(truncatingIfNeeded: value)) == String(format: "%5d", Int32(truncatingIfNeeded: value)))
        }
        #expect(String(cFormat: "%ld", Int.min) == "\(Int.min)")
    }

    @Test func longOutputIsNotCut() {
        let wide = String(cFormat: "%300.1f|", 1.5)
        #expect(wide.count == 301)
        #expect(wide.hasSuffix("1.5|"))
    }
}

@Suite struct PathNameTests {
    /// Foundation on Linux is the oracle for these; it stops the process (an illegal instruction in
    /// `_startOfLastPathComponent`) for a one-letter name such as `"a"`, so bare names are checked against
    /// Apple's documentation below instead.
    static let paths = [
        "", "/", "/a", "/a/", "/a/b", "/a/b/", "a/b", "/a/b.wav", "b.WAV", "a/b.tar.gz", ".thrumrc", "a/.thrumrc",
        "a.", "/a.b/c", "../x.ahap", "./x", "/a/b//", "scratch.tiff", "name/",
    ]

    @Test(arguments: paths) func splitsAsNSStringDoes(path: String) {
        let ns = path as NSString
        #expect(PathName.lastComponent(path) == ns.lastPathComponent)
        #expect(PathName.parent(path) == ns.deletingLastPathComponent)
        #expect(PathName.fileExtension(path) == ns.pathExtension)
        #expect(PathName.removingExtension(path) == ns.deletingPathExtension)
    }

    /// The examples in Apple's documentation of `deletingLastPathComponent` and `lastPathComponent`.
    @Test func bareNamesAsAppleDocumentsThem() {
        #expect(PathName.parent("scratch.tiff") == "")
        #expect(PathName.parent("a") == "")
        #expect(PathName.parent("/tmp/lock/") == "/tmp")
        #expect(PathName.parent("/tmp/") == "/")
        #expect(PathName.lastComponent("a") == "a")
        #expect(PathName.lastComponent("lock/") == "lock")
    }

    @Test(arguments: ["", "/", "ab", "ab/", "/a", "/a/b/"]) func joinsAsNSStringDoes(path: String) {
        for component in ["b", "b.wav", "/b", "c/d"] {
            #expect(PathName.appending(path, component) == (path as NSString).appendingPathComponent(component), "\(component)")
        }
    }
}

@Suite struct TrimmingTests {
    @Test(arguments: ["", "  ", " a ", "\ta b\t", "\u{00A0}x\u{2003}", " \na\n ", "a", "\n"])
    func trimsAsFoundationDoes(text: String) {
        #expect(text.trimmingSpaces == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingSpacesAndNewlines == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.trimming { $0 == "a" } == text.trimmingCharacters(in: ["a"]))
    }
}

@Suite struct SubprocessTests {
    @Test func outputErrorAndStatusReachTheCaller() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("standins-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let child = try Subprocess.spawn(
            "/bin/sh", ["-c", "read line || echo stdin-empty; echo out; echo err >&2; exit 3"], output: folder + "/o", error: folder + "/e")
        #expect(Subprocess.wait(child) == .exited(3))
        #expect(FileManager.default.contents(atPath: folder + "/o") == Data("stdin-empty\nout\n".utf8))
        #expect(FileManager.default.contents(atPath: folder + "/e") == Data("err\n".utf8))
    }

    @Test func aSignalIsReportedAsSuch() throws {
        #expect(Subprocess.wait(try Subprocess.spawn("/bin/sh", ["-c", "kill -TERM $$"])) == .signalled(SIGTERM))
    }

    @Test func aMissingProgramIsAnErrorNamingIt() {
        #expect(throws: Subprocess.SpawnError.self) { try Subprocess.spawn("/nonexistent/tool", []) }
        do {
            _ = try Subprocess.spawn("/nonexistent/tool", [])
        } catch {
            #expect(error.description == "cannot run /nonexistent/tool: No such file or directory")
        }
    }
}

@Suite struct ThreadsTests {
    @Test func detachedThreadsRunNamedAndAtOnce() {
        let count = Locked(0)
        nonisolated(unsafe) var name = ""
        let done = DispatchGroup()
        for index in 0..<4 {
            done.enter()
            Threads.detach(name: "standins-test-thread-\(index)") {
                if index == 0 { name = (String(data: FileManager.default.contents(atPath: "/proc/thread-self/comm") ?? Data(), encoding: .utf8) ?? "") }
                for _ in 0..<10_000 { count.withLock { $0 += 1 } }
                done.leave()
            }
        }
        done.wait()
        #expect(count.withLock { $0 } == 40_000)
        #expect(name == "standins-test-t\n")  // the kernel keeps 15 bytes
    }

    @Test func sleepLastsAtLeastItsTime() {
        let start = ContinuousClock.now
        Threads.sleep(seconds: 0.02)
        #expect(ContinuousClock.now - start >= .milliseconds(20))
    }
}

@Suite struct FileBytesTests {
    @Test func procFilesAreReadWholeAndLimitsHold() throws {
        let maps = try #require(FileBytes.read(path: "/proc/self/maps", limit: 64 << 20))
        #expect(maps.count > 0)  // stat(2) says it is empty
        #expect(FileBytes.read(path: "/proc/self/maps", limit: 10)?.count == 10)
        #expect(FileBytes.read(path: "/nonexistent", limit: 10) == nil)
    }

    @Test func errorsReadAsTheSystemsReason() {
        do {
            try Data().write(to: URL(fileURLWithPath: "/nonexistent/folder/file"))
        } catch {
            #expect(systemReason(of: error) == String(cString: strerror(ENOENT)))
        }
        #expect(systemReason(of: POSIXError(.EACCES)) == "Permission denied")
    }
}
