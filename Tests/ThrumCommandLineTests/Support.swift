import Foundation
import FoundationStandIns
import Synchronization
import Testing
import ThrumCommandLine
import ThrumTestSupport

/// Runs `thrum` in-process and captures what it prints.
func runThrum(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
    let out = Locked("")
    let err = Locked("")
    let console = Console(
        out: { text in out.withLock { $0 += text } }, err: { text in err.withLock { $0 += text } })
    let status = ThrumCommandLine.run(arguments, console: console)
    return (status, out.withLock { $0 }, err.withLock { $0 })
}

/// Compares `actual` with the committed snapshot `Snapshots/NAME` (see `ThrumTestSupport.assertSnapshot`).
func assertSnapshot(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    assertSnapshot(
        actual, at: packageRoot.appendingPathComponent("Tests/ThrumCommandLineTests/Snapshots/" + name),
        sourceLocation: sourceLocation)
}
