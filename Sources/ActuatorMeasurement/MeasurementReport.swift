// What a measurement says to people and programs: the table, the JSON object (its keys are a contract,
// docs/measure.md), and the actuator profile it makes (equalised drive, recorded latency).
import Glibc
import RenderCore

extension MeasurementResult {
    /// The JSON object, one line. Keys (a contract): latency {median_ms, p99_ms, jitter_ms, device_ms,
    /// actuator_ms, at_hz}, resonance_hz, q, band_hz [low, high], response [{hz, magnitude_db, phase_deg}],
    /// thd_percent, noise_floor_dbfs, snr_db; and model, drive_dbfs, sample_rate, warnings.
    package var json: String {
        func number(_ value: Double, _ digits: Int) -> String { value.isFinite ? format(value, digits) : "null" }
        let ms = { (seconds: Double) in number(seconds * 1000, 4) }
        let response = self.response.map {
            "{\"hz\":\(number($0.hz, 3)),\"magnitude_db\":\(number($0.magnitudeDB, 3)),\"phase_deg\":\(number($0.phaseDegrees, 2))}"
        }
        let warnings = self.warnings.map { "\"" + jsonEscaped($0) + "\"" }
        return "{\"latency\":{\"median_ms\":\(ms(latency.median)),\"p99_ms\":\(ms(latency.p99)),"
            + "\"jitter_ms\":\(ms(latency.jitter)),\"device_ms\":\(ms(latency.device)),"
            + "\"actuator_ms\":\(ms(latency.actuator)),\"at_hz\":\(number(latency.atFrequency, 2))},"
            + "\"resonance_hz\":\(number(resonance, 3)),\"q\":\(number(q, 4)),"
            + "\"band_hz\":[\(number(band.low, 2)),\(number(band.high, 2))],"
            + "\"response\":[\(response.joined(separator: ","))],"
            + "\"thd_percent\":\(number(thdPercent, 4)),\"noise_floor_dbfs\":\(number(noiseFloorDBFS, 2)),"
            + "\"snr_db\":\(number(snrDB, 2)),\"model\":\"\(model.rawValue)\",\"drive_dbfs\":\(number(driveDBFS, 2)),"
            + "\"sample_rate\":\(sampleRate),\"warnings\":[\(warnings.joined(separator: ","))]}"
    }

    /// The table people read.
    package var table: String {
        var lines = [
            "latency (DAC → ADC, \(latency.clicks.count) clicks): median \(format(latency.median * 1000, 3)) ms, "
                + "p99 \(format(latency.p99 * 1000, 3)) ms, jitter \(format(latency.jitter * 1000, 3)) ms",
            "  device \(format(latency.device * 1000, 3)) ms + actuator \(format(latency.actuator * 1000, 3)) ms "
                + "(its group delay at \(format(latency.atFrequency, 1)) Hz)",
            "resonance: \(format(resonance, 1)) Hz, Q \(format(q, 2)) (\(model.rawValue)); −3 dB band "
                + "\(format(band.low, 1))–\(format(band.high, 1)) Hz",
            "distortion at f0: \(format(thdPercent, 2)) % THD; noise floor \(format(noiseFloorDBFS, 1)) dBFS; "
                + "SNR \(format(snrDB, 1)) dB; drive \(format(driveDBFS, 1)) dBFS",
            "response (captured ÷ played):",
            "      Hz      dB     phase°",
        ]
        for point in response.enumerated().filter({ $0.offset % 9 == 0 || $0.offset == response.count - 1 }).map(\.element) {
            lines.append(
                padded(format(point.hz, 1), 8) + padded(format(point.magnitudeDB, 2), 8)
                    + padded(format(point.phaseDegrees, 1), 11))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `base` with the drive equalised across its band from this response, and this latency recorded: at
    /// each of 48 log-spaced points of the band, the gain that brings the response down to its weakest
    /// point in the band (never a boost, at most 40 dB of cut).
    package func profile(from base: ActuatorProfile, name: String) -> ActuatorProfile {
        var profile = base
        profile.name = name
        let low = base.lowFrequency
        let high = max(base.highFrequency, low * 1.0001)
        let frequencies = (0..<48).map { low * pow(high / low, Double($0) / 47) }
        // The response measured with `base`'s equalisation applied: the actuator's own is the measured one
        // without it, and the new equalisation replaces it.
        let actuator = frequencies.map { f in
            interpolatedMagnitudeDB(at: f) - 20 * log10(max(base.equalizationGain(atFrequency: f), 1e-6))
        }
        let weakest = actuator.min() ?? 0
        profile.equalization = zip(frequencies, actuator).map { f, level in
            EqualizationPoint(hz: (f * 100).rounded() / 100, gainDB: (max(weakest - level, -40) * 1000).rounded() / 1000)
        }
        let microseconds = { (seconds: Double) in (max(seconds, 0) * 1e6).rounded() / 1e6 }
        profile.latency = ActuatorLatency(
            loopSeconds: microseconds(latency.median), deviceSeconds: microseconds(latency.device),
            actuatorSeconds: microseconds(latency.actuator))
        return profile
    }

    /// The measured magnitude at `frequency` in dB, linear in log frequency between the response's points.
    func interpolatedMagnitudeDB(at frequency: Double) -> Double {
        guard let first = response.first, let last = response.last else { return 0 }
        if frequency <= first.hz { return first.magnitudeDB }
        if frequency >= last.hz { return last.magnitudeDB }
        let upper = response.firstIndex { $0.hz >= frequency } ?? response.count - 1
        let a = response[upper - 1]
        let b = response[upper]
        let t = log(frequency / a.hz) / log(b.hz / a.hz)
        return a.magnitudeDB + t * (b.magnitudeDB - a.magnitudeDB)
    }
}

private func padded(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

/// `text` escaped for a JSON string.
func jsonEscaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result
}
