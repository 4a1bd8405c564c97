import AHAPCodec
import AudioResources
import FoundationEssentials
import FoundationStandIns
import Synchronization
import Glibc
import HapticFormats

/// What the studio keeps so that no work is lost (issue 39): each file's undo history and transport settings,
/// stashed when another file opens and restored when it opens again within the session; edits made in one
/// gesture (a slider drag, arrow keys held) coalesced into one undo step; and the recovery file that holds
/// unsaved edits for the next session after a crash. Not thread-safe: the studio calls it under its lock.
final class StudioSessions {
    /// A document left for another one.
    struct Stash {
        var history: DocumentHistory
        var transport: StudioTransport.Settings
    }

    private var stashes: [String: Stash] = [:]
    /// The gesture of the last `PUT /api/pattern?gesture=ID` (nil after an edit without one).
    private var lastGesture: String?

    /// Where unsaved edits are kept for the next session, relative to the root (a hidden folder: the file
    /// list skips it).
    static let recoveryPath = ".thrum-studio/recovery.json"
    /// The recovery file of an earlier session, read once at start; nil when there is none or it was answered.
    var recovered: [String: Any]?
    private var checkedRecovery = false
    /// The revision last written to the recovery file (nil: this session wrote none, or removed it).
    private var writtenRevision: Int?
    /// The engine-independent time (seconds) of the last document change, for the write's pause.
    private var changedRevision = -1
    private var changedAt = 0.0

    /// Seconds the document must rest before its unsaved edits are written to the recovery file.
    static let recoveryPause = 0.5

    /// Leaves the document `file` (`history` and `transport` as they are, `dirtyText` its unsaved text or nil).
    /// Unsaved edits become the newest undo step, so opening the file again and pressing Undo brings them back.
    func leave(_ file: String, history: DocumentHistory, dirtyText: Data?, transport: StudioTransport.Settings) {
        var kept = history
        if let dirtyText { kept.recordEdit(replacing: dirtyText) }
        stashes[file] = Stash(history: kept, transport: transport)
    }

    /// The stash of `file` (taken out), or nil for a file not opened before in this session.
    func enter(_ file: String) -> Stash? { stashes.removeValue(forKey: file) }

    /// Whether an edit of `gesture` starts a new undo step: not when the edit before was of the same gesture.
    func startsStep(gesture: String?) -> Bool {
        defer { lastGesture = gesture }
        return gesture == nil || gesture != lastGesture
    }

    /// Called by the ticker (under the lock): writes the document's unsaved text to the recovery file once it
    /// has rested ``recoveryPause`` seconds, and removes the file once nothing is unsaved.
    func keepRecovery(root: StudioRoot, revision: Int, dirtyDocument: StudioDocument?) {
        if !checkedRecovery {
            checkedRecovery = true
            if let bytes = try? root.read(Self.recoveryPath, limit: StudioLimits.patternBytes * 7 + 4096),
                let object = JSONObjects.value(bytes) as? [String: Any], object["text"] is String
            {
                recovered = object
            }
        }
        let now = Self.seconds()
        if revision != changedRevision { (changedRevision, changedAt) = (revision, now) }
        guard let document = dirtyDocument else {
            if writtenRevision != nil, let path = try? root.writablePath(Self.recoveryPath) {
                unlink(path)
                writtenRevision = nil
            }
            return
        }
        guard writtenRevision != revision, now - changedAt >= Self.recoveryPause,
            let text = String(data: document.text, encoding: .utf8)
        else { return }
        let object: [String: Any] = [
            "file": document.file ?? JSONNull(), "format": document.format.rawValue, "text": text,
            "revision": revision, "savedAt": Self.isoTime(),
        ]
        guard makeFolders(PathName.parent(Self.recoveryPath), in: root) == nil,
            let path = try? root.writablePath(Self.recoveryPath),
            let json = try? JSONObjects.text(object)
        else { return }
        do throws(AudioResourceError) {
            try OutputFile.write(Data(json.utf8), to: path)
            writtenRevision = revision
            // This session's edits replace an earlier session's recovery in the file.
            recovered = nil
        } catch {}
    }

    /// Forgets the recovery file (the page answered it: restored or discarded).
    func discardRecovery(root: StudioRoot) -> Bool {
        let had = recovered != nil
        recovered = nil
        if writtenRevision == nil, let path = try? root.writablePath(Self.recoveryPath) { unlink(path) }
        return had
    }

    /// Creates the folder `relative` and the folders leading to it inside `root`; returns the refusal, or nil.
    func makeFolders(_ relative: String, in root: StudioRoot) -> HTTPError? {
        guard !relative.hasPrefix("/") else { return HTTPError(403, "'\(relative)' is outside the studio's folder \(root.path)") }
        let names = relative.split(separator: "/", omittingEmptySubsequences: true)
        var prefix = ""
        for name in names {
            prefix += (prefix.isEmpty ? "" : "/") + name
            let target: String
            do { target = try root.writablePath(prefix) } catch let refusal as HTTPError { return refusal } catch { return HTTPError(500, "\(error)") }
            if let isFolder = FileSystem.isDirectory(target) {
                if !isFolder { return HTTPError(409, "'\(prefix)' is a file, not a folder") }
                continue
            }
            guard mkdir(target, 0o755) == 0 || errno == EEXIST else {
                return HTTPError(500, "cannot create the folder '\(prefix)': \(String(cString: strerror(errno)))")
            }
        }
        return nil
    }

    private static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Now as an ISO 8601 UTC time ("2026-12-06T07:10:00Z").
    private static func isoTime() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension Studio {
    /// The endpoints of issue 39: the recovery file and folder creation (docs/studio-api.md).
    static let sessionRoutes: [StudioRoute] = [
        StudioRoute(method: "GET", path: "/api/recovery", bodyLimit: 0) { studio, _ in
            let recovered: Any = studio.lock.withLock { _ in studio.sessions.recovered } ?? JSONNull()
            return .json(["recovery": recovered])
        },
        StudioRoute(method: "DELETE", path: "/api/recovery", bodyLimit: 0) { studio, _ in
            .json(["discarded": studio.lock.withLock { _ in studio.sessions.discardRecovery(root: studio.root) }])
        },
        StudioRoute(method: "POST", path: "/api/folder", bodyLimit: StudioLimits.jsonBytes) { studio, request in
            guard let path = try Studio.string(try Studio.object(request), "path"), !path.isEmpty else {
                throw HTTPError(400, "give the folder to create: {\"path\": \"relative/folder\"}")
            }
            if let refusal = studio.lock.withLock({ _ in studio.sessions.makeFolders(path, in: studio.root) }) { throw refusal }
            return .json(["path": path], status: 201)
        },
    ]

    /// Leaves the open document for the file `path` (under the lock, before it opens): stops playback, stashes
    /// the document's undo history and transport, and takes the stash of `path` (or a fresh start).
    func switchDocument(to path: String) {
        if let old = document, let file = old.file {
            sessions.leave(file, history: history, dirtyText: isDirty ? old.text : nil, transport: transport.settings)
        }
        let stash = sessions.enter(path)
        history = stash?.history ?? DocumentHistory()
        transport.restore(stash?.transport ?? StudioTransport.Settings())
    }
}
