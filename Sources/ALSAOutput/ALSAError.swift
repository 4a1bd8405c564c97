import CALSA
import Glibc

/// An error reported by ALSA (alsa-lib) while opening, configuring or running a PCM device.
///
/// Carries the ALSA error number (a positive `errno` value, as in `ENOENT`), the operation that failed,
/// the device name and alsa-lib's own text for the error (`snd_strerror`). ``description`` is one
/// line meant for users: it names the device and says what to try next.
///
/// - Important: Thread safety: a value type; any thread. Creating one allocates, so the playback thread
///   never creates one inside its real-time loop.
package struct ALSAError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The step that failed.
    package enum Operation: String, Sendable, Hashable {
        /// Opening the PCM (`snd_pcm_open` / `snd_pcm_open_lconf`).
        case open
        /// Parsing an in-memory ALSA configuration (`snd_config_load`).
        case loadConfiguration
        /// Negotiating hardware parameters (`snd_pcm_hw_params*`).
        case configureHardware
        /// Setting software parameters (`snd_pcm_sw_params*`).
        case configureSoftware
        /// Preparing the PCM (`snd_pcm_prepare`).
        case prepare
        /// Starting the playback thread (`pthread_create`, `eventfd`).
        case startThread
        /// Writing samples (`snd_pcm_writei`) or querying space (`snd_pcm_avail_update`).
        case write
        /// Waiting for the device (`poll`, `snd_pcm_poll_descriptors_revents`).
        case poll
        /// Resuming after a suspend (`snd_pcm_resume`).
        case resume
        /// Draining at stop (`snd_pcm_drain`).
        case drain
        /// Listing devices (`snd_device_name_hint`).
        case listDevices
    }

    /// The error number, positive (`ENOENT`, `EBUSY`, `EPIPE`, …). ALSA functions return its negation.
    package var code: Int32
    /// The step that failed.
    package var operation: Operation
    /// The ALSA device name (`default`, `hw:0,0`, `pulse`, or the PCM name used with an in-memory configuration).
    package var device: String
    /// alsa-lib's text for ``code`` (`snd_strerror`).
    package var message: String
    /// Extra context, such as which parameter could not be set (`"period near 256 frames"`).
    package var detail: String?
    /// Everything the device does not accept, found before any parameter was set (`configureHardware`
    /// only; empty otherwise). The description lists each with what the device accepts.
    package var mismatches: [ALSASetupMismatch]
    /// The sound server behind the device (JACK, PipeWire, PulseAudio), if any: the description then
    /// names the server's own problem (not running, ports, gone while playing) and its remedies.
    package var server: ALSASoundServer?

    /// Creates an error from a (negative or positive) ALSA return code.
    /// - Parameters:
    ///   - code: the ALSA return code; the sign is ignored.
    ///   - operation: the step that failed.
    ///   - device: the device name.
    ///   - detail: optional extra context.
    ///   - mismatches: what the device does not accept (for `configureHardware`).
    ///   - server: the sound server behind the device, if any.
    package init(
        code: Int32, operation: Operation, device: String, detail: String? = nil, mismatches: [ALSASetupMismatch] = [],
        server: ALSASoundServer? = nil
    ) {
        let positive = code < 0 ? -code : code
        self.code = positive
        self.operation = operation
        self.device = device
        self.message = String(cString: snd_strerror(-positive))
        self.detail = detail
        self.mismatches = mismatches
        self.server = server
    }

    /// Opening `device` failed with the (negative or positive) ALSA return code `code`.
    package static func open(device: String, code: Int32) -> ALSAError {
        ALSAError(code: code, operation: .open, device: device)
    }

    /// A hardware or software parameter could not be set.
    /// - Parameter what: the parameter, e.g. `"sample rate 48000 Hz"`.
    package static func unsupported(device: String, code: Int32, what: String) -> ALSAError {
        ALSAError(code: code, operation: .configureHardware, device: device, detail: what)
    }

    /// True when the device does not exist or went away (`ENOENT`, `ENODEV`, `ENXIO`; and `EINVAL` from
    /// opening, which is how alsa-lib reports an unknown card such as `hw:99,0`): pick another device.
    package var isDeviceMissing: Bool {
        code == ENOENT || code == ENODEV || code == ENXIO || (operation == .open && code == EINVAL)
    }

    /// True when the device exists but another program holds it (`EBUSY`).
    package var isDeviceBusy: Bool { code == EBUSY }

    /// True when trying the same thing again later may work (`EBUSY`, `EAGAIN`, `EINTR`, `EPIPE`, `ESTRPIPE`).
    package var isRetryable: Bool {
        code == EBUSY || code == EAGAIN || code == EINTR || code == EPIPE || code == ESTRPIPE
    }

    /// One line naming the device, the problem and what to do, e.g.
    /// "cannot open ALSA device 'hw:5,0': No such file or directory (try --device, see `thrum devices`,
    /// or use `thrum render`)".
    package var description: String {
        if let serverDescription { return serverDescription }
        let what = detail.map { " (\($0))" } ?? ""
        switch operation {
        case .open where isDeviceBusy:
            return "ALSA device '\(device)' is busy: \(message) "
                + "(close the program using it, or pick another with --device; see `thrum devices`)"
        case .open where code == EINVAL:
            return "cannot open ALSA device '\(device)': \(message), no such card or device "
                + "(try --device, see `thrum devices`, or use `thrum render`)"
        case .open:
            return "cannot open ALSA device '\(device)': \(message) "
                + "(try --device, see `thrum devices`, or use `thrum render`)"
        case .loadConfiguration:
            return "cannot parse the ALSA configuration for '\(device)': \(message) "
                + "(check the configuration text, or use --device with a named device)"
        case .configureHardware where !mismatches.isEmpty:
            return "ALSA device '\(device)' does not accept the requested setup: "
                + mismatches.map(\.description).joined(separator: "; ")
                + " (or try --device plughw:… or plug:…, which convert formats, channels and rates)"
        case .configureHardware:
            return "ALSA device '\(device)' does not accept the requested setup\(what): \(message) "
                + "(try --device plughw:… or default, which convert formats and rates)"
        case .configureSoftware, .prepare:
            return "cannot prepare ALSA device '\(device)' (\(operation.rawValue))\(what): \(message) "
                + "(try another --device; see `thrum devices`)"
        case .startThread:
            return "cannot start the playback thread for ALSA device '\(device)'\(what): \(message)"
        case .poll where code == ETIMEDOUT:
            return "ALSA device '\(device)' stopped taking samples while playing (nothing for over 2 s; the "
                + "driver or server may have hung: check `thrum devices` and pick a device with --device)"
        case .write, .poll, .resume, .drain:
            let hint = isDeviceMissing
                ? "the device went away; check `thrum devices` and pick one with --device"
                : "try a larger period with a different --device, or use `thrum render`"
            return "ALSA device '\(device)' failed during playback (\(operation.rawValue)): \(message) (\(hint))"
        case .listDevices:
            return "cannot list ALSA devices: \(message) (is alsa-lib configured? try --device default)"
        }
    }
}
