import AHAPCodec
import AudioResources
import FoundationEssentials
import FoundationStandIns
import HapticFormats
import RenderCore
import Thrum
import ThrumModel

/// A `PATTERN[@LOCALITY]` name (docs/decisions.md "Output"): the pattern plays on the actuators of
/// LOCALITY, or on every actuator of the channel map without one. A value; thread-safe.
package struct PatternTarget: Equatable, Sendable {
    /// The name as given.
    package let argument: String
    /// The pattern part: an AHAP or `.haptic` file, a bundled pattern's name or a sound file.
    package let pattern: String
    /// Where it plays; nil: every actuator (`all`).
    package let locality: GCHapticsLocality?

    /// Splits at the last `@` when what follows is an actuator or group name; an existing file whose name
    /// has an `@` is taken whole.
    package init(_ argument: String) {
        self.argument = argument
        guard !FileSystem.exists(argument), let at = argument.lastIndex(of: "@"),
            at != argument.startIndex, let name = ActuatorNames.canonical(String(argument[argument.index(after: at)...]))
        else {
            pattern = argument
            locality = nil
            return
        }
        pattern = String(argument[..<at])
        locality = GCHapticsLocality(name)
    }

    /// A pattern part and a locality given apart (libthrum's players).
    package init(pattern: String, locality: GCHapticsLocality?) {
        argument = pattern + (locality.map { "@\($0.rawValue)" } ?? "")
        self.pattern = pattern
        self.locality = locality
    }

    /// The locality the pattern plays on.
    package var playsOn: GCHapticsLocality { locality ?? .all }
}

/// A pattern loaded to be played or rendered, with where it plays. Immutable; thread-safe.
package struct PatternToPlay: @unchecked Sendable {
    package let target: PatternTarget
    package let pattern: CHHapticPattern
    /// The name in messages: the file (a bundled pattern's full path), `<stdin>`, or `<json>` / `<haptic>`.
    package let name: String

    package init(target: PatternTarget, pattern: CHHapticPattern, name: String) {
        self.target = target
        self.pattern = pattern
        self.name = name
    }

    /// The pattern's duration in seconds (release tails excluded), each `AudioCustom` file counted at its
    /// length as `thrum info` and a player count it (docs/decisions.md); a file that is not found next to the
    /// pattern (or, for a bundled pattern, in the bundled audio) counts as in `CHHapticPattern.duration`.
    /// Reads the files' headers on the calling thread.
    package var duration: Double {
        Patterns.duration(of: pattern.data, folder: pattern.sourceFolder,
                          roots: pattern.sourceFolder.map(BundledResources.audioRoots(forFolder:)) ?? [])
    }
}

/// Loading patterns the way every front door names them: a file, a bundled pattern by name, `-` for
/// standard input, or a sound file played as it is.
package enum Patterns {
    /// The path a pattern name reads: standard input (`-`), an existing file, else a bundled pattern of that
    /// name (case-insensitive, with or without `.ahap`), else the name as given (which then is missing).
    package static func path(of name: String) -> String {
        name == "-" ? name : BundledResources.patternPath(name)
    }

    /// The pattern `argument` names, `PATTERN[@ACTUATOR]`: AHAP, or `.haptic` by extension; a bundled
    /// pattern by name (its audio found in the bundled `Audio` folder); a sound file played as one AudioCustom
    /// event; `-`, standard input (its audio paths resolve against the resource folders only).
    /// - Throws: ``ServiceError``: 66 missing, 65 errors in it or counts over `limits`.
    package static func load(_ argument: String, limits: PatternLimits = PatternLimits()) throws(ServiceError) -> PatternToPlay {
        let target = PatternTarget(argument)
        let path = path(of: target.pattern)
        if path != "-" && Sounds.isSound(path) {
            guard FileSystem.exists(path) else {
                throw ServiceError(.noInput, "cannot open '\(path)': no such file (check the path)")
            }
            let sound = PatternData(events: [EventData(type: .audioCustom, time: 0, waveformPath: PathName.lastComponent(path))])
            return PatternToPlay(
                target: target, pattern: CHHapticPattern(data: sound, sourceFolder: PatternInput.folder(of: path)), name: path)
        }
        let pattern = try loadPattern(path, limits: limits).pattern
        let folder = path == "-" ? nil : PatternInput.folder(of: path)
        return PatternToPlay(
            target: target, pattern: CHHapticPattern(data: pattern, sourceFolder: folder), name: PatternInput.displayName(path))
    }

    /// `pattern`'s duration with each `AudioCustom` file that `folder` or `roots` hold counted at its length.
    package static func duration(of pattern: PatternData, folder: String?, roots: [String]) -> Double {
        let resolver = ResourcePathResolver(roots: roots)
        return pattern.duration { index in
            guard let file = pattern.events[index].waveformPath, let opened = try? resolver.open(file, relativeTo: folder) else {
                return nil
            }
            return (try? AudioFileInfo.probe(opened))?.durationSeconds
        }
    }

    /// A pattern from the text of an AHAP document (`haptic` false, named `<json>` in messages) or of a
    /// `.haptic` file (named `<haptic>`, played as `thrum play file.haptic` plays it); its audio files
    /// resolve against the resource folders only.
    /// - Throws: ``ServiceError`` 65 with the first error.
    package static func load(text: Data, haptic: Bool) throws(ServiceError) -> PatternToPlay {
        let name = haptic ? "<haptic>" : "<json>"
        let loaded: LoadedPattern
        if haptic {
            let result = HapticFileDecoder.decode(data: text, file: name)
            loaded = LoadedPattern(
                pattern: result.file.map(HapticPlayback.pattern(for:)), diagnostics: result.diagnostics,
                sourcePaths: .init(), hapticFile: result.file)
        } else {
            let result = AHAPDecoder.decode(data: text, file: name)
            loaded = LoadedPattern(
                pattern: result.pattern, diagnostics: result.diagnostics, sourcePaths: result.sourcePaths, hapticFile: nil)
        }
        let data = try acceptPattern(loaded, name: name, limits: PatternLimits(), rerun: "").pattern
        return PatternToPlay(target: PatternTarget(pattern: name, locality: nil), pattern: CHHapticPattern(data: data), name: name)
    }
}

extension PatternToPlay {
    /// Writes the pattern to `path` as AHAP (`.ahap`) or `.haptic` (the `.haptic` form `convert` writes,
    /// losses located in the pattern), whole or not at all.
    /// - Returns: the conversion's losses, one formatted line each (`.haptic` only).
    /// - Throws: 64 another extension, 65 nothing haptic to write, 74 cannot write.
    package func write(to path: String) throws(ServiceError) -> [String] {
        let data = pattern.data
        switch PatternFormat.ofOutput(path) {
        case .ahap:
            try OutputFiles.write(AHAPEncoder.encode(data), to: path)
            return []
        case .haptic:
            let converted = FormatConverter.haptic(from: [AHAPSource(pattern: data)], maps: [SourceMap(file: name)])
            guard let file = converted.file else {
                throw ServiceError(
                    .dataError,
                    "nothing written: " + (converted.diagnostics.first { $0.severity == .error }?.formatted ?? "no haptic content"))
            }
            try OutputFiles.write(HapticFileEncoder.encode(file), to: path)
            return converted.diagnostics.map(\.formatted)
        case .android, .hjif, .hmpg, nil:
            throw .usage("'\(path)': a pattern is written as .ahap or .haptic (use thrum_convert for Android JSON, HJIF or .hmpg)")
        }
    }
}
