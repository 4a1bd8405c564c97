// Signal voices: the samples of a `HapticSignal` (an HJIF channel), computed when the pattern was compiled,
// played at natural speed on the haptic bus. Render thread only: no allocation, no libm.

import ThrumModel

extension Voice {
    /// A signal: sample × A(intensity control) (the intensity law at the actuator's gain, as an event of
    /// intensity 1) × the channel's weight on this bus × the panning weight × the stop and resume fades.
    /// The sharpness control does not act on it. Its end was set at the onset (the last sample).
    @inline(__always)
    mutating func renderSignal(
        frame: Int, count: Int, lanes: UnsafePointer<Lane>, out: UnsafeMutablePointer<Float>, gainScale: Float,
        panAxes: UInt8, scratch: VoiceScratch
    ) {
        guard let data = samples else {
            age += count
            return
        }
        let (amplitudes, fades) = (scratch.amplitudes, scratch.fades)
        writeAmplitudes(
            lanes[ControlLane.hapticIntensity.rawValue], frame: frame, count: count, gain: gain * gainScale * signalWeight,
            into: amplitudes)
        applyPan(lanes, axes: panAxes, frame: frame, count: count, to: amplitudes)
        writeFades(count: count, into: fades)
        let first = data + age
        for i in 0..<count {
            out[i] += amplitudes[i] * fades[i] * first[i]
        }
        age += count
    }
}
