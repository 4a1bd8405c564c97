// libFuzzer harness for the MPEG haptics readers (ISO/IEC 23090-31) and what follows them: bytes →
// HJIFDecoder (JSON) and HMPGDecoder (binary stream) → HJIFChecks → playback form (compiled and rendered) →
// the writers and the way back. Besides crashes, traps, hangs and memory errors it checks:
//   - `document` is nil exactly when there is an error diagnostic; a rejected input has an error with a place
//     (a line for JSON, a byte offset for the stream);
//   - an accepted document written as HJIF reads back without errors, and as `.hmpg` (when the writer takes
//     it) decodes without errors;
//   - its `.haptic` form (HJIFToHaptic), when there is one, is a file strict mode accepts.
import AHAPCodec
import Foundation
import FuzzRender
import FuzzSupport
import HapticFormats

/// Whether `diagnostic` is an error with a place: a line (JSON) or a byte offset (the binary stream).
func isLocatedError(_ diagnostic: Diagnostic, binary: Bool) -> Bool {
    diagnostic.severity == .error && (binary ? diagnostic.path.hasPrefix("byte ") : diagnostic.line != nil)
}

func checkContract(_ result: HJIFDecodeResult, _ reader: String, binary: Bool) {
    if (result.document == nil) != result.hasErrors {
        fuzzFailure("\(reader): document is \(result.document == nil ? "nil" : "set") but hasErrors is \(result.hasErrors)")
    }
    if result.document == nil && !result.diagnostics.contains(where: { isLocatedError($0, binary: binary) }) {
        fuzzFailure("\(reader): rejected without a located error: \(result.diagnostics.map(\.formatted))")
    }
    for diagnostic in result.diagnostics {
        _ = diagnostic.formatted
        _ = diagnostic.jsonText
    }
}

func checkDocument(_ document: HJIFDocument) {
    _ = HJIFChecks.issues(in: document)
    let text = HJIFEncoder.encode(document)
    let again = HJIFDecoder.decode(data: Data(text.utf8), file: "again.hjif")
    if again.hasErrors { fuzzFailure("the written HJIF is rejected: \(again.diagnostics.map(\.formatted))\n\(text)") }
    if let stream = HMPGEncoder.encode(document).data {
        let decoded = HMPGDecoder.decode(data: stream, file: "again.hmpg")
        if decoded.hasErrors { fuzzFailure("the written .hmpg is rejected: \(decoded.diagnostics.map(\.formatted))") }
    }
    if let file = HJIFToHaptic.convert(document).file {
        let strict = HapticFileDecoder.decode(text: HapticFileEncoder.encode(file), mode: .strict)
        if strict.hasErrors { fuzzFailure("the .haptic form is not a valid .haptic: \(strict.errors.map(\.formatted))") }
    }
    compileAndRender(HJIFPlayback.pattern(for: document))
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
    let json = HJIFDecoder.decode(data: bytes, file: "fuzz.hjif")
    let stream = HMPGDecoder.decode(data: bytes, file: "fuzz.hmpg")
    checkContract(json, "HJIF", binary: false)
    checkContract(stream, ".hmpg", binary: true)
    for document in [json.document, stream.document].compactMap({ $0 }) { checkDocument(document) }
    return 0
}

/// The program: libFuzzer's driver with ``testOneInput``.
@main
enum FuzzHJIF {
    static func main() {
        runFuzzer(testOneInput)
    }
}
