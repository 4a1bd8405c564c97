import Foundation
import Testing
import Thrum
import ThrumTestSupport

/// Spatial panning between actuators (issue 15): Thrum's `ThrumHapticPanX` moves a player's haptics between
/// the actuators of its engine's locality with equal power: between neighbours at a and b, the actuator at a
/// takes cos(t × π/2) and the one at b sin(t × π/2), t = (p − a) / (b − a).
@Suite struct HapticPanTests {
    /// Root mean square of `samples[range]`.
    func rms(_ samples: [Float], _ range: Range<Int>) -> Double {
        (samples[range].reduce(0) { $0 + Double($1) * Double($1) } / Double(range.count)).squareRoot()
    }

    /// The largest sample-to-sample change in `samples`.
    func largestStep(_ samples: [Float]) -> Float {
        zip(samples.dropFirst(), samples).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    let rate = 48_000.0
    let steady = continuous(at: 0, duration: 2, intensity: 0.6)

    @Test("pan 0.25 between actuators at 0 and 1: RMS ratio cos/sin(π/8) within 0.1 dB, powers summing to the unpanned one")
    func equalPowerAtAQuarter() throws {
        let device = try offlineDevice(
            "H:near,H:far", rate: rate,
            actuators: [
                Actuator(name: "near", position: ActuatorPosition(x: 0)),
                Actuator(name: "far", position: ActuatorPosition(x: 1)),
            ])
        let engine = try #require(device.createEngine(withLocality: .all))
        try engine.start()
        let pan = CHHapticDynamicParameter(parameterID: .thrumHapticPanX, value: 0.25, relativeTime: 0)
        try engine.makePlayer(with: CHHapticPattern(events: [steady], parameters: [pan])).start(atTime: 0)
        let frames = Int(rate)
        let out = try render(engine, frames: frames)
        let middle = 4800..<(frames - 4800)
        let (near, far) = (rms(channel(out, 0, of: 2), middle), rms(channel(out, 1, of: 2), middle))
        let expected = 20 * log10(cos(Double.pi / 8) / sin(Double.pi / 8))  // 7.66 dB
        let measured = 20 * log10(near / far)
        #expect(abs(measured - expected) < 0.1, "near/far \(measured) dB, expected \(expected) dB")

        let alone = rms(try renderedAlone(CHHapticPattern(events: [steady], parameters: []), profile: .default, rate: rate, frames: frames), middle)
        let total = 10 * log10((near * near + far * far) / (alone * alone))
        #expect(abs(total) < 0.1, "panned power \(total) dB from the unpanned")
    }

    @Test("a pan sweep from the left actuator to the right has no steps and keeps the power")
    func sweepIsSmooth() throws {
        let device = try offlineDevice("H:left,H:right", rate: rate)  // default places: x = −1 and 1
        let engine = try #require(device.createEngine(withLocality: .all))
        try engine.start()
        let sweep = CHHapticParameterCurve(
            parameterID: .thrumHapticPanX,
            controlPoints: [.init(relativeTime: 0, value: -1), .init(relativeTime: 2, value: 1)], relativeTime: 0)
        try engine.makePlayer(with: CHHapticPattern(events: [steady], parameterCurves: [sweep])).start(atTime: 0)
        let frames = Int(2 * rate)
        let out = try render(engine, frames: frames)
        let (left, right) = (channel(out, 0, of: 2), channel(out, 1, of: 2))
        let alone = try renderedAlone(CHHapticPattern(events: [steady], parameters: []), profile: .default, rate: rate, frames: frames)

        // It moves: the left actuator leads in the first quarter, the right one in the last.
        let (first, last) = (4800..<24_000, 72_000..<91_200)
        #expect(rms(left, first) > 2 * rms(right, first) && rms(right, last) > 2 * rms(left, last))

        // y = w × x with w changing by at most (π/2) × Δp / (b − a) per frame, Δp = 2 / frames, b − a = 2:
        // no change beyond the unpanned signal's own largest step plus its peak times that.
        let peak = alone.reduce(0) { max($0, abs($1)) }
        let bound = largestStep(alone) + peak * Float.pi / 2 / Float(frames) + 1e-6
        #expect(largestStep(left) <= bound && largestStep(right) <= bound, "steps \(largestStep(left)), \(largestStep(right)); bound \(bound)")

        // Equal power all the way: in every 10 ms window the two powers sum to the unpanned power.
        for start in stride(from: 4800, to: frames - 4800, by: 480) {
            let window = start..<(start + 480)
            let (l, r, x) = (rms(left, window), rms(right, window), rms(alone, window))
            let total = 10 * log10((l * l + r * r) / (x * x))
            #expect(abs(total) < 0.1, "window at \(start): \(total) dB")
        }
    }
}
