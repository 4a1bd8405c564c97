/// Where the PCM comes from: a named ALSA device, or a PCM defined by in-memory configuration text.
package enum ALSADeviceSource: Sendable, Hashable {
    /// A device name as `aplay -D` takes it: `default`, `hw:0,0`, `plughw:1`, `pulse`, `null`, …
    case named(String)
    /// ALSA configuration text (the `asoundrc` syntax) loaded with `snd_config_load` into a fresh,
    /// private configuration tree, and the name of a PCM it defines (opened with `snd_pcm_open_lconf`).
    /// The system configuration (`/usr/share/alsa/alsa.conf`) is *not* included, so the text must be
    /// self-contained, e.g. `pcm.t { type file slave.pcm { type null } file "/tmp/o.raw" format raw }`.
    case configuration(text: String, pcmName: String)

    /// The name used in messages: the device name, or the PCM name of an in-memory configuration.
    package var name: String {
        switch self {
        case .named(let name): name
        case .configuration(_, let pcmName): pcmName
        }
    }
}

/// Which way a PCM's samples flow.
package enum ALSAStreamDirection: Sendable, Hashable {
    /// To the device (a DAC): ``ALSAPlayback``.
    case playback
    /// From the device (an ADC): ``ALSACapture``.
    case capture
}

/// Everything needed to open and configure an ALSA PCM (playback unless ``direction`` says capture).
///
/// Units: rates in Hz, sizes in frames (one frame = one sample per channel).
/// - Important: Thread safety: a value type; any thread.
package struct ALSADeviceConfiguration: Sendable, Hashable {
    /// The device to open.
    package var source: ALSADeviceSource
    /// Requested sample rate in Hz. The device may pick the nearest rate it supports
    /// (see ``requireExactRate``); ``ALSAPlayback/sampleRate`` reports the actual one.
    package var sampleRate: Int
    /// Channels the render source fills (interleaved). A device that needs more gets them silent; one that
    /// has fewer is refused with ``ALSASetupMismatch/channels(requested:supported:)``.
    package var channels: Int
    /// Requested period size in frames: the playback thread renders and writes this many frames at a time.
    /// The device's limits and steps may change it; ``ALSAPlayback/setup`` reports what was negotiated.
    package var periodFrames: Int
    /// Requested number of periods in the device buffer (buffer = period × periods frames).
    package var periodCount: Int
    /// Sample format to try first, if the device accepts it; nil (default) = the best the device accepts
    /// (``ALSASampleFormat/preferenceOrder``).
    package var preferredFormat: ALSASampleFormat?
    /// Access type to try first, if the device offers it; nil (default) = ``ALSAAccess/preferenceOrder``.
    package var preferredAccess: ALSAAccess?
    /// When true, opening fails unless the device accepts ``sampleRate`` exactly.
    package var requireExactRate: Bool
    /// SCHED_FIFO priority for the playback thread (1…99), or nil to keep normal scheduling.
    /// If the system refuses, playback still runs and ``ALSAPlayback/realtimeWarning`` says why.
    package var realtimePriority: Int32?
    /// When true, `start` calls `mlockall(MCL_CURRENT)` (best effort) so already-mapped pages never fault.
    /// `MCL_FUTURE` is deliberately not used: under `RLIMIT_MEMLOCK` it makes later allocations fail.
    package var lockMemory: Bool
    /// Playback (the default) or capture; ``ALSACapture`` sets it.
    package var direction: ALSAStreamDirection = .playback

    /// Creates a configuration.
    /// - Parameters:
    ///   - source: the device to open.
    ///   - sampleRate: Hz, default 48000.
    ///   - channels: default 2.
    ///   - periodFrames: frames per period, default 256.
    ///   - periodCount: periods per buffer, default 4.
    ///   - preferredFormat: default nil (the best the device accepts).
    ///   - preferredAccess: default nil (RW interleaved if offered).
    ///   - requireExactRate: default false.
    ///   - realtimePriority: default 70; nil for normal scheduling.
    ///   - lockMemory: default true.
    package init(
        source: ALSADeviceSource,
        sampleRate: Int = 48_000,
        channels: Int = 2,
        periodFrames: Int = 256,
        periodCount: Int = 4,
        preferredFormat: ALSASampleFormat? = nil,
        preferredAccess: ALSAAccess? = nil,
        requireExactRate: Bool = false,
        realtimePriority: Int32? = 70,
        lockMemory: Bool = true
    ) {
        self.source = source
        self.sampleRate = sampleRate
        self.channels = channels
        self.periodFrames = periodFrames
        self.periodCount = periodCount
        self.preferredFormat = preferredFormat
        self.preferredAccess = preferredAccess
        self.requireExactRate = requireExactRate
        self.realtimePriority = realtimePriority
        self.lockMemory = lockMemory
    }

    /// A configuration for a named device (`default`, `hw:0,0`, `pulse`, …) with the defaults above.
    package init(device: String) {
        self.init(source: .named(device))
    }

    /// The name used in messages: the device name, or the PCM name of an in-memory configuration.
    package var deviceName: String { source.name }
}
