import Foundation
import Testing
import ThrumModel

@testable import RenderCore

/// Timing runs, off by default: `THRUM_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter Benchmark`.
@Suite("Benchmark", .enabled(if: ProcessInfo.processInfo.environment["THRUM_BENCH"] == "1"), .serialized)
struct BenchmarkTests {
    static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func run(pattern: CompiledPattern, seconds: Double, block: Int, maxVoices: Int = 64) -> Double {
        let renderer = Renderer(configuration: RendererConfiguration(sampleRate: 48_000, maxVoices: maxVoices, maxBlockFrames: block))
        renderer.startPlayer(0, pattern: pattern, atFrame: 0)
        let l = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let r = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let h = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer { l.deallocate(); r.deallocate(); h.deallocate() }
        let blocks = Int(seconds * 48_000) / block
        return time {
            for _ in 0..<blocks { renderer.render(frameCount: block, into: l, r, h) }
        }
    }

    @Test("600 s of one continuous haptic event at 48 kHz")
    func longContinuous() throws {
        let events = (0..<20).map { i in
            event(.hapticContinuous, Double(i) * 30, duration: 30, [(.hapticIntensity, 0.8), (.hapticSharpness, 0.5)])
        }
        let pattern = try compile(PatternData(events: events), rate: 48_000)
        let seconds = Self.run(pattern: pattern, seconds: 600, block: 256)
        print("600 s continuous haptic rendered in \(seconds) s")
    }

    @Test("64 simultaneous voices, 256-frame blocks")
    func manyVoices() throws {
        var events: [EventData] = []
        for i in 0..<48 {
            events.append(event(.hapticContinuous, 0, duration: 20, [(.hapticIntensity, 0.1), (.hapticSharpness, Float(i) / 48)]))
        }
        for i in 0..<16 {
            events.append(event(.audioContinuous, 0, duration: 20, [(.audioPitch, Float(i) / 16 - 0.5), (.audioVolume, 0.05)]))
        }
        let pattern = try compile(
            PatternData(
                events: events,
                curves: [
                    ParameterCurveData(
                        id: .hapticIntensityControl, time: 0,
                        points: [ControlPointData(time: 0, value: 1), ControlPointData(time: 10, value: 0.5)])
                ]), rate: 48_000)
        let seconds = Self.run(pattern: pattern, seconds: 10, block: 256)
        let periods = 10.0 * 48_000 / 256
        let perPeriod = seconds / periods
        print("64 voices: \(perPeriod * 1e6) µs per 256-frame period = \(100 * perPeriod / (256.0 / 48_000)) % of the period")
    }
}
