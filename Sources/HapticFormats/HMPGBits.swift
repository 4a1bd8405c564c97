/// Reads big-endian bit fields from bytes, for `.hmpg` streams. Every read checks its bounds: reading past
/// the end sets `overrun` and returns 0, so a parser runs to its end on any input and then reports the
/// first place that was short. Not thread-safe (a cursor).
struct BitReader {
    let bytes: [UInt8]
    /// The next bit to read, from the start of `bytes`.
    private(set) var bit: Int
    /// The bit at which this reader's field ends (a unit's or a packet's end).
    let end: Int
    /// The bit where a read first went past `end`; nil while none has.
    private(set) var overrun: Int?

    /// A reader of `bytes[from ..< to]` (byte offsets).
    init(_ bytes: [UInt8], from: Int = 0, to: Int? = nil) {
        self.bytes = bytes
        bit = from * 8
        end = min(to ?? bytes.count, bytes.count) * 8
    }

    /// The byte offset of the next bit (rounded down).
    var byteOffset: Int { bit / 8 }
    /// Bits left before `end`.
    var remaining: Int { max(end - bit, 0) }

    /// The next `count` bits (≤ 64) as an unsigned number.
    mutating func read(_ count: Int) -> UInt64 {
        guard count > 0 else { return 0 }
        guard bit + count <= end else {
            if overrun == nil { overrun = bit }
            bit = end
            return 0
        }
        var value: UInt64 = 0
        for _ in 0..<count {
            let byte = bytes[bit >> 3]
            value = value << 1 | UInt64((byte >> (7 - UInt8(bit & 7))) & 1)
            bit += 1
        }
        return value
    }

    /// The next `count` bits as an unsigned Int.
    mutating func int(_ count: Int) -> Int { Int(truncatingIfNeeded: read(count)) }

    /// The next `count` bits as a two's-complement signed Int.
    mutating func signed(_ count: Int) -> Int {
        let raw = read(count)
        let sign: UInt64 = 1 << UInt64(count - 1)
        return raw & sign != 0 ? Int(truncatingIfNeeded: raw) - Int(truncatingIfNeeded: sign << 1) : Int(truncatingIfNeeded: raw)
    }

    /// A quantised number: `count` bits spread over `minimum … maximum`, decoded in single precision as the
    /// reference software does.
    mutating func quantised(_ count: Int, _ minimum: Float, _ maximum: Float) -> Float {
        let raw = read(count)
        let top = Float(count >= 64 ? UInt64.max : (UInt64(1) << UInt64(count)) - 1)
        let normalised = min(max(Float(raw) / top, 0), 1)
        return normalised * (maximum - minimum) + minimum
    }

    /// A string of `length` bytes (Latin-1 bytes decoded as UTF-8 when they are, else byte by byte).
    mutating func string(_ length: Int) -> String {
        var characters: [UInt8] = []
        for _ in 0..<length { characters.append(UInt8(truncatingIfNeeded: read(8))) }
        return String(validating: characters, as: UTF8.self) ?? String(characters.map { Character(Unicode.Scalar($0)) })
    }

    /// A string after an 8-bit length.
    mutating func shortString() -> String { string(int(8)) }

    /// Moves to bit `position`.
    mutating func seek(toBit position: Int) { bit = min(position, end) }
}

/// Writes big-endian bit fields, for `.hmpg` streams. Not thread-safe (a buffer).
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    /// Bits written.
    private(set) var count = 0

    /// Appends the low `width` bits of `value` (two's complement for negative values).
    mutating func write(_ value: Int, _ width: Int) {
        let bits = UInt64(bitPattern: Int64(value))
        for k in stride(from: width - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (bits >> UInt64(k)) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }

    /// Appends a quantised number as the reference software writes it: (value − minimum) / (maximum −
    /// minimum) in single precision, clamped to 0…1, times 2^width − 1, truncated.
    mutating func quantised(_ value: Float, _ width: Int, _ minimum: Float, _ maximum: Float) {
        let normalised = min(max((value - minimum) / (maximum - minimum), 0), 1)
        let top = Double((UInt64(1) << UInt64(width)) - 1)
        write(Int(Double(normalised) * top), width)
    }

    /// Appends the UTF-8 bytes of `text` after an 8-bit length (at most 255 bytes are kept).
    mutating func shortString(_ text: String) {
        let utf8 = Array(text.utf8.prefix(255))
        write(utf8.count, 8)
        for byte in utf8 { write(Int(byte), 8) }
    }

    /// Appends another writer's bits.
    mutating func append(_ other: BitWriter) {
        var reader = BitReader(other.bytes)
        var left = other.count
        while left > 0 {
            let chunk = min(left, 32)
            write(Int(reader.read(chunk)), chunk)
            left -= chunk
        }
    }

    /// Pads with zero bits to a whole byte.
    mutating func padToByte() {
        while count % 8 != 0 { write(0, 1) }
    }
}
