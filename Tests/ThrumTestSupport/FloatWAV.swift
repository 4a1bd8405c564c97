import Foundation

/// The interleaved samples and channel count of a 32-bit float WAV file as `thrum render` writes it,
/// read straight from its chunks (independent of the library's decoder, which keeps at most two channels).
/// Nil when the file is missing or is not a float32 WAV.
public func readFloatWAV(_ path: String) -> (channels: Int, samples: [Float])? {
    guard let data = FileManager.default.contents(atPath: path), data.count >= 12,
        data.prefix(4) == Data("RIFF".utf8), data[8..<12] == Data("WAVE".utf8)
    else { return nil }
    func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(data[at + $1]) << (8 * $1) } }
    func u16(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
    var offset = 12
    var channels = 0
    var bits = 0
    while offset + 8 <= data.count {
        let id = String(decoding: data[offset..<(offset + 4)], as: UTF8.self)
        let size = u32(offset + 4)
        let body = offset + 8
        if id == "fmt " && body + 16 <= data.count {
            channels = u16(body + 2)
            bits = u16(body + 14)
        } else if id == "data" {
            guard channels > 0, bits == 32, body + size <= data.count else { return nil }
            let samples = data[body..<(body + size)].withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            return (channels, samples)
        }
        offset = body + size + (size & 1)
    }
    return nil
}
