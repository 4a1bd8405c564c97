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
import FuzzSupport
import RenderCore
import ThrumModel

let checkRoundTrip = ProcessInfo.processInfo.environment["THRUM_FUZZ_ROUNDTRIP"] == "1"

/// The render settings: the engine's default rate (so overflows at that rate are found), small blocks.
let sampleRate = 48_000.0
let periodFrames = 256
let periods = 4
/// The buffer every AudioCustom event plays: 0.1 s of a 440 Hz tone, stereo.
let clickBuffer = SampleBuffer(
    samples: (0..<4800).flatMap { n in [Float](repeating: Float(0.5 * sin(2 * Double.pi * 440 * Double(n) / sampleRate)), count: 2) },
    channelCount: 2, sampleRate: sampleRate)

/// Compiles `pattern` and renders a few periods from its start and from its last start time.
func compileAndRender(_ pattern: PatternData) {
    let compiled: CompiledPattern
    do {
        compiled = try CompiledPattern(compiling: pattern, sampleRate: sampleRate, audio: { _, _ in clickBuffer })
    } catch {
        fuzzFailure("an accepted pattern does not compile: \(error)")
    }
    let renderer = Renderer(
        configuration: RendererConfiguration(sampleRate: sampleRate, maxVoices: 16, maxPlayers: 1, maxBlockFrames: periodFrames))
    guard renderer.startPlayer(0, pattern: compiled, atFrame: 0) else { fuzzFailure("the player did not start") }
    var buses = [Float](repeating: 0, count: 3 * periodFrames)
    func renderPeriods() {
        for _ in 0..<periods {
            buses.withUnsafeMutableBufferPointer { b in
                let base = b.baseAddress!
                renderer.render(frameCount: periodFrames, into: base, base + periodFrames, base + 2 * periodFrames)
            }
            for (index, sample) in buses.enumerated() {
                guard sample.isFinite else { fuzzFailure("sample \(index % periodFrames) of bus \(index / periodFrames) is \(sample)") }
                if index >= 2 * periodFrames && abs(sample) > 1 { fuzzFailure("haptic sample \(sample) is beyond ±1") }
            }
        }
    }
    renderPeriods()
    let latest = max(compiled.events.last?.time ?? 0, compiled.controls.last?.time ?? 0)
    renderer.seekPlayer(0, toOffset: max(0, latest - 0.01), atFrame: renderer.currentFrame)
    renderPeriods()
}

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
