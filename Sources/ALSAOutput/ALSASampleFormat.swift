import CALSA

/// A sample format on the wire to ALSA. Rendering always happens in 32-bit float; the playback thread
/// converts each period into the device's format (see ``ALSAStreamSetup``).
///
/// Integer conversion: a float sample x becomes `round(x × 2^(bits−1))` (halves away from zero), clamped
/// to `−2^(bits−1)…2^(bits−1)−1`; NaN becomes 0. Float formats carry the samples unchanged.
/// The raw values are ALSA's names (`S32_LE`, `S24_3LE`, …), as `aplay -v` and `thrum devices` show them.
package enum ALSASampleFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 32-bit IEEE float, little-endian (`SND_PCM_FORMAT_FLOAT_LE`), range −1…1.
    case float32LE = "FLOAT_LE"
    /// 32-bit signed integer, little-endian.
    case s32LE = "S32_LE"
    /// 24-bit signed integer in the low three bytes of a 32-bit little-endian word (sign-extended).
    case s24LE = "S24_LE"
    /// 24-bit signed integer packed in three bytes, little-endian.
    case s24x3LE = "S24_3LE"
    /// 16-bit signed integer, little-endian.
    case s16LE = "S16_LE"
    /// The big-endian twins, used only when a device offers no little-endian format Thrum writes.
    case float32BE = "FLOAT_BE"
    /// 32-bit signed integer, big-endian.
    case s32BE = "S32_BE"
    /// 24-bit signed integer in the low three bytes of a 32-bit big-endian word.
    case s24BE = "S24_BE"
    /// 24-bit signed integer packed in three bytes, big-endian.
    case s24x3BE = "S24_3BE"
    /// 16-bit signed integer, big-endian.
    case s16BE = "S16_BE"

    /// Best first: float, then the widest integers; little-endian before big-endian. Negotiation picks the
    /// first one the device accepts (``allCases`` is in this order).
    package static var preferenceOrder: [ALSASampleFormat] { allCases }

    /// Bytes per sample (one channel value) in the device buffer: 4, 3 (`S24_3*`) or 2.
    package var bytesPerSample: Int {
        switch self {
        case .float32LE, .float32BE, .s32LE, .s32BE, .s24LE, .s24BE: 4
        case .s24x3LE, .s24x3BE: 3
        case .s16LE, .s16BE: 2
        }
    }

    /// Bits of an integer sample (32, 24 or 16); nil for float formats.
    package var integerBits: Int? {
        switch self {
        case .float32LE, .float32BE: nil
        case .s32LE, .s32BE: 32
        case .s24LE, .s24BE, .s24x3LE, .s24x3BE: 24
        case .s16LE, .s16BE: 16
        }
    }

    /// True for the big-endian formats.
    package var isBigEndian: Bool {
        switch self {
        case .float32BE, .s32BE, .s24BE, .s24x3BE, .s16BE: true
        default: false
        }
    }

    /// ALSA's name, e.g. `S24_3LE`.
    package var description: String { rawValue }

    /// The ALSA format constant.
    var alsaFormat: snd_pcm_format_t {
        switch self {
        case .float32LE: SND_PCM_FORMAT_FLOAT_LE
        case .s32LE: SND_PCM_FORMAT_S32_LE
        case .s24LE: SND_PCM_FORMAT_S24_LE
        case .s24x3LE: SND_PCM_FORMAT_S24_3LE
        case .s16LE: SND_PCM_FORMAT_S16_LE
        case .float32BE: SND_PCM_FORMAT_FLOAT_BE
        case .s32BE: SND_PCM_FORMAT_S32_BE
        case .s24BE: SND_PCM_FORMAT_S24_BE
        case .s24x3BE: SND_PCM_FORMAT_S24_3BE
        case .s16BE: SND_PCM_FORMAT_S16_BE
        }
    }
}

/// How samples reach the device buffer: read/write calls or direct mmap, channels interleaved or one
/// buffer per channel. The raw values are ALSA's names.
package enum ALSAAccess: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `snd_pcm_writei`: frames interleaved in one buffer.
    case rwInterleaved = "RW_INTERLEAVED"
    /// Direct writes into the device's mmap'ed buffer, interleaved.
    case mmapInterleaved = "MMAP_INTERLEAVED"
    /// `snd_pcm_writen`: one buffer per channel (RME-style cards).
    case rwNonInterleaved = "RW_NONINTERLEAVED"
    /// Direct writes into the device's mmap'ed buffers, one per channel.
    case mmapNonInterleaved = "MMAP_NONINTERLEAVED"

    /// Negotiation picks the first one the device offers (``allCases`` is in this order).
    package static var preferenceOrder: [ALSAAccess] { allCases }

    /// True for the mmap access types.
    package var isMMap: Bool { self == .mmapInterleaved || self == .mmapNonInterleaved }

    /// True for the interleaved access types.
    package var isInterleaved: Bool { self == .rwInterleaved || self == .mmapInterleaved }

    /// ALSA's name, e.g. `MMAP_NONINTERLEAVED`.
    package var description: String { rawValue }

    /// The ALSA access constant.
    var alsaAccess: snd_pcm_access_t {
        switch self {
        case .rwInterleaved: SND_PCM_ACCESS_RW_INTERLEAVED
        case .mmapInterleaved: SND_PCM_ACCESS_MMAP_INTERLEAVED
        case .rwNonInterleaved: SND_PCM_ACCESS_RW_NONINTERLEAVED
        case .mmapNonInterleaved: SND_PCM_ACCESS_MMAP_NONINTERLEAVED
        }
    }
}
