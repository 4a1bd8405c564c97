import AHAPCodec
import AudioAnalysis
import AudioResources
import FoundationEssentials
import Glibc
import FoundationStandIns
import HapticFormats

/// Longest sound `thrum analyze` reads, and the file and memory limits that go with it.
let analysisLimits = AudioResourceLimits(
    maxFileBytes: 2_000_000_000, maxDurationSeconds: 1800, maxTotalDecodedBytes: 1800 * 384_000 * 2 * 4)

/// Which option sets each settings field, for messages about values out of range.
private let optionOfField: [String: ValueOption] = [
    "breakpointsPerSecond": .breakpointsPerSecond, "tolerance": .tolerance, "attack": .attack, "hold": .hold,
    "release": .release, "onsetSensitivity": .sensitivity, "gain": .gain, "bandLow": .band, "bandHigh": .band,
]

let analyzeCommand = Subcommand(
    spec: CommandSpec(
        name: "analyze",
        summary: "Turn a sound into haptics: intensity and sharpness envelopes with transients at its onsets.",
        positionalUsage: "SOUND", minPositionals: 1, maxPositionals: 1, positionalValues: .sound,
        options: [
            .value(.output, short: "o", placeholder: "FILE", values: .files(["ahap", "haptic"]), help: "the pattern to write: .ahap or .haptic"),
            .value(.preset, placeholder: "NAME", values: .preset, help: "general (default), studio, ui, impacts, footsteps or music"),
            .value(.settings, placeholder: "FILE", values: .files(["json", "hasp"]), help: "settings as JSON, e.g. {\"preset\": \"music\", \"release\": 0.1}, or a Haptics Studio project (.hasp)"),
            .value(.clip, placeholder: "NAME", help: "with --settings PROJECT.hasp: the clip whose settings to use"),
            .value(.breakpointsPerSecond, placeholder: "N", help: "most amplitude breakpoints in each second (1…1000)"),
            .value(.tolerance, placeholder: "X", help: "also drop breakpoints this close to the line between their neighbours (0…0.5)"),
            .value(.attack, placeholder: "S", help: "seconds the envelope takes to rise 99 % of a step (0…1)"),
            .value(.hold, placeholder: "S", help: "how long the envelope holds a peak, in seconds (0…1)"),
            .value(.release, placeholder: "S", help: "seconds the envelope takes to fall 99 % of a step (0…5)"),
            .value(.sensitivity, placeholder: "X", help: "emphasis sensitivity 0…1 (0: no transients)"),
            .value(.gain, placeholder: "DB", help: "gain in dB on the sound (−40…40; with --no-normalize)"),
            .value(.band, placeholder: "LOW-HIGH", help: "the live detector's band in Hz (e.g. 20-250); analysis follows the whole band"),
            .flag(.noNormalize, help: "analyse the sound at its own level (default: its highest sample is 0 dBFS)"),
            .flag(.split, help: "AHAP: write the transients to a second file, OUT_transients.ahap, for a second player"),
        ],
        details: """
            SOUND is any file libsndfile reads (WAV, AIFF, FLAC, Ogg, CAF, …), up to 30 minutes.
            Settings come from the options, then the settings file, then the preset.
            Settings file keys: preset, normalize, emphasis, textureEmphasis, bandLow, bandHigh, rmsWindow,
            attack, hold, release, timeBetweenUpdates, onsetSensitivity, minimumOnsetInterval, minimumRise,
            plateau, ducking, emphasisSharpnessMin, emphasisSharpnessMax, textureBrightness, textureDensity,
            breakpointsPerSecond, frequencyBreakpointsPerSecond, minimumBreakpointScore, tolerance, gain,
            normalizeLevel, floor, sharpnessLow, sharpnessHigh, frequencyMin, frequencyMax, frequencyOutputMin,
            frequencyOutputMax, centroidLowpass, fftSize, overlap (docs/analysis.md gives each, with Haptics
            Studio's name).
            --settings PROJECT.hasp --clip NAME analyses with that clip's settings from Haptics Studio.
            Exit status: 0 ok, 64 usage, 65 unreadable sound or bad settings, 66 missing file, 74 cannot write.
            """),
    run: { arguments, console in
        let input = arguments.positionals[0]
        guard let output = arguments.value(.output) else {
            throw UsageError(message: "'thrum analyze' needs -o FILE (the .ahap or .haptic file to write)")
        }
        let format = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard format == "ahap" || format == "haptic" else {
            throw UsageError(message: "-o: thrum analyze writes .ahap or .haptic files, not '\(output)'")
        }
        let split = arguments.flag(.split)
        if split && format != "ahap" { throw UsageError(message: "--split applies to .ahap output only") }
        let (settings, settingsName, notes) = try analysisSettings(arguments)
        for note in notes { console.error("thrum analyze: note: \(note)") }
        let audio = try loadSound(input)
        guard audio.frameCount > 0 else {
            throw CommandFailure(.dataError, "'\(input)' holds no audio (0 frames): there is nothing to analyse")
        }

        let scale: EnvelopeScale = format == "ahap" ? .intensity : .amplitude
        let analysis = audio.withUnsafeSamples {
            AudioAnalyzer.analyze(
                samples: $0, channels: audio.channelCount, sampleRate: audio.sampleRate, settings: settings, scale: scale)
        }
        let source = URL(fileURLWithPath: input).lastPathComponent
        var written = output
        if format == "haptic" {
            try writeText(HapticFileEncoder.encode(AnalysisHapticFile.file(analysis, source: source, settingsName: settingsName)), to: output)
        } else {
            let built = AnalysisPattern(analysis, source: source, settingsName: settingsName, split: split)
            for warning in built.warnings { console.error("thrum analyze: warning: \(warning)") }
            try writeText(AHAPEncoder.encode(built.pattern), to: output)
            if let transients = built.transients {
                let path = PathName.removingExtension(output) + "_transients.ahap"
                try writeText(AHAPEncoder.encode(transients), to: path)
                written += " and \(path)"
            }
        }
        console.print(
            "wrote \(written): " + String(cFormat: "%.3f s", analysis.duration) + ", \(analysis.envelope.count) "
                + (scale == .intensity ? "intensity" : "amplitude") + " and \(analysis.sharpness.count) sharpness breakpoints, "
                + "\(analysis.transients.count) transients; loudest "
                + (analysis.peakLevel > 0 ? String(cFormat: "%.1f dBFS", 20 * log10(Double(analysis.peakLevel))) : "silent"))
        return .ok
    })

/// The settings from --preset, --settings (a JSON file, or a `.hasp` project's --clip) and the value
/// options (options win over the file, the file over the preset), validated; a short name for the
/// metadata ("music", "general with options", "clip Boom of game.hasp"); and located notes on settings
/// read but not used.
func analysisSettings(_ arguments: ParsedArguments) throws -> (AnalysisSettings, String, notes: [String]) {
    var name = arguments.value(.preset)?.lowercased()
    var settings = AnalysisSettings.general
    var notes: [String] = []
    if let name { settings = try AnalysisSettingsFile.preset(named: name) }
    let project = arguments.value(.settings).flatMap { $0.lowercased().hasSuffix(".hasp") ? $0 : nil }
    if project == nil, arguments.value(.clip) != nil {
        throw UsageError(message: "--clip NAME needs --settings PROJECT.hasp (the Haptics Studio project the clip is in)")
    }
    if let project {
        if name != nil { throw UsageError(message: "use either --preset or --settings PROJECT.hasp, not both") }
        let read = try HaspProject(path: project)
        guard let clipName = arguments.value(.clip) else {
            throw UsageError(
                message: "--settings \(project) needs --clip NAME (its clips: "
                    + read.clips.map { "'\($0.name)'" }.joined(separator: ", ") + ")")
        }
        let clip = try read.clip(named: clipName)
        if let node = clip.settings {
            (settings, notes) = try HaspSettings.read(node, file: project)
        } else {
            notes.append("\(read.place(clip.position)): clip '\(clip.name)' has no settings: the general preset is used")
        }
        name = "clip \(clip.name) of \(PathName.lastComponent(project))"
    } else if let file = arguments.value(.settings) {
        let (read, preset) = try AnalysisSettingsFile.read(file, base: settings, presetGiven: name != nil)
        settings = read
        name = name ?? preset
    }
    func number(_ option: ValueOption) throws(UsageError) -> Double? {
        try arguments.double(option, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    }
    var changed = false
    for (option, path) in [
        (ValueOption.breakpointsPerSecond, \AnalysisSettings.breakpointsPerSecond), (.tolerance, \.tolerance),
        (.attack, \.attack), (.hold, \.hold), (.release, \.release), (.sensitivity, \.onsetSensitivity), (.gain, \.gain),
    ] {
        if let value = try number(option) {
            settings[keyPath: path] = value
            changed = true
        }
    }
    if let band = arguments.value(.band) {
        let parts = band.split(separator: "-", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 2, let low = parts[0], let high = parts[1] else {
            throw UsageError(message: "--band takes LOW-HIGH in Hz, e.g. 20-250, not '\(band)'")
        }
        settings.bandLow = low
        settings.bandHigh = high
        changed = true
    }
    if arguments.flag(.noNormalize) {
        settings.normalize = false
        changed = true
    }
    do {
        try settings.validate()
    } catch {
        // A value from an option is named as the option; one from the preset or file as its field.
        guard let option = optionOfField[error.field], arguments.value(option) != nil else {
            throw UsageError(message: error.description)
        }
        var named = error
        named.field = "--" + option.rawValue
        throw UsageError(message: named.description)
    }
    return (settings, (name ?? "general") + (changed ? " with options" : ""), notes)
}

/// Decodes the sound at its own sample rate; problems become one-line failures (66 missing, 65 otherwise).
func loadSound(_ path: String) throws -> DecodedAudio {
    do {
        let info = try AudioFileInfo.probe(path)
        return try AudioFileLoader.load(path: path, targetSampleRate: Double(info.sampleRate), limits: analysisLimits)
    } catch {
        switch error {
        case .missing:
            throw CommandFailure(.noInput, "cannot open '\(path)': no such file (check the path)")
        case .unreadable(_, let reason):
            throw CommandFailure(.dataError, "'\(path)' cannot be read as audio: \(reason) (re-export it as WAV, AIFF, FLAC or Ogg Vorbis)")
        case .fileTooLarge, .tooLong, .budgetExceeded:
            throw CommandFailure(.dataError, "'\(path)' is too long: thrum analyze reads up to 30 minutes (cut it into parts)")
        default:
            throw CommandFailure(.dataError, "'\(path)': \(error)")
        }
    }
}

/// Writes `text` through a temporary file beside `path` and a rename, so a failure leaves nothing behind.
func writeText(_ text: String, to path: String) throws {
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        throw CommandFailure(.ioError, "cannot write '\(path)': \(systemReason(of: error)) (check that the folder exists and is writable)")
    }
}
