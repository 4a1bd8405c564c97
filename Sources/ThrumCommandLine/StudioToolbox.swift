import AHAPCodec
import AudioAnalysis
import AudioResources
import FoundationEssentials
import HapticFormats
import Thrum
import ThrumModel
import ThrumStudio

/// Thrum Studio's checker, engine options, renderer and analysis: the code of `thrum check`, `play`,
/// `render` and `analyze`, given the options those commands would be given, so the studio's answers are
/// theirs (a render from the studio is sample-identical to `thrum render` of the same file). Thread-safe.
struct CommandLineStudioToolbox: StudioToolbox {
    /// A failure of a command's code as the studio's refusal: usage problems 400, data problems 422.
    private static func refusal(_ error: any Error) -> HTTPError {
        switch error {
        case let usage as UsageError: HTTPError(400, usage.message)
        case let failure as CommandFailure: HTTPError(failure.code == .usage ? 400 : 422, failure.message)
        case let refusal as HTTPError: refusal
        default: HTTPError(422, "\(error)")
        }
    }

    func check(_ text: Data, path: String, root: String) -> StudioCheck {
        let decoded = PatternInput.decode(text, name: PatternInput.displayName(path))
        let diagnostics: [Diagnostic]
        do {
            let arguments = try ParsedArguments.parse(["--resources", root, path], for: checkCommand.spec)
            diagnostics = try checkDiagnostics(decoded, argument: path, limits: PatternLimits(), arguments: arguments)
        } catch {
            let message = (error as? UsageError)?.message ?? (error as? CommandFailure)?.message ?? "\(error)"
            diagnostics = [Diagnostic(.error, file: path, path: "", message: message)]
        }
        return StudioCheck(diagnostics: diagnostics, pattern: decoded.pattern, sourcePaths: decoded.sourcePaths)
    }

    func playOptions(_ settings: StudioSettings, root: String) throws -> CHHapticEngine.Options {
        var words = ["--device", settings.device, "--resources", root]
        if let channels = settings.channels { words += ["--channels", channels] }
        if let profile = settings.profile { words += ["--profile", profile] }
        do {
            // A pattern in the studio's folder, so a bundled pattern's folder also finds Resources/Audio, as in play.
            let name = root + "/studio.ahap"
            let arguments = try ParsedArguments.parse(words + [name], for: playCommand.spec)
            var options = try EngineArguments.engineOptions(arguments, patternPaths: [name], defaultChannels: .speakers)
            options.output = .device(settings.device)
            return options
        } catch {
            throw Self.refusal(error)
        }
    }

    func render(
        _ patterns: [PatternData], folder: String, root: String, channels: String?, sampleRate: String?, profile: String?
    ) throws -> StudioRender {
        do {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-studio.wav").path
            var words = ["--resources", root, "-o", output]
            if let channels { words += ["--channels", channels] }
            if let sampleRate { words += ["--sample-rate", sampleRate] }
            if let profile { words += ["--profile", profile] }
            let name = folder + "/studio.ahap"
            let arguments = try ParsedArguments.parse(words + [name], for: renderCommand.spec)
            let options = try EngineArguments.engineOptions(arguments, patternPaths: [name], defaultChannels: .separate)
            let longest = patterns.map(\.duration).max() ?? 0
            if longest > maxRenderSecondsWithoutDuration {
                throw CommandFailure(
                    .dataError, "the render would last \(longest) s, more than the \(Int(maxRenderSecondsWithoutDuration)) s 'thrum render' makes without --duration")
            }
            let loaded = patterns.map { pattern in
                PatternArgument(
                    target: PatternTarget(name), pattern: CHHapticPattern(data: pattern, sourceFolder: folder), path: name)
            }
            let render = try OfflineRender(loaded, options: options, transport: nil)
            let channelCount = options.channelMap.channelCount
            let expectedFrames = Int(longest * options.sampleRate)
            var samples: [Float] = []
            samples.reserveCapacity(expectedFrames * channelCount)
            _ = try render.run(limit: nil) { samples.append(contentsOf: $0) }
            return StudioRender(
                samples: samples, channelCount: channelCount, sampleRate: Int(options.sampleRate), expectedFrames: expectedFrames)
        } catch {
            throw Self.refusal(error)
        }
    }

    func wav(_ render: StudioRender) throws -> Data {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-studio-\(UUID().uuidString).wav").path
        defer { unlink(temporary) }
        do throws(AudioResourceError) {
            let writer = try AudioFileWriter(
                path: temporary, sampleRate: render.sampleRate, channelCount: render.channelCount, sampleFormat: .float,
                expectedFrames: render.expectedFrames)
            do throws(AudioResourceError) {
                try writer.write(render.samples)
                try writer.close()
            } catch {
                writer.discard()
                throw error
            }
        } catch {
            throw HTTPError(500, "the render could not be written as WAV: \(error)")
        }
        guard let data = FileManager.default.contents(atPath: temporary) else {
            throw HTTPError(500, "the render's WAV could not be read back")
        }
        return data
    }

    func analysisPresets() -> [String: [String: Any]] {
        Dictionary(uniqueKeysWithValues: AnalysisSettings.presets.map { ($0.name, Self.object($0.settings)) })
    }

    /// Settings as the JSON object `thrum analyze --settings` reads.
    static func object(_ settings: AnalysisSettings) -> [String: Any] {
        var object: [String: Any] = [:]
        for (key, path) in AnalysisSettingsFile.flags { object[key] = settings[keyPath: path] }
        for (key, path) in AnalysisSettingsFile.numbers { object[key] = settings[keyPath: path] }
        for (key, path) in AnalysisSettingsFile.counts { object[key] = settings[keyPath: path] }
        return object
    }

    /// The settings of `preset` with `settings` over it, read by `thrum analyze --settings`'s reader and
    /// validated; any problem is the request's (400).
    private static func settings(preset: String?, _ settings: [String: Any]) throws -> AnalysisSettings {
        do {
            var base = AnalysisSettings.general
            if let preset { base = try AnalysisSettingsFile.preset(named: preset) }
            var chosen = base
            if !settings.isEmpty {
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-studio-\(UUID().uuidString).json").path
                defer { unlink(file) }
                try Data(JSONObjects.text(settings).utf8).write(to: URL(fileURLWithPath: file))
                chosen = try AnalysisSettingsFile.read(file, base: base, presetGiven: preset != nil).0
            }
            try chosen.validate()
            return chosen
        } catch {
            let message = (error as? UsageError)?.message ?? (error as? CommandFailure)?.message ?? "\(error)"
            // The reader names its temporary file; the page knows the settings as "settings".
            throw HTTPError(400, "settings: " + message.replacing(#/^\/\S*\.json(:\d+:\d+)?: /#, with: ""))
        }
    }

    func analyze(path: String, preset: String?, settings: [String: Any]) throws -> StudioAnalysis {
        do {
            let chosen = try Self.settings(preset: preset, settings)
            let audio = try loadSound(path)
            guard audio.frameCount > 0 else { throw CommandFailure(.dataError, "the sound holds no audio (0 frames)") }
            let analysis = audio.withUnsafeSamples {
                AudioAnalyzer.analyze(
                    samples: $0, channels: audio.channelCount, sampleRate: audio.sampleRate, settings: chosen, scale: .intensity)
            }
            let built = AnalysisPattern(
                analysis, source: URL(fileURLWithPath: path).lastPathComponent, settingsName: preset ?? "general", split: false)
            return StudioAnalysis(
                pattern: built.pattern, settings: Self.object(chosen), duration: analysis.duration, warnings: built.warnings)
        } catch {
            throw Self.refusal(error)
        }
    }
}
