/// File names are bytes; Swift strings are Unicode. A name that is not valid UTF-8 (a file from an old
/// Latin-1 system, a crafted name) still has to be opened, written and shown exactly, so the bytes that
/// are not valid UTF-8 are carried in a string as the private-use characters U+10FF80…U+10FFFF (byte
/// `b` as U+10FF00 + `b`) and turned back into the same bytes for every system call.
///
/// A value-free namespace; thread-safe.
package enum FileSystemPath {
    /// The characters that stand for bytes 0x80…0xFF that are not part of valid UTF-8.
    package static let rawByteScalars: ClosedRange<UInt32> = 0x10_FF80...0x10_FFFF

    /// The string for the name `bytes` (no NUL): valid UTF-8 decoded, every other byte kept as its
    /// stand-in character.
    package static func string<Bytes: Collection<UInt8>>(fromBytes bytes: Bytes) -> String where Bytes.Index == Int {
        var result = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if let (scalar, length) = decodeScalar(bytes, at: index) {
                result.append(scalar)
                index += length
            } else {
                result.append(Unicode.Scalar(0x10_FF00 + UInt32(bytes[index]))!)
                index += 1
            }
        }
        return String(result)
    }

    /// The bytes of the name `path` (no NUL): stand-in characters back to their bytes, the rest as UTF-8.
    package static func bytes(_ path: String) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if rawByteScalars.contains(scalar.value) {
                result.append(UInt8(scalar.value - 0x10_FF00))
            } else {
                result.append(contentsOf: String(scalar).utf8)
            }
        }
        return result
    }

    /// Calls `body` with `path` as the NUL-terminated name a system call takes.
    package static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try (bytes(path).map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The scalar of a valid UTF-8 sequence starting at `index` and its length, or nil.
    static func decodeScalar<Bytes: Collection<UInt8>>(_ bytes: Bytes, at index: Int) -> (Unicode.Scalar, Int)?
    where Bytes.Index == Int {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let (need, initial, minimum): (Int, UInt32, UInt32)
        switch lead {
        case 0xC0...0xDF: (need, initial, minimum) = (1, UInt32(lead & 0x1F), 0x80)
        case 0xE0...0xEF: (need, initial, minimum) = (2, UInt32(lead & 0x0F), 0x800)
        case 0xF0...0xF7: (need, initial, minimum) = (3, UInt32(lead & 0x07), 0x10000)
        default: return nil
        }
        guard index + need < bytes.endIndex else { return nil }
        var value = initial
        for offset in 1...need {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, need + 1)
    }
}
