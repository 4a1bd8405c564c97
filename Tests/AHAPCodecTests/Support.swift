import Foundation
import Testing
import ThrumTestSupport

/// Paths of the test sources, fixtures and snapshots, found from this file's path (the shared corpus:
/// `TestCorpus`).
enum TestPaths {
    /// `Tests/AHAPCodecTests`.
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
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

/// Compares `actual` with the committed snapshot `Snapshots/NAME` (see `ThrumTestSupport.assertSnapshot`).
func assertSnapshot(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    assertSnapshot(actual, at: TestPaths.snapshots.appendingPathComponent(name), sourceLocation: sourceLocation)
}
