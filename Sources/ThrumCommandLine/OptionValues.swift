import AudioAnalysis
import AudioResources
import HapticFormats
import RenderCore
import ThrumServices

/// What the value of an option or a positional argument may be, declared beside the option in its command's
/// table: shell completion offers it (`thrum completions`) and the man pages name it (`thrum man`).
/// The fields combine: `--profile` takes a word of a closed set or a JSON file.
struct OptionValues: Sendable, Equatable {
    /// Where a list of names comes from when the shell completes, by running `thrum` itself.
    enum Source: String, Sendable {
        /// The ALSA playback devices: the first column of `thrum devices`.
        case devices
        /// The bundled patterns: the first column of `thrum list`.
        case patterns
    }

    /// A closed set of words (profiles, formats, presets); empty when the value is not one of a set.
    var words: [String] = []
    /// Extensions (without the dot, lowercase) of the files the value may name; nil: not a file, empty: any file.
    var fileExtensions: [String]?
    /// Whether the value is a directory.
    var directory = false
    /// Names only the running system knows.
    var source: Source?
    /// Whether the value is a comma-separated list of `words` (a channel map).
    var commaList = false

    /// Free text or a number: nothing to offer.
    static let none = OptionValues()

    /// One word of `words`.
    static func words(_ words: [String]) -> OptionValues { OptionValues(words: words) }

    /// A file with one of `extensions` (any file when empty).
    static func files(_ extensions: [String]) -> OptionValues { OptionValues(fileExtensions: extensions) }

    /// A directory.
    static let directory = OptionValues(directory: true)

    /// An ALSA playback device's name.
    static let device = OptionValues(source: .devices)

    /// A pattern argument of play, render, plot and info: a bundled pattern's name, an AHAP or `.haptic`
    /// file, or a sound file.
    static let pattern = OptionValues(
        fileExtensions: patternExtensions + Sounds.extensions.sorted(), source: .patterns)

    /// The extensions of the pattern files Thrum reads.
    static let patternExtensions = ["ahap", "haptic", "hjif", "hmpg", "json"]

    /// A channel map: `L+H,R+H`, one entry per channel.
    static let channelMap = OptionValues(words: ChannelSource.allCases.map(\.rawValue), commaList: true)

    /// The sound files `thrum analyze` reads and the pattern arguments may name.
    static let sound = files(Sounds.extensions.sorted())

    /// The audio files `thrum render -o` writes.
    static let audioOutput = files(AudioFileWriter.supportedExtensions)

    /// The presets of `--preset`.
    static let preset = words(AnalysisSettings.presets.map(\.name))

    /// The layouts of `--layout`.
    static let layout = words(ChannelMap.layouts.map(\.name))

    /// The target formats of `convert --to`.
    static let patternFormat = words(PatternFormat.allCases.map(\.rawValue))

    /// An actuator profile: a built-in profile's name or a JSON file.
    static let profile = OptionValues(words: EngineSettings.namedProfiles.map(\.name), fileExtensions: ["json"])

    /// How the man pages describe the value, e.g. "one of: float, pcm16"; nil when there is nothing to say.
    var manualNote: String? {
        var parts: [String] = []
        if !words.isEmpty { parts.append((commaList ? "comma-separated entries of: " : "one of: ") + words.joined(separator: ", ")) }
        if let fileExtensions {
            parts.append(fileExtensions.isEmpty ? "a file" : "a file (" + fileExtensions.map { "." + $0 }.joined(separator: " ") + ")")
        }
        if directory { parts.append("a directory") }
        switch source {
        case .devices: parts.append("a device name from 'thrum devices'")
        case .patterns: parts.append("a bundled pattern's name from 'thrum list'")
        case nil: break
        }
        return parts.isEmpty ? nil : "Value: " + parts.joined(separator: "; or ") + "."
    }
}
