// The typed measurement API: what to measure (`MeasurementRequest`), what came out (`MeasurementResult`),
// what went wrong (`MeasurementError`), and the run that ties the loop's recordings to the analysis.
import ALSAOutput
import Glibc
import RenderCore

/// What `ActuatorMeasurement.measure` does: which output plays the test signal on which channels, which
/// input records the sensor, at which rate and period, and the actuator's profile (its band says where the
/// actuator's part of the latency is read; its equalisation, if any, shapes the sweep as it shapes the drive).
/// - Important: Thread safety: a value; any thread.
package struct MeasurementRequest: Sendable {
    /// The playback device.
    package var output: ALSADeviceSource
    /// The capture device (the same card or another).
    package var input: ALSADeviceSource
    /// The output channels: the test signal plays on each haptic (`H`) channel, the rest are silent.
    package var channelMap: ChannelMap
    /// The input channel the sensor is on, from 1.
    package var inputChannel: Int = 1
    /// Hz; both devices must run at it.
    package var sampleRate: Int = 48_000
    /// Frames per period and periods per buffer of both streams.
    package var periodFrames: Int = 256
    package var periodCount: Int = 4
    /// SCHED_FIFO priority of both streams' threads, or nil.
    package var realtimePriority: Int32? = 70
    /// The sweep's length in seconds (1…30).
    package var sweepSeconds: Double = 4
    /// The actuator's profile.
    package var profile: ActuatorProfile = .default
    /// Seconds the input starts before the output (negative: after), as two devices would; 0.05 by default.
    package var captureLead: Double = 0.05

    /// A request for `output` and `input` with the defaults above and the test signal on channel map `H`.
    package init(output: ALSADeviceSource, input: ALSADeviceSource, channelMap: ChannelMap = ChannelMap(sources: [.haptic])) {
        self.output = output
        self.input = input
        self.channelMap = channelMap
    }
}

/// Why a measurement failed or is doubtful. Each has the exit status the command line gives it (sysexits).
package enum MeasurementError: Error, Equatable, CustomStringConvertible {
    /// The request does not make sense (64).
    case usage(String)
    /// A device cannot be opened or does not accept the setup (69).
    case unavailable(String)
    /// The input runs at another rate than the output (69).
    case wrongRate(String)
    /// Nothing of the test signal came back (66).
    case silent(String)
    /// The input clipped even at the lowest drive (65).
    case clipped(String)
    /// The input is too noisy for the response to mean anything (65).
    case noisy(String)
    /// A stream failed (74).
    case io(String)
    /// The input lost samples (an overrun) in every try (74).
    case overrun(Int)
    /// The output lost samples (an underrun) in every try (74).
    case underrun(Int)

    /// The exit status (sysexits.h).
    package var exitCode: Int32 {
        switch self {
        case .usage: 64
        case .unavailable, .wrongRate: 69
        case .silent: 66
        case .clipped, .noisy: 65
        case .io, .overrun, .underrun: 74
        }
    }

    package var description: String {
        switch self {
        case .usage(let text), .unavailable(let text), .wrongRate(let text), .io(let text): text
        case .silent(let text): "input silent: \(text)"
        case .clipped(let text): "input clipped: \(text)"
        case .noisy(let text): "input too noisy: \(text)"
        case .overrun(let count): "the input overran (\(count) time\(count == 1 ? "" : "s")) in every try: samples were lost; use a longer period (--period) or a quieter machine"
        case .underrun(let count): "the output underran (\(count) time\(count == 1 ? "" : "s")) in every try; use a longer period (--period) or a quieter machine"
        }
    }
}

/// One point of the measured response.
package struct ResponsePoint: Sendable, Equatable {
    package var hz: Double
    /// Captured ÷ played, in dB.
    package var magnitudeDB: Double
    /// The actuator's phase (the device's pure delay taken out), −180…180°.
    package var phaseDegrees: Double
}

/// The loop's latency over the click train, in seconds.
package struct LatencyFigures: Sendable, Equatable {
    package var median: Double
    package var p99: Double
    /// The standard deviation of the clicks' latencies.
    package var jitter: Double
    /// The device's part: the pure delay from the DAC to the ADC (converters, buffers, cables).
    package var device: Double
    /// The actuator's part: its group delay at `atFrequency` (the resonance if it lies in the profile's band,
    /// else the band's centre).
    package var actuator: Double
    package var atFrequency: Double
    /// Each click's latency.
    package var clicks: [Double]
}

/// What a measurement found.
package struct MeasurementResult: Sendable {
    package var latency: LatencyFigures
    /// The fitted resonance f0 in Hz, its Q and the model.
    package var resonance: Double
    package var q: Double
    package var model: ResonanceModel
    /// The −3 dB band around the strongest response, Hz.
    package var band: (low: Double, high: Double)
    /// 100 points, log-spaced, 20 Hz – 1 kHz.
    package var response: [ResponsePoint]
    /// Total harmonic distortion at f0 (2nd to 5th), percent.
    package var thdPercent: Double
    /// RMS of the input with nothing playing, dB relative to full scale.
    package var noiseFloorDBFS: Double
    /// The sweep's RMS at the input over the noise floor's, dB.
    package var snrDB: Double
    /// The sweep's peak drive, dB relative to full scale.
    package var driveDBFS: Double
    package var sampleRate: Int
    /// What makes the result doubtful (empty when nothing does).
    package var warnings: [String]
}

/// Measures an actuator through an ALSA loop (see docs/measure.md).
package enum ActuatorMeasurement {
    /// The response's frequencies: 100 points, log-spaced from 20 Hz to 1 kHz.
    package static let responseFrequencies: [Double] = (0..<100).map { 20 * pow(50.0, Double($0) / 99) }
    /// Where the sweep starts, Hz: two octaves below the response's 20 Hz, so the deconvolution's edge is far.
    static let lowestFrequency = 5.0
    /// The highest drive, full scale 1.
    static let maxDrive = 0.7
    /// The capture peak the main run aims for (−12 dBFS).
    static let targetPeak = 0.25
    /// A capture at or above this is clipped.
    static let clipLevel = 0.98
    /// Below this SNR (dB) the input is silent; below `noisySNR` too noisy.
    static let silentSNR = 3.0
    static let noisySNR = 20.0

    /// Runs the measurement: a short sweep to choose the level, then the sweep and the click train.
    /// Takes about `sweepSeconds` + 6 s. Blocks the calling thread.
    /// - Throws: `MeasurementError` (each case says what to do).
    package static func measure(_ request: MeasurementRequest) throws(MeasurementError) -> MeasurementResult {
        guard (1...30).contains(request.sweepSeconds) else { throw .usage("the sweep lasts 1 to 30 s") }
        guard request.inputChannel >= 1 else { throw .usage("input channels are numbered from 1") }
        let recorder = try LoopRecorder(request: request)
        defer { recorder.close() }
        let rate = recorder.sampleRate
        guard rate >= 8000 else { throw .usage("a measurement needs at least 8000 Hz") }
        let top = min(3000, rate * 0.4)
        let equalizer = { (f: Double) in request.profile.equalizationGain(atFrequency: f) }
        // The level: a 1 s sweep at −20 dBFS, 20 dB lower while the input clips.
        var amplitude = 0.1
        var probe = try runRetrying(recorder, TestSignal(
            rate: rate, sweep: LogSweep(lowFrequency: lowestFrequency, highFrequency: top, seconds: 1), amplitude: amplitude,
            clicks: false, equalizer: equalizer), lead: request.captureLead)
        while probe.peak >= clipLevel {
            guard amplitude > 0.0011 else {
                throw .clipped(
                    "input '\(request.input.name)' reaches full scale even with the drive at −60 dBFS; turn the input's gain down")
            }
            amplitude /= 10
            probe = try runRetrying(recorder, TestSignal(
                rate: rate, sweep: LogSweep(lowFrequency: lowestFrequency, highFrequency: top, seconds: 1), amplitude: amplitude,
                clicks: false, equalizer: equalizer), lead: request.captureLead)
        }
        guard probe.peak > 1e-7 else {
            throw .silent(
                "nothing came back from input '\(request.input.name)' channel \(request.inputChannel); check the sensor's "
                    + "wiring and the input's gain, and that the actuator is on a haptic channel of --channels")
        }
        // Scaled so the sweep's peak comes back at −12 dBFS; a sweep that hardly stands out of the noise gets
        // the highest drive.
        let probeSignal = TestSignal(
            rate: rate, sweep: LogSweep(lowFrequency: lowestFrequency, highFrequency: top, seconds: 1), amplitude: amplitude,
            clicks: false)
        let sweepPeak = probe.peak(over: probeSignal.sweepStart..<(probeSignal.sweepStart + probeSignal.reference.count))
        let noisePeak = probe.peak(over: probeSignal.noise)
        amplitude = sweepPeak > 3 * noisePeak ? min(amplitude * targetPeak / sweepPeak, maxDrive) : maxDrive
        var signal = TestSignal(
            rate: rate, sweep: LogSweep(lowFrequency: lowestFrequency, highFrequency: top, seconds: request.sweepSeconds),
            amplitude: amplitude, clicks: true, equalizer: equalizer)
        var recording = try runRetrying(recorder, signal, lead: request.captureLead)
        if recording.peak >= clipLevel {
            amplitude /= 4
            signal = TestSignal(
                rate: rate, sweep: signal.sweep, amplitude: amplitude, clicks: true, equalizer: equalizer)
            recording = try runRetrying(recorder, signal, lead: request.captureLead)
            if recording.peak >= clipLevel {
                throw .clipped("input '\(request.input.name)' clips at the level the level probe chose; turn its gain down")
            }
        }
        return try ResponseAnalysis(recording: recording, signal: signal, profile: request.profile).result(
            input: request.input.name)
    }

    /// One run, run again (twice at most) after an overrun or an underrun.
    private static func runRetrying(_ recorder: LoopRecorder, _ signal: TestSignal, lead: Double) throws(MeasurementError) -> LoopRecording {
        var tries = 0
        while true {
            do {
                return try recorder.run(signal, captureLead: lead)
            } catch .overrun(let count) where tries < 2 {
                _ = count
            } catch .underrun(let count) where tries < 2 {
                _ = count
            }
            tries += 1
        }
    }
}
