import CALSA

/// A sound server behind an ALSA PCM (ALSA's `jack`, `pipewire` and `pulse` plugins), told apart so
/// errors can name the real cause — a server that is not running, ports that do not connect, a server
/// that went away while playing — instead of a card's hints.
///
/// - Important: Thread safety: a value type; any thread. ``behind(_:)`` reads the ALSA configuration.
package enum ALSASoundServer: String, Sendable, Hashable, CustomStringConvertible {
    /// JACK, through libasound2-plugins' `type jack` PCM.
    case jack = "JACK"
    /// PipeWire, through pipewire-alsa's `type pipewire` PCM.
    case pipeWire = "PipeWire"
    /// PulseAudio (or PipeWire's PulseAudio server), through libasound2-plugins' `type pulse` PCM.
    case pulseAudio = "PulseAudio"

    /// `JACK`, `PipeWire` or `PulseAudio`.
    package var description: String { rawValue }

    /// The server the PCM `source` plays to, from its `type` in the ALSA configuration (the system's for
    /// a named device, the given text for an in-memory one); nil for a card, another plugin, or a name
    /// the configuration does not define.
    package static func behind(_ source: ALSADeviceSource) -> ALSASoundServer? {
        switch source {
        case .named(let name):
            var top: OpaquePointer?
            guard snd_config_update_ref(&top) >= 0, let top else { return nil }
            defer { snd_config_unref(top) }
            return server(in: top, pcm: name)
        case .configuration(let text, let name):
            guard let top = try? PCMDevice.loadConfiguration(text: text, name: name) else { return nil }
            defer { snd_config_delete(top) }
            return server(in: top, pcm: name)
        }
    }

    /// Looks up `pcm.<name>` (with its arguments expanded, as `snd_pcm_open` does) and maps its type.
    private static func server(in top: OpaquePointer, pcm name: String) -> ALSASoundServer? {
        var definition: OpaquePointer?
        guard snd_config_search_definition(top, "pcm", name, &definition) >= 0, let definition else { return nil }
        defer { snd_config_delete(definition) }
        var typeNode: OpaquePointer?
        var type: UnsafePointer<CChar>?
        guard snd_config_search(definition, "type", &typeNode) >= 0, let typeNode,
            snd_config_get_string(typeNode, &type) >= 0, let type
        else { return nil }
        switch String(cString: type) {
        case "jack": return .jack
        case "pipewire": return .pipeWire
        case "pulse": return .pulseAudio
        default: return nil
        }
    }
}
