import ALSAOutput
import FoundationEssentials
import FoundationStandIns
import Glibc
import ThrumServices

/// `thrum devices`: the ALSA playback devices and what each accepts, as text or JSON.
let devicesCommand = Subcommand(
    spec: CommandSpec(
        name: "devices",
        summary: "List the ALSA playback devices (names for --device) and what each accepts.",
        positionalUsage: "", minPositionals: 0, maxPositionals: 0,
        options: [.flag(.json, help: "print the list as JSON for tools")],
        details: """
            The first column is the name to pass to 'thrum play --device'. Under each device: the sample
            formats Thrum writes that it accepts, its channel counts, rates, period sizes (frames), periods per
            buffer and access types, read from the device itself (a device that cannot be opened now, because
            it is busy or missing, says why).
            """),
    run: { arguments, console in
        let devices = PlaybackDevices.list()  // the list libthrum and the studio give
        let probes = DeviceText.quietly {
            devices.map { device in
                Result { () throws(ALSAError) in try ALSADevices.capabilities(of: .named(device.name)) }
            }
        }
        if arguments.flag(.json) {
            let entries = zip(devices, probes).map { device, probe -> [String: Any] in
                var entry: [String: Any] = ["name": device.name, "description": device.description, "default": device.isDefault]
                switch probe {
                case .success(let capabilities): entry["capabilities"] = DeviceText.json(capabilities)
                case .failure(let error): entry["error"] = error.description
                }
                return entry
            }
            console.printExact(try jsonText(entries))
            return .ok
        }
        if devices.isEmpty {
            console.print("no ALSA playback devices (is libasound2 configured? try 'aplay -L')")
            return .unavailable
        }
        let width = (devices.map(\.name.count).max() ?? 0) + 2
        let indent = String(repeating: " ", count: width)
        for (device, probe) in zip(devices, probes) {
            let description = device.description.split(separator: "\n").joined(separator: " — ")
            console.print(device.name.padded(to: width) + description)
            switch probe {
            case .success(let capabilities): console.print(indent + DeviceText.summary(capabilities))
            case .failure(let error): console.print(indent + "(cannot open now: \(error.message))")
            }
        }
        return .ok
    })

/// How `thrum devices` shows a device's capabilities.
enum DeviceText {
    /// Runs `body` with standard error on /dev/null (unless `THRUM_ALSA_DEBUG` is set): sound-server client
    /// libraries behind some PCMs (libjack) print their own connection errors while a device is probed;
    /// each failure is reported in the listing instead.
    static func quietly<T>(_ body: () -> T) -> T {
        guard FileSystem.environment("THRUM_ALSA_DEBUG") == nil else { return body() }
        fflush(nil)
        let saved = dup(2)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard saved >= 0, null >= 0 else { return body() }
        dup2(null, 2)
        close(null)
        defer {
            fflush(nil)
            dup2(saved, 2)
            close(saved)
        }
        return body()
    }

    /// One line, e.g. "S24_3LE · 4 channels · 44100, 48000 Hz · period 16–8192 frames × 2–64 · RW_INTERLEAVED, MMAP_INTERLEAVED".
    static func summary(_ c: ALSADeviceCapabilities) -> String {
        var formats = c.formats.map(\.rawValue).joined(separator: ", ")
        if formats.isEmpty { formats = "no format Thrum writes" }
        if !c.otherFormats.isEmpty { formats += " (+\(c.otherFormats.count) other\(c.otherFormats.count == 1 ? "" : "s"))" }
        let channels = c.channelSummary + (c.channels.upperBound == 1 ? " channel" : " channels")
        return [
            formats, channels, rates(c), "period \(range(c.periodFrames)) frames × \(range(c.periods))",
            c.accesses.map(\.rawValue).joined(separator: ", "),
        ].joined(separator: " · ")
    }

    /// The common rates it plays, and its full range when that reaches beyond them.
    static func rates(_ c: ALSADeviceCapabilities) -> String {
        guard let first = c.commonRates.first, let last = c.commonRates.last else { return c.rateSummary }
        let list = c.commonRates.map(String.init).joined(separator: ", ") + " Hz"
        return c.rateRange.lowerBound < first || c.rateRange.upperBound > last ? list + " (any of \(range(c.rateRange)) Hz)" : list
    }

    static func range(_ r: ClosedRange<Int>) -> String {
        r.lowerBound == r.upperBound ? "\(r.lowerBound)" : "\(r.lowerBound)–\(r.upperBound)"
    }

    static func json(_ c: ALSADeviceCapabilities) -> [String: Any] {
        func minMax(_ r: ClosedRange<Int>) -> [String: Int] { ["min": r.lowerBound, "max": r.upperBound] }
        return [
            "formats": c.formats.map(\.rawValue), "otherFormats": c.otherFormats, "channels": minMax(c.channels),
            "rates": c.commonRates, "rateRange": minMax(c.rateRange), "periodFrames": minMax(c.periodFrames),
            "periods": minMax(c.periods), "bufferFrames": minMax(c.bufferFrames), "access": c.accesses.map(\.rawValue),
        ]
    }
}
