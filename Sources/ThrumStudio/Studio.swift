import AHAPCodec
import AudioResources
import Dispatch
import FoundationEssentials
import FoundationStandIns
import Synchronization
import HapticFormats
import Thrum
import ThrumModel
import ThrumServices

/// Thrum Studio's state and its answers: the open document with its undo history, the file it came from
/// (watched for changes), the output settings and the transport. civetweb's worker threads call it through
/// ``HTTPHandler``; one lock orders every request and the position ticker; WebSocket messages are sent after
/// that lock is released. Thread-safe.
package final class Studio: HTTPHandler, @unchecked Sendable {
    package let root: StudioRoot
    /// The page's files (`Resources/Studio`); nil when not found.
    let pageFolder: String?
    package private(set) var access: StudioAccess
    let hub = EventHub()

    let lock = Locked(())
    var document: StudioDocument?
    var history = DocumentHistory()
    var revision = 0
    /// The text as last opened or saved (`dirty` compares with it).
    var savedText: Data?
    /// The file's bytes as last opened, saved or reloaded (a save compares the disk with them).
    var diskBytes: Data?
    var diskChanged = false
    var watcher: FileWatcher?
    var settings: StudioSettings
    let transport = StudioTransport()
    /// Each file's undo history and transport across switching files, gestures, the recovery file (issue 39).
    let sessions = StudioSessions()
    /// The Measure panel's last measurement, and whether one is running (StudioMeasure.swift). Under the lock.
    var measurement: StudioMeasurement?
    var measuringNow = false
    /// The last render made or being made, for the requests of the same revision and options (the page asks
    /// for its peaks, then for its WAV); dropped when the document, the settings or a sound under the root change.
    var renderJob: RenderJob?
    /// The last render made for a change of the document, kept across the change that drops ``renderJob``: the
    /// next revision's render is this one with the span the edit touched rendered again (``RenderSpan``).
    /// Dropped with ``renderJob`` when the settings or a sound change. Under the lock.
    var spliceBase: RenderJob?
    /// Where ``renderAhead()`` renders.
    let renderQueue = DispatchQueue(label: "thrum-studio-render-ahead")

    private let running = Locked(())
    private var stopping = false

    /// A studio on `root`, its output opened with `settings` (a device that cannot be opened leaves the
    /// studio without one: `deviceError` says why, the page auditions in the browser).
    package init(root: StudioRoot, pageFolder: String?, settings: StudioSettings, token: String) {
        self.root = root
        self.pageFolder = pageFolder
        self.settings = settings
        access = StudioAccess(token: token, host: "127.0.0.1", port: 0)
        do {
            transport.open(try settings.engineOptions(root: root.path))
        } catch {
            transport.fail((error as? HTTPError)?.message ?? "\(error)")
        }
    }

    /// Sets the address the server listens on (known once it has started: the port may be chosen by the system).
    package func listening(host: String, port: Int) {
        lock.withLock { _ in access = StudioAccess(token: access.token, host: host, port: port) }
    }

    /// Why the device could not be opened at start, if it could not.
    package var deviceError: String? { lock.withLock { _ in transport.deviceError } }

    /// Starts the position ticker: 60 Hz while playing, 10 Hz otherwise (file watching).
    package func startTicker() {
        Threads.detach(name: "thrum-studio-clock") { [weak self] in
            while let self, !self.running.withLock({ _ in self.stopping }) {
                let playing = self.tick()
                Threads.sleep(seconds: playing ? 1.0 / 60 : 0.1)
            }
        }
    }

    /// Stops the ticker and playback and closes the engine.
    package func shutDown() {
        running.withLock { _ in stopping = true }
        lock.withLock { _ in
            transport.stop()
            transport.engine?.stop()
        }
    }

    /// One tick: the transport's seams, a position message while playing, the watched file.
    private func tick() -> Bool {
        var messages: [[String: Any]] = []
        let playing: Bool = lock.withLock { _ in
            let wasPlaying = transport.isPlaying
            let ended = transport.tick()
            let playing = transport.isPlaying
            if playing || ended || wasPlaying != playing { messages.append(positionMessage()) }
            if ended { messages.append(statusMessage()) }
            messages += watchedFileMessages()
            sessions.keepRecovery(root: root, revision: revision, dirtyDocument: isDirty ? document : nil)
            return playing
        }
        for message in messages { hub.broadcast(message) }
        return playing
    }

    func positionMessage() -> [String: Any] {
        let comparing = transport.comparing
        return [
            "type": "position", "position": comparing?.position ?? transport.position,
            "playing": transport.isPlaying, "paused": transport.paused, "loopCount": transport.loopCount,
            "export": comparing?.export ?? JSONNull(),
        ]
    }

    func statusMessage() -> [String: Any] {
        var message = status()
        message["type"] = "status"
        return message
    }

    /// `GET /api/status`. Called under the lock.
    func status() -> [String: Any] {
        let errors = document?.diagnostics.filter { $0.severity == .error }.count ?? 0
        return [
            "file": document?.file ?? JSONNull(), "format": document.map { $0.format.rawValue } ?? JSONNull(),
            "playing": transport.isPlaying, "paused": transport.paused,
            "position": transport.comparing?.position ?? transport.position,
            "duration": document?.pattern.map { max(transport.duration, $0.duration) } ?? 0,
            "loop": transport.loop, "loopStart": transport.loopStart, "loopEnd": transport.loopEnd,
            "loopCount": transport.loopCount, "rate": Double(transport.rate),
            "device": transport.engine == nil ? JSONNull() : settings.device,
            "deviceError": transport.deviceError ?? JSONNull(),
            "channels": transport.engine?.options.channelMap.description ?? settings.channels ?? JSONNull(),
            "profile": settings.profile ?? "default",
            "sampleRate": transport.engine?.options.sampleRate ?? 48_000,
            "revision": revision, "playable": document?.isPlayable ?? false, "errors": errors,
            "warnings": (document?.diagnostics.count ?? 0) - errors, "dirty": isDirty,
            "canUndo": history.canUndo, "canRedo": history.canRedo, "diskChanged": diskChanged,
            "root": root.path, "version": ThrumVersion.string,
        ]
    }

    var isDirty: Bool { document != nil && document?.text != savedText }

    /// The messages for a change of the watched file: reloaded when the page holds no unsaved edits,
    /// else announced. Called under the lock.
    private func watchedFileMessages() -> [[String: Any]] {
        guard let watcher, watcher.changed(), let file = document?.file else { return [] }
        guard let bytes = try? root.read(file, limit: StudioLimits.patternBytes), bytes != diskBytes else { return [] }
        if isDirty {
            diskChanged = true
            return [[
                "type": "diskChanged", "file": file, "reloaded": false,
                "message": "\(file) changed on disk; the studio holds unsaved edits, so it did not reload it (saving asks before overwriting)",
            ]]
        }
        let reloaded = StudioDocument.opening(bytes, file: file, root: root)
        diskBytes = bytes
        diskChanged = false
        change(to: reloaded, recording: true)
        savedText = reloaded.text
        return [
            ["type": "diskChanged", "file": file, "reloaded": true, "message": "\(file) changed on disk and was reloaded"],
            documentMessage("reload"),
        ]
    }

    /// Makes `new` the document (an undo step when `recording`), starts its render for an open page and tells
    /// the transport. Under the lock.
    func change(to new: StudioDocument, recording: Bool) {
        if recording, let old = document { history.recordEdit(replacing: old.text) }
        document = new
        revision += 1
        renderJob = nil
        renderAhead()
        transport.documentChanged(playable(new))
    }

    /// The pattern to play for `document`, its audio found beside its file.
    func playable(_ document: StudioDocument) -> CHHapticPattern? {
        document.pattern.map { CHHapticPattern(data: $0, sourceFolder: folder(of: document)) }
    }

    /// The folder a document's audio paths are relative to: its file's, else the root.
    func folder(of document: StudioDocument) -> String {
        guard let file = document.file else { return root.path }
        return PathName.parent(root.absolute(file))
    }

    func documentMessage(_ source: String) -> [String: Any] {
        ["type": "document", "revision": revision, "source": source]
    }

    // MARK: HTTPHandler

    package func bodyLimit(for request: HTTPRequest) -> Result<Int, HTTPError> {
        let access = lock.withLock { _ in self.access }
        if let refusal = access.refusal(of: request) { return .failure(refusal) }
        if !request.path.hasPrefix("/api/") { return .success(0) }
        let routes = Self.routes.filter { $0.path == request.path }
        guard !routes.isEmpty else { return .failure(HTTPError(404, "no endpoint \(request.path) (see docs/studio-api.md)")) }
        guard let route = routes.first(where: { $0.method == request.method }) else {
            var refusal = HTTPError(405, "\(request.path) takes \(routes.map(\.method).joined(separator: ", ")), not \(request.method)")
            refusal.response.headers.append(("Allow", routes.map(\.method).joined(separator: ", ")))
            return .failure(refusal)
        }
        return .success(route.bodyLimit)
    }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        var response: HTTPResponse
        if let route = Self.routes.first(where: { $0.path == request.path && $0.method == request.method }) {
            do {
                response = try route.handle(self, request)
            } catch let refusal as HTTPError {
                response = refusal.response
            } catch {
                response = .error(500, "internal error: \(error)")
            }
        } else {
            response = page(request)
        }
        let access = lock.withLock { _ in self.access }
        if access.credential(of: request) == .query { response.headers.append(("Set-Cookie", access.cookie)) }
        return response
    }

    package func refusal(ofWebSocket request: HTTPRequest) -> HTTPResponse? {
        let access = lock.withLock { _ in self.access }
        return access.refusal(of: request)?.response
    }

    package func webSocketOpened(_ client: WebSocketClient) {
        let hello: [String: Any] = lock.withLock { _ in ["type": "hello", "status": status()] }
        hub.add(client, greeting: hello)
    }

    package func webSocketClosed(_ client: WebSocketClient) { hub.remove(client) }

    /// A file of the page (`GET /`, `/studio.js`, …), confined to the page's folder.
    private func page(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .error(405, "the page's files are read with GET")
        }
        guard let pageFolder, let folder = StudioRoot(pageFolder) else {
            return .error(404, "the studio page is not installed (Resources/Studio not found; set THRUM_RESOURCES)")
        }
        let name = request.path == "/" ? "index.html" : String(request.path.dropFirst())
        do {
            let body = try folder.read(name, limit: 16_000_000)
            return HTTPResponse(status: 200, contentType: Self.contentType(of: name), body: body)
        } catch let refusal as HTTPError {
            return refusal.response
        } catch {
            return .error(500, "internal error: \(error)")
        }
    }

    static func contentType(of name: String) -> String {
        switch PathName.fileExtension(name).lowercased() {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "wav": "audio/wav"
        default: "application/octet-stream"
        }
    }
}

/// The body limits (issue 25 §9: bodies over the pattern and audio limits get 413).
package enum StudioLimits {
    /// A pattern: `thrum check`'s `--max-pattern-bytes` default.
    package static let patternBytes = 4_000_000
    /// A sound: the engine's audio file limit (`--max-audio-bytes` default).
    package static let audioBytes = AudioResourceLimits.defaultMaxFileBytes
    /// Any other JSON body.
    package static let jsonBytes = 1_000_000
}
