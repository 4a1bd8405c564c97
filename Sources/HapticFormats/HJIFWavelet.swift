import Glibc

/// The samples of one effect of a WaveletWave band: its `wavelet_stream` decoded as ISO/IEC 23090-31 codes a
/// block of a band's signal, and as MPEG's reference decoder reads it (docs/decisions.md "HJIF"):
/// 1. the stream's bits (each byte least significant bit first) drive a binary arithmetic decoder with a
///    10-bit range and seven adaptive contexts (each starting at 8 zeros in 16 and counting every bit it
///    decodes);
/// 2. the bits are a SPIHT code of the block's integer wavelet coefficients: four bits of the top bit plane
///    `n`, the block's peak (a mode bit and seven bits: × 2⁻⁷, or × 2⁻³ + 1), then bit plane by bit plane from
///    `n` down to 0 a sorting pass (insignificant coefficients, then sets of descendants of the eight coarsest)
///    and a refinement pass;
/// 3. each coefficient × peak ÷ 2ⁿ, and the inverse of a dyadic wavelet transform of log2(length ÷ 4)
///    levels: at each level the coarse half upsampled through a 7-tap and the detail half through a 9-tap
///    synthesis filter (the 9/7 biorthogonal pair), with whole-sample symmetric extension at both ends.
/// The block holds `length` samples at the band's upper frequency limit. Pure and thread-safe.
package enum HJIFWavelet {
    /// The samples of a block of `length` samples coded as `stream` (a stream that ends early reads as zero
    /// bits: its block is quieter, never an error).
    package static func samples(of stream: [UInt8], length: Int) -> [Double] {
        guard length >= 8 else { return [Double](repeating: 0, count: max(length, 0)) }
        var bits = ArithmeticBits(stream)
        let topPlane = bits.number(bitCount: 4, context: 0)
        let peak: Double
        if bits.bit(context: 0) == 0 {
            peak = Double(bits.number(bitCount: 7, context: 0)) / 128
        } else {
            peak = Double(bits.number(bitCount: 7, context: 0)) / 8 + 1
        }
        let coefficients = SetPartitioning.coefficients(from: &bits, length: length, topPlane: topPlane)
        let scale = peak / Double(1 << topPlane)
        var signal = coefficients.map { Double($0) * scale }
        let levels = Int(log2(Double(length) / 4))
        inverseTransform(&signal, levels: levels)
        return signal
    }

    /// The inverse of the dyadic transform, in place: level by level from the coarsest, the first half of the
    /// first `span` values (coarse) and the second half (detail) become `span` samples.
    package static func inverseTransform(_ values: inout [Double], levels: Int) {
        for level in stride(from: levels - 1, through: 0, by: -1) {
            let span = values.count >> level
            guard span >= 2 else { continue }
            var coarse = [Double](repeating: 0, count: span)
            var detail = [Double](repeating: 0, count: span)
            for k in 0..<(span / 2) {
                coarse[2 * k] = values[k]
                detail[2 * k + 1] = values[k + span / 2]
            }
            let fromDetail = filtered(detail, detailSynthesis)
            let fromCoarse = filtered(coarse, coarseSynthesis)
            for k in 0..<span { values[k] = fromDetail[k] + fromCoarse[k] }
        }
    }

    /// `x` through the symmetric odd-length `filter`, centred, with `x` mirrored about its first and last
    /// samples (whole-sample symmetry) where the filter reaches past them.
    static func filtered(_ x: [Double], _ filter: [Double]) -> [Double] {
        let reach = filter.count / 2
        let last = x.count - 1
        func mirrored(_ j: Int) -> Double {
            var j = j
            if j < 0 { j = -j }
            if j > last { j = 2 * last - j }
            return x[min(max(j, 0), last)]
        }
        var y = [Double](repeating: 0, count: x.count)
        for k in 0..<x.count {
            var sum = 0.0
            for (i, tap) in filter.enumerated() { sum += tap * mirrored(k + reach - i) }
            y[k] = sum
        }
        return y
    }

    /// The analysis pair of the 9/7 biorthogonal wavelet the standard uses: the low pass's taps from its
    /// centre out, and the high pass's.
    package static let lowPass = [0.852698679009404, 0.377402855612654, -0.110624404418423, -0.023849465019380, 0.037828455506995]
    package static let highPass = [-0.788485616405665, 0.418092273222212, 0.040689417609559, -0.064538882628938]

    /// The synthesis filter of the coarse half (7 taps), from the high pass.
    static let coarseSynthesis = synthesis(from: highPass)
    /// The synthesis filter of the detail half (9 taps), from the low pass.
    static let detailSynthesis = synthesis(from: lowPass)

    /// A synthesis filter from an analysis filter's taps from the centre out: the whole symmetric filter with
    /// the taps an even distance from the centre (the centre included) negated.
    static func synthesis(from half: [Double]) -> [Double] {
        let signed = half.enumerated().map { distance, tap in distance % 2 == 0 ? -tap : tap }
        return signed.dropFirst().reversed() + signed
    }
}
