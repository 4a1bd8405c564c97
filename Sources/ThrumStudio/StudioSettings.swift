import AudioResources
import FoundationEssentials
import Thrum
import ThrumServices

/// The output settings the studio plays with: `--device`, `--channels`, `--profile` of `thrum studio`,
/// changed from the page. A value; thread-safe.
package struct StudioSettings: Sendable, Equatable {
    /// ALSA playback device name.
    package var device = "default"
    /// Channel map text as `--channels` takes it; nil: `thrum play`'s default (L+H,R+H).
    package var channels: String?
    /// Actuator profile as `--profile` takes it (default, lra, speaker or a JSON file under the root); nil: default.
    package var profile: String?

    package init(device: String = "default", channels: String? = nil, profile: String? = nil) {
        self.device = device
        self.channels = channels
        self.profile = profile
    }

    /// The engine options of `thrum play` with these settings and the studio's folder `root` searched for
    /// audio files (and, when the root is the bundled patterns' folder, the bundled audio, as in play).
    /// - Throws: 400 for a bad channel map or profile, 422 for a profile that cannot be read.
    package func engineOptions(root: String) throws -> CHHapticEngine.Options {
        var output = OutputSettings()
        output.device = device
        output.engine.channels = channels
        output.engine.profiles = profile.map { [$0] } ?? []
        output.engine.resources = [root] + BundledResources.audioRoots(forFolder: root)
        do {
            return try output.engineOptions(patternPaths: [])
        } catch {
            throw HTTPError(refusing: error)
        }
    }
}

extension HTTPError {
    /// A service's refusal as the studio's: usage problems 400, data problems 422.
    init(refusing error: ServiceError) {
        self.init(error.status == .usage ? 400 : 422, error.message)
    }
}

/// The studio's renders and analyses: the services' own, in memory.
enum StudioWork {
    /// The samples `thrum render` writes for `patterns` played together (files in `folder`, audio found there
    /// and in `root`), with `channels`, `sampleRate` (as `--sample-rate` takes it) and `profile` (nil: not
    /// given); `name` names them in messages.
    /// - Throws: 400 for bad options, 422 for a render that fails or would last over 600 s.
    static func render(
        _ patterns: [PatternData], name: String, folder: String, root: String, channels: String?, sampleRate: String?,
        profile: String?, transport: Transport = Transport()
    ) throws -> RenderedSamples {
        var engine = EngineSettings()
        engine.resources = [root]
        engine.channels = channels
        engine.profiles = profile.map { [$0] } ?? []
        do {
            if let sampleRate {
                guard let rate = Int(sampleRate) else {
                    throw ServiceError.notWholeNumber("sample-rate", EngineSettings.sampleRates, given: sampleRate)
                }
                engine.sampleRate = rate
            }
            let path = folder + "/" + name
            let loaded = patterns.map {
                PatternToPlay(
                    target: PatternTarget(pattern: path, locality: nil), pattern: CHHapticPattern(data: $0, sourceFolder: folder),
                    name: path)
            }
            return try Render(loaded, transport: transport, engine: engine).samples()
        } catch let error as ServiceError {
            throw HTTPError(refusing: error)
        }
    }

    /// `render` as the 32-bit float WAV file `thrum render` writes, byte for byte.
    /// - Throws: 500 when the file cannot be written.
    static func wav(_ render: RenderedSamples) throws -> Data {
        do throws(AudioResourceError) {
            let writer = try AudioFileWriter(
                inMemory: "wav", sampleRate: render.sampleRate, channelCount: render.channelCount, sampleFormat: .float,
                expectedFrames: render.expectedFrames)
            do throws(AudioResourceError) {
                try writer.write(render.samples)
                try writer.close()
            } catch {
                writer.discard()
                throw error
            }
            guard let bytes = writer.bytes else { throw AudioResourceError.writeFailed(path: "memory", reason: "nothing was written") }
            return bytes
        } catch {
            throw HTTPError(500, "the render could not be written as WAV: \(error)")
        }
    }

    /// `thrum analyze` of the sound at `path` (absolute) with `preset` and `settings` (a settings object)
    /// over it, in memory, as AHAP.
    /// - Throws: 400 for an unknown preset or setting, 422 for a sound that cannot be read.
    static func analyze(path: String, preset: String?, settings: [String: Any]) throws -> Analyzing.InMemory {
        let chosen: AnalysisSettings
        do {
            chosen = try Analyzing.settings(preset: preset, settings)
        } catch {
            throw HTTPError(400, "settings: " + error.message)
        }
        do {
            return try Analyzing.inMemory(path, settings: chosen, settingsName: preset ?? "general")
        } catch {
            throw HTTPError(refusing: error)
        }
    }
}
