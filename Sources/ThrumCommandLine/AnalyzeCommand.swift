import AudioAnalysis
import FoundationEssentials
import FoundationStandIns
import Glibc
import ThrumServices

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
        guard let output = arguments.value(.output) else {
            throw UsageError(message: "'thrum analyze' needs -o FILE (the .ahap or .haptic file to write)")
        }
        var request = AnalysisRequest(sound: arguments.positionals[0], output: output)
        request.split = arguments.flag(.split)
        request.preset = arguments.value(.preset)
        request.settingsFile = arguments.value(.settings)
        request.clip = arguments.value(.clip)
        func number(_ option: ValueOption) throws(UsageError) -> Double? {
            try arguments.double(option, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        }
        request.breakpointsPerSecond = try number(.breakpointsPerSecond)
        request.tolerance = try number(.tolerance)
        request.attack = try number(.attack)
        request.hold = try number(.hold)
        request.release = try number(.release)
        request.sensitivity = try number(.sensitivity)
        request.gain = try number(.gain)
        if let band = arguments.value(.band) {
            let parts = band.split(separator: "-", omittingEmptySubsequences: false).map { Double($0) }
            guard parts.count == 2, let low = parts[0], let high = parts[1] else {
                throw UsageError(message: "--band takes LOW-HIGH in Hz, e.g. 20-250, not '\(band)'")
            }
            request.band = (low, high)
        }
        request.noNormalize = arguments.flag(.noNormalize)
        let chosen = try Analyzing.settings(request)
        for note in chosen.notes { console.error("thrum analyze: note: \(note)") }
        let analyzed = try Analyzing.analyze(request, with: chosen)
        for warning in analyzed.warnings { console.error("thrum analyze: warning: \(warning)") }
        let analysis = analyzed.analysis
        console.print(
            "wrote \(analyzed.written.joined(separator: " and ")): " + String(cFormat: "%.3f s", analysis.duration) + ", \(analysis.envelope.count) "
                + (analysis.scale == .intensity ? "intensity" : "amplitude") + " and \(analysis.sharpness.count) sharpness breakpoints, "
                + "\(analysis.transients.count) transients; loudest "
                + (analysis.peakLevel > 0 ? String(cFormat: "%.1f dBFS", 20 * log10(Double(analysis.peakLevel))) : "silent"))
        return .ok
    })
