import FoundationEssentials
import Glibc

/// The signal of each channel of an HJIF document, sample by sample, as MPEG's reference synthesizer
/// computes it (ISO/IEC 23090-31's reference software: docs/decisions.md "HJIF"):
/// - sample i of a channel at rate fs is at tick p = timescale × i / fs; every effect that has begun
///   (position ≤ p) adds its value there; bands add up, clamped to −1…1 after each band; the channel is
///   × gain × 10^perception_unit_exponent;
/// - a Transient keyframe is sin(4π (p − t) / d) × amplitude for d = 22 ms (two periods, ≈ 91 Hz);
/// - a VectorialWave effect lasts to its last keyframe; amplitude is linear between amplitude keyframes
///   (the nearest one outside them, 1 without any), frequency a linear chirp between frequency keyframes
///   (clamped to the band's limits), the phase carried across keyframes as the reference does;
/// - a Curve effect is the band's interpolation through its keyframes at whole samples (`HJIFCurves`);
/// - a WaveletWave band's effect b is a block of samples at the band's upper frequency limit (`HJIFWavelet`)
///   starting at tick b × block ÷ rate × timescale, held from sample to sample (the reference's nearest
///   earlier sample);
/// - Reference effects are their library effect at their position; Composite effects their timeline.
/// Pure and thread-safe.
package enum HJIFSynthesis {
    /// The length of a Transient keyframe's burst at `timescale`, in ticks (22 ms).
    static func transientTicks(_ timescale: Int) -> Double { 22 / (1000 / Double(timescale)) }

    /// One channel ready to be computed.
    package struct Channel: Sendable {
        /// Where it is in the document.
        package var perception: Int
        package var index: Int
        /// gain × 10^perception_unit_exponent.
        package var scale: Double
        /// The channel's `mixing_coefficient`.
        package var mixingWeight: Float
        var bands: [Band]
        /// Ticks per second.
        var timescale: Int
        /// The end of its last effect, in ticks.
        package var endTicks: Double
        /// The length the reference synthesizer gives it, in ticks (the end of the effect that starts last in
        /// each band, or the channel's sample count).
        package var referenceTicks: Double
    }

    struct Band: Sendable {
        var type: HJIFBandType
        var curveType: HJIFCurveType?
        var lower: Int
        var upper: Int
        var effects: [HJIFEffect]
        /// A WaveletWave band's blocks: where each starts, in ticks, and its coded stream (decoded only when
        /// samples over it are asked for, so that checks and conversions never decode).
        var blocks: [(start: Double, stream: [UInt8])] = []
        /// The samples of each of those blocks, at `upper` Hz.
        var blockLength = 0

        /// How long one of its wavelet blocks lasts, in ticks (0 without blocks).
        func blockTicks(_ timescale: Int) -> Double {
            guard !blocks.isEmpty, upper > 0 else { return 0 }
            return Double(blockLength) * Double(timescale) / Double(upper)
        }
    }

    /// Every channel of `document`, perception by perception, ready to be computed.
    package static func channels(of document: HJIFDocument) -> [Channel] {
        var result: [Channel] = []
        let timescale = max(document.timescale, 1)
        for (p, perception) in document.perceptions.enumerated() {
            let exponent = Double(perception.perceptionUnitExponent ?? 0)
            for (c, channel) in perception.channels.enumerated() {
                let bands = channel.bands.map { band in
                    var effects = flatten(band.effects, library: perception.library)
                    effects = effects.enumerated().sorted { a, b in
                        a.element.position != b.element.position ? a.element.position < b.element.position : a.offset < b.offset
                    }.map(\.element)
                    return Band(
                        type: band.type, curveType: band.curveType, lower: band.lowerFrequencyLimit,
                        upper: band.upperFrequencyLimit, effects: effects, blocks: blocks(of: band, timescale),
                        blockLength: blockSamples(of: band))
                }
                var reference = 0.0
                if let rate = channel.frequencySampling, let count = channel.sampleCount, rate > 0 {
                    reference = Double(timescale) * Double(count) / Double(rate)
                } else {
                    for band in bands {
                        guard let last = band.effects.last else { continue }
                        reference = max(reference, Double(last.position) + length(of: last, in: band.type, timescale))
                    }
                }
                var end = reference
                for band in bands {
                    for effect in band.effects { end = max(end, Double(effect.position) + length(of: effect, in: band.type, timescale)) }
                    for block in band.blocks { end = max(end, block.start + band.blockTicks(timescale)) }
                }
                result.append(
                    Channel(
                        perception: p, index: c, scale: Double(channel.gain) * pow(10, exponent),
                        mixingWeight: channel.mixingCoefficient, bands: bands, timescale: timescale, endTicks: end,
                        referenceTicks: reference))
            }
        }
        return result
    }

    /// `effects` with each Reference replaced by its library effect (at the reference's position) and each
    /// Composite by its timeline (positions added), recursively; a reference to no library effect stays (it
    /// plays nothing).
    static func flatten(_ effects: [HJIFEffect], library: [HJIFEffect], offset: Int = 0, depth: Int = 0) -> [HJIFEffect] {
        guard depth < 16 else { return [] }
        var result: [HJIFEffect] = []
        for effect in effects {
            var resolved = effect
            if effect.type == .reference, let found = library.first(where: { $0.id == effect.id && $0.id != nil }) {
                resolved = found
                resolved.position = effect.position
                resolved.id = nil
            }
            resolved.position = resolved.position &+ offset
            if resolved.type == .composite {
                result += flatten(resolved.timeline, library: library, offset: resolved.position, depth: depth + 1)
            } else {
                result.append(resolved)
            }
        }
        return result
    }

    /// The samples of one block of a WaveletWave band: `block_length` ms at the upper frequency limit.
    package static func blockSamples(of band: HJIFBand) -> Int {
        Int(Double(band.blockLength ?? 0) * 0.001 * Double(max(band.upperFrequencyLimit, 0)))
    }

    /// The most samples Thrum decodes for one WaveletWave band (600 s at 48 kHz); `HJIFChecks` refuses more.
    package static let maxWaveletSamples = 600 * 48_000

    /// The blocks of a WaveletWave band (none for other bands, or for one over `maxWaveletSamples`): block b
    /// starts at b blocks, whatever position its effect gives, as the reference places it.
    static func blocks(of band: HJIFBand, _ timescale: Int) -> [(start: Double, stream: [UInt8])] {
        let length = blockSamples(of: band)
        guard band.type == .waveletWave, length > 0, band.effects.count <= maxWaveletSamples / length else { return [] }
        return band.effects.enumerated().map { b, effect in
            let start = Int(Double(b) * Double(length) * Double(timescale) / Double(band.upperFrequencyLimit))
            return (Double(start), effect.waveletStream ?? [])
        }
    }

    /// How long `effect` lasts in a band of `type`, in ticks: to its last keyframe that has a position
    /// (+ the burst for Transient bands); 0 without one.
    static func length(of effect: HJIFEffect, in type: HJIFBandType, _ timescale: Int) -> Double {
        guard effect.type == .basis, let last = effect.keyframes.last(where: { $0.position != nil })?.position else { return 0 }
        switch type {
        case .transient: return Double(last) + transientTicks(timescale)
        case .curve, .vectorialWave: return Double(last)
        case .waveletWave: return 0
        }
    }

    /// The tick of sample `i` at `sampleRate`, computed as the reference synthesizer does.
    @inline(__always)
    static func tick(_ i: Int, _ timescale: Int, _ sampleRate: Double) -> Double {
        Double(timescale) * (Double(i) / sampleRate)
    }

    /// The first sample at or after tick `position`.
    static func firstSample(atOrAfter position: Double, _ timescale: Int, _ sampleRate: Double) -> Int {
        var i = max(Int((position * sampleRate / Double(timescale)).rounded(.down)) - 1, 0)
        while tick(i, timescale, sampleRate) < position { i += 1 }
        return i
    }

    /// The samples `frames` of `channel` at `sampleRate` (Hz), scaled by gain and unit exponent.
    package static func samples(_ channel: Channel, sampleRate: Double, frames: Range<Int>) -> [Double] {
        var total = [Double](repeating: 0, count: frames.count)
        for band in channel.bands {
            var values = [Double](repeating: 0, count: frames.count)
            switch band.type {
            case .transient, .vectorialWave:
                for effect in band.effects where effect.type == .basis && !effect.keyframes.isEmpty {
                    addEffect(effect, band: band, channel.timescale, sampleRate, frames, into: &values)
                }
            case .curve:
                for effect in band.effects where effect.type == .basis {
                    addCurve(effect, band: band, channel.timescale, sampleRate, frames, into: &values)
                }
            case .waveletWave:
                addBlocks(band, channel.timescale, sampleRate, frames, into: &values)
            }
            for i in 0..<frames.count { total[i] = min(max(total[i] + values[i], -1), 1) }
        }
        return total.map { $0 * channel.scale }
    }

    /// Adds a Transient or VectorialWave effect over the samples where it sounds (position … position + length).
    static func addEffect(
        _ effect: HJIFEffect, band: Band, _ timescale: Int, _ sampleRate: Double, _ frames: Range<Int>,
        into values: inout [Double]
    ) {
        let start = Double(effect.position)
        let end = start + length(of: effect, in: band.type, timescale)
        var i = max(frames.lowerBound, firstSample(atOrAfter: start, timescale, sampleRate))
        if band.type == .transient {
            var burst = TransientBurst(effect, timescale)
            while i < frames.upperBound {
                let p = tick(i, timescale, sampleRate)
                if p > end { break }
                values[i - frames.lowerBound] += burst.value(at: p - start)
                i += 1
            }
        } else {
            var wave = VectorialWave(effect, lower: band.lower, upper: band.upper, timescale: timescale)
            while i < frames.upperBound {
                let p = tick(i, timescale, sampleRate)
                if p > end { break }
                values[i - frames.lowerBound] += wave.value(at: p - start)
                i += 1
            }
        }
    }

    /// Adds a WaveletWave band's blocks: at tick p, block sample ⌊(p − start) × rate ÷ timescale⌋.
    static func addBlocks(_ band: Band, _ timescale: Int, _ sampleRate: Double, _ frames: Range<Int>, into values: inout [Double]) {
        let length = band.blockTicks(timescale)
        for block in band.blocks {
            var i = max(frames.lowerBound, firstSample(atOrAfter: block.start, timescale, sampleRate))
            // Decoded only when it sounds in `frames`.
            guard i < frames.upperBound, tick(i, timescale, sampleRate) < block.start + length else { continue }
            let samples = HJIFWavelet.samples(of: block.stream, length: band.blockLength)
            while i < frames.upperBound {
                let index = Int(((tick(i, timescale, sampleRate) - block.start) * Double(band.upper) / Double(timescale)).rounded(.down))
                if index >= samples.count { break }
                values[i - frames.lowerBound] += samples[index]
                i += 1
            }
        }
    }

    /// Adds a Curve effect: its curve from the sample of its position.
    static func addCurve(
        _ effect: HJIFEffect, band: Band, _ timescale: Int, _ sampleRate: Double, _ frames: Range<Int>,
        into values: inout [Double]
    ) {
        let rate = Int(sampleRate)
        func sample(_ ticks: Int) -> Int { Int((Double(ticks) * Double(rate) / Double(timescale)).rounded(.down)) }
        var points = effect.keyframes.map { (offset: sample($0.position ?? 0), value: Double($0.amplitude ?? 0)) }
        guard points.count >= 2 else { return }
        let first = points[0].offset
        for k in 1..<points.count { points[k].offset -= first }
        points[0].offset = 0
        let curve = HJIFCurves.samples(points, type: band.curveType)
        let start = sample(effect.position)
        let from = max(start, frames.lowerBound)
        let to = min(start + curve.count, frames.upperBound)
        guard from < to else { return }
        for i in from..<to { values[i - frames.lowerBound] += curve[i - start] }
    }
}
