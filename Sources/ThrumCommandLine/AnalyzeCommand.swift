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
            .value(.preset, placeholder: "NAME", values: .preset, help: "general (default), ui, impacts, footsteps or music"),
            .value(.settings, placeholder: "FILE", values: .files(["json", "hasp"]), help: "settings as JSON, e.g. {\"preset\": \"music\", \"release\": 0.1}, or a Haptics Studio project (.hasp)"),
            .value(.clip, placeholder: "NAME", help: "with --settings PROJECT.hasp: the clip whose settings to use"),
            .value(.breakpointsPerSecond, placeholder: "N", help: "most breakpoints per second in each envelope (1…500)"),
            .value(.tolerance, placeholder: "X", help: "largest error of the breakpoints on the 0…1 scale (0.001…0.5)"),
            .value(.attack, placeholder: "S", help: "envelope attack time constant in seconds (0…0.1)"),
            .value(.hold, placeholder: "S", help: "how long the envelope holds a peak, in seconds (0…0.2)"),
            .value(.release, placeholder: "S", help: "envelope release time constant in seconds (0.001…2)"),
            .value(.sensitivity, placeholder: "X", help: "onset sensitivity 0…1 (0: no transients)"),
            .value(.gain, placeholder: "DB", help: "gain in dB after normalising (−40…40)"),
            .value(.band, placeholder: "LOW-HIGH", help: "the band the envelope follows, in Hz (e.g. 20-250)"),
            .flag(.noNormalize, help: "a full-scale sine maps to intensity 1 (default: the loudest moment does)"),
            .flag(.split, help: "AHAP: write the transients to a second file, OUT_transients.ahap, for a second player"),
        ],
        details: """
            SOUND is any file libsndfile reads (WAV, AIFF, FLAC, Ogg, CAF, …), up to 30 minutes.
            Settings come from the options, then the settings file, then the preset.
            Settings file keys: preset, normalize, emphasis, bandLow, bandHigh, rmsWindow, attack, hold, release,
            onsetSensitivity, minimumOnsetInterval, minimumRise, plateau, ducking, emphasisSharpnessMin,
            emphasisSharpnessMax, breakpointsPerSecond, frequencyBreakpointsPerSecond, tolerance, gain, floor,
            sharpnessLow, sharpnessHigh, frequencyMin, frequencyMax, frequencyOutputMin, frequencyOutputMax,
            centroidLowpass, fftSize, overlap (docs/analysis.md gives each with Haptics Studio's name;
            docs/audio-to-haptics.md, "Settings", the rest).
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
        let tolerance = analyzed.settings.tolerance
        let raised = analysis.toleranceUsed > Float(tolerance) ? String(cFormat: ", raised to %.3g", analysis.toleranceUsed) : ""
        console.print(
            "wrote \(analyzed.written.joined(separator: " and ")): " + String(cFormat: "%.3f s", analysis.duration) + ", \(analysis.envelope.count) "
                + (analysis.scale == .intensity ? "intensity" : "amplitude") + " and \(analysis.sharpness.count) sharpness breakpoints "
                + "(tolerance \(tolerance)\(raised)), \(analysis.transients.count) transients; loudest "
                + (analysis.peakLevel > 0 ? String(cFormat: "%.1f dBFS", 20 * log10(Double(analysis.peakLevel))) : "silent"))
        return .ok
    })
