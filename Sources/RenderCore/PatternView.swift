// What the render thread reads of a compiled pattern, as plain values and unsafe views: no class
// references, so copying it (into a player instance, a command, a local) never retains or releases.
// `BitwiseCopyable` makes the compiler check that.

import ThrumModel

/// A compiled pattern as the render thread sees it: views of storage owned by its `CompiledPattern`.
/// Valid while that `CompiledPattern` lives; the caller keeps it alive while an instance plays it.
/// - Important: Thread safety: any thread (immutable storage). Real-time safe: yes.
struct PatternView: BitwiseCopyable, @unchecked Sendable {
    // @unchecked: the storage it points to is written once, in `init`, before any other thread sees it.
    /// `CompiledPattern.events`.
    let events: UnsafeBufferPointer<CompiledEvent>
    /// `CompiledPattern.controls`.
    let controls: UnsafeBufferPointer<ControlChange>
    /// The samples of `CompiledPattern.buffers`, by the same index.
    let buffers: UnsafeBufferPointer<BufferView>
    /// The values of each bus's actuator profile that voices use (`CompiledPattern.profiles`).
    let profiles: UnsafeBufferPointer<VoiceProfile>
    /// `CompiledPattern.duration` in seconds.
    let duration: Double
    /// Bit `lane.rawValue` is set for every lane the pattern's controls write.
    let lanesUsed: Int

    /// Copies the render-side data of a pattern into new storage (control side; `deallocate` frees it).
    init(
        events: [CompiledEvent], controls: [ControlChange], buffers: [SampleBuffer], profiles: [ActuatorProfile],
        duration: Double, sampleRate: Double
    ) {
        self.events = UnsafeBufferPointer(Self.copy(events))
        self.controls = UnsafeBufferPointer(Self.copy(controls))
        self.buffers = UnsafeBufferPointer(
            Self.copy(buffers.map { BufferView(samples: $0.samples, frameCount: $0.frameCount, channelCount: $0.channelCount) }))
        self.profiles = UnsafeBufferPointer(Self.copy(profiles.map { VoiceProfile($0, sampleRate: sampleRate) }))
        self.duration = duration
        lanesUsed = controls.reduce(0) { $0 | 1 << $1.lane.rawValue }
    }

    /// Frees the storage `init` allocated (the owning `CompiledPattern`'s `deinit`).
    func deallocate() {
        for profile in profiles { profile.equalizer.map { UnsafeMutablePointer(mutating: $0).deallocate() } }
        UnsafeMutableBufferPointer(mutating: events).deallocate()
        UnsafeMutableBufferPointer(mutating: controls).deallocate()
        UnsafeMutableBufferPointer(mutating: buffers).deallocate()
        UnsafeMutableBufferPointer(mutating: profiles).deallocate()
    }

    private static func copy<Element: BitwiseCopyable>(_ array: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let storage = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(array.count, 1))
        _ = storage.initialize(from: array)
        return UnsafeMutableBufferPointer(rebasing: storage[0..<array.count])
    }
}

/// The samples of a `SampleBuffer` (kept alive by the pattern that holds the buffer).
struct BufferView: BitwiseCopyable {
    /// Interleaved samples, `frameCount × channelCount` values.
    let samples: UnsafeBufferPointer<Float>
    let frameCount: Int
    /// 1 or 2.
    let channelCount: Int
}

/// The values of an `ActuatorProfile` a voice needs (the profile itself holds a `String`, whose copies
/// retain).
struct VoiceProfile: BitwiseCopyable {
    let lowFrequency: Double
    let highFrequency: Double
    let law: IntensityLaw
    let gain: Double
    /// Length of a transient burst in frames.
    let transientFrames: Int
    /// The profile's equalisation as linear gains at `equalizerSteps` + 1 evenly spaced sharpness values
    /// (allocated here, freed by `PatternView.deallocate`), or nil for a profile without one.
    let equalizer: UnsafePointer<Float>?
    static let equalizerSteps = 256

    init(_ profile: ActuatorProfile, sampleRate: Double) {
        lowFrequency = profile.lowFrequency
        highFrequency = profile.highFrequency
        law = profile.law
        gain = profile.gain
        transientFrames = CompiledPattern.transientFrames(profile, sampleRate: sampleRate)
        if profile.equalization.isEmpty {
            equalizer = nil
        } else {
            let table = UnsafeMutablePointer<Float>.allocate(capacity: Self.equalizerSteps + 1)
            for step in 0...Self.equalizerSteps {
                let frequency = profile.frequency(sharpness: Double(step) / Double(Self.equalizerSteps))
                table[step] = Float(profile.equalizationGain(atFrequency: frequency))
            }
            equalizer = UnsafePointer(table)
        }
    }

    /// Drive frequency in Hz for sharpness `s` (clamped to 0…1), as `ActuatorProfile.frequency(sharpness:)`.
    func frequency(sharpness s: Double) -> Double {
        lowFrequency + min(max(s, 0), 1) * (highFrequency - lowFrequency)
    }
}

/// The equaliser's gain at sharpness `s` (clamped to 0…1), linear between its table's steps.
/// - Important: Real-time safe.
@inline(__always)
func equalizerGain(_ table: UnsafePointer<Float>, sharpness s: Float) -> Float {
    let position = min(max(s, 0), 1) * Float(VoiceProfile.equalizerSteps)
    let index = min(Int(position), VoiceProfile.equalizerSteps - 1)
    let fraction = position - Float(index)
    return table[index] + fraction * (table[index + 1] - table[index])
}
