import AHAPCodec
import Foundation
import Testing

/// The hand-written malformed fixtures: every formatted diagnostic, compared with a snapshot.
@Suite("Malformed fixtures")
struct MalformedFixtureTests {
    static let directory = TestPaths.fixtures.appendingPathComponent("malformed")

    @Test func diagnosticsMatchSnapshot() throws {
        let files = TestPaths.files(in: Self.directory, extensions: ["ahap"])
        #expect(files.count >= 20)
        var lines: [String] = []
        for url in files {
            let name = "malformed/" + url.lastPathComponent
            let result = AHAPDecoder.decode(data: try Data(contentsOf: url), file: name)
            #expect(!result.diagnostics.isEmpty, "\(name) has no diagnostics")
            lines.append("# \(name): \(result.hasErrors ? "rejected" : "loaded")")
            lines += result.diagnostics.map(\.formatted)
        }
        assertSnapshot(lines.joined(separator: "\n") + "\n", named: "malformed.txt")
    }

    @Test func everyErrorHasAPosition() throws {
        for url in TestPaths.files(in: Self.directory, extensions: ["ahap"]) {
            let result = AHAPDecoder.decode(data: try Data(contentsOf: url), file: url.lastPathComponent)
            for diagnostic in result.diagnostics where diagnostic.path != "" || diagnostic.severity == .error {
                #expect(diagnostic.line != nil && diagnostic.column != nil, "\(diagnostic.formatted)")
            }
        }
    }
}
