import FoundationEssentials
import FoundationStandIns
import Glibc
import ThrumStudio
import ThrumServices

/// Worker threads of the studio's server; each open WebSocket holds one.
private let studioThreads = 64

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
        let argument = arguments.positionals.first ?? FileManager.default.currentDirectoryPath
        var isFolder = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
            throw ServiceError(.noInput, "cannot open '\(argument)': no such file or folder (check the path)")
        }
        let folder = isFolder ? argument : PathName.parent(argument)
        guard let root = StudioRoot(folder.isEmpty ? "." : folder) else {
            throw ServiceError(.noInput, "cannot use '\(folder)' as the studio's folder")
        }
        let port = try arguments.int(.port, in: 0...65_535) ?? 0
        let host = arguments.value(.host) ?? "127.0.0.1"
        if host != "127.0.0.1" && host != "localhost" && host != "::1" {
            console.error("thrum studio: warning: listening on \(host), not only this computer; anyone who has the token can use the studio")
        }
        let settings = StudioSettings(
            device: arguments.value(.device) ?? "default", channels: arguments.value(.channels), profile: arguments.value(.profile))
        let toolbox = CommandLineStudioToolbox()
        do {
            _ = try toolbox.playOptions(settings, root: root.path)  // a bad map or profile is a usage error now
        } catch let refusal as HTTPError {
            throw UsageError(message: refusal.message)
        }
        let pageFolder = BundledResources.folder.map { $0 + "/Studio" }
        let interrupt = InterruptFlag()
        let studio = Studio(root: root, toolbox: toolbox, pageFolder: pageFolder, settings: settings, token: StudioAccess.newToken())
        let server: HTTPServer
        do {
            server = try HTTPServer(host: host, port: port, threads: studioThreads, webSocketPath: "/api/events", handler: studio)
        } catch let error as StudioStartError {
            studio.shutDown()
            throw ServiceError(.unavailable, error.message + " (is the port taken? choose another with --port N, or 0 for a free one)")
        }
        studio.listening(host: host, port: server.port)
        studio.startTicker()
        if !isFolder, let name = root.relative(argument) { studio.openAtStart(name) }
        let shown = host.contains(":") ? "[\(host)]" : host
        let address = "http://\(shown):\(server.port)/?token=\(studio.access.token)"
        console.printExact("Thrum Studio: \(address)")
        if let problem = studio.deviceError {
            console.error("thrum studio: no usable output device (\(problem)); the page auditions in the browser")
        }
        if !arguments.flag(.noBrowser) { openInBrowser(address) }
        while !interrupt.isSet { usleep(100_000) }
        studio.shutDown()  // playback stops at once; then the server closes its connections (milliseconds)
        server.stop()
        return .interrupted
    })

/// Opens `address` with xdg-open, detached; a desktop without it simply does not open a page.
private func openInBrowser(_ address: String) {
    guard let opener = try? Subprocess.spawn("/usr/bin/env", ["xdg-open", address]) else { return }
    Threads.detach(name: "thrum-xdg-open") { _ = Subprocess.wait(opener) }
}
