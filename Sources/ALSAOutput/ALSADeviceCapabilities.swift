import CALSA
import Glibc

/// What a playback PCM accepts, read from its hardware-parameter space (`snd_pcm_hw_params_any`) before
/// anything is chosen. Sizes in frames, rates in Hz.
///
/// - Important: Thread safety: a value type; any thread.
package struct ALSADeviceCapabilities: Sendable, Hashable {
    /// The formats Thrum writes that the device accepts, best first (``ALSASampleFormat/preferenceOrder``).
    package var formats: [ALSASampleFormat]
    /// ALSA's names of the other formats the device accepts (`U8`, `S20_3LE`, …), which Thrum does not write.
    package var otherFormats: [String]
    /// The access types the device offers, in ``ALSAAccess/preferenceOrder``.
    package var accesses: [ALSAAccess]
    /// Channel counts the device accepts.
    package var channels: ClosedRange<Int>
    /// Lowest and highest sample rate; a device with a list of rates may have gaps in between.
    package var rateRange: ClosedRange<Int>
    /// The common rates (8000 … 768000 Hz) the device accepts, ascending.
    package var commonRates: [Int]
    /// Period sizes the device accepts (it may accept only some steps in between).
    package var periodFrames: ClosedRange<Int>
    /// Period counts per buffer.
    package var periods: ClosedRange<Int>
    /// Buffer sizes.
    package var bufferFrames: ClosedRange<Int>

    /// The rates listed in ``commonRates`` when the device accepts them.
    package static let probedRates = [
        8000, 11025, 16000, 22050, 32000, 44100, 48000, 64000, 88200, 96000, 176400, 192000, 352800, 384000,
        705600, 768000,
    ]

    /// Reads the capabilities from a full hardware-parameter space of `pcm` (fresh from `snd_pcm_hw_params_any`).
    init(pcm: OpaquePointer, space hw: OpaquePointer) {
        formats = ALSASampleFormat.preferenceOrder.filter { snd_pcm_hw_params_test_format(pcm, hw, $0.alsaFormat) == 0 }
        let written = Set(formats.map(\.alsaFormat.rawValue))
        otherFormats = (0...SND_PCM_FORMAT_LAST.rawValue).compactMap { raw -> String? in
            let format = snd_pcm_format_t(rawValue: raw)
            guard !written.contains(raw), snd_pcm_hw_params_test_format(pcm, hw, format) == 0,
                let name = snd_pcm_format_name(format)
            else { return nil }
            return String(cString: name)
        }
        accesses = ALSAAccess.preferenceOrder.filter { snd_pcm_hw_params_test_access(pcm, hw, $0.alsaAccess) == 0 }

        var low: UInt32 = 0
        var high: UInt32 = 0
        var dir: Int32 = 0
        snd_pcm_hw_params_get_channels_min(hw, &low)
        snd_pcm_hw_params_get_channels_max(hw, &high)
        channels = Self.range(Int(low), Int(high))
        snd_pcm_hw_params_get_rate_min(hw, &low, &dir)
        snd_pcm_hw_params_get_rate_max(hw, &high, &dir)
        rateRange = Self.range(Int(low), Int(high))
        commonRates = Self.probedRates.filter { snd_pcm_hw_params_test_rate(pcm, hw, UInt32($0), 0) == 0 }
        snd_pcm_hw_params_get_periods_min(hw, &low, &dir)
        snd_pcm_hw_params_get_periods_max(hw, &high, &dir)
        periods = Self.range(Int(low), Int(high))

        var lowFrames: snd_pcm_uframes_t = 0
        var highFrames: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_period_size_min(hw, &lowFrames, &dir)
        snd_pcm_hw_params_get_period_size_max(hw, &highFrames, &dir)
        periodFrames = Self.range(Self.int(lowFrames), Self.int(highFrames))
        snd_pcm_hw_params_get_buffer_size_min(hw, &lowFrames)
        snd_pcm_hw_params_get_buffer_size_max(hw, &highFrames)
        bufferFrames = Self.range(Self.int(lowFrames), Self.int(highFrames))
    }

    /// The rates to name in messages: the common ones the device has, or its range when it has none of them.
    package var rateSummary: String { Self.rateSummary(offered: commonRates, range: rateRange) }

    /// `44100, 48000 Hz`, or `8000–96000 Hz` when `offered` is empty.
    static func rateSummary(offered: [Int], range: ClosedRange<Int>) -> String {
        if !offered.isEmpty { return offered.map(String.init).joined(separator: ", ") + " Hz" }
        return range.lowerBound == range.upperBound ? "\(range.lowerBound) Hz" : "\(range.lowerBound)–\(range.upperBound) Hz"
    }

    /// The channel range as a message shows it: `2` or `1–8`.
    package var channelSummary: String {
        channels.lowerBound == channels.upperBound ? "\(channels.lowerBound)" : "\(channels.lowerBound)–\(channels.upperBound)"
    }

    private static func range(_ low: Int, _ high: Int) -> ClosedRange<Int> { low <= high ? low...high : high...low }

    private static func int(_ frames: snd_pcm_uframes_t) -> Int { frames > UInt(Int.max) ? Int.max : Int(frames) }
}

/// One thing a device does not accept, found before any parameter is set, with what it does accept.
package enum ALSASetupMismatch: Sendable, Hashable, CustomStringConvertible {
    /// The device accepts none of the formats Thrum writes; `offered` are ALSA's names of what it does accept.
    case format(offered: [String])
    /// The device offers none of the four access types.
    case access
    /// More channels were asked for than the device has.
    case channels(requested: Int, supported: ClosedRange<Int>)
    /// An exact rate was asked for that the device does not play. `offered`: the common rates it plays
    /// (``ALSADeviceCapabilities/commonRates``); `range`: its lowest and highest rate.
    case rate(requested: Int, offered: [Int], range: ClosedRange<Int>)

    /// One clause naming the mismatch and what the card accepts, e.g.
    /// "3 channels asked, it has 2 (use a channel map of at most 2 entries)".
    package var description: String {
        switch self {
        case .format(let offered):
            let list = offered.isEmpty ? "no format" : offered.joined(separator: ", ")
            return "sample format: it accepts \(list), none of which Thrum writes "
                + "(\(ALSASampleFormat.preferenceOrder.map(\.rawValue).joined(separator: ", ")))"
        case .access:
            return "access: it offers none of \(ALSAAccess.preferenceOrder.map(\.rawValue).joined(separator: ", "))"
        case .channels(let requested, let supported):
            let has = supported.lowerBound == supported.upperBound
                ? "\(supported.upperBound)" : "\(supported.lowerBound)–\(supported.upperBound)"
            return "\(requested) channels asked, it has \(has) (use a channel map of at most \(supported.upperBound) "
                + "entr\(supported.upperBound == 1 ? "y" : "ies"))"
        case .rate(let requested, let offered, let range):
            return "\(requested) Hz asked, it plays \(ALSADeviceCapabilities.rateSummary(offered: offered, range: range))"
        }
    }
}
