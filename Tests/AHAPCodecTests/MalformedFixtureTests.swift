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

    /// Every error, and every diagnostic about a place in the pattern, has a line and column; the fixtures
    /// hold errors in most files, so an empty folder or a decoder that reports nothing fails too.
    @Test func everyErrorHasAPosition() throws {
        let files = TestPaths.files(in: Self.directory, extensions: ["ahap"])
        #expect(files.count >= 20)
        var errors = 0
        var rejected = 0
        for url in files {
            let result = AHAPDecoder.decode(data: try Data(contentsOf: url), file: url.lastPathComponent)
            if result.hasErrors { rejected += 1 }
            for diagnostic in result.diagnostics where diagnostic.path != "" || diagnostic.severity == .error {
                if diagnostic.severity == .error { errors += 1 }
                #expect(diagnostic.line != nil && diagnostic.column != nil, "\(diagnostic.formatted)")
            }
        }
        #expect(rejected >= files.count / 2, "\(rejected) of \(files.count) malformed fixtures rejected")
        #expect(errors >= rejected)
    }
}
