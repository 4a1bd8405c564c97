import FoundationStandIns
import Glibc
import ThrumServices

/// What `thrum studio` starts: the studio on a file or folder, listening on an address, playing with
/// output settings. A value.
package struct StudioLaunch: Sendable {
    /// A pattern file (opened at start; its folder is the root) or a folder; nil: the working directory.
    package var path: String?
    /// The address to listen on; others than this computer's are warned about.
    package var host = "127.0.0.1"
    /// The port (0: a free one).
    package var port = 0
    package var settings = StudioSettings()
    /// Opens the page with xdg-open.
    package var opensBrowser = true

    /// Worker threads of the server; each open WebSocket holds one.
    static let threads = 64

    package init() {}

    /// Starts the studio: `announce` gets the line to print (`Thrum Studio: http://…/?token=…`), `warn` what
    /// to warn about; serves until `shouldStop` says so (polled every 0.1 s), then stops playback and the
    /// server.
    /// - Throws: ``ServiceError``: 66 the file or folder is missing, 64 bad output settings, 69 the address
    ///   cannot be listened on.
    package func run(announce: (String) -> Void, warn: (String) -> Void, shouldStop: () -> Bool) throws(ServiceError) {
        let argument = path ?? FileSystem.currentDirectory
        guard let isFolder = FileSystem.isDirectory(argument) else {
            throw ServiceError(.noInput, "cannot open '\(argument)': no such file or folder (check the path)")
        }
        let folder = isFolder ? argument : PathName.parent(argument)
        guard let root = StudioRoot(folder.isEmpty ? "." : folder) else {
            throw ServiceError(.noInput, "cannot use '\(folder)' as the studio's folder")
        }
        if host != "127.0.0.1" && host != "localhost" && host != "::1" {
            warn("warning: listening on \(host), not only this computer; anyone who has the token can use the studio")
        }
        do {
            _ = try settings.engineOptions(root: root.path)  // a bad map or profile is a usage error now
        } catch let refusal as HTTPError {
            throw .usage(refusal.message)
        } catch {
            throw ServiceError(.software, "\(error)")
        }
        let pageFolder = BundledResources.folder.map { $0 + "/Studio" }
        let studio = Studio(root: root, pageFolder: pageFolder, settings: settings, token: StudioAccess.newToken())
        let server: HTTPServer
        do {
            server = try HTTPServer(host: host, port: port, threads: Self.threads, webSocketPath: "/api/events", handler: studio)
        } catch {
            studio.shutDown()
            let reason = (error as? StudioStartError)?.message ?? "\(error)"
            throw ServiceError(.unavailable, reason + " (is the port taken? choose another with --port N, or 0 for a free one)")
        }
        studio.listening(host: host, port: server.port)
        studio.startTicker()
        if !isFolder, let name = root.relative(argument) { studio.openAtStart(name) }
        let shown = host.contains(":") ? "[\(host)]" : host
        let address = "http://\(shown):\(server.port)/?token=\(studio.access.token)"
        announce("Thrum Studio: \(address)")
        if let problem = studio.deviceError {
            warn("no usable output device (\(problem)); the page auditions in the browser")
        }
        if opensBrowser { Self.openInBrowser(address) }
        while !shouldStop() { usleep(100_000) }
        studio.shutDown()  // playback stops at once; then the server closes its connections (milliseconds)
        server.stop()
    }

    /// Opens `address` with xdg-open, detached; a desktop without it simply does not open a page.
    private static func openInBrowser(_ address: String) {
        guard let opener = try? Subprocess.spawn("/usr/bin/env", ["xdg-open", address]) else { return }
        Threads.detach(name: "thrum-xdg-open") { _ = Subprocess.wait(opener) }
    }
}
