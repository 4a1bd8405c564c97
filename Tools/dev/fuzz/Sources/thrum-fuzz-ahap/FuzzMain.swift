// libFuzzer harness for the AHAP reader and what follows it: bytes → JSONReader → AHAPDecoder (which runs
// PatternValidator) → CompiledPattern → Renderer (a few periods from the start and a few from the last
// event or control). Besides crashes, traps, hangs and memory errors it checks:
//   - `pattern` is nil exactly when there is an error diagnostic;
//   - a rejected document has at least one error diagnostic with a line and column;
//   - every accepted pattern compiles (AudioCustom events get a short generated buffer);
//   - every rendered sample is finite, and the haptic bus stays within ±1.
// With THRUM_FUZZ_ROUNDTRIP=1 it also checks that an accepted pattern, encoded again with AHAPEncoder,
// decodes without errors.
import AHAPCodec
import Foundation
import FuzzRender
import FuzzSupport

let checkRoundTrip = ProcessInfo.processInfo.environment["THRUM_FUZZ_ROUNDTRIP"] == "1"

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
    let result = AHAPDecoder.decode(data: bytes, file: "fuzz.ahap")
    if (result.pattern == nil) != result.hasErrors {
        fuzzFailure("pattern is \(result.pattern == nil ? "nil" : "set") but hasErrors is \(result.hasErrors)")
    }
    if result.pattern == nil && !result.errors.contains(where: { $0.line != nil && $0.column != nil }) {
        fuzzFailure("rejected without a positioned error: \(result.diagnostics.map(\.formatted))")
    }
    for diagnostic in result.diagnostics {
        _ = diagnostic.formatted
        _ = diagnostic.jsonText
    }
    if let pattern = result.pattern { compileAndRender(pattern) }
    if checkRoundTrip, let pattern = result.pattern {
        let text = AHAPEncoder.encode(pattern)
        let again = AHAPDecoder.decode(text: text, file: "roundtrip.ahap")
        if again.hasErrors {
            fuzzFailure("re-encoded pattern is rejected: \(again.errors.map(\.formatted))\n\(text)")
        }
    }
    return 0
}

/// The program: libFuzzer's driver with ``testOneInput``.
@main
enum FuzzAHAP {
    static func main() {
        runFuzzer(testOneInput)
    }
}
