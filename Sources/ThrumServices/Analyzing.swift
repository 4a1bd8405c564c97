import AHAPCodec
import AudioAnalysis
import AudioResources
import FoundationEssentials
import FoundationStandIns
import HapticFormats
import ThrumModel

/// What `analyze` is asked: the sound, the pattern to write, and the settings. Settings come from the value
/// fields, then the settings file (JSON, or a `.hasp` project's clip), then the preset. Each field is the
/// command line's option of that name; nil: not given.
package struct AnalysisRequest: Sendable {
    /// Any file libsndfile reads, up to 30 minutes.
    package var sound: String
    /// `.ahap` or `.haptic`.
    package var output: String
    /// general (default), ui, impacts, footsteps or music (`--preset`).
    package var preset: String?
    /// Settings as JSON, or a Haptics Studio project (`.hasp`) with `clip` (`--settings`).
    package var settingsFile: String?
    /// With a project: the clip whose settings to use (`--clip`).
    package var clip: String?
    package var breakpointsPerSecond: Double?
    package var tolerance: Double?
    package var attack: Double?
    package var hold: Double?
    package var release: Double?
    /// Onset sensitivity 0…1 (`--sensitivity`).
    package var sensitivity: Double?
    package var gain: Double?
    /// The band the envelope follows, in Hz (`--band LOW-HIGH`).
    package var band: (low: Double, high: Double)?
    /// A full-scale sine maps to intensity 1 (`--no-normalize`).
    package var noNormalize = false
    /// AHAP: the transients in a second file, `OUT_transients.ahap` (`--split`).
    package var split = false

    package init(sound: String, output: String) {
        self.sound = sound
        self.output = output
    }
}

/// Settings chosen for an analysis, with a short name for the metadata ("music", "general with options",
/// "clip Boom of game.hasp") and located notes on settings read but not used.
package struct ChosenSettings: Sendable {
    package var settings: AnalysisSettings
    package var name: String
    package var notes: [String]
}

/// What an analysis wrote.
package struct Analyzed: Sendable {
    /// The files written: the pattern, and the transients with `split`.
    package var written: [String]
    /// What Core Haptics' limits made the AHAP conversion do, one line each.
    package var warnings: [String]
    package var analysis: HapticAnalysis
    package var settings: AnalysisSettings
}

/// `analyze`: haptics from a sound (intensity and sharpness envelopes with transients at its onsets),
/// written as `.ahap` or `.haptic`.
package enum Analyzing {
    /// The settings field each request field sets, for messages about values out of range.
    private static let optionOfField: [String: (option: String, given: @Sendable (AnalysisRequest) -> Bool)] = [
        "breakpointsPerSecond": ("breakpoints-per-second", { $0.breakpointsPerSecond != nil }),
        "tolerance": ("tolerance", { $0.tolerance != nil }), "attack": ("attack", { $0.attack != nil }),
        "hold": ("hold", { $0.hold != nil }), "release": ("release", { $0.release != nil }),
        "onsetSensitivity": ("sensitivity", { $0.sensitivity != nil }), "gain": ("gain", { $0.gain != nil }),
        "bandLow": ("band", { $0.band != nil }), "bandHigh": ("band", { $0.band != nil }),
    ]

    /// Checks the output's format and chooses the settings: the value fields win over the file, the file
    /// over the preset; validated.
    /// - Throws: 64 a wrong combination or value, 65 a bad settings file or clip settings, 66 a missing file.
    package static func settings(_ request: AnalysisRequest) throws(ServiceError) -> ChosenSettings {
        let format = PathName.fileExtension(request.output).lowercased()
        guard format == "ahap" || format == "haptic" else {
            throw .usage("-o: thrum analyze writes .ahap or .haptic files, not '\(request.output)'")
        }
        if request.split && format != "ahap" { throw .usage("--split applies to .ahap output only") }
        var name = request.preset?.lowercased()
        var settings = AnalysisSettings.general
        var notes: [String] = []
        if let name { settings = try AnalysisSettingsFile.preset(named: name) }
        let project = request.settingsFile.flatMap { $0.lowercased().hasSuffix(".hasp") ? $0 : nil }
        if project == nil, request.clip != nil {
            throw .usage("--clip NAME needs --settings PROJECT.hasp (the Haptics Studio project the clip is in)")
        }
        if let project {
            if name != nil { throw .usage("use either --preset or --settings PROJECT.hasp, not both") }
            let read = try HaspProject.open(project)
            guard let clipName = request.clip else {
                throw .usage(
                    "--settings \(project) needs --clip NAME (its clips: " + read.clips.map { "'\($0.name)'" }.joined(separator: ", ")
                        + ")")
            }
            let clip = try read.clip(clipName)
            (settings, notes) = try clipSettings(clip, of: read)
            name = "clip \(clip.name) of \(PathName.lastComponent(project))"
        } else if let file = request.settingsFile {
            let (read, preset): (AnalysisSettings, String?)
            do {
                (read, preset) = try AnalysisSettingsFile.read(file, base: settings, presetGiven: name != nil)
            } catch {
                throw error as? ServiceError ?? ServiceError(.software, "\(error)")
            }
            settings = read
            name = name ?? preset
        }
        var changed = false
        let finite = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
        for (option, value, path) in [
            ("breakpoints-per-second", request.breakpointsPerSecond, \AnalysisSettings.breakpointsPerSecond),
            ("tolerance", request.tolerance, \.tolerance), ("attack", request.attack, \.attack), ("hold", request.hold, \.hold),
            ("release", request.release, \.release), ("sensitivity", request.sensitivity, \.onsetSensitivity),
            ("gain", request.gain, \.gain),
        ] {
            if let value = try Checked.number(value, option, in: finite) {
                settings[keyPath: path] = value
                changed = true
            }
        }
        if let band = request.band {
            settings.bandLow = band.low
            settings.bandHigh = band.high
            changed = true
        }
        if request.noNormalize {
            settings.normalize = false
            changed = true
        }
        do {
            try settings.validate()
        } catch {
            // A value from an option is named as the option; one from the preset or file as its field.
            guard let option = optionOfField[error.field], option.given(request) else { throw .usage(error.description) }
            var named = error
            named.field = "--" + option.option
            throw .usage(named.description)
        }
        return ChosenSettings(settings: settings, name: (name ?? "general") + (changed ? " with options" : ""), notes: notes)
    }

    /// A clip's settings in Thrum's names (the general preset when it has none, with a note), and the notes
    /// on settings read but not used.
    /// - Throws: 65 a setting of a wrong type or out of range, located.
    package static func clipSettings(_ clip: HaspProject.Clip, of project: HaspProject) throws(ServiceError)
        -> (AnalysisSettings, notes: [String])
    {
        guard let node = clip.settings else {
            return (
                .general, ["\(project.place(clip.position)): clip '\(clip.name)' has no settings: the general preset is used"]
            )
        }
        do {
            return try HaspSettings.read(node, file: project.path)
        } catch {
            throw error as? ServiceError ?? ServiceError(.software, "\(error)")
        }
    }

    /// Analyses `request.sound` with `chosen` and writes the pattern (and, split, its transients).
    /// - Throws: 66 the sound is missing, 65 it is unreadable or empty, 74 cannot write.
    package static func analyze(_ request: AnalysisRequest, with chosen: ChosenSettings) throws(ServiceError) -> Analyzed {
        let format = PathName.fileExtension(request.output).lowercased()
        let audio = try Sounds.load(request.sound)
        guard audio.frameCount > 0 else {
            throw ServiceError(.dataError, "'\(request.sound)' holds no audio (0 frames): there is nothing to analyse")
        }
        let scale: EnvelopeScale = format == "ahap" ? .intensity : .amplitude
        let analysis = audio.withUnsafeSamples {
            AudioAnalyzer.analyze(
                samples: $0, channels: audio.channelCount, sampleRate: audio.sampleRate, settings: chosen.settings, scale: scale)
        }
        let source = PathName.lastComponent(request.sound)
        var written = [request.output]
        var warnings: [String] = []
        if format == "haptic" {
            let file = AnalysisHapticFile.file(analysis, source: source, settingsName: chosen.name)
            try OutputFiles.write(HapticFileEncoder.encode(file), to: request.output)
        } else {
            let built = AnalysisPattern(analysis, source: source, settingsName: chosen.name, split: request.split)
            warnings = built.warnings
            try OutputFiles.write(AHAPEncoder.encode(built.pattern), to: request.output)
            if let transients = built.transients {
                let path = PathName.removingExtension(request.output) + "_transients.ahap"
                try OutputFiles.write(AHAPEncoder.encode(transients), to: path)
                written.append(path)
            }
        }
        return Analyzed(written: written, warnings: warnings, analysis: analysis, settings: chosen.settings)
    }

    /// An analysis held in memory, as AHAP (the studio's): the pattern `analyze` writes, the settings used
    /// (as the JSON object a settings file holds), the sound's length, and the conversion's warnings.
    package struct InMemory: @unchecked Sendable {
        package var pattern: PatternData
        package var settings: [String: Any]
        package var duration: Double
        package var warnings: [String]
    }

    /// The presets, by name, as settings objects.
    package static func presetObjects() -> [String: [String: Any]] {
        Dictionary(uniqueKeysWithValues: AnalysisSettings.presets.map { ($0.name, object($0.settings)) })
    }

    /// Settings as the JSON object `analyze --settings` reads (`normalize` and the numbers).
    package static func object(_ settings: AnalysisSettings) -> [String: Any] {
        var object: [String: Any] = [:]
        for (key, path) in AnalysisSettingsFile.flags { object[key] = settings[keyPath: path] }
        for (key, path) in AnalysisSettingsFile.numbers { object[key] = settings[keyPath: path] }
        for (key, path) in AnalysisSettingsFile.counts { object[key] = settings[keyPath: path] }
        return object
    }

    /// The settings of `preset` with `settings` (a settings file's JSON object) over it, validated.
    /// - Throws: 64 an unknown preset, 65 an unknown setting or a value out of range (the messages name no file).
    package static func settings(preset: String?, _ settings: [String: Any]) throws(ServiceError) -> AnalysisSettings {
        var base = AnalysisSettings.general
        if let preset { base = try AnalysisSettingsFile.preset(named: preset) }
        var chosen = base
        if !settings.isEmpty {
            do {
                let text = try JSONObjects.text(settings)
                chosen = try AnalysisSettingsFile.read(Data(text.utf8), file: nil, base: base, presetGiven: preset != nil).0
            } catch {
                throw error as? ServiceError ?? ServiceError(.dataError, "\(error)")
            }
        }
        do {
            try chosen.validate()
        } catch {
            throw ServiceError(.dataError, error.description)
        }
        return chosen
    }

    /// `analyze` of the sound at `path` into memory, as AHAP (merged), with `settings`.
    /// - Throws: 66 missing, 65 unreadable or empty.
    package static func inMemory(_ path: String, settings: AnalysisSettings, settingsName: String) throws(ServiceError) -> InMemory {
        let audio = try Sounds.load(path)
        guard audio.frameCount > 0 else { throw ServiceError(.dataError, "the sound holds no audio (0 frames)") }
        let analysis = audio.withUnsafeSamples {
            AudioAnalyzer.analyze(
                samples: $0, channels: audio.channelCount, sampleRate: audio.sampleRate, settings: settings, scale: .intensity)
        }
        let built = AnalysisPattern(analysis, source: PathName.lastComponent(path), settingsName: settingsName, split: false)
        return InMemory(pattern: built.pattern, settings: object(settings), duration: analysis.duration, warnings: built.warnings)
    }
}
