import Foundation
import Testing

/// Compares `actual` with the committed snapshot file at `url` and records an issue naming the first
/// differing line. With `RECORD_SNAPSHOTS=1` it writes `actual` there instead and still records an issue, so
/// a recording run never passes: rerun without it to check what was written.
public func assertSnapshot(_ actual: String, at url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
    let name = url.lastPathComponent
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            Issue.record(
                "recorded snapshot \(name) (RECORD_SNAPSHOTS=1 never passes); review it, then run without RECORD_SNAPSHOTS",
                sourceLocation: sourceLocation)
        } catch {
            Issue.record("cannot record snapshot \(name): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("missing snapshot \(name); run with RECORD_SNAPSHOTS=1 to write it", sourceLocation: sourceLocation)
        return
    }
    guard expected != actual else { return }
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
