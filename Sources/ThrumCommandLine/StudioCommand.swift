import FoundationEssentials
import FoundationStandIns
import Glibc
import ThrumStudio
import ThrumServices

let studioCommand = Subcommand(
    spec: CommandSpec(
        name: "studio",
        summary: "Audition and edit patterns in the browser (a local web server on the engine).",
        positionalUsage: "[FILE|DIR]", minPositionals: 0, maxPositionals: 1,
        positionalValues: .files(OptionValues.patternExtensions),
        options: [
            .value(.port, placeholder: "N", help: "the port to listen on (default 0: a free port)"),
            .value(.host, placeholder: "ADDRESS", help: "the address to listen on (default 127.0.0.1; others are warned about)"),
            .value(.device, short: "d", placeholder: "NAME", values: .device, help: "ALSA playback device (default: default); see 'thrum devices'"),
            EngineArguments.channels,
            .value(.profile, placeholder: "PROFILE", values: .profile, help: "actuator profile: default, lra, speaker or a JSON file"),
            .flag(.noBrowser, help: "do not open the page with xdg-open"),
        ],
        details: """
            Prints one line, 'Thrum Studio: http://127.0.0.1:PORT/?token=TOKEN', and opens it with xdg-open.
            The root folder (DIR, FILE's folder, or the working directory) is the only part of the disk the
            studio reads or writes; FILE is opened at start. Every request needs the token; the API the page
            uses is in docs/studio-api.md. With no usable device the page auditions in the browser.
            Ctrl-C, SIGTERM and SIGHUP stop the studio (exit 130).
            Exit status: 64 usage, 66 FILE or DIR missing, 69 the address cannot be listened on, 130 stopped.
            """),
    run: { arguments, console in
        var launch = StudioLaunch()
        launch.path = arguments.positionals.first
        launch.port = try arguments.int(.port, in: 0...65_535) ?? 0
        launch.host = arguments.value(.host) ?? "127.0.0.1"
        launch.settings = StudioSettings(
            device: arguments.value(.device) ?? "default", channels: arguments.value(.channels), profile: arguments.value(.profile))
        launch.opensBrowser = !arguments.flag(.noBrowser)
        let interrupt = InterruptFlag()
        try launch.run(
            announce: { console.printExact($0) }, warn: { console.error("thrum studio: \($0)") }, shouldStop: { interrupt.isSet })
        return .interrupted
    })
