import CALSA
import Glibc

/// The negotiated setup of an open PCM. All sizes in frames.
struct NegotiatedSetup: Sendable, Hashable {
    var sampleRate: Int
    var channels: Int
    var periodFrames: Int
    var bufferFrames: Int
    var format: ALSASampleFormat
}

/// An open, configured playback PCM plus the private configuration tree it was opened from (if any).
///
/// Not thread-safe: owned by ``ALSAPlayback``, used by the control side under its mutex, or by the
/// playback thread while it runs (never both at once: the control side joins the thread first).
final class PCMDevice {
    let handle: OpaquePointer
    let name: String
    let setup: NegotiatedSetup
    /// Kept alive until close: plugins may keep pointers into it.
    private let privateConfig: OpaquePointer?
    private var closed = false

    init(configuration: ALSADeviceConfiguration) throws(ALSAError) {
        let name = configuration.deviceName
        var pcm: OpaquePointer?
        var config: OpaquePointer?
        let mode = Int32(SND_PCM_NONBLOCK)
        switch configuration.source {
        case .named(let device):
            let err = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, mode)
            if err < 0 { throw .open(device: name, code: err) }
        case .configuration(let text, let pcmName):
            config = try Self.loadConfiguration(text: text, name: pcmName)
            let err = snd_pcm_open_lconf(&pcm, pcmName, SND_PCM_STREAM_PLAYBACK, mode, config)
            if err < 0 {
                snd_config_delete(config)
                throw .open(device: name, code: err)
            }
        }
        guard let pcm else {
            if let config { snd_config_delete(config) }
            throw .open(device: name, code: -ENODEV)
        }
        do {
            self.setup = try Self.configure(pcm: pcm, name: name, configuration: configuration)
        } catch {
            snd_pcm_close(pcm)
            if let config { snd_config_delete(config) }
            throw error
        }
        self.handle = pcm
        self.name = name
        self.privateConfig = config
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        snd_pcm_close(handle)
        if let privateConfig { snd_config_delete(privateConfig) }
    }

    /// Parses ALSA configuration text into a new top-level tree.
    static func loadConfiguration(text: String, name: String) throws(ALSAError) -> OpaquePointer {
        var top: OpaquePointer?
        var err = snd_config_top(&top)
        guard err >= 0, let top else { throw ALSAError(code: err, operation: .loadConfiguration, device: name) }
        var input: OpaquePointer?
        var bytes = Array(text.utf8)
        err = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                snd_input_buffer_open(&input, chars.baseAddress, chars.count)
            }
        }
        guard err >= 0, let input else {
            snd_config_delete(top)
            throw ALSAError(code: err, operation: .loadConfiguration, device: name)
        }
        err = snd_config_load(top, input)
        snd_input_close(input)
        if err < 0 {
            snd_config_delete(top)
            throw ALSAError(code: err, operation: .loadConfiguration, device: name)
        }
        bytes.removeAll()
        return top
    }

    private static func configure(
        pcm: OpaquePointer, name: String, configuration c: ALSADeviceConfiguration
    ) throws(ALSAError) -> NegotiatedSetup {
        guard c.sampleRate > 0, c.channels > 0, c.periodFrames > 0, c.periodCount >= 2 else {
            throw .unsupported(
                device: name, code: -EINVAL,
                what: "rate, channels and period frames must be positive and period count at least 2")
        }
        var hwOptional: OpaquePointer?
        var err = snd_pcm_hw_params_malloc(&hwOptional)
        guard err >= 0, let hw = hwOptional else { throw .unsupported(device: name, code: err, what: "hw params") }
        defer { snd_pcm_hw_params_free(hw) }

        func check(_ err: Int32, _ what: @autoclosure () -> String) throws(ALSAError) {
            if err < 0 { throw .unsupported(device: name, code: err, what: what()) }
        }

        try check(snd_pcm_hw_params_any(pcm, hw), "any configuration")
        try check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "interleaved access")

        let order: [ALSASampleFormat] = c.preferredFormat == .float32 ? [.float32, .s16] : [.s16, .float32]
        var chosen: ALSASampleFormat?
        for format in order where snd_pcm_hw_params_test_format(pcm, hw, format.alsaFormat) == 0 {
            chosen = format
            break
        }
        guard let format = chosen else {
            throw .unsupported(device: name, code: -EINVAL, what: "sample format float32 or s16")
        }
        try check(snd_pcm_hw_params_set_format(pcm, hw, format.alsaFormat), "sample format \(format)")
        try check(snd_pcm_hw_params_set_channels(pcm, hw, UInt32(c.channels)), "\(c.channels) channels")

        var rate = UInt32(c.sampleRate)
        if c.requireExactRate {
            try check(snd_pcm_hw_params_set_rate(pcm, hw, rate, 0), "sample rate exactly \(c.sampleRate) Hz")
        } else {
            var dir: Int32 = 0
            try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &dir), "sample rate near \(c.sampleRate) Hz")
        }

        var period = snd_pcm_uframes_t(c.periodFrames)
        var dir: Int32 = 0
        try check(snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &dir), "period \(c.periodFrames) frames")
        var buffer = period * snd_pcm_uframes_t(c.periodCount)
        try check(snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer), "buffer \(buffer) frames")
        err = snd_pcm_hw_params(pcm, hw)
        try check(err, "hardware parameters")

        // Read back what the device actually chose.
        var actualPeriod: snd_pcm_uframes_t = 0
        var actualBuffer: snd_pcm_uframes_t = 0
        var actualRate: UInt32 = 0
        dir = 0
        _ = snd_pcm_hw_params_get_period_size(hw, &actualPeriod, &dir)
        _ = snd_pcm_hw_params_get_buffer_size(hw, &actualBuffer)
        dir = 0
        _ = snd_pcm_hw_params_get_rate(hw, &actualRate, &dir)

        var swOptional: OpaquePointer?
        err = snd_pcm_sw_params_malloc(&swOptional)
        guard err >= 0, let sw = swOptional else {
            throw ALSAError(code: err, operation: .configureSoftware, device: name)
        }
        defer { snd_pcm_sw_params_free(sw) }
        func checkSW(_ err: Int32, _ what: String) throws(ALSAError) {
            if err < 0 { throw ALSAError(code: err, operation: .configureSoftware, device: name, detail: what) }
        }
        try checkSW(snd_pcm_sw_params_current(pcm, sw), "current software parameters")
        // Start once the buffer holds whole periods only: a buffer that is not a multiple of the period
        // would otherwise never reach the threshold.
        let startThreshold = max(actualPeriod, actualBuffer - actualBuffer % max(actualPeriod, 1))
        try checkSW(snd_pcm_sw_params_set_start_threshold(pcm, sw, startThreshold), "start threshold")
        try checkSW(snd_pcm_sw_params_set_avail_min(pcm, sw, actualPeriod), "avail_min")
        try checkSW(snd_pcm_sw_params(pcm, sw), "software parameters")

        return NegotiatedSetup(
            sampleRate: Int(actualRate), channels: c.channels, periodFrames: Int(actualPeriod),
            bufferFrames: Int(actualBuffer), format: format)
    }
}

extension ALSASampleFormat {
    var alsaFormat: snd_pcm_format_t {
        switch self {
        case .float32: SND_PCM_FORMAT_FLOAT
        case .s16: SND_PCM_FORMAT_S16
        }
    }
}
