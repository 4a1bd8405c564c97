import FoundationEssentials
import ThrumModel

extension AHAPToHaptic {
    /// The amplitude and frequency that AHAP voices play over time, sampled where they change course.
    struct Envelope {
        /// The voices by start time.
        let voices: [Voice]
        /// Intensity and sharpness controls, one per source pattern.
        let intensity: [LaneTimeline]
        let sharpness: [LaneTimeline]
        /// The sweep over increasing times: voices started so far that may still sound, and how many started.
        var active: [Voice] = []
        var started = 0
        /// The first place where overlapping voices add up above amplitude 1.
        var clipped: (voice: Voice, time: Double, total: Double)?
        /// The first pair of overlapping voices with different sharpness, and how many such overlaps there are.
        var sharpnessConflict: (voice: Voice, count: Int)?

        init(voices: [Voice], intensity: [LaneTimeline], sharpness: [LaneTimeline]) {
            self.voices = voices.sorted { $0.start < $1.start }
            self.intensity = intensity
            self.sharpness = sharpness
            var longest: Voice?
            for voice in self.voices {
                if let other = longest, voice.start < other.end,
                    voice.sharpness != other.sharpness || voice.source != other.source
                {
                    sharpnessConflict = (sharpnessConflict?.voice ?? voice, (sharpnessConflict?.count ?? 0) + 1)
                }
                if voice.end > (longest?.end ?? -.infinity) { longest = voice }
            }
        }

        /// The amplitude `voice` plays at `time` (or just before it): (intensity × control)², faded.
        func amplitude(of voice: Voice, at time: Double, before: Bool) -> Double {
            let sounding = before ? voice.start < time && time <= voice.end : voice.start <= time && time < voice.end
            guard sounding else { return 0 }
            let fade = voice.fades ? (voice.end - time) / (voice.end - voice.start) : 1
            let gain = voice.intensity * intensity[voice.source].value(at: time, before: before)
            return gain * gain * fade
        }

        /// Moves the sweep to `time` (times must not decrease between calls until `rewind`).
        mutating func advance(to time: Double) {
            while started < voices.count && voices[started].start <= time {
                active.append(voices[started])
                started += 1
            }
            active.removeAll { $0.end < time }
        }

        /// Restarts the sweep from the beginning.
        mutating func rewind() {
            active = []
            started = 0
        }

        /// The summed amplitude at `time` (or just before it), clipped to 1. Call `advance(to: time)` first.
        mutating func amplitude(at time: Double, before: Bool) -> Double {
            var total = 0.0
            for voice in active { total += amplitude(of: voice, at: time, before: before) }
            if total > 1 + 1e-9, clipped == nil, let voice = active.first(where: { amplitude(of: $0, at: time, before: before) > 0 }) {
                clipped = (voice, time, total)
            }
            return min(total, 1)
        }

        /// The sharpness of the loudest voice at `time` (`.haptic` frequency plays as sharpness) (the latest one started when none sounds). Call
        /// `advance(to: time)` first.
        func frequency(at time: Double, before: Bool) -> Double {
            var reference: Voice?
            var loudest = 0.0
            for voice in active {
                let level = amplitude(of: voice, at: time, before: before)
                if level > loudest || (reference == nil && level > 0) {
                    loudest = level
                    reference = voice
                }
            }
            // None sounds: the latest started (strictly before, for the value just before `time`).
            var latest = started
            while before && latest > 0 && voices[latest - 1].start >= time { latest -= 1 }
            let voice = reference ?? (latest > 0 ? voices[latest - 1] : voices[0])
            return min(max(voice.sharpness + sharpness[voice.source].value(at: time, before: before), 0), 1)
        }

        /// Times inside `range`, sorted, each with whether a breakpoint is wanted there even where the
        /// value runs on smoothly.
        static func knots(_ times: [(Double, Bool)], in range: ClosedRange<Double>) -> [(time: Double, keep: Bool)] {
            var result: [(time: Double, keep: Bool)] = []
            for (time, keep) in times.filter({ range.contains($0.0) }).sorted(by: { $0.0 < $1.0 }) {
                if let last = result.last, last.time == time {
                    result[result.count - 1].keep = last.keep || keep
                } else {
                    result.append((time, keep))
                }
            }
            return result
        }

        /// Amplitude breakpoints: at every control change and transient inside the voices' span, at voice
        /// edges where the amplitude jumps (two breakpoints at one time) or a fade ends, and inside
        /// intensity ramps at `IntensityRamps` steps.
        mutating func amplitudeBreakpoints(transientTimes: [Double]) -> [HapticFile.AmplitudeBreakpoint] {
            guard let first = voices.map(\.start).min(), let last = voices.map(\.end).max() else { return [] }
            let sources = Set(voices.map(\.source))
            var times: [(Double, Bool)] = voices.flatMap { [($0.start, false), ($0.end, $0.fades)] }
            for source in sources.sorted() { times += intensity[source].knots.map { ($0, true) } }
            times += transientTimes.map { ($0, true) }
            var points: [HapticFile.AmplitudeBreakpoint] = []
            rewind()
            for knot in Self.knots(times, in: first...last) {
                advance(to: knot.time)
                let left = amplitude(at: knot.time, before: true)
                let right = amplitude(at: knot.time, before: false)
                if let previous = points.last, knot.time > previous.time {
                    // Intensity ramps linearly up to here: cut the ramp in equal steps (equal times) so
                    // that the .haptic's straight amplitude lines follow intensity².
                    let pieces = IntensityRamps.pieces(from: previous.amplitude.squareRoot(), to: left.squareRoot())
                    for k in 1..<pieces {
                        let time = previous.time + (knot.time - previous.time) * Double(k) / Double(pieces)
                        points.append(HapticFile.AmplitudeBreakpoint(time: time, amplitude: amplitude(at: time, before: false)))
                    }
                }
                if knot.time == first {
                    points.append(HapticFile.AmplitudeBreakpoint(time: knot.time, amplitude: right))
                } else if knot.time == last {
                    points.append(HapticFile.AmplitudeBreakpoint(time: knot.time, amplitude: left))
                } else if abs(left - right) > 1e-12 {
                    points.append(HapticFile.AmplitudeBreakpoint(time: knot.time, amplitude: left))
                    points.append(HapticFile.AmplitudeBreakpoint(time: knot.time, amplitude: right))
                } else if knot.keep {
                    points.append(HapticFile.AmplitudeBreakpoint(time: knot.time, amplitude: right))
                }
            }
            return points
        }

        /// Frequency breakpoints from `start` to `end`: at every sharpness change and voice edge.
        mutating func frequencyBreakpoints(from start: Double, to end: Double) -> [HapticFile.FrequencyBreakpoint] {
            guard !voices.isEmpty, end > start else { return [] }
            let sources = Set(voices.map(\.source))
            var times: [(Double, Bool)] = voices.flatMap { [($0.start, false), ($0.end, false)] }
            for source in sources.sorted() { times += sharpness[source].knots.map { ($0, true) } }
            times += [(start, true), (end, true)]
            var points: [HapticFile.FrequencyBreakpoint] = []
            rewind()
            for knot in Self.knots(times, in: start...end) {
                advance(to: knot.time)
                let left = frequency(at: knot.time, before: true)
                let right = frequency(at: knot.time, before: false)
                if knot.time == start {
                    points.append(HapticFile.FrequencyBreakpoint(time: knot.time, frequency: right))
                } else if knot.time == end {
                    points.append(HapticFile.FrequencyBreakpoint(time: knot.time, frequency: left))
                } else if abs(left - right) > 1e-12 {
                    points.append(HapticFile.FrequencyBreakpoint(time: knot.time, frequency: left))
                    points.append(HapticFile.FrequencyBreakpoint(time: knot.time, frequency: right))
                } else if knot.keep {
                    points.append(HapticFile.FrequencyBreakpoint(time: knot.time, frequency: right))
                }
            }
            return points
        }
    }
}
