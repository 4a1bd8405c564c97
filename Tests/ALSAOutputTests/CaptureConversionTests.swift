import Testing

@testable import ALSAOutput

/// The device → float conversion of captured samples, against bytes worked out by hand: an integer k of
/// `bits` bits is k / 2^(bits−1), in the format's byte order; floats pass through.
@Suite struct CaptureConversionTests {
    private func floats(_ format: ALSASampleFormat, _ bytes: [UInt8]) -> [Float] {
        let count = bytes.count / format.bytesPerSample
        var output = [Float](repeating: .nan, count: count)
        bytes.withUnsafeBytes { source in
            output.withUnsafeMutableBufferPointer { destination in
                readChannel(
                    format, frames: count, source: source.baseAddress!, sourceStride: format.bytesPerSample,
                    destination: destination.baseAddress!, destinationStride: 1)
            }
        }
        return output
    }

    @Test func integersScaleByTheirWidth() {
        // 0x4000 = 16384 → 0.5; 0x8000 = −32768 → −1; 0x0001 → 2^-15.
        #expect(floats(.s16LE, [0x00, 0x40, 0x00, 0x80, 0x01, 0x00]) == [0.5, -1, 0x1p-15])
        #expect(floats(.s16BE, [0x40, 0x00, 0x80, 0x00, 0x00, 0x01]) == [0.5, -1, 0x1p-15])
        // S24_3LE 0xC00000 = −4194304 → −0.5; 0x000001 → 2^-23.
        #expect(floats(.s24x3LE, [0x00, 0x00, 0xC0, 0x01, 0x00, 0x00]) == [-0.5, 0x1p-23])
        #expect(floats(.s24x3BE, [0xC0, 0x00, 0x00, 0x00, 0x00, 0x01]) == [-0.5, 0x1p-23])
        // S24_LE: the low three bytes, sign-extended (the top byte ignored).
        #expect(floats(.s24LE, [0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x40, 0xFF]) == [-1, 0.5])
        // S32: 0x6000_0000 → 0.75.
        #expect(floats(.s32LE, [0x00, 0x00, 0x00, 0x60]) == [0.75])
        #expect(floats(.s32BE, [0x60, 0x00, 0x00, 0x00]) == [0.75])
        #expect(floats(.float32LE, [0x00, 0x00, 0x40, 0x3F]) == [0.75])
    }

    @Test("what convertChannel writes reads back as the quantised value, in every format")
    func roundTrip() {
        let input: [Float] = [0, 0.25, -0.75, 0.123456, -0.999]
        for format in ALSASampleFormat.allCases {
            var bytes = [UInt8](repeating: 0, count: input.count * format.bytesPerSample)
            input.withUnsafeBufferPointer { source in
                bytes.withUnsafeMutableBytes { destination in
                    convertChannel(
                        format, frames: input.count, source: source.baseAddress!, sourceStride: 1,
                        destination: destination.baseAddress!, destinationStride: format.bytesPerSample)
                }
            }
            let step = format.integerBits.map { 1 / Float(1 << ($0 - 1)) } ?? 0
            for (got, want) in zip(floats(format, bytes), input) {
                #expect(abs(got - want) <= step / 2 + 1e-7, "\(format): \(got) for \(want)")
            }
        }
    }
}
