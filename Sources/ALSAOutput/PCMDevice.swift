import CALSA
import Glibc

/// An open, configured PCM (playback, or capture for ``ALSACapture``) plus the private configuration tree it was opened from (if any).
///
/// Not thread-safe: owned by ``ALSAPlayback``, used by the control side under its mutex, or by the
/// playback thread while it runs (never both at once: the control side joins the thread first).
final class PCMDevice {
    let handle: OpaquePointer
    let name: String
    let setup: ALSAStreamSetup
    /// Kept alive until close: plugins may keep pointers into it.
    private let privateConfig: OpaquePointer?
    private var closed = false

    /// Opens and configures the device. Its errors name the sound server behind it, if any.
    init(configuration: ALSADeviceConfiguration) throws(ALSAError) {
        let name = configuration.deviceName
        let pcm: OpaquePointer
        let config: OpaquePointer?
        do {
            (pcm, config) = try Self.open(configuration.source, name: name, direction: configuration.direction)
        } catch {
            throw error.naming(serverBehind: configuration.source)
        }
        do {
            self.setup = try Self.configure(pcm: pcm, name: name, configuration: configuration)
        } catch {
            snd_pcm_close(pcm)
            if let config { snd_config_delete(config) }
            throw error.naming(serverBehind: configuration.source)
        }
        self.handle = pcm
        self.name = name
        self.privateConfig = config
    }

    /// Opens `source` for playback (or capture), non-blocking. Returns the PCM and the private configuration
    /// tree it was opened from (which must outlive it), if any.
    static func open(
        _ source: ALSADeviceSource, name: String, direction: ALSAStreamDirection = .playback
    ) throws(ALSAError) -> (OpaquePointer, OpaquePointer?) {
        var pcm: OpaquePointer?
        var config: OpaquePointer?
        let mode = Int32(SND_PCM_NONBLOCK)
        let stream = direction == .playback ? SND_PCM_STREAM_PLAYBACK : SND_PCM_STREAM_CAPTURE
        switch source {
        case .named(let device):
            let err = snd_pcm_open(&pcm, device, stream, mode)
            if err < 0 { throw .open(device: name, code: err) }
        case .configuration(let text, let pcmName):
            config = try Self.loadConfiguration(text: text, name: pcmName)
            let err = snd_pcm_open_lconf(&pcm, pcmName, stream, mode, config)
            if err < 0 {
                snd_config_delete(config)
                throw .open(device: name, code: err)
            }
        }
        guard let pcm else {
            if let config { snd_config_delete(config) }
            throw .open(device: name, code: -ENODEV)
        }
        return (pcm, config)
    }

    /// Opens `source`, reads its full hardware-parameter space and closes it again.
    static func capabilities(of source: ALSADeviceSource, name: String) throws(ALSAError) -> ALSADeviceCapabilities {
        let (pcm, config) = try open(source, name: name)
        defer {
            snd_pcm_close(pcm)
            if let config { snd_config_delete(config) }
        }
        var hwOptional: OpaquePointer?
        let err = snd_pcm_hw_params_malloc(&hwOptional)
        guard err >= 0, let hw = hwOptional else { throw .unsupported(device: name, code: err, what: "hw params") }
        defer { snd_pcm_hw_params_free(hw) }
        let any = snd_pcm_hw_params_any(pcm, hw)
        if any < 0 { throw .unsupported(device: name, code: any, what: "any configuration") }
        return ALSADeviceCapabilities(pcm: pcm, space: hw)
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

    /// Negotiates the stream: reads what the device accepts, refuses with every mismatch at once, then
    /// sets access, format, channels, rate, period and buffer (nearest the device allows) and the
    /// software parameters (start at a full buffer of whole periods, wake per period).
    private static func configure(
        pcm: OpaquePointer, name: String, configuration c: ALSADeviceConfiguration
    ) throws(ALSAError) -> ALSAStreamSetup {
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
        let capabilities = ALSADeviceCapabilities(pcm: pcm, space: hw)
        let format = c.preferredFormat.flatMap { capabilities.formats.contains($0) ? $0 : nil } ?? capabilities.formats.first
        let access = c.preferredAccess.flatMap { capabilities.accesses.contains($0) ? $0 : nil } ?? capabilities.accesses.first
        var mismatches: [ALSASetupMismatch] = []
        if format == nil { mismatches.append(.format(offered: capabilities.otherFormats)) }
        if access == nil { mismatches.append(.access) }
        if c.channels > capabilities.channels.upperBound {
            mismatches.append(.channels(requested: c.channels, supported: capabilities.channels))
        }
        if c.requireExactRate && snd_pcm_hw_params_test_rate(pcm, hw, UInt32(c.sampleRate), 0) != 0 {
            mismatches.append(.rate(requested: c.sampleRate, offered: capabilities.commonRates, range: capabilities.rateRange))
        }
        guard let format, let access, mismatches.isEmpty else {
            throw ALSAError(code: -EINVAL, operation: .configureHardware, device: name, mismatches: mismatches)
        }
        let deviceChannels = max(c.channels, capabilities.channels.lowerBound)

        try check(snd_pcm_hw_params_set_access(pcm, hw, access.alsaAccess), "access \(access)")
        try check(snd_pcm_hw_params_set_format(pcm, hw, format.alsaFormat), "sample format \(format)")
        try check(snd_pcm_hw_params_set_channels(pcm, hw, UInt32(deviceChannels)), "\(deviceChannels) channels")
        var rate = UInt32(c.sampleRate)
        var dir: Int32 = 0
        if c.requireExactRate {
            try check(snd_pcm_hw_params_set_rate(pcm, hw, rate, 0), "sample rate exactly \(c.sampleRate) Hz")
        } else {
            try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &dir), "sample rate near \(c.sampleRate) Hz")
        }
        // Whole periods in the buffer when the device allows it (most do; a few only in bytes).
        _ = snd_pcm_hw_params_set_periods_integer(pcm, hw)
        var period = snd_pcm_uframes_t(c.periodFrames)
        dir = 0
        try check(snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &dir), "period near \(c.periodFrames) frames")
        var periods = UInt32(c.periodCount)
        dir = 0
        if snd_pcm_hw_params_set_periods_near(pcm, hw, &periods, &dir) < 0 {
            var buffer = period * snd_pcm_uframes_t(c.periodCount)
            try check(snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer), "buffer near \(buffer) frames")
        }
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
        try setSoftwareParameters(
            pcm: pcm, name: name, period: actualPeriod, buffer: actualBuffer, direction: c.direction)
        return ALSAStreamSetup(
            format: format, access: access, sampleRate: Int(actualRate), deviceChannels: deviceChannels,
            sourceChannels: c.channels, periodFrames: Int(actualPeriod), bufferFrames: Int(actualBuffer))
    }

    /// Start once the buffer holds whole periods only (a buffer that is not a multiple of the period would
    /// otherwise never reach the threshold); wake when a period of space is free. A capture stream starts
    /// only when asked (`snd_pcm_start`) and wakes when a period can be read.
    private static func setSoftwareParameters(
        pcm: OpaquePointer, name: String, period: snd_pcm_uframes_t, buffer: snd_pcm_uframes_t,
        direction: ALSAStreamDirection
    ) throws(ALSAError) {
        var swOptional: OpaquePointer?
        let err = snd_pcm_sw_params_malloc(&swOptional)
        guard err >= 0, let sw = swOptional else {
            throw ALSAError(code: err, operation: .configureSoftware, device: name)
        }
        defer { snd_pcm_sw_params_free(sw) }
        func check(_ err: Int32, _ what: String) throws(ALSAError) {
            if err < 0 { throw ALSAError(code: err, operation: .configureSoftware, device: name, detail: what) }
        }
        try check(snd_pcm_sw_params_current(pcm, sw), "current software parameters")
        let startThreshold = direction == .capture ? buffer * 2 : max(period, buffer - buffer % max(period, 1))
        try check(snd_pcm_sw_params_set_start_threshold(pcm, sw, startThreshold), "start threshold")
        try check(snd_pcm_sw_params_set_avail_min(pcm, sw, period), "avail_min")
        // Status timestamps on CLOCK_MONOTONIC, for the DAC clock (a device that refuses keeps its own; the
        // clock then stamps its readings itself).
        _ = snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE)
        _ = snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC)
        try check(snd_pcm_sw_params(pcm, sw), "software parameters")
    }
}
