import AHAPCodec
import Foundation
import Testing
import ThrumModel
import ThrumTestSupport

/// Every AHAP file of the shared corpus: no crash; loads cleanly or is rejected with a positioned error;
/// every loaded file round-trips losslessly; the outcome per file matches the committed snapshot.
@Suite("Corpus", .enabled(if: TestCorpus.isAvailable, Comment(rawValue: TestCorpus.skipReason)))
struct CorpusTests {
    static var corpusFiles: [(name: String, url: URL)] {
        let ahap = TestCorpus.files(in: "ahap").map { (name: "ahap/" + $0.lastPathComponent, url: $0) }
        let ricochet = TestCorpus.files(in: "ricochet/HapticPatterns")
            .map { (name: "ricochet/HapticPatterns/" + $0.lastPathComponent, url: $0) }
        return ahap + ricochet
    }

    @Test func corpusHoldsTheFilesItsManifestLists() throws {
        let manifest = try TestCorpus.manifestNames()
        #expect(!manifest.isEmpty, "MANIFEST.tsv lists no file")
        #expect(TestCorpus.files(in: "ahap").map(\.lastPathComponent) == manifest.sorted())
        #expect(!TestCorpus.files(in: "ricochet/HapticPatterns").isEmpty, "Ricochet's patterns are missing")
    }

    @Test func everyFileLoadsOrIsRejectedWithAPosition() throws {
        for (name, url) in Self.corpusFiles {
            let data = try Data(contentsOf: url)
            let result = AHAPDecoder.decode(data: data, file: name)
            if result.hasErrors {
                #expect(result.pattern == nil, "\(name)")
                let positioned = result.errors.filter { $0.line != nil && $0.column != nil }
                #expect(!positioned.isEmpty, "\(name): errors without a position")
            } else {
                #expect(result.pattern != nil, "\(name)")
            }
        }
    }

    @Test func everyLoadedFileRoundTrips() throws {
        var loaded = 0
        for (name, url) in Self.corpusFiles {
            let result = AHAPDecoder.decode(data: try Data(contentsOf: url), file: name)
            guard let pattern = result.pattern else { continue }
            loaded += 1
            let text = AHAPEncoder.encode(pattern)
            let again = AHAPDecoder.decode(text: text, file: name)
            #expect(again.pattern == pattern, "\(name) does not round-trip through text")
            #expect(!again.hasErrors, "\(name): \(again.errors.map(\.formatted))")
            let dictionary = try AHAPEncoder.dictionary(pattern)
            let fromDictionary = AHAPDecoder.decode(dictionary: dictionary)
            var expected = pattern
            // A dictionary has no key order, so metadata comes back sorted by key.
            expected.metadata.sort { $0.key < $1.key }
            var actual = fromDictionary.pattern
            actual?.metadata.sort { $0.key < $1.key }
            #expect(actual == expected, "\(name) does not round-trip through a dictionary")
        }
        #expect(loaded > 0)
    }

    @Test func summaryMatchesSnapshot() throws {
        var lines: [String] = []
        for (name, url) in Self.corpusFiles {
            let result = AHAPDecoder.decode(data: try Data(contentsOf: url), file: name)
            let outcome = result.hasErrors ? "rejected" : "loaded"
            var line = "\(name): \(outcome), \(result.errors.count) errors, \(result.warnings.count) warnings"
            if let first = result.errors.first { line += "; first error: \(first.formatted)" }
            lines.append(line)
        }
        assertSnapshot(lines.joined(separator: "\n") + "\n", named: "corpus-summary.txt")
    }

    /// Every diagnostic of every corpus file, to review messages and positions.
    @Test func diagnosticsMatchSnapshot() throws {
        var lines: [String] = []
        for (name, url) in Self.corpusFiles {
            let result = AHAPDecoder.decode(data: try Data(contentsOf: url), file: name)
            lines += result.diagnostics.map(\.formatted)
        }
        assertSnapshot(lines.joined(separator: "\n") + "\n", named: "corpus-diagnostics.txt")
    }
}
