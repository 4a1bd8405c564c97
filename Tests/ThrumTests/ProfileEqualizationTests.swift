import Foundation
import Testing
import Thrum
import ThrumTestSupport

/// What a measured profile changes in the render (docs/measure.md): the drive's gain by frequency, and the
/// delays that line sound and vibration up. Expected values come from the profile's own numbers and from a
/// second-order actuator model computed here, not from the render core.
@Suite struct ProfileEqualizationTests {
    static let rate = 48_000.0

    /// The gain in dB a profile's points give at `f`: linear in dB against log frequency, held beyond the ends.
    static func expectedDB(_ points: [EqualizationPoint], at f: Double) -> Double {
        if f <= points[0].hz { return points[0].gainDB }
        if f >= points[points.count - 1].hz { return points[points.count - 1].gainDB }
        let upper = points.firstIndex { $0.hz >= f }!
        let (a, b) = (points[upper - 1], points[upper])
        return a.gainDB + log(f / a.hz) / log(b.hz / a.hz) * (b.gainDB - a.gainDB)
    }

    static func continuous(sharpness: Float, at time: Double = 0, duration: Double = 0.5) -> CHHapticEvent {
        CHHapticEvent(
            eventType: .hapticContinuous,
            parameters: [
                CHHapticEventParameter(parameterID: .hapticIntensity, value: 1),
                CHHapticEventParameter(parameterID: .hapticSharpness, value: sharpness),
                CHHapticEventParameter(parameterID: .attackTime, value: 0),
            ], relativeTime: time, duration: duration)
    }

    @Test("each sharpness drives at the profile's gain times its equalisation there", arguments: [0.0, 0.2, 0.45, 0.7, 1.0] as [Float])
    func equalisedSteadyAmplitude(sharpness: Float) throws {
        let points = [
            EqualizationPoint(hz: 80, gainDB: 0), EqualizationPoint(hz: 120, gainDB: -4), EqualizationPoint(hz: 165, gainDB: -18),
            EqualizationPoint(hz: 230, gainDB: -2),
        ]
        var profile = ActuatorProfile.default
        profile.equalization = points
        let engine = try offlineEngine(rate: Self.rate) { $0.actuatorProfile = profile }
        try engine.makePlayer(with: CHHapticPattern(events: [Self.continuous(sharpness: sharpness)], parameters: [])).start(atTime: 0)
        let frames = try render(engine, frames: Int(0.4 * Self.rate))
        let haptic = stride(from: 2, to: frames.count, by: 3).map { Double(frames[$0]) }
        let steady = haptic[Int(0.1 * Self.rate)..<Int(0.35 * Self.rate)]
        let peak = steady.map(abs).max() ?? 0
        let f = 80 + Double(sharpness) * 150
        let expected = 0.8 * pow(10, Self.expectedDB(points, at: f) / 20)
        #expect(abs(20 * log10(peak / expected)) < 0.05, "sharpness \(sharpness) (\(f) Hz): peak \(peak), expected \(expected)")
    }

    @Test("a sharpness sweep through a resonant actuator comes out flat with the profile that inverts it")
    func flatThroughTheActuator() throws {
        // A band-pass actuator at 170 Hz, Q 6 (the analog model; bilinear with pre-warping at f0 as simcard does).
        let f0 = 170.0, q = 6.0
        func response(_ f: Double) -> Double {
            let x = f / f0
            return (x / q) / ((1 - x * x) * (1 - x * x) + (x / q) * (x / q)).squareRoot()
        }
        let frequencies = (0..<48).map { 80 * pow(230.0 / 80, Double($0) / 47) }
        let weakest = frequencies.map { 20 * log10(response($0)) }.min()!
        var profile = ActuatorProfile.default
        profile.equalization = frequencies.map { EqualizationPoint(hz: $0, gainDB: max(weakest - 20 * log10(response($0)), -40)) }
        // Sharpness 0 → 1 over 6 s: the drive moves slowly through the resonance (its ring-up takes 11 ms).
        let curve = CHHapticParameterCurve(
            parameterID: .hapticSharpnessControl,
            controlPoints: [.init(relativeTime: 0, value: 0), .init(relativeTime: 6, value: 1)], relativeTime: 0)
        let engine = try offlineEngine(rate: Self.rate) { $0.actuatorProfile = profile }
        try engine.makePlayer(with: CHHapticPattern(events: [Self.continuous(sharpness: 0, duration: 6.2)], parameterCurves: [curve]))
            .start(atTime: 0)
        let frames = try render(engine, frames: Int(6.1 * Self.rate))
        let k = tan(Double.pi * f0 / Self.rate)
        let norm = 1 / (1 + k / q + k * k)
        let (b0, a1, a2) = (k / q * norm, 2 * (k * k - 1) * norm, (1 - k / q + k * k) * norm)
        var (x1, x2, y1, y2) = (0.0, 0.0, 0.0, 0.0)
        var output: [Double] = []
        for n in stride(from: 2, to: frames.count, by: 3) {
            let x = Double(frames[n])
            let y = b0 * x - b0 * x2 - a1 * y1 - a2 * y2
            (x2, x1, y2, y1) = (x1, x, y1, y)
            output.append(y)
        }
        // Peak of each 50 ms window from 0.2 s to 5.8 s (sharpness 0.03…0.97).
        let window = Int(0.05 * Self.rate)
        let levels = stride(from: Int(0.2 * Self.rate), to: Int(5.8 * Self.rate), by: window).map { start in
            20 * log10(output[start..<(start + window)].map(abs).max() ?? 0)
        }
        let middle = (levels.max()! + levels.min()!) / 2
        #expect(levels.allSatisfy { abs($0 - middle) <= 1.5 }, "spread \(levels.max()! - levels.min()!) dB")
    }

    @Test("a profile's latency delays the audio by its actuator part; --haptic-offset delays either side")
    func compensation() throws {
        let tone = CHHapticEvent(
            eventType: .audioContinuous, parameters: [CHHapticEventParameter(parameterID: .audioVolume, value: 0.5)],
            relativeTime: 0.05, duration: 0.1)
        let pattern = try CHHapticPattern(events: [transient(at: 0.05), tone], parameters: [])
        func run(_ configure: (inout CHHapticEngine.Options) -> Void) throws -> (samples: [Float], onsets: [ThrumOnset]) {
            let collector = OnsetCollector()
            let engine = try offlineEngine(rate: Self.rate) {
                $0.channelMap = try! ChannelMap(parsing: "L,R,H,T")
                $0.onsetHandler = { collector.add($0) }
                configure(&$0)
            }
            try engine.makePlayer(with: pattern).start(atTime: 0)
            let samples = try render(engine, frames: Int(0.3 * Self.rate), block: 300)
            return (samples, collector.onsets)
        }
        func channel(_ samples: [Float], _ c: Int) -> [Float] { stride(from: c, to: samples.count, by: 4).map { samples[$0] } }
        let plain = try run { _ in }
        var measured = ActuatorProfile.default
        measured.latency = ActuatorLatency(loopSeconds: 0.013, deviceSeconds: 0.003, actuatorSeconds: 0.010)
        let compensated = try run { $0.actuatorProfile = measured }
        let shift = 480  // 10 ms at 48 kHz
        #expect(channel(compensated.samples, 2) == channel(plain.samples, 2), "the haptic channel is not delayed")
        #expect(Array(channel(compensated.samples, 0).dropFirst(shift)) == Array(channel(plain.samples, 0).dropLast(shift)))
        #expect(channel(compensated.samples, 0).prefix(shift).allSatisfy { $0 == 0 })
        let onsetFrame = UInt64(0.05 * Self.rate)
        #expect(compensated.onsets.map(\.streamFrame).sorted() == [onsetFrame, onsetFrame + UInt64(shift)])
        let trigger = channel(compensated.samples, 3)
        #expect(trigger[Int(onsetFrame)] == 1 && trigger[Int(onsetFrame) + shift] == 1 && trigger[Int(onsetFrame) + 100] == 0)
        // By hand, haptics 5 ms late: the audio stays, the haptic channel moves.
        let late = try run { $0.actuatorProfile = measured; $0.hapticOffset = 0.005 }
        #expect(channel(late.samples, 0) == channel(plain.samples, 0))
        #expect(Array(channel(late.samples, 2).dropFirst(240)) == Array(channel(plain.samples, 2).dropLast(240)))
        #expect(throws: CHHapticError.self) { try offlineEngine { $0.hapticOffset = 2 } }
    }

    @Test("profiles without the measured fields read as before; written profiles read back equal")
    func profileFiles() throws {
        let old = try ActuatorProfile.decode(from: Data(#"{"name": "x", "lowFrequency": 80, "highFrequency": 230}"#.utf8))
        #expect(old.equalization.isEmpty && old.latency == nil)
        var profile = ActuatorProfile.lra
        profile.name = "measured \"lra\""
        profile.equalization = [EqualizationPoint(hz: 160, gainDB: -0.5), EqualizationPoint(hz: 170.25, gainDB: -21.125)]
        profile.latency = ActuatorLatency(loopSeconds: 0.0171, deviceSeconds: 0.0021, actuatorSeconds: 0.015)
        #expect(try ActuatorProfile.decode(from: Data(profile.encodedJSON.utf8)) == profile)
        let boost = #"{"name": "x", "lowFrequency": 80, "highFrequency": 230, "equalization": [{"hz": 100, "gainDB": 3}]}"#
        #expect(throws: ActuatorProfileError.invalidField("equalization[0].gainDB", "must be −60…0 dB (a cut), got 3")) {
            try ActuatorProfile.decode(from: Data(boost.utf8))
        }
        let unordered = #"{"name": "x", "lowFrequency": 80, "highFrequency": 230, "equalization": [{"hz": 100, "gainDB": 0}, {"hz": 90, "gainDB": 0}]}"#
        #expect(throws: ActuatorProfileError.self) { try ActuatorProfile.decode(from: Data(unordered.utf8)) }
    }
}
