// One run of the loop: the test signal played on the output's haptic channels while the input records,
// and the recording lined up with the played frames through both streams' own clocks.
import ALSAOutput
import Glibc
import RenderCore

/// A straight line through a stream's clock readings: frame ↔ CLOCK_MONOTONIC time, under all of them. Every
/// error a reading can have (the thread preempted between the position and its timestamp, a hardware pointer
/// that moves in steps) makes it late, never early; so the line is the one below every reading that comes
/// closest to them on the whole (the least sum of distances): the edge of the readings' lower convex hull
/// over their mean frame, which rests on the most timely readings wherever in the run they are, so that
/// neither a burst of late readings nor a stretch of them can tilt it (the clock synchronisation of
/// network time measurements, e.g. Moon, Skelly and Towsley, 1999).
struct StreamClockLine: Equatable {
    /// Seconds at frame 0.
    let origin: Double
    /// Seconds per frame.
    let secondsPerFrame: Double

    /// The time of `frame` (fractional).
    func time(ofFrame frame: Double) -> Double { origin + frame * secondsPerFrame }
    /// The frame (fractional) at `time`.
    func frame(atTime time: Double) -> Double { (time - origin) / secondsPerFrame }

    /// The line through `readings` (frames counted from the run's first frame), or nil for fewer than
    /// 8 readings or a rate more than 0.5 % off `nominalRate`.
    init?(_ readings: [StreamClockReading], frameBase: UInt64, nominalRate: Double) {
        let all = readings.filter { $0.frame >= frameBase }.map { (Double($0.frame - frameBase), $0.seconds) }
            .sorted { $0.0 < $1.0 }
        guard all.count >= 8 else { return nil }
        let epoch = all[0].1
        // Times less the nominal clock, so that the hull's turns are not lost in rounding.
        let points = all.map { ($0.0, $0.1 - epoch - $0.0 / nominalRate) }
        var hull: [(Double, Double)] = []
        for point in points {
            if let last = hull.last, last.0 == point.0 {
                if point.1 >= last.1 { continue }
                hull.removeLast()
            }
            while hull.count >= 2 {
                let (a, b) = (hull[hull.count - 2], hull[hull.count - 1])
                // Keep b only if it lies below the chord from a to the new point.
                guard (b.0 - a.0) * (point.1 - a.1) - (b.1 - a.1) * (point.0 - a.0) <= 0 else { break }
                hull.removeLast()
            }
            hull.append(point)
        }
        guard hull.count >= 2 else { return nil }
        let mean = points.reduce(0) { $0 + $1.0 } / Double(points.count)
        let edge = max(1, min(hull.firstIndex { $0.0 > mean } ?? hull.count - 1, hull.count - 1))
        let (a, b) = (hull[edge - 1], hull[edge])
        let excess = (b.1 - a.1) / (b.0 - a.0)
        let slope = 1 / nominalRate + excess
        guard abs(slope * nominalRate - 1) <= 0.005 else { return nil }
        let intercept = a.1 - excess * a.0
        origin = epoch + intercept
        secondsPerFrame = slope
    }
}

/// The capture of one run on the playback's frames: `samples[n]` is what the input recorded at the instant
/// playback frame n (the signal's first frame is 0) left the DAC.
struct LoopRecording {
    let samples: [Double]
    /// The largest magnitude the input channel recorded in the run (full scale 1).
    let peak: Double

    /// The largest magnitude over `range` of the lined-up samples.
    func peak(over range: Range<Int>) -> Double {
        let clamped = max(range.lowerBound, 0)..<min(range.upperBound, samples.count)
        return clamped.isEmpty ? 0 : samples[clamped].reduce(0) { max($0, abs($1)) }
    }
    /// The input's clock rate over the output's, minus 1 (0 on one card).
    let rateDifference: Double
}

/// Plays test signals on the output while the input records. Owns both devices for one measurement.
final class LoopRecorder {
    let playback: ALSAPlayback
    let capture: ALSACapture
    let request: MeasurementRequest
    /// Output channels (0-based) that carry the haptic signal.
    let signalChannels: [Int]

    init(request: MeasurementRequest) throws(MeasurementError) {
        self.request = request
        signalChannels = request.channelMap.sources.indices.filter { request.channelMap.sources[$0].carriesHaptics }
        guard !signalChannels.isEmpty else {
            throw .usage("the channel map \(request.channelMap) has no haptic channel (H) to play the test signal on")
        }
        var output = ALSADeviceConfiguration(
            source: request.output, sampleRate: request.sampleRate, channels: request.channelMap.channelCount,
            periodFrames: request.periodFrames, periodCount: request.periodCount, requireExactRate: true,
            realtimePriority: request.realtimePriority, lockMemory: false)
        output.direction = .playback
        do {
            playback = try ALSAPlayback(configuration: output)
        } catch {
            throw .unavailable("output '\(request.output.name)': \(error)")
        }
        let input = ALSADeviceConfiguration(
            source: request.input, sampleRate: request.sampleRate, channels: request.inputChannel,
            periodFrames: request.periodFrames, periodCount: max(request.periodCount, 4), requireExactRate: false,
            realtimePriority: request.realtimePriority, lockMemory: false)
        do {
            capture = try ALSACapture(configuration: input)
        } catch {
            playback.close()
            throw .unavailable("input '\(request.input.name)': \(error)")
        }
        if capture.setup.sampleRate != playback.setup.sampleRate {
            let rates = (capture.setup.sampleRate, playback.setup.sampleRate)
            close()
            throw .wrongRate(
                "input '\(request.input.name)' records at \(rates.0) Hz, output '\(request.output.name)' plays at "
                    + "\(rates.1) Hz; give --sample-rate a rate both devices have")
        }
    }

    func close() {
        playback.close()
        capture.close()
    }

    var sampleRate: Double { Double(playback.setup.sampleRate) }

    /// Plays `signal` while recording. `captureLead` seconds: the input starts that long before the output
    /// (negative: after it), as two devices would.
    /// - Throws: `.overrun`/`.underrun` (the caller may run again), `.io` when a stream fails or stops.
    func run(_ signal: TestSignal, captureLead: Double) throws(MeasurementError) -> LoopRecording {
        let rate = sampleRate
        let buffer = Double(playback.setup.bufferFrames) / rate
        let lead = max(captureLead, 0)
        let frames = Int(((lead + buffer + 0.6) * rate).rounded()) + signal.drive.count
        let base = playback.framesWritten
        let xruns = playback.xrunCount
        let playbackLog = StreamClockLog(capacity: signal.drive.count / max(playback.periodFrames, 1) + 4096)
        let source = SignalSource(signal.drive, channels: request.channelMap.channelCount, signalChannels: signalChannels)
        do {
            if captureLead >= 0 {
                try capture.record(frames: frames)
                pause(seconds: captureLead)
                try playback.start(source: source, clockLog: playbackLog)
            } else {
                try playback.start(source: source, clockLog: playbackLog)
                pause(seconds: -captureLead)
                try capture.record(frames: frames)
            }
        } catch {
            capture.stop()
            playback.stop()
            throw .io("cannot start the streams: \(error)")
        }
        let finished = capture.wait(timeout: Double(frames) / rate + 5)
        let played = playback.framesWritten - base
        playback.stop()
        capture.stop()
        if let failure = capture.lastError { throw .io("input '\(request.input.name)' failed: \(failure)") }
        if playback.state == .failed {
            throw .io("output '\(request.output.name)' failed: \(playback.lastError.map { "\($0)" } ?? "it stopped")")
        }
        guard finished, played >= UInt64(signal.drive.count) else {
            throw .io("the devices stopped taking or giving samples (played \(played) of \(signal.drive.count) frames)")
        }
        if capture.overrunCount > 0 { throw .overrun(capture.overrunCount) }
        if playback.xrunCount > xruns { throw .underrun(Int(playback.xrunCount - xruns)) }
        let raw = capture.samples()
        let channels = capture.setup.deviceChannels
        let channel = request.inputChannel - 1
        let input = stride(from: channel, to: raw.count, by: channels).map { Double(raw[$0]) }
        guard let outputLine = StreamClockLine(playbackLog.readings, frameBase: base, nominalRate: rate),
            let inputLine = StreamClockLine(capture.clockLog.readings, frameBase: 0, nominalRate: rate)
        else {
            throw .io("the devices gave too few usable timestamps to line the streams up (snd_pcm_status)")
        }
        let length = signal.drive.count
        var aligned = [Double](repeating: 0, count: length)
        input.withUnsafeBufferPointer { source in
            for n in 0..<length {
                let m = inputLine.frame(atTime: outputLine.time(ofFrame: Double(n)))
                aligned[n] = Interpolation.sample(source, at: m)
            }
        }
        let peak = input.reduce(0) { max($0, abs($1)) }
        return LoopRecording(
            samples: aligned, peak: peak, rateDifference: outputLine.secondsPerFrame / inputLine.secondsPerFrame - 1)
    }

    private func pause(seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

/// Band-limited interpolation between samples: a Blackman-windowed sinc of 32 taps, tabulated at 1024
/// fractional positions (each set summing to 1).
enum Interpolation {
    static let half = 16
    static let phases = 1024
    static let table: [Double] = {
        var table = [Double](repeating: 0, count: (phases + 1) * 2 * half)
        for phase in 0...phases {
            let fraction = Double(phase) / Double(phases)
            var sum = 0.0
            for k in 0..<(2 * half) {
                let x = Double(k - half + 1) - fraction
                let sinc = abs(x) < 1e-12 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                let w = abs(x) >= Double(half) ? 0 : 0.42 + 0.5 * cos(Double.pi * x / Double(half)) + 0.08 * cos(2 * Double.pi * x / Double(half))
                table[phase * 2 * half + k] = sinc * w
                sum += sinc * w
            }
            for k in 0..<(2 * half) { table[phase * 2 * half + k] /= sum }
        }
        return table
    }()

    /// `samples` at fractional position `position`; 0 outside them.
    static func sample(_ samples: UnsafeBufferPointer<Double>, at position: Double) -> Double {
        guard position.isFinite, position > -Double(half), position < Double(samples.count + half) else { return 0 }
        let base = position.rounded(.down)
        let phase = Int(((position - base) * Double(phases)).rounded())
        let first = Int(base) - half + 1
        return table.withUnsafeBufferPointer { weights in
            var sum = 0.0
            let row = phase * 2 * half
            for k in 0..<(2 * half) {
                let index = first + k
                if index >= 0 && index < samples.count { sum += weights[row + k] * samples[index] }
            }
            return sum
        }
    }
}

/// Plays a prepared signal on the haptic channels (silence elsewhere and after its end). Render thread:
/// no allocation, no locks.
final class SignalSource: ALSARenderSource {
    private let signal: UnsafeMutableBufferPointer<Float>
    private let channels: Int
    private let signalChannels: UnsafeMutableBufferPointer<Int>
    private var position = 0

    init(_ samples: [Float], channels: Int, signalChannels: [Int]) {
        signal = .allocate(capacity: max(samples.count, 1))
        _ = signal.initialize(from: samples)
        self.channels = channels
        self.signalChannels = .allocate(capacity: max(signalChannels.count, 1))
        _ = self.signalChannels.initialize(from: signalChannels)
        self.signalChannelCount = signalChannels.count
    }

    private let signalChannelCount: Int

    deinit {
        signal.deallocate()
        signalChannels.deallocate()
    }

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int, channelCount: Int) {
        let available = min(frameCount, max(signal.count - position, 0))
        for i in 0..<available {
            let value = signal[position + i]
            for k in 0..<signalChannelCount { buffer[i * channelCount + signalChannels[k]] = value }
        }
        position += frameCount
    }
}
