import Foundation
import Synchronization
import Testing
import ThrumCommandLine

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// Runs `thrum` in-process and captures what it prints.
func runThrum(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
    let out = Mutex("")
    let err = Mutex("")
    let console = Console(
        out: { text in out.withLock { $0 += text } }, err: { text in err.withLock { $0 += text } })
    let status = ThrumCommandLine.run(arguments, console: console)
    return (status, out.withLock { $0 }, err.withLock { $0 })
}

/// Compares `actual` with `Snapshots/NAME`; with `RECORD_SNAPSHOTS=1` writes it instead.
func assertSnapshot(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let path = packageRoot + "/Tests/ThrumCommandLineTests/Snapshots/" + name
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        try actual.write(toFile: path, atomically: true, encoding: .utf8)
        return
    }
    guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
        Issue.record("missing snapshot \(name); run with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
        return
    }
    #expect(actual == expected, sourceLocation: sourceLocation)
}

/// Writes `text` to a new temporary file with `name` and returns its path.
func temporaryFile(_ name: String, _ text: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
