import AHAPCodec
import ActuatorMeasurement
import AudioResources
import FoundationEssentials
import FoundationStandIns
import Synchronization
import Thrum
import ThrumServices

/// The Measure panel's endpoints (docs/studio-api.md "Measure"): `thrum measure` through the services,
/// its result as JSON, and the profile it makes saved under the root.
/// - Important: Thread safety: a measurement runs on the request's thread, outside the studio's lock (it
///   holds both devices for the sweep's length plus about 6 s); one at a time (409 for a second).
struct StudioMeasurement {
    /// The last good or doubtful measurement and the profile it was made with.
    var result: MeasurementResult
    var base: ActuatorProfile
}

extension Studio {
    static let measureRoutes: [StudioRoute] = [
        StudioRoute(method: "POST", path: "/api/measure", bodyLimit: StudioLimits.jsonBytes) { try $0.measure($1) },
        StudioRoute(method: "POST", path: "/api/measure/profile", bodyLimit: StudioLimits.jsonBytes) { try $0.saveMeasuredProfile($1) },
    ]

    /// `POST /api/measure {"output", "input", "channels", "inputChannel", "duration", "profile"}`: stops the
    /// studio's playback, measures, answers `thrum measure --json`'s object (docs/measure.md) with
    /// `"doubtful": true` when it carries warnings. 400 a wrong request, 409 one already running, 422 a
    /// measurement that failed (silent, clipped input), 503 a device that cannot be opened, with the message.
    func measure(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.object(request)
        guard let input = try Self.string(body, "input"), !input.isEmpty else {
            throw HTTPError(400, "give the capture device the sensor is on: {\"input\": \"hw:1\", \"output\": \"hw:1\"}")
        }
        var settings = MeasureSettings(input: input)
        settings.output = try Self.string(body, "output")
        settings.channels = try Self.string(body, "channels")
        settings.inputChannel = try Self.number(body, "inputChannel").map(Self.whole)
        settings.sweepSeconds = try Self.number(body, "duration")
        if let profile = try Self.string(body, "profile") {
            // A built-in name, or a profile file under the root.
            let isNamed = EngineSettings.namedProfiles.contains { $0.name == profile.lowercased() }
            settings.profile = isNamed ? profile : try root.confinedPath(profile)
        }
        let measuring: MeasurementRequest
        do throws(ServiceError) { measuring = try Measuring.request(settings) } catch { throw HTTPError(refusing: error) }
        let started: Bool = lock.withLock { _ in
            if measuringNow { return false }
            measuringNow = true
            transport.stop()
            return true
        }
        guard started else { throw HTTPError(409, "a measurement is already running; wait for its answer") }
        defer { lock.withLock { _ in measuringNow = false } }
        let result: MeasurementResult
        do throws(ServiceError) {
            result = try Measuring.measure(measuring)
        } catch {
            throw HTTPError(error.status == .unavailable ? 503 : error.status == .usage ? 400 : 422, error.message)
        }
        lock.withLock { _ in measurement = StudioMeasurement(result: result, base: measuring.profile) }
        guard var answer = JSONObjects.value(Data(result.json.utf8)) as? [String: Any] else {
            throw HTTPError(500, "the measurement's JSON did not parse")
        }
        answer["doubtful"] = !result.warnings.isEmpty
        return .json(answer)
    }

    /// `POST /api/measure/profile {"path", "overwrite"}`: writes (its folder made when missing) the profile the last measurement makes (its
    /// equalisation and latency) under the root. 409 with no measurement, or a file that exists without
    /// `"overwrite": true`; 422 when the measurement was doubtful.
    func saveMeasuredProfile(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.object(request)
        guard let path = try Self.string(body, "path"), path.lowercased().hasSuffix(".json") else {
            throw HTTPError(400, "give the profile's file, ending in .json: {\"path\": \"profiles/lra.json\"}")
        }
        guard let last = lock.withLock({ _ in measurement }) else {
            throw HTTPError(409, "nothing measured yet: POST /api/measure first")
        }
        let folder = PathName.parent(path)
        if !folder.isEmpty, let refusal = lock.withLock({ _ in sessions.makeFolders(folder, in: root) }) { throw refusal }
        let target = try root.writablePath(path)
        if try Self.bool(body, "overwrite") != true, FileSystem.exists(target) {
            throw HTTPError(409, "\(path) exists; save again with \"overwrite\": true to replace it", extra: ["conflict": "exists"])
        }
        let profile: ActuatorProfile
        do throws(ServiceError) {
            profile = try Measuring.writeProfile(last.result, measuredWith: last.base, to: target)
        } catch {
            throw HTTPError(error.status == .dataError ? 422 : 500, error.message)
        }
        return .json([
            "path": path, "lowHz": profile.lowFrequency, "highHz": profile.highFrequency,
            "latencyMs": last.result.latency.actuator * 1000,
        ], status: 201)
    }

    private static func whole(_ number: Double) -> Int { number.rounded() == number && abs(number) < 1e9 ? Int(number) : -1 }
}
