import AHAPCodec
import Foundation
import Testing
import ThrumTestSupport

/// Regression tests from fuzzing (`Tools/dev/fuzz.sh`): the decoder must never crash or hang on any input,
/// and must always return either a pattern or at least one error diagnostic with a line and column.
///
/// `Fixtures/fuzz/` holds inputs to replay: crash or hang inputs found by the fuzzer (none so far) and
/// hand-made edge cases (nesting at and past the depth limit, a lone BOM, lone surrogates, truncated
/// UTF-8, extreme numbers, CR-only line ends). The mutation test replays a deterministic slice of what
/// the fuzzer does to the bundled patterns.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let fixtures = TestPaths.fixtures.appendingPathComponent("fuzz")
    static let patterns = packageRoot.appendingPathComponent("Resources/Patterns")

    /// Checks the decoder's contract for one input; returns the result for further checks.
    @discardableResult
    static func decodeChecked(
        _ data: Data, name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> AHAPDecodeResult {
        let clock = ContinuousClock()
        let start = clock.now
        let result = AHAPDecoder.decode(data: data, file: name)
        let elapsed = clock.now - start
        #expect(elapsed < .seconds(2), "\(name): decoding took \(elapsed)", sourceLocation: sourceLocation)
        #expect(
            (result.pattern == nil) == result.hasErrors,
            "\(name): pattern \(result.pattern == nil ? "nil" : "set") but hasErrors \(result.hasErrors)",
            sourceLocation: sourceLocation)
        if result.pattern == nil {
            #expect(
                result.errors.contains { $0.line != nil && $0.column != nil },
                "\(name): rejected without a positioned error: \(result.diagnostics.map(\.formatted))",
                sourceLocation: sourceLocation)
        }
        for diagnostic in result.diagnostics {
            #expect(!diagnostic.formatted.isEmpty, sourceLocation: sourceLocation)
            #expect(!diagnostic.jsonText.isEmpty, sourceLocation: sourceLocation)
        }
        return result
    }

    @Test func fixturesDecodeCleanly() throws {
        let files = TestPaths.files(in: Self.fixtures, extensions: ["ahap"])
        #expect(files.count >= 8)
        for url in files {
            Self.decodeChecked(try Data(contentsOf: url), name: "fuzz/" + url.lastPathComponent)
        }
    }

    @Test func nestingLimit() throws {
        let past = Self.decodeChecked(
            try Data(contentsOf: Self.fixtures.appendingPathComponent("deep-nesting-513.ahap")), name: "deep-nesting-513")
        #expect(past.errors.contains { $0.message.contains("nesting deeper than") })
        let at = Self.decodeChecked(
            try Data(contentsOf: Self.fixtures.appendingPathComponent("deep-nesting-512.ahap")), name: "deep-nesting-512")
        #expect(!at.errors.contains { $0.message.contains("nesting deeper than") })
    }

    /// A few hundred deterministic mutations (SplitMix64, fixed seed) of the bundled patterns: byte flips,
    /// byte overwrites with JSON punctuation, truncations, range duplications and deletions.
    @Test func deterministicMutationsOfBundledPatterns() throws {
        let seeds = try TestPaths.files(in: Self.patterns, extensions: ["ahap"]).map { try Data(contentsOf: $0) }
        #expect(seeds.count >= 10)
        var random = SplitMix64(seed: 0x7468_7275_6D_667A)  // "thrumfz"
        let mutants = 600
        var accepted = 0
        var rejected = 0
        for index in 0..<mutants {
            var bytes = [UInt8](seeds[Int(random.next() % UInt64(seeds.count))])
            let rounds = 1 + Int(random.next() % 4)
            var applied: [String] = []
            for _ in 0..<rounds { applied.append(Self.mutate(&bytes, &random)) }
            let result = Self.decodeChecked(Data(bytes), name: "mutant \(index) (\(applied.joined(separator: ", ")))")
            if result.pattern != nil { accepted += 1 } else { rejected += 1 }
        }
        // Both outcomes occur, so the mutations reach past the JSON syntax checks.
        #expect(accepted > 0 && rejected > 0, "accepted \(accepted), rejected \(rejected)")
    }

    /// Applies one mutation to `bytes` and describes it.
    static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) -> String {
        guard !bytes.isEmpty else {
            bytes = [UInt8(truncatingIfNeeded: random.next())]
            return "seed byte"
        }
        let at = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 5 {
        case 0:
            let bit = UInt8(1) << UInt8(random.next() % 8)
            bytes[at] ^= bit
            return "flip bit \(bit) at \(at)"
        case 1:
            let tokens = Array("{}[]:,\"\\-.0e".utf8) + [0x00, 0x0D, 0xFF]
            bytes[at] = tokens[Int(random.next() % UInt64(tokens.count))]
            return "set byte at \(at)"
        case 2:
            bytes.removeSubrange(at...)
            return "truncate to \(at)"
        case 3:
            let length = min(bytes.count - at, 1 + Int(random.next() % 64))
            let slice = bytes[at..<(at + length)]
            let target = Int(random.next() % UInt64(bytes.count + 1))
            bytes.insert(contentsOf: slice, at: target)
            return "duplicate \(length) bytes from \(at) to \(target)"
        default:
            let length = min(bytes.count - at, 1 + Int(random.next() % 16))
            bytes.removeSubrange(at..<(at + length))
            return "delete \(length) bytes at \(at)"
        }
    }
}
