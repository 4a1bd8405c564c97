import AHAPCodec
import Foundation
import HapticFormats
import Testing
import ThrumTestSupport
import Thrum

/// `.haptic` files through the engine: loaded with `CHHapticPattern(contentsOf:)`, played with their own
/// meaning (emphasis independent of the continuous envelope), and rendering like their AHAP conversion.
@Suite struct HapticPlaybackTests {
    static let fixtures = packageRoot.appendingPathComponent("Tests/HapticFormatsTests/Fixtures")

    /// The haptic channel of `patterns` played together from time 0 for `seconds`.
    func renderHaptic(_ patterns: [CHHapticPattern], seconds: Double, rate: Double) throws -> [Float] {
        let engine = try offlineEngine(rate: rate)
        for pattern in patterns { try engine.makePlayer(with: pattern).start(atTime: 0) }
        return channel(try render(engine, frames: Int(seconds * rate), block: 512), 2, of: 3)
    }

    /// RMS of `samples` over consecutive windows of `window` samples.
    func envelope(_ samples: [Float], window: Int) -> [Double] {
        stride(from: 0, to: samples.count - window, by: window).map { start in
            (samples[start..<(start + window)].reduce(0) { $0 + Double($1) * Double($1) } / Double(window)).squareRoot()
        }
    }

    /// Pearson correlation of two equally long series.
    func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let n = Double(min(a.count, b.count))
        let ma = a.prefix(Int(n)).reduce(0, +) / n
        let mb = b.prefix(Int(n)).reduce(0, +) / n
        var sab = 0.0, saa = 0.0, sbb = 0.0
        for (x, y) in zip(a, b) {
            sab += (x - ma) * (y - mb)
            saa += (x - ma) * (x - ma)
            sbb += (y - mb) * (y - mb)
        }
        return sab / (saa * sbb).squareRoot()
    }

    @Test func loadsAHapticFile() throws {
        let url = Self.fixtures.appendingPathComponent("gear.haptic")
        let pattern = try CHHapticPattern(contentsOf: url)
        #expect(abs(pattern.duration - 0.91) < 1e-9)
        #expect(throws: CHHapticError.self) { try pattern.exportDictionary() }
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-broken-\(getpid()).haptic")
        try Data("{\"version\": {\"major\": 1},\n \"signals\": {}}".utf8).write(to: broken)
        defer { try? FileManager.default.removeItem(at: broken) }
        do {
            _ = try CHHapticPattern(contentsOf: broken)
            Issue.record("a broken .haptic must not load")
        } catch let error as CHHapticError {
            #expect(error.code == .invalidPatternDictionary)
            #expect(error.message.hasPrefix("\(broken.path):2:13: signals: missing \"continuous\"; add "), "\(error.message)")
        }
    }

    @Test func emphasisIsNotShapedByTheEnvelope() throws {
        // taps.haptic: amplitude 0 throughout; emphasis 1.0 at 0 s and 0.5 at 0.25 s.
        let url = Self.fixtures.appendingPathComponent("taps.haptic")
        let rate = 48_000.0
        let native = try renderHaptic([try CHHapticPattern(contentsOf: url)], seconds: 0.5, rate: rate)
        // They play exactly as the same transients alone (intensity √amplitude, sharpness = frequency), with
        // no envelope at all.
        let alone = try renderHaptic(
            [try CHHapticPattern(events: [transient(at: 0, intensity: 1, sharpness: 0.9), transient(at: 0.25, intensity: Float((0.5).squareRoot()), sharpness: 0.2)], parameters: [])],
            seconds: 0.5, rate: rate)
        #expect(peak(native, 0..<native.count) > 0.4)
        #expect(zip(native, alone).allSatisfy { abs($0 - $1) < 1e-6 })
        // In a merged AHAP the intensity curve (0 here) scales the transients away, as Core Haptics does.
        let file = try #require(HapticFileDecoder.decode(contentsOfFile: url.path).file)
        let merged = HapticToAHAP.convert(file, split: false).continuous
        let ahap = try renderHaptic([CHHapticPattern(data: merged)], seconds: 0.5, rate: rate)
        #expect(peak(ahap, 0..<ahap.count) == 0)
    }

    @Test(arguments: ["gear", "rumble"]) func nativeRenderMatchesItsAHAPConversion(name: String) throws {
        let url = Self.fixtures.appendingPathComponent(name + ".haptic")
        let file = try #require(HapticFileDecoder.decode(contentsOfFile: url.path).file)
        let rate = 8000.0
        let seconds = file.duration + 0.1
        let native = try renderHaptic([try CHHapticPattern(contentsOf: url)], seconds: seconds, rate: rate)
        let split = HapticToAHAP.convert(file, split: true)
        let patterns = ([split.continuous] + (split.transients.map { [$0] } ?? [])).map { CHHapticPattern(data: $0) }
        let converted = try renderHaptic(patterns, seconds: seconds, rate: rate)
        // RMS over 25 ms: two periods of the lowest actuator frequency (80 Hz), so the envelope does not ripple.
        let window = Int(0.025 * rate)
        let r = correlation(envelope(native, window: window), envelope(converted, window: window))
        #expect(r >= 0.99, "\(name): haptic-channel envelope correlation \(r)")
    }
}
