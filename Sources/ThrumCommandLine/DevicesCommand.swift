import ALSAOutput
import Foundation

/// `thrum devices`: the ALSA playback devices, as text or JSON.
let devicesCommand = Subcommand(
    spec: CommandSpec(
        name: "devices",
        summary: "List the ALSA playback devices (names for --device).",
        positionalUsage: "", minPositionals: 0, maxPositionals: 0,
        options: [.flag(.json, help: "print the list as JSON for tools")],
        details: "The first column is the name to pass to 'thrum play --device'."),
    run: { arguments, console in
        let devices = ALSADevices.playbackDevices()
        if arguments.flag(.json) {
            console.printExact(
                try jsonText(
                    devices.map { ["name": $0.name, "description": $0.description, "default": $0.isDefault] }))
            return .ok
        }
        if devices.isEmpty {
            console.print("no ALSA playback devices (is libasound2 configured? try 'aplay -L')")
            return .unavailable
        }
        let width = (devices.map(\.name.count).max() ?? 0) + 2
        for device in devices {
            let description = device.description.split(separator: "\n").joined(separator: " — ")
            console.print(device.name.padding(toLength: width, withPad: " ", startingAt: 0) + description)
        }
        return .ok
    })
