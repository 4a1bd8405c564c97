/// Float → device-format conversion for the playback thread: no allocation, no locks, no libm.
///
/// One call converts one channel of a run of frames: the source is interleaved float (every
/// `sourceStride`-th value), the destination any layout the device uses (interleaved, one buffer per
/// channel, or an mmap area), given as a start address and a distance in bytes between samples.

/// `round(x × 2^(bits−1))` with halves away from zero, clamped to `−2^(bits−1)…2^(bits−1)−1`; NaN → 0.
///
/// Exact for every Float input: x × 2^(bits−1) and the added ½ are exact in Double, and the conversion
/// to an integer truncates (a machine instruction, not a libm call). The same rule as
/// `AudioFileWriter`'s integer formats, so `thrum render --format pcmN` equals what a card receives.
@inline(__always)
func quantize(_ x: Float, bits: Int) -> Int32 {
    let full = Double(Int64(1) << (bits - 1))
    var value = Double(x) * full
    guard value == value else { return 0 }
    value = min(max(value, -full), full - 1)
    let rounded = value < 0 ? -Int64(-value + 0.5) : Int64(value + 0.5)
    return Int32(truncatingIfNeeded: rounded)
}

/// Converts `frames` samples of one channel.
/// - Parameters:
///   - format: the device format.
///   - source: the first float sample; the next one is `sourceStride` floats further.
///   - destination: where the first converted sample goes; the next one is `destinationStride` bytes further.
///     Need not be aligned.
/// - Important: Real-time safe.
func convertChannel(
    _ format: ALSASampleFormat, frames: Int, source: UnsafePointer<Float>, sourceStride: Int,
    destination: UnsafeMutableRawPointer, destinationStride: Int
) {
    let big = format.isBigEndian
    switch format {
    case .float32LE, .float32BE:
        for i in 0..<frames {
            store32(source[i * sourceStride].bitPattern, destination + i * destinationStride, bigEndian: big)
        }
    case .s32LE, .s32BE, .s24LE, .s24BE:
        let bits = format.integerBits ?? 32
        for i in 0..<frames {
            let value = quantize(source[i * sourceStride], bits: bits)
            store32(UInt32(bitPattern: value), destination + i * destinationStride, bigEndian: big)
        }
    case .s24x3LE, .s24x3BE:
        for i in 0..<frames {
            let value = UInt32(bitPattern: quantize(source[i * sourceStride], bits: 24))
            let out = destination + i * destinationStride
            let low = UInt8(truncatingIfNeeded: value)
            let middle = UInt8(truncatingIfNeeded: value >> 8)
            let high = UInt8(truncatingIfNeeded: value >> 16)
            out.storeBytes(of: big ? high : low, as: UInt8.self)
            out.storeBytes(of: middle, toByteOffset: 1, as: UInt8.self)
            out.storeBytes(of: big ? low : high, toByteOffset: 2, as: UInt8.self)
        }
    case .s16LE, .s16BE:
        for i in 0..<frames {
            let value = UInt16(truncatingIfNeeded: quantize(source[i * sourceStride], bits: 16))
            (destination + i * destinationStride)
                .storeBytes(of: big ? value.bigEndian : value.littleEndian, as: UInt16.self)
        }
    }
}

/// Writes `frames` silent samples (all bits zero: 0 and +0.0 in every supported format).
/// - Important: Real-time safe.
func silenceChannel(_ format: ALSASampleFormat, frames: Int, destination: UnsafeMutableRawPointer, destinationStride: Int) {
    let width = format.bytesPerSample
    if destinationStride == width {
        destination.initializeMemory(as: UInt8.self, repeating: 0, count: frames * width)
        return
    }
    for i in 0..<frames {
        (destination + i * destinationStride).initializeMemory(as: UInt8.self, repeating: 0, count: width)
    }
}

@inline(__always)
private func store32(_ value: UInt32, _ destination: UnsafeMutableRawPointer, bigEndian: Bool) {
    destination.storeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, as: UInt32.self)
}

/// Converts `frames` samples of one channel from the device format into floats (−1…1), the inverse of
/// `convertChannel`: an integer k of `bits` bits becomes k / 2^(bits−1).
/// - Parameters:
///   - source: the first sample in the device format; the next one is `sourceStride` bytes further.
///   - destination: where the first float goes; the next one is `destinationStride` floats further.
/// - Important: Real-time safe.
func readChannel(
    _ format: ALSASampleFormat, frames: Int, source: UnsafeRawPointer, sourceStride: Int,
    destination: UnsafeMutablePointer<Float>, destinationStride: Int
) {
    let big = format.isBigEndian
    switch format {
    case .float32LE, .float32BE:
        for i in 0..<frames {
            let raw = source.loadUnaligned(fromByteOffset: i * sourceStride, as: UInt32.self)
            destination[i * destinationStride] = Float(bitPattern: big ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw))
        }
    case .s32LE, .s32BE, .s24LE, .s24BE:
        let bits = format.integerBits ?? 32
        let scale = 1 / Double(Int64(1) << (bits - 1))
        for i in 0..<frames {
            let raw = source.loadUnaligned(fromByteOffset: i * sourceStride, as: UInt32.self)
            var value = Int32(bitPattern: big ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw))
            if bits == 24 { value = (value << 8) >> 8 }  // sign-extend the low three bytes
            destination[i * destinationStride] = Float(Double(value) * scale)
        }
    case .s24x3LE, .s24x3BE:
        for i in 0..<frames {
            let bytes = source + i * sourceStride
            let b0 = UInt32(bytes.load(as: UInt8.self))
            let b1 = UInt32(bytes.load(fromByteOffset: 1, as: UInt8.self))
            let b2 = UInt32(bytes.load(fromByteOffset: 2, as: UInt8.self))
            let word = big ? (b0 << 16 | b1 << 8 | b2) : (b2 << 16 | b1 << 8 | b0)
            let value = Int32(bitPattern: word << 8) >> 8
            destination[i * destinationStride] = Float(Double(value) / 8_388_608)
        }
    case .s16LE, .s16BE:
        for i in 0..<frames {
            let raw = source.loadUnaligned(fromByteOffset: i * sourceStride, as: UInt16.self)
            let value = Int16(bitPattern: big ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw))
            destination[i * destinationStride] = Float(value) / 32_768
        }
    }
}
