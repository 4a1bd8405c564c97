import ALSAOutput

/// The playback devices ALSA knows about, as `thrum devices`, the studio and libthrum list them.
package enum PlaybackDevices {
    /// One device: the name to open, ALSA's description (several lines joined with " — "; "" if none), and
    /// whether it is the one opened when none is named.
    package struct Device: Sendable, Equatable {
        package let name: String
        package let description: String
        package let isDefault: Bool
    }

    /// ALSA's playback-capable PCMs (its name hints), in ALSA's order; empty when it lists none.
    /// Reads ALSA's configuration on the calling thread; any thread.
    package static func list() -> [Device] {
        ALSADevices.playbackDevices().map { Device(name: $0.name, description: $0.description, isDefault: $0.isDefault) }
    }
}
