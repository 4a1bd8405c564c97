import ALSAOutput
import ActuatorMeasurement
import Foundation
import RenderCore
import ThrumTestSupport

/// A simulated loop: one simcard whose capture side returns its playback's channel 2 through an actuator
/// model (Tools/dev/simcard/README.md, "The loop"). The parameters are the true answer the tests check against.
struct SimulatedLoop: CustomStringConvertible {
    enum Model: String { case bandpass, highpass, none }
    var model: Model
    var f0: Double
    var q: Double
    /// Linear gain after the model.
    var gain: Double
    /// DAC → ADC, frames (fractional).
    var delayFrames: Double
    var noiseDBFS: Double? = -90
    var distortion2 = 0.0
    var distortion3 = 0.0
    var extra = ""
    var rate = 48_000
    var format = "S32_LE"

    var description: String {
        "\(model) f0 \(f0) Hz Q \(q) gain \(gain) delay \(delayFrames) frames"
    }

    /// The card's simcard keys: 2 playback channels (the actuator on channel 2), 2 capture channels (the
    /// sensor on 1, the played channel 1 straight on 2, as a microphone at the listener would be).
    var fields: String {
        """
        formats [ \(format) ]
        channels 2
        rates [ \(rate) ]
        input_source 2
        input_direct 1
        actuator \(model.rawValue)
        actuator_f0 \(f0)
        actuator_q \(q)
        input_gain \(gain)
        input_delay \(delayFrames)
        \(noiseDBFS.map { "input_noise_dbfs \($0)" } ?? "")
        input_distortion2 \(distortion2)
        input_distortion3 \(distortion3)
        input_seed 7
        \(extra)
        """
    }

    /// The model's response (gain included) at `frequency`: the analog second-order prototype the card's
    /// biquad is the bilinear transform of (pre-warped at f0; within 0.01 dB of it below 1 kHz at 48 kHz).
    func magnitudeDB(at frequency: Double) -> Double {
        let x = frequency / f0
        let denominator = ((1 - x * x) * (1 - x * x) + (x / q) * (x / q)).squareRoot()
        let numerator: Double
        switch model {
        case .bandpass: numerator = x / q
        case .highpass: numerator = x * x
        case .none: return 20 * log10(gain)
        }
        return 20 * log10(gain * numerator / denominator)
    }

    /// The model's group delay at `frequency`, seconds (the denominator's; the numerators add none).
    func groupDelay(at frequency: Double) -> Double {
        guard model != .none else { return 0 }
        func phase(_ f: Double) -> Double {
            let x = f / f0
            return atan2(x / q, 1 - x * x)
        }
        let step = frequency * 1e-4
        return (phase(frequency + step) - phase(frequency - step)) / (2 * .pi * 2 * step)
    }
}

extension SimulatedCardRun {
    var loopSource: ALSADeviceSource { .configuration(text: configurationText, pcmName: deviceName) }
}

/// A request for the loop on `run`: the actuator on output channel 2 (`0,H`), the sensor on input 1.
func loopRequest(_ run: SimulatedCardRun, sweepSeconds: Double = 2) throws -> MeasurementRequest {
    var request = MeasurementRequest(output: run.loopSource, input: run.loopSource, channelMap: try ChannelMap(parsing: "0,H"))
    request.sweepSeconds = sweepSeconds
    return request
}

extension SimulatedLoop {
    /// The card's response is the analog prototype's at the pre-warped frequency (the bilinear transform).
    func warped(_ frequency: Double) -> Double {
        f0 * tan(.pi * frequency / Double(rate)) / tan(.pi * f0 / Double(rate))
    }

    /// The card's magnitude at `frequency`, dB.
    func cardMagnitudeDB(at frequency: Double) -> Double { magnitudeDB(at: warped(frequency)) }

    /// The card's group delay at `frequency`, seconds.
    func cardGroupDelay(at frequency: Double) -> Double {
        let step = frequency * 1e-4
        let slope = (warped(frequency + step) - warped(frequency - step)) / (2 * step)
        return groupDelay(at: warped(frequency)) * slope
    }

    /// A random loop for `seed`: a band-pass (a linear resonant actuator) or a high-pass (a voice coil),
    /// with a fractional delay of 0.6…12 ms.
    static func random(_ random: inout SplitMix64, model: Model) -> SimulatedLoop {
        let f0 = model == .bandpass ? random.range(120, 260) : random.range(45, 130)
        let q = model == .bandpass ? random.range(3, 12) : random.range(0.6, 2.5)
        let gain = random.range(0.3, 2)
        let delay = random.range(30, 580)
        return SimulatedLoop(model: model, f0: f0, q: q, gain: gain, delayFrames: delay, noiseDBFS: random.range(-100, -80))
    }
}
