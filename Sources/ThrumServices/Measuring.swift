import ALSAOutput
import ActuatorMeasurement
import AudioResources
import FoundationEssentials
import FoundationStandIns
import Glibc
import RenderCore
import Thrum

/// What `thrum measure` (and any other door) asks for: the devices, channels, sweep and streams, in the
/// units the options take. Unset values take the defaults docs/measure.md gives.
/// - Important: Thread safety: a value; any thread.
package struct MeasureSettings: Sendable, Equatable {
    /// The ALSA playback device driving the actuator; nil: `default`.
    package var output: String?
    /// The ALSA capture device the sensor is on (required).
    package var input: String
    /// The output channel map (`--channels`); nil: `H`.
    package var channels: String?
    /// The input channel the sensor is on, 1…64; nil: 1.
    package var inputChannel: Int?
    /// The sweep's length, seconds, 1…30; nil: 4.
    package var sweepSeconds: Double?
    /// Hz, 8000…768000; nil: 48000.
    package var sampleRate: Int?
    /// Frames per period and periods per buffer of both streams; nil: 256 and 4.
    package var periodFrames: Int?
    package var periodCount: Int?
    /// SCHED_FIFO priority of the streams' threads, 0…99 (0: normal scheduling); nil: 70.
    package var priority: Int?
    /// The actuator profile measured with (a name, a JSON or `.acf` file); nil: default.
    package var profile: String?

    package init(input: String) { self.input = input }

    package static let inputChannels = 1...64
    package static let sweepRange = 1.0...30.0
    package static let sampleRates = 8000...768_000
    package static let priorities = 0...99
}

/// `thrum measure` below its doors: the request checked, the loop measured, the profile written.
/// - Important: Thread safety: any thread; a measurement holds both devices for the run (about the sweep's
///   length plus 6 s) and blocks the caller meanwhile.
package enum Measuring {
    /// The request `settings` describe.
    /// - Throws: 64 a value out of range or a wrong map; 65 a wrong profile, 66 one that cannot be read.
    package static func request(_ settings: MeasureSettings) throws(ServiceError) -> MeasurementRequest {
        var engine = EngineSettings()
        engine.channels = settings.channels
        let channelMap = try engine.channelMap(default: ChannelMap(sources: [.haptic]))
        var request = MeasurementRequest(output: .named(settings.output ?? "default"), input: .named(settings.input), channelMap: channelMap)
        request.inputChannel = try Checked.whole(settings.inputChannel, "input-channel", in: MeasureSettings.inputChannels) ?? 1
        request.sweepSeconds = try Checked.number(settings.sweepSeconds, "duration", in: MeasureSettings.sweepRange) ?? 4
        request.sampleRate = try Checked.whole(settings.sampleRate, "sample-rate", in: MeasureSettings.sampleRates) ?? 48_000
        request.periodFrames = try Checked.whole(settings.periodFrames, "period", in: CHHapticEngine.Options.periodFrameCounts) ?? 256
        request.periodCount = try Checked.whole(settings.periodCount, "periods", in: CHHapticEngine.Options.periodCounts) ?? 4
        if let priority = try Checked.whole(settings.priority, "priority", in: MeasureSettings.priorities) {
            request.realtimePriority = priority == 0 ? nil : Int32(priority)
        }
        if let profile = settings.profile {
            request.profile = try EngineSettings.loadProfile(profile)
            do {
                try request.profile.validate(sampleRate: Double(request.sampleRate))
            } catch {
                throw ServiceError(.dataError, "actuator profile \(profile): \(error)")
            }
        }
        return request
    }

    /// Measures the loop `request` describes.
    /// - Throws: the measurement's error with its exit status (64, 65, 66, 69, 74; docs/measure.md).
    package static func measure(_ request: MeasurementRequest) throws(ServiceError) -> MeasurementResult {
        do {
            return try ActuatorMeasurement.measure(request)
        } catch {
            throw ServiceError(ExitCode(rawValue: error.exitCode) ?? .software, error.description)
        }
    }

    /// Writes the profile that equalises the measured actuator and records its latency to `path` (its name
    /// is the file's, without extension), unless the measurement is doubtful.
    /// - Returns: the profile written.
    /// - Throws: 65 for a doubtful measurement (nothing is written), 74 when the file cannot be written.
    package static func writeProfile(_ result: MeasurementResult, measuredWith base: ActuatorProfile, to path: String)
        throws(ServiceError) -> ActuatorProfile
    {
        if let warning = result.warnings.first { throw ServiceError(.dataError, "\(warning); \(path) was not written") }
        let name = PathName.removingExtension(PathName.lastComponent(path))
        let profile = result.profile(from: base, name: name.isEmpty ? "measured" : name)
        do {
            try profile.validate(sampleRate: Double(result.sampleRate))
        } catch {
            throw ServiceError(.software, "the measured profile is not valid: \(error)")
        }
        try OutputFiles.write(profile.encodedJSON, to: path)
        return profile
    }

    /// Fails with 73 unless `path` can be created: its folder exists and is writable, and it is not a folder.
    /// Checked before a measurement, so a wrong path costs nothing.
    package static func requireCreatable(_ path: String, what: String) throws(ServiceError) {
        if FileSystem.isDirectory(path) == true {
            throw ServiceError(.cantCreate, "cannot create \(what) '\(path)': it is a folder; give a file name")
        }
        let folder = PathName.parent(path)
        let existing = folder.isEmpty ? "." : folder
        guard FileSystem.isDirectory(existing) == true else {
            throw ServiceError(.cantCreate, "cannot create \(what) '\(path)': folder '\(existing)' does not exist")
        }
        guard access(existing, W_OK) == 0 else {
            throw ServiceError(.cantCreate, "cannot create \(what) '\(path)': folder '\(existing)' is not writable")
        }
    }
}
