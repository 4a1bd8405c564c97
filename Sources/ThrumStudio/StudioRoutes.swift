import AHAPCodec
import AudioResources
import FoundationEssentials
import FoundationStandIns
import Synchronization
import HapticFormats
import Thrum
import ThrumModel
import ThrumServices

/// One endpoint: method, path, the largest body it reads, and its answer.
struct StudioRoute: Sendable {
    let method: String
    let path: String
    let bodyLimit: Int
    let handle: @Sendable (Studio, HTTPRequest) throws -> HTTPResponse
}

extension Studio {
    /// Every endpoint of docs/studio-api.md.
    static let routes: [StudioRoute] = [
        StudioRoute(method: "GET", path: "/api/status", bodyLimit: 0) { studio, _ in
            .json(studio.lock.withLock { _ in studio.status() })
        },
        StudioRoute(method: "POST", path: "/api/open", bodyLimit: StudioLimits.jsonBytes) { try $0.open($1) },
        StudioRoute(method: "GET", path: "/api/pattern", bodyLimit: 0) { studio, _ in try studio.pattern() },
        StudioRoute(method: "PUT", path: "/api/pattern", bodyLimit: StudioLimits.patternBytes) { try $0.replace($1) },
        StudioRoute(method: "GET", path: "/api/diagnostics", bodyLimit: 0) { studio, _ in
            try studio.lock.withLock { _ in
                _ = try studio.current()
                return .json(studio.documentAnswer())
            }
        },
        StudioRoute(method: "POST", path: "/api/undo", bodyLimit: StudioLimits.jsonBytes) { studio, _ in try studio.undo(redo: false) },
        StudioRoute(method: "POST", path: "/api/redo", bodyLimit: StudioLimits.jsonBytes) { studio, _ in try studio.undo(redo: true) },
        StudioRoute(method: "POST", path: "/api/transport", bodyLimit: StudioLimits.jsonBytes) { try $0.transport($1) },
        StudioRoute(method: "GET", path: "/api/render", bodyLimit: 0) { try $0.renderWAV($1) },
        StudioRoute(method: "GET", path: "/api/peaks", bodyLimit: 0) { try $0.peaks($1) },
        StudioRoute(method: "POST", path: "/api/save", bodyLimit: StudioLimits.jsonBytes) { try $0.save($1) },
        StudioRoute(method: "GET", path: "/api/files", bodyLimit: 0) { studio, _ in studio.files() },
        StudioRoute(method: "GET", path: "/api/file", bodyLimit: 0) { try $0.file($1) },
        StudioRoute(method: "PUT", path: "/api/file", bodyLimit: StudioLimits.audioBytes) { try $0.upload($1) },
        StudioRoute(method: "GET", path: "/api/devices", bodyLimit: 0) { studio, _ in studio.devices() },
        StudioRoute(method: "GET", path: "/api/settings", bodyLimit: 0) { studio, _ in
            .json(studio.lock.withLock { _ in studio.settingsObject() })
        },
        StudioRoute(method: "POST", path: "/api/settings", bodyLimit: StudioLimits.jsonBytes) { try $0.changeSettings($1) },
        StudioRoute(method: "GET", path: "/api/analysis/presets", bodyLimit: 0) { studio, _ in studio.presets() },
        StudioRoute(method: "POST", path: "/api/analysis", bodyLimit: StudioLimits.jsonBytes) { try $0.analyze($1) },
        StudioRoute(method: "GET", path: "/api/compare", bodyLimit: 0) { try $0.compareList($1) },
        StudioRoute(method: "POST", path: "/api/compare", bodyLimit: StudioLimits.jsonBytes) { try $0.comparePlay($1) },
    ] + sessionRoutes + measureRoutes + hapticRoutes + projectRoutes

    /// The body as a JSON object ({} when empty).
    static func object(_ request: HTTPRequest) throws -> [String: Any] {
        if request.body.isEmpty { return [:] }
        guard let object = JSONObjects.value(request.body) as? [String: Any] else {
            throw HTTPError(400, "the body must be a JSON object")
        }
        return object
    }

    /// `object[key]` as a string; 400 when present with another type.
    static func string(_ object: [String: Any], _ key: String) throws -> String? {
        guard let value = object[key], !(value is JSONNull) else { return nil }
        guard let text = value as? String else { throw HTTPError(400, "\"\(key)\" must be a string") }
        return text
    }

    /// `object[key]` as a finite number; 400 when present with another type.
    static func number(_ object: [String: Any], _ key: String) throws -> Double? {
        guard let value = object[key], !(value is JSONNull) else { return nil }
        guard let number = value as? Double, number.isFinite else { throw HTTPError(400, "\"\(key)\" must be a number") }
        return number
    }

    static func bool(_ object: [String: Any], _ key: String) throws -> Bool? {
        guard let value = object[key], !(value is JSONNull) else { return nil }
        guard let bool = value as? Bool else { throw HTTPError(400, "\"\(key)\" must be true or false") }
        return bool
    }

    /// The answer about the document after a change: revision, playable, duration, diagnostics. Under the lock.
    func documentAnswer() -> [String: Any] {
        [
            "revision": revision, "playable": document?.isPlayable ?? false,
            "duration": document?.pattern?.duration ?? 0,
            "diagnostics": (document?.diagnostics ?? []).map(StudioDocument.json),
        ]
    }

    /// The open document; 409 when there is none.
    func current() throws -> StudioDocument {
        guard let document else { throw HTTPError(409, "no document is open: POST /api/open {\"path\": …} first") }
        return document
    }

    // MARK: document

    func open(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.object(request)
        guard let path = try Self.string(body, "path") else {
            throw HTTPError(400, "give the file to open: {\"path\": \"relative/to/root.ahap\"}")
        }
        let clip = try Self.string(body, "clip")
        if PathName.fileExtension(path).lowercased() == "hasp" {
            return try openProject(path, clip: clip, settings: try Self.projectSettings(request, clip: clip))
        }
        if clip != nil { throw HTTPError(400, "\"clip\" chooses a clip of a Haptics Studio project (.hasp), not of '\(path)'") }
        let bytes = try root.read(path, limit: StudioLimits.patternBytes)
        let opened = StudioDocument.opening(bytes, file: path, root: root)
        let answer: [String: Any] = lock.withLock { _ in
            switchDocument(to: path)
            change(to: opened, recording: false)
            savedText = opened.text
            diskBytes = bytes
            diskChanged = false
            watcher = FileWatcher(path: root.absolute(path))
            var answer = documentAnswer()
            answer.merge(opened.summary) { $1 }
            answer["file"] = path
            answer["format"] = opened.format.rawValue
            if let native = opened.native { answer["haptic"] = Self.hapticObject(native) }
            return answer
        }
        hub.broadcast(lock.withLock { _ in documentMessage("open") })
        return .json(answer)
    }

    func pattern() throws -> HTTPResponse {
        let (document, revision) = try lock.withLock { (_) throws in (try current(), self.revision) }
        return HTTPResponse(
            status: 200, contentType: "application/json; charset=utf-8", body: document.text,
            headers: [("X-Thrum-Revision", "\(revision)")])
    }

    func replace(_ request: HTTPRequest) throws -> HTTPResponse {
        guard String(data: request.body, encoding: .utf8) != nil else { throw HTTPError(400, "the pattern must be UTF-8 text") }
        let base = lock.withLock { _ in document }
        let edited = StudioDocument(
            text: request.body, file: base?.file, format: base?.format ?? .ahap, root: root)
        let (answer, changed): ([String: Any], Bool) = lock.withLock { _ in
            guard request.body != document?.text else { return (documentAnswer(), false) }
            var edited = edited
            edited.file = document?.file
            edited.format = document?.format ?? .ahap
            let step = sessions.startsStep(gesture: request.queryValue("gesture"))
            change(to: edited, recording: document != nil && step)
            return (documentAnswer(), true)
        }
        if changed { hub.broadcast(lock.withLock { _ in documentMessage("edit") }) }
        return .json(answer)
    }

    func undo(redo: Bool) throws -> HTTPResponse {
        let (previous, template) = try lock.withLock { (_) throws -> (Data?, StudioDocument) in
            let document = try current()
            return (redo ? history.redo(from: document.text) : history.undo(from: document.text), document)
        }
        guard let previous else { throw HTTPError(409, redo ? "nothing to redo" : "nothing to undo") }
        let restored = StudioDocument(text: previous, file: template.file, format: template.format, root: root)
        let answer: [String: Any] = lock.withLock { _ in
            change(to: restored, recording: false)
            return documentAnswer()
        }
        hub.broadcast(lock.withLock { _ in documentMessage(redo ? "redo" : "undo") })
        return .json(answer)
    }

    // MARK: transport

    func transport(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.object(request)
        let action = try Self.string(body, "action")
        guard action == nil || ["play", "pause", "stop", "seek"].contains(action!) else {
            throw HTTPError(400, "\"action\" is play, pause, stop or seek, not '\(action!)'")
        }
        let position = try Self.number(body, "position")
        let loop = try Self.bool(body, "loop")
        let loopStart = try Self.number(body, "loopStart")
        let loopEnd = try Self.number(body, "loopEnd")
        let rate = try Self.number(body, "rate")
        for (name, value) in [("position", position), ("loopStart", loopStart), ("loopEnd", loopEnd)] {
            if let value, value < 0 || value > 86_400 { throw HTTPError(400, "\"\(name)\" must be 0…86400 seconds") }
        }
        if let rate, !(0.001...1000).contains(rate) { throw HTTPError(400, "\"rate\" must be 0.001…1000") }
        if action == "seek" && position == nil { throw HTTPError(400, "seek needs \"position\" (seconds)") }
        let answer: [String: Any] = try lock.withLock { (_) throws in
            let start = loopStart ?? transport.loopStart
            let end = loopEnd ?? transport.loopEnd
            if end != 0 && end <= start { throw HTTPError(400, "\"loopEnd\" must be after \"loopStart\" (or 0: the pattern's end)") }
            transport.setLoop(loop, start: loopStart, end: loopEnd)
            if let rate { transport.setRate(Float(rate)) }
            switch action {
            case "play":
                let document = try current()
                guard let pattern = playable(document) else {
                    throw HTTPError(409, "the document has errors; fix them to play it (see its diagnostics)")
                }
                if let position { try transport.seek(position) }
                try transport.play(pattern)
            case "pause": try transport.pause()
            case "stop": transport.stop()
            case "seek": try transport.seek(position!)
            default: break
            }
            return status()
        }
        var message = answer
        message["type"] = "status"
        hub.broadcast(message)
        hub.broadcast(lock.withLock { _ in positionMessage() })
        return .json(answer)
    }

    // MARK: files, devices, settings

    func files() -> HTTPResponse {
        let listing = root.listing()
        return .json([
            "root": root.path, "truncated": listing.truncated,
            "files": listing.files.map { ["path": $0.path, "kind": $0.kind, "bytes": $0.bytes] },
        ])
    }

    func file(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let path = request.queryValue("path") else { throw HTTPError(400, "give ?path=FILE") }
        let bytes = try root.read(path, limit: max(StudioLimits.audioBytes, StudioLimits.patternBytes))
        return HTTPResponse(status: 200, contentType: Self.contentType(of: path), body: bytes)
    }

    func upload(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let path = request.queryValue("path") else { throw HTTPError(400, "give ?path=NAME.wav") }
        guard StudioRoot.soundExtensions.contains(PathName.fileExtension(path).lowercased()) else {
            throw HTTPError(400, "only sound files are stored here (.wav, .flac, .ogg, .aiff, …), not '\(path)'")
        }
        let target = try root.writablePath(path)
        if FileSystem.exists(target) && request.queryValue("overwrite") != "1" {
            throw HTTPError(409, "'\(path)' exists; add overwrite=1 to replace it", extra: ["conflict": "exists"])
        }
        do throws(AudioResourceError) { try OutputFile.write(request.body, to: target) } catch { throw HTTPError(500, error.description) }
        lock.withLock { _ in
            renderJob = nil
            spliceBase = nil
        }
        return HTTPResponse.json(["path": path, "bytes": request.body.count], status: 201)
    }

    func devices() -> HTTPResponse {
        let current = lock.withLock { _ in settings.device }
        return .json([
            "current": current,
            "devices": PlaybackDevices.list().map { ["name": $0.name, "description": $0.description, "default": $0.isDefault] },
        ])
    }

    /// `GET /api/settings`. Under the lock.
    func settingsObject() -> [String: Any] {
        [
            "device": settings.device, "channels": transport.engine?.options.channelMap.description ?? settings.channels ?? JSONNull(),
            "profile": settings.profile ?? "default", "sampleRate": transport.engine?.options.sampleRate ?? 48_000,
            "profiles": ["default", "lra", "speaker"], "deviceError": transport.deviceError ?? JSONNull(),
        ]
    }

    func changeSettings(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.object(request)
        var new = lock.withLock { _ in settings }
        if let device = try Self.string(body, "device") { new.device = device }
        if let channels = try Self.string(body, "channels") { new.channels = channels }
        if let profile = try Self.string(body, "profile") {
            new.profile = ["default", "lra", "speaker"].contains(profile.lowercased()) ? profile : try root.writablePath(profile)
        }
        let options = try new.engineOptions(root: root.path)
        let answer: [String: Any] = lock.withLock { _ in
            settings = new
            renderJob = nil
            spliceBase = nil
            transport.open(options)
            return settingsObject()
        }
        hub.broadcast(lock.withLock { _ in statusMessage() })
        return .json(answer)
    }
}

extension Studio {
    /// Opens `file` (relative to the root) as `POST /api/open` does, for `thrum studio FILE`; a file that
    /// cannot be opened leaves the studio empty (the page says why when it opens it again).
    package func openAtStart(_ file: String) {
        var request = HTTPRequest(method: "POST", path: "/api/open", query: "", headers: [:], contentLength: nil)
        request.body = Data(((try? JSONObjects.text(["path": file])) ?? "").utf8)
        _ = try? open(request)
    }
}
