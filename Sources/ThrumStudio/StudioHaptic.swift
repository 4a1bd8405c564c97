import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import Synchronization
import HapticFormats
import ThrumServices

/// `.haptic` clips edited natively: their amplitude and frequency breakpoints and emphasis points, saved
/// back without a trip through AHAP (docs/studio-api.md).
extension Studio {
    static let hapticRoutes: [StudioRoute] = [
        StudioRoute(method: "GET", path: "/api/haptic", bodyLimit: 0) { studio, _ in try studio.nativeHaptic() },
        StudioRoute(method: "PUT", path: "/api/haptic", bodyLimit: StudioLimits.patternBytes) { try $0.replaceHaptic($1) },
    ]

    /// `GET /api/haptic`: the open `.haptic` document's signals. 409 when the document is not a `.haptic`
    /// clip or its AHAP form was edited since (then its signals are the AHAP form's conversion).
    func nativeHaptic() throws -> HTTPResponse {
        let document = try lock.withLock { (_) throws in try current() }
        guard let native = document.native else { throw Self.notNative }
        return .json(Self.hapticObject(native))
    }

    /// `PUT /api/haptic {"amplitude": [{"time", "amplitude", "emphasis"?: {"amplitude", "frequency"}}],
    /// "frequency": [{"time", "frequency"}]}`: new signals for the `.haptic` document (version and metadata
    /// kept); one undo step. The signals are read as a `.haptic` file is: errors answer 422 with the reading's
    /// findings and leave the document as it was.
    func replaceHaptic(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.object(request)
        let base = try lock.withLock { (_) throws in try current() }
        guard let old = base.native else { throw Self.notNative }
        var edited = old
        edited.amplitude = try Self.list(body, "amplitude").enumerated().map { index, point in
            var breakpoint = HapticFile.AmplitudeBreakpoint(
                time: try Self.field(point, "time", "amplitude", index), amplitude: try Self.field(point, "amplitude", "amplitude", index))
            if let emphasis = point["emphasis"], !(emphasis is JSONNull) {
                guard let emphasis = emphasis as? [String: Any] else {
                    throw HTTPError(400, "amplitude[\(index)].emphasis is {\"amplitude\": 0…1, \"frequency\": 0…1} or null")
                }
                breakpoint.emphasis = HapticFile.Emphasis(
                    amplitude: try Self.field(emphasis, "amplitude", "amplitude[\(index)].emphasis", nil),
                    frequency: try Self.field(emphasis, "frequency", "amplitude[\(index)].emphasis", nil))
            }
            return breakpoint
        }
        if body["frequency"] != nil {
            edited.frequency = try Self.list(body, "frequency").enumerated().map { index, point in
                HapticFile.FrequencyBreakpoint(
                    time: try Self.field(point, "time", "frequency", index), frequency: try Self.field(point, "frequency", "frequency", index))
            }
        }
        let name = base.file ?? "untitled.haptic"
        let read = HapticFileDecoder.decode(text: HapticFileEncoder.encode(edited), file: name)
        guard let checked = read.file, !read.diagnostics.contains(where: { $0.severity == .error }) else {
            throw HTTPError(422, "the signals are not a valid .haptic clip", extra: ["diagnostics": read.diagnostics.map(StudioDocument.json)])
        }
        var made = StudioDocument.converted(checked, file: base.file, format: base.format, root: root, extra: read.diagnostics, map: read.sourceMap)
        made.native = checked
        made.nativeBytes = checked == old ? base.nativeBytes : nil
        let answer: [String: Any] = lock.withLock { _ in
            let step = sessions.startsStep(gesture: request.queryValue("gesture"))
            change(to: made, recording: step)
            var answer = documentAnswer()
            answer["haptic"] = Self.hapticObject(checked)
            return answer
        }
        hub.broadcast(lock.withLock { _ in documentMessage("edit") })
        return .json(answer)
    }

    /// The export `save` writes for a `.haptic` document edited natively: its bytes as read when unedited,
    /// else its signals encoded; nil for anything else (then the AHAP form is converted).
    static func nativeExport(_ document: StudioDocument, format: String) -> StudioExports.Export? {
        guard format == "haptic", let native = document.native else { return nil }
        let text = document.nativeBytes ?? Data(HapticFileEncoder.encode(native).utf8)
        return StudioExports.Export(texts: [("", text)], patterns: [HapticPlayback.pattern(for: native)], losses: [])
    }

    /// A `.haptic` clip's signals as JSON: `amplitude` (with `emphasis` or null), `frequency`, `duration` (s).
    static func hapticObject(_ haptic: HapticFile) -> [String: Any] {
        [
            "amplitude": haptic.amplitude.map { point -> [String: Any] in
                [
                    "time": point.time, "amplitude": point.amplitude,
                    "emphasis": point.emphasis.map { ["amplitude": $0.amplitude, "frequency": $0.frequency] } ?? JSONNull(),
                ]
            },
            "frequency": haptic.frequencyBreakpoints.map { ["time": $0.time, "frequency": $0.frequency] },
            "duration": haptic.duration,
        ]
    }

    private static let notNative = HTTPError(
        409, "the document is not a .haptic clip edited natively (open a .haptic file; an edit of its AHAP form converts it)")

    private static func list(_ body: [String: Any], _ key: String) throws -> [[String: Any]] {
        guard let list = body[key] as? [[String: Any]] else { throw HTTPError(400, "\"\(key)\" is a list of breakpoint objects") }
        return list
    }

    private static func field(_ object: [String: Any], _ key: String, _ list: String, _ index: Int?) throws -> Double {
        guard let value = object[key] as? Double ?? (object[key] as? Int).map(Double.init) else {
            throw HTTPError(400, "\(list)\(index.map { "[\($0)]" } ?? "").\(key) must be a number")
        }
        return value
    }
}
