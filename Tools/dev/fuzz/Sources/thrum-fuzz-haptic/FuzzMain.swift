// libFuzzer harness for the .haptic reader and what follows it: bytes → JSONReader → HapticFileDecoder in
// legacy-compatibility and strict mode → the playback form (compiled and rendered) and the conversions.
// Besides crashes, traps, hangs and memory errors it checks:
//   - `file` is nil exactly when there is an error diagnostic, in both modes; strict accepts nothing legacy refuses;
//   - a rejected document has at least one error diagnostic with a line and column;
//   - an accepted file written again with HapticFileEncoder reads back equal;
//   - its AHAP (both styles, merged and split) decodes without errors, and the split pair converts back to
//     a .haptic file that strict mode accepts;
//   - its Android export: steps of 1…resolution ms adding up to the effect, amplitudes 0…255, control
//     points at least 1 ms apart, finite, 0…1, ending at intensity 0;
//   - the playback pattern compiles and renders finite samples within ±1 on the haptic bus.
import AHAPCodec
import Foundation
import FuzzRender
import FuzzSupport
import HapticFormats
import ThrumModel

func checkContract(_ result: HapticDecodeResult, _ mode: String) {
    if (result.file == nil) != result.hasErrors {
        fuzzFailure("\(mode): file is \(result.file == nil ? "nil" : "set") but hasErrors is \(result.hasErrors)")
    }
    if result.file == nil && !result.errors.contains(where: { $0.line != nil && $0.column != nil }) {
        fuzzFailure("\(mode): rejected without a positioned error: \(result.diagnostics.map(\.formatted))")
    }
    for diagnostic in result.diagnostics {
        _ = diagnostic.formatted
        _ = diagnostic.jsonText
    }
}

func checkConversions(_ file: HapticFile) {
    let again = HapticFileDecoder.decode(text: HapticFileEncoder.encode(file), file: "again.haptic")
    if again.file != file { fuzzFailure("the written file reads back different: \(again.diagnostics.map(\.formatted))") }
    for style in [HapticToAHAP.Style.faithful, .metaCompatible] {
        for split in [false, true] {
            let export = HapticToAHAP.convert(file, split: split, style: style)
            var sources: [AHAPSource] = []
            for pattern in [export.continuous] + (export.transients.map { [$0] } ?? []) {
                let text = AHAPEncoder.encode(pattern)
                let decoded = AHAPDecoder.decode(text: text, file: "export.ahap")
                guard let pattern = decoded.pattern else {
                    fuzzFailure("\(style) AHAP is rejected: \(decoded.errors.map(\.formatted))\n\(text)")
                }
                sources.append(AHAPSource(pattern: pattern, paths: decoded.sourcePaths))
            }
            if split && style == .faithful {
                let back = AHAPToHaptic.convert(sources)
                guard let backFile = back.file else { fuzzFailure("the split AHAP does not convert back: \(back.issues)") }
                let strict = HapticFileDecoder.decode(text: HapticFileEncoder.encode(backFile), mode: .strict)
                if strict.hasErrors { fuzzFailure("the way back is not a valid .haptic: \(strict.errors.map(\.formatted))") }
            }
        }
    }
    let resolution = 10
    let (vibration, _) = AndroidExport.convert(file, resolution: resolution)
    let total = max(1, Int((file.duration * 1000).rounded()))
    if vibration.timings.reduce(0, +) != total || vibration.timings.contains(where: { !(1...resolution).contains($0) }) {
        fuzzFailure("waveform timings do not add up to \(total) ms in steps of 1…\(resolution)")
    }
    if vibration.amplitudes.count != vibration.timings.count || vibration.amplitudes.contains(where: { !(0...255).contains($0) }) {
        fuzzFailure("waveform amplitudes out of 0…255")
    }
    let points = vibration.controlPoints
    if points.contains(where: { $0.durationMillis < 1 || !(0...1).contains($0.intensity) || !(0...1).contains($0.sharpness) })
        || (points.last.map { $0.intensity != 0 } ?? false) || !(0...1).contains(vibration.initialSharpness)
    {
        fuzzFailure("envelope control points break BasicEnvelopeBuilder's rules: \(points)")
    }
    _ = AndroidExport.json(vibration, source: "fuzz.haptic")
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
    let legacy = HapticFileDecoder.decode(data: bytes, file: "fuzz.haptic")
    let strict = HapticFileDecoder.decode(data: bytes, file: "fuzz.haptic", mode: .strict)
    checkContract(legacy, "legacy")
    checkContract(strict, "strict")
    if strict.file != nil && legacy.file == nil { fuzzFailure("strict mode accepts what legacy mode refuses") }
    if let file = legacy.file {
        checkConversions(file)
        compileAndRender(HapticPlayback.pattern(for: file))
    }
    return 0
}

/// The program: libFuzzer's driver with ``testOneInput``.
@main
enum FuzzHaptic {
    static func main() {
        runFuzzer(testOneInput)
    }
}
