import Dispatch
import FoundationEssentials
import FoundationStandIns
import Synchronization
import ThrumModel
import ThrumServices

/// One render of one revision with one set of options, made once for every request that asks for it: the
/// first asker makes it, later ones (the page's peaks, then its WAV) wait for it or take it made.
/// Thread-safe.
final class RenderJob: @unchecked Sendable {
    /// What makes two requests ask for the same samples.
    struct Key: Equatable, Sendable {
        var revision: Int
        var export: String
        var channels: String
        var sampleRate: String?
        var profile: String?

        /// Whether `other` asks for the same options (of any revision).
        func sameOptions(as other: Key) -> Bool {
            export == other.export && channels == other.channels && sampleRate == other.sampleRate && profile == other.profile
        }
    }

    let key: Key
    /// The patterns rendered (set by the maker before it renders; read once `finished`), for the next
    /// revision's splice (``RenderSpan``).
    private(set) var patterns: [PatternData] = []
    /// The window rendered again into the previous revision's render (``RenderSpan``); nil: rendered whole.
    private(set) var window: RenderSpan?
    /// The previous revision's last peaks, when this render is a splice: only their columns over `window` change.
    private(set) var previousPeaks: PeakColumns?
    /// The last peaks `GET /api/peaks` answered of this render.
    private var keptPeaks: PeakColumns?
    private let lock = Locked(())
    /// Entered at creation, left when the outcome is in: every waiter waits on it.
    private let finished = DispatchGroup()
    private var outcome: Result<RenderedSamples, any Error>?

    init(key: Key) {
        self.key = key
        finished.enter()
    }

    /// Records the render (or why there is none) and wakes those waiting for it; only the first call counts.
    func finish(_ result: Result<RenderedSamples, any Error>) {
        let first = lock.withLock { _ in
            guard outcome == nil else { return false }
            outcome = result
            return true
        }
        if first { finished.leave() }
    }

    /// Records what is about to be rendered. Before ``finish(_:)``, by the maker only.
    func rendering(_ patterns: [PatternData]) {
        lock.withLock { _ in self.patterns = patterns }
    }

    /// Records that the render is a splice of `window` into the previous one. Before ``finish(_:)``, by the maker.
    func spliced(_ window: RenderSpan, previousPeaks: PeakColumns?) {
        lock.withLock { _ in
            self.window = window
            self.previousPeaks = previousPeaks
        }
    }

    /// The last peaks answered of this render (any query).
    var peaks: PeakColumns? {
        get { lock.withLock { _ in keptPeaks } }
        set { lock.withLock { _ in keptPeaks = newValue } }
    }

    /// The window re-rendered (nil: the whole pattern), once the render is made (waits for it).
    var renderedWindow: RenderSpan? {
        finished.wait()
        return lock.withLock { _ in window }
    }

    /// The patterns and their render when it is made and was not refused; nil while it is being made.
    var made: (patterns: [PatternData], render: RenderedSamples)? {
        lock.withLock { _ in
            guard case .success(let render)? = outcome else { return nil }
            return (patterns, render)
        }
    }

    /// The render, once made (waits for it).
    /// - Throws: the refusal the render met.
    func render() throws -> RenderedSamples {
        finished.wait()
        return try lock.withLock { _ in outcome! }.get()
    }
}

/// The peaks of `columns` columns over `start…end` seconds of one render (``Studio/columnPeaks(_:start:end:columns:)``).
struct PeakColumns: Sendable {
    var start: Double
    var end: Double
    var columns: Int
    var values: [[Float]]

    func answers(start: Double, end: Double, columns: Int) -> Bool {
        self.start == start && self.end == end && self.columns == columns
    }
}

extension Studio {
    /// Most columns `GET /api/peaks` computes (a screen several times wider than 4K).
    static let maxPeakColumns = 20_000

    /// `GET /api/render`: the render as the WAV file `thrum render` writes.
    func renderWAV(_ request: HTTPRequest) throws -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "audio/wav", body: try StudioWork.wav(try render(request)))
    }

    /// `GET /api/peaks`: the least and greatest sample of each column of a time range of the render, per channel.
    func peaks(_ request: HTTPRequest) throws -> HTTPResponse {
        let start = try Self.seconds(request, "start") ?? 0
        let requestedEnd = try Self.seconds(request, "end")
        let columnText = request.queryValue("columns") ?? "1000"
        guard let columns = Int(columnText), (1...Self.maxPeakColumns).contains(columns) else {
            throw HTTPError(400, "\"columns\" must be a whole number 1…\(Self.maxPeakColumns), not '\(columnText)'")
        }
        if let requestedEnd, requestedEnd <= start { throw HTTPError(400, "\"end\" must be after \"start\"") }
        let (render, revision, job) = try self.renderAndRevision(request)
        let end = requestedEnd ?? max(Double(render.frames) / Double(render.sampleRate), start + 1 / Double(render.sampleRate))
        let window = job.renderedWindow
        var text = "{\"revision\":\(revision),\"sampleRate\":\(render.sampleRate),\"frames\":\(render.frames),"
        text += "\"start\":\(start),\"end\":\(end),\"columns\":\(columns),\"channels\":\(render.channelCount),"
        text += "\"rendered\":" + (window.map { "{\"start\":\($0.start),\"end\":\($0.end)}" } ?? "null") + ",\"peaks\":["
        let peaks: [[Float]]
        if let kept = job.peaks, kept.answers(start: start, end: end, columns: columns) {
            peaks = kept.values
        } else if let window, let previous = job.previousPeaks, previous.answers(start: start, end: end, columns: columns) {
            // A splice: only the columns over the window (and one either side, for rounding) change.
            let width = (end - start) / Double(columns)
            let first = max(0, Int(((window.start - start) / width).rounded(.down)) - 1)
            let last = min(columns, max(first, Int(((window.end - start) / width).rounded(.up)) + 1))
            var values = previous.values
            Self.columnPeaks(render, start: start, end: end, columns: columns, only: first..<last, into: &values)
            peaks = values
        } else {
            peaks = Self.columnPeaks(render, start: start, end: end, columns: columns)
        }
        job.peaks = PeakColumns(start: start, end: end, columns: columns, values: peaks)
        for (channel, values) in peaks.enumerated() {
            text += (channel == 0 ? "[" : ",[") + values.map { "\($0.isFinite ? $0 : 0)" }.joined(separator: ",") + "]"
        }
        text += "]}"
        return HTTPResponse(status: 200, contentType: "application/json; charset=utf-8", body: Data(text.utf8))
    }

    /// Column n of `columns` over `start…end` seconds covers frames ⌊(start + n·w)·rate⌋ up to, not
    /// including, ⌊(start + (n + 1)·w)·rate⌋ (at least one frame), w = (end − start) / columns; its values
    /// are min(0, least sample) and max(0, greatest sample) there (0, 0 past the end). Returns, per channel,
    /// least, greatest, least, greatest, … (2 × columns values).
    static func columnPeaks(_ render: RenderedSamples, start: Double, end: Double, columns: Int) -> [[Float]] {
        var peaks = [[Float]](repeating: [Float](repeating: 0, count: columns * 2), count: render.channelCount)
        columnPeaks(render, start: start, end: end, columns: columns, only: 0..<columns, into: &peaks)
        return peaks
    }

    /// ``columnPeaks(_:start:end:columns:)`` of the columns `only`, written into `peaks` (per channel, 2 × `columns`).
    static func columnPeaks(
        _ render: RenderedSamples, start: Double, end: Double, columns: Int, only: Range<Int>, into peaks: inout [[Float]]
    ) {
        let width = (end - start) / Double(columns)
        let rate = Double(render.sampleRate)
        let channels = render.channelCount
        render.samples.withUnsafeBufferPointer { samples in
            for column in only {
                let from = Int(((start + Double(column) * width) * rate).rounded(.down))
                let to = min(max(Int(((start + Double(column + 1) * width) * rate).rounded(.down)), from + 1), render.frames)
                guard from < to else {
                    for channel in 0..<channels { (peaks[channel][column * 2], peaks[channel][column * 2 + 1]) = (0, 0) }
                    continue
                }
                // Channel by channel over one column: the column's frames stay in the cache between channels.
                for channel in 0..<channels {
                    var least: Float = 0
                    var greatest: Float = 0
                    for frame in from..<to {
                        let value = samples[frame * channels + channel]
                        least = min(least, value)
                        greatest = max(greatest, value)
                    }
                    peaks[channel][column * 2] = least
                    peaks[channel][column * 2 + 1] = greatest
                }
            }
        }
    }

    /// A time in seconds from the query, 0…86400; nil when not given.
    static func seconds(_ request: HTTPRequest, _ name: String) throws -> Double? {
        guard let text = request.queryValue(name) else { return nil }
        guard let value = Double(text), value.isFinite, (0...86_400).contains(value) else {
            throw HTTPError(400, "\"\(name)\" must be 0…86400 seconds, not '\(text)'")
        }
        return value
    }

    /// The render the request's `export`, `channels`, `sampleRate` and `profile` ask for, of the current
    /// document.
    func render(_ request: HTTPRequest) throws -> RenderedSamples {
        try renderAndRevision(request).render
    }

    /// The render the request asks for and the revision it is of.
    private func renderAndRevision(_ request: HTTPRequest) throws -> (render: RenderedSamples, revision: Int, job: RenderJob) {
        try sharedRender {
            RenderJob.Key(
                revision: revision, export: request.queryValue("export") ?? "ahap",
                channels: request.queryValue("channels") ?? "L,R,H", sampleRate: request.queryValue("sampleRate"),
                profile: request.queryValue("profile") ?? settings.profile)
        }
    }

    /// The render of the current document with the options of `key` (called under the lock): the one made or
    /// being made for them when there is one, else a new one (kept for the next request while the document and
    /// the options stay the same).
    /// - Throws: 409 when no document is open or it has errors; the render's refusals.
    private func sharedRender(keyedBy key: () -> RenderJob.Key) throws -> (render: RenderedSamples, revision: Int, job: RenderJob) {
        let (job, document, base) = try lock.withLock { (_) throws -> (RenderJob, StudioDocument?, RenderJob?) in
            let key = key()
            if let job = renderJob, job.key == key { return (job, nil, nil) }
            let job = RenderJob(key: key)
            let document = try current()
            let base = spliceBase
            renderJob = job
            return (job, document, base)
        }
        if let document {
            let key = job.key
            job.finish(Result {
                let patterns = try StudioExports.patterns(of: document, export: key.export)
                job.rendering(patterns)
                let render = { (transport: Transport) in
                    try StudioWork.render(
                        patterns, name: Self.renderName(of: document), folder: self.folder(of: document), root: self.root.path,
                        channels: key.channels, sampleRate: key.sampleRate, profile: key.profile, transport: transport)
                }
                if let base, base.key.sameOptions(as: key), let made = base.made,
                    let spliced = try Self.spliced(made.render, of: made.patterns, into: patterns, rendering: render)
                {
                    job.spliced(spliced.window, previousPeaks: base.peaks)
                    return spliced.render
                }
                return try render(Transport())
            })
            lock.withLock { _ in spliceBase = job }
        }
        return (try job.render(), job.key.revision, job)
    }

    /// `previous` (the render of `old`) with the window an edit to `new` touches rendered again by
    /// `render` (a transport: seek and duration), when ``RenderSpan`` finds one and the window's edges agree
    /// with `previous`; nil: render `new` whole.
    static func spliced(
        _ previous: RenderedSamples, of old: [PatternData], into new: [PatternData],
        rendering render: (Transport) throws -> RenderedSamples
    ) throws -> (render: RenderedSamples, window: RenderSpan)? {
        guard old.count == 1, new.count == 1, let span = RenderSpan.window(from: old[0], to: new[0]) else { return nil }
        let rate = Double(previous.sampleRate)
        let first = Int((span.start * rate).rounded(.down))
        let last = Int((span.end * rate).rounded(.up))
        let changeFrame = Int((span.changeStart * rate).rounded(.down))
        let checked = RenderSpan.checkFrames
        guard last + checked <= previous.frames, last > first else { return nil }
        let window = try render(
            try Transport(seek: Double(first) / rate, duration: Double(last + checked - first) / rate))
        let channels = previous.channelCount
        guard window.channelCount == channels, window.frames == last + checked - first else { return nil }
        // The edges: frames before the change (up to `checked` of them) and the frames past the window's end.
        let edges = [0..<min(checked, max(0, changeFrame - first)), (last - first)..<(last - first + checked)]
        for edge in edges {
            for frame in edge {
                for channel in 0..<channels
                where window.samples[frame * channels + channel] != previous.samples[(first + frame) * channels + channel] {
                    return nil
                }
            }
        }
        var result = previous
        result.samples.replaceSubrange(
            (first * channels)..<(last * channels), with: window.samples[0..<((last - first) * channels)])
        return (result, span)
    }

    /// The name a document's render goes by in messages: its file's, as AHAP (`untitled.ahap` when unsaved).
    static func renderName(of document: StudioDocument) -> String {
        PathName.lastComponent(StudioDocument.checkedName(document.file))
    }

    /// When a page is open (it asks for the render of every change at once), starts rendering a changed
    /// document as the page asks for it (`L,R,H`, the default rate, the studio's profile) while the page is
    /// still reading the answer to the change. One at a time: a render queued behind a newer change renders
    /// the newest revision (or finds it rendered). Under the lock.
    func renderAhead() {
        guard hub.hasClients, document?.isPlayable == true else { return }
        renderQueue.async { [self] in
            _ = try? sharedRender {
                RenderJob.Key(revision: revision, export: "ahap", channels: "L,R,H", sampleRate: nil, profile: settings.profile)
            }
        }
    }
}
