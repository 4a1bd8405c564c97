import AHAPCodec
import FoundationEssentials
import RenderCore
import Thrum
import ThrumModel

/// What `play` and `render` would refuse, or quietly lose, for a pattern that decodes, found the way they
/// find it: an offline engine with the same options (resource folders, `--allow-any-path`, audio
/// limits, voices, profile, rate) makes the players. `thrum check` reports it.
package enum PlayCheck {
    /// Every audio file problem (each file once, located at the first event that names it); otherwise an
    /// error making the player, or a warning when more events sound at once than the engine has voices;
    /// and a warning when the pattern is longer than `render` and `plot` take without `--duration`.
    package static func diagnostics(
        _ loaded: LoadedPattern, file: String, folder: String?, options: CHHapticEngine.Options
    ) -> [Diagnostic] {
        func located(
            _ severity: Diagnostic.Severity, _ message: String, code: CHHapticError.Code?, path: String,
            suggestion: String? = nil
        ) -> Diagnostic {
            let position = loaded.sourcePaths.positions[path]
            return Diagnostic(
                severity, file: file, line: position?.line, column: position?.column, path: path, message: message,
                suggestion: suggestion, code: code)
        }
        func eventPath(_ index: Int) -> String {
            index < loaded.sourcePaths.events.count ? loaded.sourcePaths.events[index] : "Pattern"
        }

        var results: [Diagnostic] = []
        guard let pattern = loaded.pattern else { return results }
        if pattern.duration > Render.maxSecondsWithoutDuration {
            results.append(
                located(
                    .warning,
                    "the pattern lasts \(PatternValidator.formatted(pattern.duration)) s: 'thrum render' and 'thrum plot' take at most \(Int(Render.maxSecondsWithoutDuration)) s without --duration",
                    code: nil, path: ""))
        }
        var offline = options
        offline.output = .offline
        let engine: CHHapticEngine
        do {
            engine = try CHHapticEngine(options: offline)
            try engine.start()
        } catch {
            return results + [located(.error, "\(error)", code: (error as? CHHapticError)?.code, path: "")]
        }
        defer { engine.stop() }

        // Each audio file alone, so that every one that fails is reported (a player stops at the first).
        var named: Set<String> = []
        var audioFailed = false
        for (index, event) in pattern.events.enumerated() where event.type == .audioCustom {
            guard let path = event.waveformPath, named.insert(path).inserted else { continue }
            do {
                _ = try engine.makePlayer(with: CHHapticPattern(data: PatternData(events: [event]), sourceFolder: folder))
            } catch {
                audioFailed = true
                let failure = error as? CHHapticError
                results.append(
                    located(
                        .error, failure?.message ?? "\(error)", code: failure?.code,
                        path: eventPath(index) + ".EventWaveformPath"))
            }
        }
        if audioFailed { return results }

        let player: any CHHapticPatternPlayer
        do {
            player = try engine.makePlayer(with: CHHapticPattern(data: pattern, sourceFolder: folder))
        } catch {
            let failure = error as? CHHapticError
            return results + [located(.error, failure?.message ?? "\(error)", code: failure?.code, path: "")]
        }
        if let peak = (player as? ThrumPlayerState)?.voicePeak, peak.voices > options.maxVoices {
            let dropped = peak.voices - options.maxVoices
            results.append(
                located(
                    .warning,
                    "\(peak.voices) events sound at once here, more than the engine's \(options.maxVoices) voices: \(dropped) of them will not play",
                    code: nil, path: peak.eventIndex.map(eventPath) ?? "", suggestion: "raise the pool with --voices \(peak.voices)"))
        }
        return results
    }
}
