import Foundation
import ThrumTestSupport

@testable import ALSAOutput

extension SimulatedCardRun {
    /// The device as ALSAOutput opens it: the profiles plus the custom card, as a private configuration.
    var source: ALSADeviceSource { .configuration(text: configurationText, pcmName: deviceName) }
}

/// The bytes a card in `format` must receive for `rampSample(frame:channel:)` (k / 32768, exact in every
/// format): k scaled to the format's width, in its byte order. Silent channels (≥ `sourceChannels`) are 0.
func expectedRampBytes(format: ALSASampleFormat, frames: Int, deviceChannels: Int, sourceChannels: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(frames * deviceChannels * format.bytesPerSample)
    for frame in 0..<frames {
        for channel in 0..<deviceChannels {
            let k = channel < sourceChannels ? Int32(rampS16(frame: frame, channel: channel)) : 0
            let word: UInt32
            switch format.integerBits {
            case nil: word = (channel < sourceChannels ? rampSample(frame: frame, channel: channel) : 0).bitPattern
            case 32?: word = UInt32(bitPattern: k << 16)
            case 24?: word = UInt32(bitPattern: k << 8)
            default: word = UInt32(bitPattern: k)
            }
            let little = (0..<format.bytesPerSample).map { UInt8((word >> (8 * UInt32($0))) & 0xFF) }
            bytes += format.isBigEndian ? little.reversed() : little
        }
    }
    return bytes
}

/// Index of the first differing byte, or nil when `got` starts with `want`'s first `count` bytes.
func firstDifference(_ got: [UInt8], _ want: [UInt8], count: Int) -> Int? {
    for i in 0..<count where i >= got.count || i >= want.count || got[i] != want[i] { return i }
    return nil
}
