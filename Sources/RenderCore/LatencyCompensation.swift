// Latency compensation (docs/measure.md): sound and vibration leave the card apart by each actuator's
// measured latency so that they start together at the listener and the skin. The audio buses are delayed by
// the largest lead any actuator needs, and each haptic bus by what is left of that for it; the onsets and the
// trigger pulses are reported where their channels carry them. Render thread only after `init`.

/// Fixed delay lines for the audio buses and each haptic bus, and the trigger pulses waiting for their frame.
/// - Important: Thread safety: one thread after `init` (the render thread). Real-time safe: yes, except
///   `init`/`deinit`.
final class LatencyCompensation {
    /// Frames the audio buses are delayed by.
    let audioDelay: Int
    /// Frames each haptic bus is delayed by.
    let busDelays: UnsafeMutablePointer<Int>
    let busCount: Int
    /// One ring per delayed bus: audio L, audio R, then the haptic buses (nil where the delay is 0).
    private let rings: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    private let positions: UnsafeMutablePointer<Int>
    private let lengths: UnsafeMutablePointer<Int>
    /// Trigger pulses (start frame, end frame) not yet past; more than `pulseCapacity` at once merge into the last.
    private let pulses: UnsafeMutablePointer<(start: Int, end: Int)>
    private var pulseCount = 0
    static let pulseCapacity = 256

    /// The delays for `actuators`: each actuator's lead is `hapticOffset`'s opposite (seconds, the same for all)
    /// when given, else its profile's measured actuator latency (0 without one).
    init(actuators: [Actuator], hapticOffset: Double?, sampleRate: Double) {
        let leads = actuators.map { actuator -> Int in
            let seconds = hapticOffset.map { -$0 } ?? actuator.profile.latency?.actuatorSeconds ?? 0
            return Int((min(max(seconds.isFinite ? seconds : 0, -1), 1) * sampleRate).rounded())
        }
        audioDelay = max(0, leads.max() ?? 0)
        busCount = actuators.count
        busDelays = .allocate(capacity: max(busCount, 1))
        for (bus, lead) in leads.enumerated() { busDelays[bus] = audioDelay - lead }
        rings = .allocate(capacity: busCount + 2)
        positions = .allocate(capacity: busCount + 2)
        positions.initialize(repeating: 0, count: busCount + 2)
        lengths = .allocate(capacity: busCount + 2)
        for line in 0..<(busCount + 2) {
            let length = line < 2 ? audioDelay : busDelays[line - 2]
            lengths[line] = length
            if length > 0 {
                let ring = UnsafeMutablePointer<Float>.allocate(capacity: length)
                ring.initialize(repeating: 0, count: length)
                rings[line] = ring
            } else {
                rings[line] = nil
            }
        }
        pulses = .allocate(capacity: Self.pulseCapacity)
    }

    deinit {
        for line in 0..<(busCount + 2) { rings[line]?.deallocate() }
        rings.deallocate()
        positions.deallocate()
        lengths.deallocate()
        busDelays.deallocate()
        pulses.deallocate()
    }

    /// Whether anything is delayed.
    var isActive: Bool { audioDelay > 0 || (0..<busCount).contains { busDelays[$0] > 0 } }

    /// Delays `count` frames of the buses in place.
    func apply(
        audioL: UnsafeMutablePointer<Float>, audioR: UnsafeMutablePointer<Float>, haptics: UnsafeMutablePointer<Float>,
        hapticStride: Int, count: Int
    ) {
        delay(0, audioL, count)
        delay(1, audioR, count)
        for bus in 0..<busCount { delay(bus + 2, haptics + bus * hapticStride, count) }
    }

    @inline(__always)
    private func delay(_ line: Int, _ samples: UnsafeMutablePointer<Float>, _ count: Int) {
        guard let ring = rings[line] else { return }
        let length = lengths[line]
        var position = positions[line]
        for i in 0..<count {
            let delayed = ring[position]
            ring[position] = samples[i]
            samples[i] = delayed
            position += 1
            if position == length { position = 0 }
        }
        positions[line] = position
    }

    /// The frames an onset of `kind` on haptic bus `bus` leaves later than it is rendered.
    @inline(__always)
    func delay(of kind: VoiceKind, bus: Int) -> Int {
        kind == .audioContinuous || kind == .audioCustom ? audioDelay : busDelays[min(max(bus, 0), busCount - 1)]
    }

    /// A trigger pulse over frames `start ..< end`.
    func schedulePulse(start: Int, end: Int) {
        if pulseCount == Self.pulseCapacity {
            pulses[pulseCount - 1].end = max(pulses[pulseCount - 1].end, end)
            return
        }
        pulses[pulseCount] = (start, end)
        pulseCount += 1
    }

    /// Writes 1.0 for the frames of `from ..< to` any pulse covers into `out` (frame `from` at `out[0]`; nil:
    /// no trigger channel, nothing written) and forgets the pulses that end by `to`.
    func writePulses(from: Int, to: Int, into out: UnsafeMutablePointer<Float>?) {
        var kept = 0
        for i in 0..<pulseCount {
            let pulse = pulses[i]
            let first = max(pulse.start, from)
            let last = min(pulse.end, to)
            if let out, last > first { (out + (first - from)).update(repeating: 1, count: last - first) }
            if pulse.end > to {
                pulses[kept] = pulse
                kept += 1
            }
        }
        pulseCount = kept
    }
}
