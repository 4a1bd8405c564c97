import AudioResources
import FoundationStandIns
import HapticFormats
import RenderCore
import Thrum
import ThrumModel

/// `info`: the facts of a pattern file, and of the actuators of a channel map with the files on each.
package enum PatternInfo {
    /// One file read for `info`.
    package enum Facts: Sendable {
        /// An AHAP file: its pattern, its length with its audio files counted (those that can be found;
        /// docs/decisions.md "Audio events"), its warnings.
        case ahap(pattern: PatternData, duration: Double, warnings: Int)
        /// A `.haptic` file.
        case haptic(file: HapticFile, warnings: Int)
    }

    /// A file read, with its name in messages and the pattern that plays.
    package struct File: Sendable {
        package let target: PatternTarget
        /// `<stdin>`, the path, or a bundled pattern's path.
        package let name: String
        package let pattern: PatternData
        package let facts: Facts
    }

    /// Reads the file `argument` names (`FILE[@ACTUATOR]`: a path, a bundled pattern's name, `-`).
    /// - Throws: 66 missing, 65 errors in it (see `check`) or counts over `limits`.
    package static func read(_ argument: String, limits: PatternLimits) throws(ServiceError) -> File {
        let target = PatternTarget(argument)
        let path = Patterns.path(of: target.pattern)
        let (pattern, loaded) = try loadPattern(path, limits: limits)
        let name = PatternInput.displayName(path)
        if let file = loaded.hapticFile {
            return File(target: target, name: name, pattern: pattern, facts: .haptic(file: file, warnings: loaded.diagnostics.count))
        }
        // Audio files count in the duration: each one found next to the pattern (or, for a bundled pattern,
        // in Resources/Audio) is probed for its length.
        let parent = PathName.parent(path)
        let folder: String? = path == "-" ? nil : parent.isEmpty ? "." : parent
        let duration = Patterns.duration(of: pattern, folder: folder, roots: path == "-" ? [] : BundledResources.audioRoots(for: path))
        return File(
            target: target, name: name, pattern: pattern,
            facts: .ahap(pattern: pattern, duration: duration, warnings: loaded.diagnostics.count))
    }

    /// The actuators of a channel map and what plays on each.
    package struct Actuators {
        /// One actuator and what plays on it.
        package struct Lane {
            package let actuator: Actuator
            /// Its output channels, from 1.
            package let channels: [Int]
            /// The files that play on it, with their patterns.
            package let patterns: [(file: String, pattern: PatternData)]
        }

        package let map: ChannelMap
        package let lanes: [Lane]
    }

    /// The actuators of `engine`'s channel map (default `L,R,H`) and profiles, and the `files` on each (a
    /// file without `@` plays on every actuator).
    /// - Throws: 64 for a wrong map or a locality the map lacks; 65/66 for a profile; the device's refusals.
    package static func actuators(_ engine: EngineSettings, files: [File]) throws(ServiceError) -> Actuators {
        var options = CHHapticEngine.Options()
        options.channelMap = try engine.channelMap(default: .separate)
        try engine.applyProfiles(to: &options)
        let device: GCDeviceHaptics
        do {
            device = try GCDeviceHaptics(options: options)
        } catch {
            throw .engine(error, pattern: files.first?.name ?? "")
        }
        var covered: [[String]] = []
        for file in files {
            let names = device.actuators(in: file.target.playsOn).map(\.name)
            if names.isEmpty { _ = try PatternTarget.engines(on: device, for: [file.target]) }  // throws the usage error
            covered.append(names)
        }
        let map = options.channelMap
        let lanes = device.actuators.map { actuator in
            Actuators.Lane(
                actuator: actuator,
                channels: map.channelActuators.enumerated().filter { $0.element == actuator.name }.map { $0.offset + 1 },
                patterns: zip(files, covered).filter { $1.contains(actuator.name) }.map { ($0.0.name, $0.0.pattern) })
        }
        return Actuators(map: map, lanes: lanes)
    }
}
