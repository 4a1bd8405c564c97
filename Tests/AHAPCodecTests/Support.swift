import Foundation
import Testing

/// Paths of the test sources, fixtures and snapshots, found from this file's path (the shared corpus:
/// `TestCorpus`).
enum TestPaths {
    /// `Tests/AHAPCodecTests`.
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// The package root (`/work/wt-codec`).
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = testsDirectory.appendingPathComponent("Fixtures")
    static let snapshots = testsDirectory.appendingPathComponent("Snapshots")

    /// The regular files in `directory` with one of `extensions` (all files when empty), sorted by name.
    static func files(in directory: URL, extensions: [String] = []) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted()
            .filter { extensions.isEmpty || extensions.contains(($0 as NSString).pathExtension) }
            .map { directory.appendingPathComponent($0) }
    }
}

/// Compares `actual` with the committed snapshot `name`; with `RECORD_SNAPSHOTS=1` writes it instead.
func assertSnapshot(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = TestPaths.snapshots.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        try? FileManager.default.createDirectory(at: TestPaths.snapshots, withIntermediateDirectories: true)
        do {
            try actual.write(to: url, atomically: true, encoding: .utf8)
        } catch {
            Issue.record("cannot record snapshot \(name): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("missing snapshot \(name); run with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
        return
    }
    if expected != actual {
        let expectedLines = expected.components(separatedBy: "\n")
        let actualLines = actual.components(separatedBy: "\n")
        var firstDifference = ""
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let e = index < expectedLines.count ? expectedLines[index] : "<none>"
            let a = index < actualLines.count ? actualLines[index] : "<none>"
            if e != a {
                firstDifference = "line \(index + 1):\n  expected: \(e)\n  actual:   \(a)"
                break
            }
        }
        Issue.record("snapshot \(name) differs (RECORD_SNAPSHOTS=1 re-records)\n\(firstDifference)", sourceLocation: sourceLocation)
    }
}
