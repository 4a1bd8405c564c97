// The player-wide dynamic parameters as the renderer plays them: their lanes (index, range, default) and the
// changes a pattern's steps and curves make to them. The render core compiles these into its control lanes;
// the format conversions evaluate them in seconds (HapticFormats' LaneTimeline). What the render thread
// calls is @inlinable, so it compiles into the render core as it did when the lanes lived there.

/// One player-wide dynamic parameter, as a small index (the render thread never compares strings).
/// A value; thread-safe.
package enum ControlLane: Int, Sendable, CaseIterable, BitwiseCopyable {
    /// × haptic intensity, 0…1, default 1.
    case hapticIntensity = 0
    /// + haptic sharpness (continuous events only), −1…1.
    case hapticSharpness
    /// + haptic attack time x, −1…1 (acts on events already playing too).
    case hapticAttack
    /// + haptic decay time x, −1…1 (acts on events already playing too).
    case hapticDecay
    /// + haptic release time x, −1…1 (acts on events already playing too).
    case hapticRelease
    /// × audio volume, 0…1, default 1.
    case audioVolume
    /// + audio pan, −1…1.
    case audioPan
    /// + audio pitch, −1…1 (±12 semitones).
    case audioPitch
    /// + audio brightness, −1…1.
    case audioBrightness
    /// + audio attack time x, −1…1 (acts on events already playing too).
    case audioAttack
    /// + audio decay time x, −1…1 (acts on events already playing too).
    case audioDecay
    /// + audio release time x, −1…1 (acts on events already playing too).
    case audioRelease
    /// Thrum: the player's haptic position along x among its actuators, −1…1 (unset: no panning).
    case hapticPanX
    /// Thrum: the player's haptic position along y among its actuators, −1…1 (unset: no panning).
    case hapticPanY

    /// Number of lanes per player.
    @inlinable package static var count: Int { 14 }

    /// The lane of a Core Haptics dynamic parameter ID, nil for unknown IDs. Control side (compares strings).
    package init?(_ id: CHHapticDynamicParameter.ID) {
        switch id {
        case .hapticIntensityControl: self = .hapticIntensity
        case .hapticSharpnessControl: self = .hapticSharpness
        case .hapticAttackTimeControl: self = .hapticAttack
        case .hapticDecayTimeControl: self = .hapticDecay
        case .hapticReleaseTimeControl: self = .hapticRelease
        case .audioVolumeControl: self = .audioVolume
        case .audioPanControl: self = .audioPan
        case .audioPitchControl: self = .audioPitch
        case .audioBrightnessControl: self = .audioBrightness
        case .audioAttackTimeControl: self = .audioAttack
        case .audioDecayTimeControl: self = .audioDecay
        case .audioReleaseTimeControl: self = .audioRelease
        case .thrumHapticPanX: self = .hapticPanX
        case .thrumHapticPanY: self = .hapticPanY
        default: return nil
        }
    }

    /// Whether the control multiplies the event value (intensity, volume) instead of adding to it.
    @inlinable package var isMultiplicative: Bool { self == .hapticIntensity || self == .audioVolume }
    /// The value a lane has when a player starts: 1 for multiplicative lanes, else 0.
    @inlinable package var defaultValue: Float { isMultiplicative ? 1 : 0 }
    /// The smallest value (0 for multiplicative lanes, else −1).
    @inlinable package var minValue: Float { isMultiplicative ? 0 : -1 }
    /// `value` clamped to the lane's range (NaN becomes the default).
    @inlinable package func clamp(_ value: Float) -> Float { value.isNaN ? defaultValue : min(max(value, minValue), 1) }
}

/// A dynamic parameter change: a step (hold `value`) or one linear piece of a curve (`value` → `endValue`).
package struct ControlChange: Sendable, Equatable, BitwiseCopyable {
    /// Time in seconds from the pattern start at which the change takes effect.
    package var time: Double
    /// The lane it changes.
    package var lane: ControlLane
    /// The value at `time` (clamped to the lane's range).
    package var value: Float
    /// For a ramp: the time (s) at which `endValue` is reached; equal to `time` for a step.
    package var endTime: Double
    /// For a ramp: the value reached at `endTime`; equal to `value` for a step.
    package var endValue: Float
    /// Whether this is a linear ramp (a curve piece) rather than a step.
    package var isRamp: Bool { endTime > time }
}

extension PatternData {
    /// Every dynamic parameter change of the pattern, as the renderer plays them: steps first, then curve
    /// pieces (a curve holds its first value from its own time, ramps through its points and holds the last
    /// value), each in pattern order, then a stable sort by time. Values are clamped to their lane; unknown
    /// IDs are left out. The latest change started governs its lane.
    /// - Important: Thread safety: any thread. Real-time safe: no.
    package func controlChanges() -> [ControlChange] {
        var changes: [ControlChange] = []
        for step in parameters {
            guard let lane = ControlLane(step.id) else { continue }
            let t = max(step.time, 0)
            let v = lane.clamp(step.value)
            changes.append(ControlChange(time: t, lane: lane, value: v, endTime: t, endValue: v))
        }
        for curve in curves {
            guard let lane = ControlLane(curve.id), !curve.points.isEmpty else { continue }
            let points = curve.points.enumerated().sorted { a, b in
                a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
            }.map(\.element)
            let start = max(curve.time, 0)
            // Hold the first value from the curve's own time until its first point.
            let first = lane.clamp(points[0].value)
            changes.append(
                ControlChange(time: start, lane: lane, value: first, endTime: start, endValue: first))
            for k in 0..<points.count {
                let t0 = start + max(points[k].time, 0)
                let v0 = lane.clamp(points[k].value)
                if k + 1 < points.count {
                    let t1 = start + max(points[k + 1].time, 0)
                    let v1 = lane.clamp(points[k + 1].value)
                    changes.append(ControlChange(time: t0, lane: lane, value: v0, endTime: t1, endValue: v1))
                } else {
                    // After the last point: hold the last value.
                    changes.append(ControlChange(time: t0, lane: lane, value: v0, endTime: t0, endValue: v0))
                }
            }
        }
        return changes.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }.map(\.element)
    }
}
