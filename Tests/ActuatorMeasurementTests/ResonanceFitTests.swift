import Foundation
import Testing

@testable import ActuatorMeasurement

/// The fit alone, on responses computed from the second-order models themselves (no loop, no noise).
@Suite("Resonance fit")
struct ResonanceFitTests {
    @Test("recovers the model, f0, Q, the gain and the delay of exact responses", arguments: [
        (ResonanceModel.bandpass, 170.0, 8.0, 0.0025), (.bandpass, 152.0, 3.2, 0.006), (.highpass, 70.0, 2.07, 0.0118),
        (.highpass, 90.0, 0.7, 0.001),
    ])
    func exact(model: ResonanceModel, f0: Double, q: Double, delay: Double) throws {
        let frequencies = ActuatorMeasurement.responseFrequencies
        let measured = frequencies.map { f in
            model.response(at: f, f0: f0, q: q) * 0.4 * Complex.unit(-2 * Double.pi * f * delay)
        }
        let fit = try #require(ResonanceFit.fit(frequencies: frequencies, measured: measured, weights: frequencies.map { _ in 1 }))
        #expect(fit.model == model)
        #expect(abs(fit.f0 / f0 - 1) < 1e-4, "f0 \(fit.f0)")
        #expect(abs(fit.q / q - 1) < 1e-4, "Q \(fit.q)")
        #expect(abs(fit.gain / 0.4 - 1) < 1e-4, "gain \(fit.gain)")
        #expect(abs(fit.delay - delay) < 1e-7, "delay \(fit.delay)")
    }
}
