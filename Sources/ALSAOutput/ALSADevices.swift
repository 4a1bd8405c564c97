import CALSA
import Glibc

/// One playback-capable PCM that ALSA knows about.
package struct ALSADeviceInfo: Sendable, Hashable, CustomStringConvertible {
    /// The name to pass as a device (`default`, `null`, `pulse`, `hw:CARD=PCH,DEV=0`, …).
    package var name: String
    /// ALSA's description, possibly several lines joined with " — ", or "" if none.
    package var description: String
    /// True for the device opened when none is named (`default`).
    package var isDefault: Bool

    /// Creates a device entry.
    package init(name: String, description: String, isDefault: Bool) {
        self.name = name
        self.description = description
        self.isDefault = isDefault
    }
}

/// Lists and probes ALSA playback devices.
///
/// - Important: Thread safety: any thread. Real-time safe: no (allocates, reads configuration files).
package enum ALSADevices {
    /// The playback-capable PCMs from ALSA's name hints (`IOID` absent or `Output`), in ALSA's order.
    ///
    /// The corresponding ALSA function is `snd_device_name_hint(-1, "pcm", …)`.
    /// - Returns: the devices; empty if ALSA reports none or the hint lookup fails.
    package static func playbackDevices() -> [ALSADeviceInfo] {
        var hintsOptional: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hintsOptional) >= 0, let hints = hintsOptional else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var result: [ALSADeviceInfo] = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            guard let name = hintValue(hint, "NAME") else { continue }
            let ioid = hintValue(hint, "IOID")
            guard ioid == nil || ioid == "Output" else { continue }
            let description = (hintValue(hint, "DESC") ?? "")
                .split(separator: "\n").map { String($0) }.joined(separator: " — ")
            result.append(ALSADeviceInfo(name: name, description: description, isDefault: name == "default"))
        }
        return result
    }

    /// True when `name` can be opened for playback right now (opened non-blocking, then closed at once).
    /// False for missing devices and for devices another program holds exclusively.
    package static func isOpenable(name: String) -> Bool {
        var pcm: OpaquePointer?
        guard snd_pcm_open(&pcm, name, SND_PCM_STREAM_PLAYBACK, Int32(SND_PCM_NONBLOCK)) >= 0, let pcm else {
            return false
        }
        snd_pcm_close(pcm)
        return true
    }

    /// What a playback device accepts: opens it non-blocking, reads its hardware-parameter space, closes it.
    /// - Parameters:
    ///   - source: the device.
    /// - Throws: ``ALSAError`` (`open`) when it cannot be opened (missing, busy), or (`configureHardware`)
    ///   when it reports no parameter space.
    package static func capabilities(of source: ALSADeviceSource) throws(ALSAError) -> ALSADeviceCapabilities {
        try PCMDevice.capabilities(of: source, name: source.name)
    }

    /// The stream ``ALSAPlayback/init(configuration:)`` would negotiate for `configuration`, found by opening
    /// the device, negotiating and closing it again (nothing is played). Lets a caller pick another rate or
    /// channel map before it builds anything on the device.
    /// - Throws: the same ``ALSAError`` the playback would (with ``ALSAError/mismatches`` when the device
    ///   does not accept the setup).
    package static func negotiate(_ configuration: ALSADeviceConfiguration) throws(ALSAError) -> ALSAStreamSetup {
        let device = try PCMDevice(configuration: configuration)
        defer { device.close() }
        return device.setup
    }

    /// Turns alsa-lib's own diagnostics on stderr (lines starting "ALSA lib …") off or back on.
    /// They repeat what ``ALSAError`` reports; the CLI turns them off unless asked to be verbose.
    /// Process-wide; the corresponding ALSA function is `snd_lib_error_set_handler`.
    package static func setLibraryDiagnostics(enabled: Bool) {
        thrum_alsa_set_quiet(enabled ? 0 : 1)
    }

    private static func hintValue(_ hint: UnsafeMutableRawPointer, _ id: String) -> String? {
        guard let value = snd_device_name_get_hint(hint, id) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }
}
