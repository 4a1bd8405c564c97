import Glibc

/// The one-line messages for a device behind a sound server: the server's own problem, with its
/// remedies, instead of a sound card's (no "plughw:", no "larger period").
extension ALSAError {
    /// This error with ``server`` set to the server behind `source` (for errors from opening it).
    func naming(serverBehind source: ALSADeviceSource) -> ALSAError {
        var named = self
        named.server = ALSASoundServer.behind(source)
        return named
    }

    /// The message when ``server`` is set and the failure is the server's; nil otherwise.
    var serverDescription: String? {
        guard let server else { return nil }
        switch operation {
        case .open where !isDeviceBusy && code != EINVAL:
            return "cannot open ALSA device '\(device)': the \(server) server is not running or cannot be reached "
                + "(\(message)) (\(server.startHint); or pick another device with --device, see `thrum devices`)"
        case .configureHardware where server == .jack && code == EIO && mismatches.isEmpty:
            // The JACK plugin connects its ports when the parameters are applied.
            return "ALSA device '\(device)': JACK could not connect the ports named in its playback_ports "
                + "(\(message)) (the ports must exist: compare them with `jack_lsp`; or use --device jack)"
        case .configureHardware where !mismatches.isEmpty:
            return "the \(server) server behind ALSA device '\(device)' does not accept the requested setup: "
                + mismatches.map(\.description).joined(separator: "; ")
                + " (use the server's rate with --sample-rate, or --device plug:\(device), which converts formats, "
                + "channels and rates)"
        case .configureHardware:
            let what = detail.map { " (\($0))" } ?? ""
            return "the \(server) server behind ALSA device '\(device)' does not accept the requested setup\(what): "
                + "\(message) (try --device plug:\(device), which converts formats, channels and rates)"
        case .write, .poll, .resume, .prepare, .drain:
            let how = code == ETIMEDOUT
                ? "stopped taking samples for over 2 s: it died or hung"
                : "stopped or went away while playing (\(message))"
            return "ALSA device '\(device)' failed during playback: the \(server) server \(how) "
                + "(\(server.startHint), then play again; or pick another device with --device)"
        default:
            return nil
        }
    }
}

extension ALSASoundServer {
    /// How to get the server (back) up.
    var startHint: String {
        switch self {
        case .jack: "start it, e.g. with `jackd -d alsa`, or set JACK_DEFAULT_SERVER to its name"
        case .pipeWire: "start it with `systemctl --user start pipewire wireplumber` or set PIPEWIRE_RUNTIME_DIR to its folder"
        case .pulseAudio: "start it with `pulseaudio --start` or set PULSE_SERVER to its address"
        }
    }
}
