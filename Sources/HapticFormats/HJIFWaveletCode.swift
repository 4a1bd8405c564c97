/// The bits of a wavelet stream, through the binary arithmetic decoder ISO/IEC 23090-31 uses for wavelet
/// blocks: a 10-bit code range split at each bit by the context's count of zeros so far (rounded to the
/// range's resolution, never 0 or the whole range), renormalised by the usual halving and middle-half
/// expansions; the stream's bits are read least significant first within each byte, zero after its end.
/// Not thread-safe (a value type: one per stream).
struct ArithmeticBits {
    private static let range = 1024
    private static let half = 512
    private static let quarter = 256
    private static let contexts = 7

    private let input: [UInt8]
    private var position = 0
    private var low = 0
    private var high = ArithmeticBits.range
    private var code = 0
    /// Per context: zeros decoded (from 8) and bits decoded (from 16).
    private var zeros = [Int](repeating: 8, count: ArithmeticBits.contexts)
    private var totals = [Int](repeating: 16, count: ArithmeticBits.contexts)

    init(_ stream: [UInt8]) {
        input = stream
        for _ in 0..<10 { code = code << 1 | nextInputBit() }
    }

    /// The next bit of the stream itself (0 past its end).
    private mutating func nextInputBit() -> Int {
        guard position < input.count * 8 else { return 0 }
        defer { position += 1 }
        return Int(input[position / 8] >> UInt8(position % 8) & 1)
    }

    /// The next decoded bit, in `context` (0…6).
    mutating func bit(context: Int) -> Int {
        let width = high - low
        let share = (Double(zeros[context]) / Double(totals[context]) * Double(Self.range)).rounded()
        var split = Int(Double(width) * share) / Self.range
        if split == 0 { split = 1 } else if split == width { split = width - 1 }
        let decoded: Int
        if code - low < split {
            high = low + split
            decoded = 0
        } else {
            low += split
            decoded = 1
        }
        while true {
            let offset: Int
            if high <= Self.half {
                offset = 0
            } else if low >= Self.half {
                offset = Self.half
            } else if low >= Self.quarter && high <= Self.half + Self.quarter {
                offset = Self.quarter
            } else {
                break
            }
            low = (low - offset) << 1
            high = (high - offset) << 1
            code = (code - offset) << 1 | nextInputBit()
        }
        if decoded == 0 { zeros[context] += 1 }
        totals[context] += 1
        return decoded
    }

    /// `bitCount` decoded bits in `context`, the first the least significant.
    mutating func number(bitCount: Int, context: Int) -> Int {
        var value = 0
        for k in 0..<bitCount { value |= bit(context: context) << k }
        return value
    }
}

/// SPIHT (set partitioning in hierarchical trees) over a one-dimensional dyadic wavelet block, as the
/// standard's wavelet bands code it: coefficient i's children are 2i and 2i + 1; the eight coarsest
/// coefficients start as insignificant points, the sets of descendants of the upper four of them as sets
/// ("type A": all descendants; "type B": all but the children). Contexts: 1 a sign, 2 a point's
/// significance, 3 a type A set's, 4 a child's, 5 a type B set's, 6 a refinement bit.
enum SetPartitioning {
    /// The integer coefficients of a block of `length`, bit plane `topPlane` down to 0, each found
    /// significant at plane n set to ±2ⁿ and refined by ±2ᵐ at each later plane m whose bit is 1.
    static func coefficients(from bits: inout ArithmeticBits, length: Int, topPlane: Int) -> [Int] {
        var values = [Int](repeating: 0, count: length)
        var insignificantPoints = Array(0..<8)
        var sets = (4..<8).map { (root: $0, allDescendants: true) }
        var significant: [Int] = []
        func set(_ index: Int, _ value: Int) { if index < length { values[index] = value } }

        for plane in stride(from: topPlane, through: 0, by: -1) {
            let threshold = 1 << plane
            let refinable = significant.count
            func signed() -> Int { bits.bit(context: 1) == 1 ? threshold : -threshold }

            var stillInsignificant: [Int] = []
            for index in insignificantPoints {
                if bits.bit(context: 2) == 1 {
                    set(index, signed())
                    significant.append(index)
                } else {
                    stillInsignificant.append(index)
                }
            }
            insignificantPoints = stillInsignificant

            // The list grows while it is walked: sets appended in this pass are tested in this pass too.
            var kept: [Bool] = []
            var k = 0
            while k < sets.count {
                let (root, allDescendants) = sets[k]
                var splits = false
                if allDescendants {
                    if bits.bit(context: 3) == 1 {
                        splits = true
                        for child in [2 * root, 2 * root + 1] {
                            if bits.bit(context: 4) == 1 {
                                significant.append(child)
                                set(child, signed())
                            } else {
                                insignificantPoints.append(child)
                            }
                        }
                        if 4 * root + 3 < length { sets.append((root: root, allDescendants: false)) }
                    }
                } else if bits.bit(context: 5) == 1 {
                    splits = true
                    sets.append((root: 2 * root, allDescendants: true))
                    sets.append((root: 2 * root + 1, allDescendants: true))
                }
                kept.append(!splits)
                k += 1
            }
            sets = sets.indices.filter { kept[$0] }.map { sets[$0] }

            for index in significant[..<refinable] where bits.bit(context: 6) == 1 {
                guard index < length else { continue }
                values[index] += values[index].signum() * threshold
            }
        }
        return values
    }
}
