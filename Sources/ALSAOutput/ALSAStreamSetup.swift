/// What was negotiated with a device: the stream that actually runs. Sizes in frames, rates in Hz.
///
/// - Important: Thread safety: a value type; any thread.
package struct ALSAStreamSetup: Sendable, Hashable, CustomStringConvertible {
    /// The device's sample format; the playback thread converts the rendered floats into it.
    package var format: ALSASampleFormat
    /// How samples reach the device.
    package var access: ALSAAccess
    /// The device's sample rate.
    package var sampleRate: Int
    /// Channels the device plays.
    package var deviceChannels: Int
    /// Channels the render source fills; device channels after these are silent.
    package var sourceChannels: Int
    /// Frames per period: the playback thread renders exactly this many at a time.
    package var periodFrames: Int
    /// Frames in the device buffer.
    package var bufferFrames: Int

    /// Creates a setup (the values are as negotiated; nothing is checked).
    package init(
        format: ALSASampleFormat, access: ALSAAccess, sampleRate: Int, deviceChannels: Int, sourceChannels: Int,
        periodFrames: Int, bufferFrames: Int
    ) {
        self.format = format
        self.access = access
        self.sampleRate = sampleRate
        self.deviceChannels = deviceChannels
        self.sourceChannels = sourceChannels
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
    }

    /// Whole periods in the buffer (buffer ÷ period, rounded down).
    package var periods: Int { periodFrames > 0 ? bufferFrames / periodFrames : 0 }

    /// The output latency the buffer adds, in milliseconds: buffer frames ÷ rate.
    package var latencyMilliseconds: Double { sampleRate > 0 ? Double(bufferFrames) * 1000 / Double(sampleRate) : 0 }

    /// The silent device channels, numbered from 1 (`3...4` on a 4-channel card fed 2), or nil if none.
    package var silentChannels: ClosedRange<Int>? {
        deviceChannels > sourceChannels ? (sourceChannels + 1)...deviceChannels : nil
    }

    /// One line, e.g. "S32_LE, 4 channels (3–4 silent), 48000 Hz, period 256 × 4, RW_INTERLEAVED, latency 21.3 ms"
    /// ("period 256, buffer 1000" when the buffer is not whole periods).
    package var description: String {
        var channels = "\(deviceChannels) channel\(deviceChannels == 1 ? "" : "s")"
        if let silent = silentChannels {
            channels += silent.count == 1 ? " (\(silent.lowerBound) silent)" : " (\(silent.lowerBound)–\(silent.upperBound) silent)"
        }
        let latency = (latencyMilliseconds * 10).rounded() / 10
        let sizes = periodFrames > 0 && bufferFrames % periodFrames == 0
            ? "period \(periodFrames) × \(periods)" : "period \(periodFrames), buffer \(bufferFrames)"
        return "\(format), \(channels), \(sampleRate) Hz, \(sizes), \(access), latency \(latency) ms"
    }
}
