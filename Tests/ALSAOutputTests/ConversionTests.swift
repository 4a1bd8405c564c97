import Testing

@testable import ALSAOutput

/// The float → device conversion against values worked out by hand from the rule
/// `round(x × 2^(bits−1))`, halves away from zero, clamped; NaN → 0; bytes in the format's order.
@Suite struct ConversionTests {
    /// Converts `input` as one channel into packed samples of `format` and returns the bytes.
    private func bytes(_ format: ALSASampleFormat, _ input: [Float]) -> [UInt8] {
        var output = [UInt8](repeating: 0xAA, count: input.count * format.bytesPerSample)
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBytes { destination in
                convertChannel(
                    format, frames: input.count, source: source.baseAddress!, sourceStride: 1,
                    destination: destination.baseAddress!, destinationStride: format.bytesPerSample)
            }
        }
        return output
    }

    @Test func sixteenBitRoundsHalvesAwayFromZeroAndClamps() {
        // 0.5 / 32768 is exactly half a step: away from zero gives 1 (to-even would give 0); 1.5 → 2, −1.5 → −2,
        // 2.5 → 3 (to-even: 2); full scale +1 clamps to 32767; 2 and −2 clamp; NaN is 0.
        let input: [Float] = [0, 0.5 / 32768, -0.5 / 32768, 1.5 / 32768, -1.5 / 32768, 2.5 / 32768, 0.6 / 32768, 1, -1, 2, -2, .nan]
        let expected: [Int16] = [0, 1, -1, 2, -2, 3, 1, 32767, -32768, 32767, -32768, 0]
        let little = bytes(.s16LE, input)
        let big = bytes(.s16BE, input)
        for (i, value) in expected.enumerated() {
            let raw = UInt16(bitPattern: value)
            #expect(little[2 * i] == UInt8(raw & 0xFF) && little[2 * i + 1] == UInt8(raw >> 8), "S16_LE sample \(i)")
            #expect(big[2 * i] == UInt8(raw >> 8) && big[2 * i + 1] == UInt8(raw & 0xFF), "S16_BE sample \(i)")
        }
    }

    @Test func thirtyTwoBitIsExactForEveryFloat() {
        // Float has 24 significant bits, so x × 2^31 is exact and needs no rounding unless |x| < 2^-31;
        // 0.75 → 0x6000_0000; −1 → 0x8000_0000; +1 clamps to 0x7FFF_FFFF; 2^-32 (half a step) → 1.
        let input: [Float] = [0.75, -1, 1, 0x1p-32, -0x1p-32, 0x1p-33]
        let expected: [UInt32] = [0x6000_0000, 0x8000_0000, 0x7FFF_FFFF, 1, 0xFFFF_FFFF, 0]
        let little = bytes(.s32LE, input)
        let big = bytes(.s32BE, input)
        for (i, value) in expected.enumerated() {
            let le = (0..<4).map { UInt8((value >> (8 * UInt32($0))) & 0xFF) }
            #expect(Array(little[(4 * i)..<(4 * i + 4)]) == le, "S32_LE sample \(i)")
            #expect(Array(big[(4 * i)..<(4 * i + 4)]) == le.reversed(), "S32_BE sample \(i)")
        }
    }

    @Test func twentyFourBitInFourBytesIsSignExtendedAndPackedInThree() {
        // 0.5 → 0x40_0000; −0.5 → −0x40_0000 (0xFFC0_0000 sign-extended); +1 clamps to 0x7F_FFFF;
        // 1.5 / 2^23 → 2; −1 → −0x80_0000.
        let input: [Float] = [0.5, -0.5, 1, 1.5 / 8_388_608, -1]
        let expected: [Int32] = [0x40_0000, -0x40_0000, 0x7F_FFFF, 2, -0x80_0000]
        let wide = bytes(.s24LE, input)
        let wideBig = bytes(.s24BE, input)
        let packed = bytes(.s24x3LE, input)
        let packedBig = bytes(.s24x3BE, input)
        for (i, value) in expected.enumerated() {
            let raw = UInt32(bitPattern: value)
            let le = (0..<4).map { UInt8((raw >> (8 * UInt32($0))) & 0xFF) }
            #expect(Array(wide[(4 * i)..<(4 * i + 4)]) == le, "S24_LE sample \(i)")
            #expect(Array(wideBig[(4 * i)..<(4 * i + 4)]) == le.reversed(), "S24_BE sample \(i)")
            #expect(Array(packed[(3 * i)..<(3 * i + 3)]) == Array(le[0..<3]), "S24_3LE sample \(i)")
            #expect(Array(packedBig[(3 * i)..<(3 * i + 3)]) == Array(le[0..<3]).reversed(), "S24_3BE sample \(i)")
        }
    }

    @Test func floatPassesBitsUnchanged() {
        let input: [Float] = [0.25, -1, 1.5, -0.0]
        let little = bytes(.float32LE, input)
        let big = bytes(.float32BE, input)
        for (i, value) in input.enumerated() {
            let le = (0..<4).map { UInt8((value.bitPattern >> (8 * UInt32($0))) & 0xFF) }
            #expect(Array(little[(4 * i)..<(4 * i + 4)]) == le)
            #expect(Array(big[(4 * i)..<(4 * i + 4)]) == le.reversed())
        }
    }

    /// A strided source (interleaved) into a strided destination touches only its own samples.
    @Test func stridesSelectOneChannel() {
        let interleaved: [Float] = [0.5, 9, 0.25, 9, -0.5, 9]  // channel 0 of 2
        var output = [UInt8](repeating: 0xAA, count: 3 * 6)  // 3 frames × (2-byte sample + 4 bytes of other data)
        interleaved.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBytes { destination in
                convertChannel(
                    .s16LE, frames: 3, source: source.baseAddress!, sourceStride: 2,
                    destination: destination.baseAddress!, destinationStride: 6)
            }
        }
        #expect(output == [0x00, 0x40, 0xAA, 0xAA, 0xAA, 0xAA, 0x00, 0x20, 0xAA, 0xAA, 0xAA, 0xAA, 0x00, 0xC0, 0xAA, 0xAA, 0xAA, 0xAA])
    }

    @Test func silenceIsAllZeroBytes() {
        var output = [UInt8](repeating: 0xAA, count: 12)
        output.withUnsafeMutableBytes { destination in
            silenceChannel(.s24x3LE, frames: 2, destination: destination.baseAddress!, destinationStride: 6)
        }
        #expect(output == [0, 0, 0, 0xAA, 0xAA, 0xAA, 0, 0, 0, 0xAA, 0xAA, 0xAA])
    }
}
