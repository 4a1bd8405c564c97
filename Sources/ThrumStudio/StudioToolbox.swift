import AHAPCodec
import FoundationEssentials
import Thrum
import ThrumModel

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
}

/// What the studio analysed from a sound: the pattern `thrum analyze` writes, and how it was made.
package struct StudioAnalysis: @unchecked Sendable {
    package var pattern: PatternData
    /// The settings used, as the JSON object `thrum analyze --settings` reads.
    package var settings: [String: Any]
    /// The sound's length in seconds.
    package var duration: Double
    /// What the analysis warns about (as `thrum analyze` prints it).
    package var warnings: [String]

    package init(pattern: PatternData, settings: [String: Any], duration: Double, warnings: [String]) {
        self.pattern = pattern
        self.settings = settings
        self.duration = duration
        self.warnings = warnings
    }
}

/// `thrum check`'s reading of a document text: its findings and the pattern it decoded. A value; thread-safe.
package struct StudioCheck: Sendable {
    /// The findings, in `thrum check`'s order.
    package var diagnostics: [Diagnostic]
    /// The pattern decoded from the text; nil when the text could not be decoded.
    package var pattern: PatternData?
    /// Where the text's entries are (for diagnostics and conversion losses).
    package var sourcePaths: AHAPDecodeResult.SourcePaths

    package init(diagnostics: [Diagnostic], pattern: PatternData?, sourcePaths: AHAPDecodeResult.SourcePaths) {
        self.diagnostics = diagnostics
        self.pattern = pattern
        self.sourcePaths = sourcePaths
    }
}

/// An engine render held in memory: the samples `thrum render` writes. A value; thread-safe.
package struct StudioRender: Sendable {
    /// Interleaved 32-bit float frames of `channelCount` samples, full scale ±1.
    package var samples: [Float]
    /// Channels per frame (≥ 1), in the order of the channel map.
    package var channelCount: Int
    /// Frames per second (Hz).
    package var sampleRate: Int
    /// The frames `thrum render` announces to its file writer (decides when a WAV becomes RF64).
    package var expectedFrames: Int

    /// Frames rendered.
    package var frames: Int { samples.count / channelCount }

    package init(samples: [Float], channelCount: Int, sampleRate: Int, expectedFrames: Int) {
        self.samples = samples
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.expectedFrames = expectedFrames
    }
}

/// What the studio borrows from the command line, so that its checks, renders, engine options and analyses
/// are exactly those of `thrum check`, `thrum render`, `thrum play` and `thrum analyze` (ThrumCommandLine
/// implements it with the commands' own code). Every method may be called from any thread.
package protocol StudioToolbox: Sendable {
    /// `thrum check --resources ROOT PATH`'s findings for `text` read as the AHAP file at `path` (absolute),
    /// with the pattern it decoded (the text is decoded once).
    func check(_ text: Data, path: String, root: String) -> StudioCheck
    /// The engine options of `thrum play --device … --channels … --profile … --resources ROOT`.
    /// - Throws: 400 for a bad channel map or profile.
    func playOptions(_ settings: StudioSettings, root: String) throws -> CHHapticEngine.Options
    /// The samples of `thrum render` of `patterns` (played together, as files in `folder`) with `--channels`,
    /// `--sample-rate`, `--profile` and `--resources ROOT` (nil: the option is not given), in memory.
    /// - Throws: 400 for bad options, 422 for a render that fails or would last over 600 s.
    func render(
        _ patterns: [PatternData], folder: String, root: String, channels: String?, sampleRate: String?, profile: String?
    ) throws -> StudioRender
    /// `render` as the 32-bit float WAV file `thrum render` writes, byte for byte.
    /// - Throws: 500 when the file cannot be written or read back.
    func wav(_ render: StudioRender) throws -> Data
    /// The presets of `thrum analyze --preset`, by name, as settings objects.
    func analysisPresets() -> [String: [String: Any]]
    /// `thrum analyze` of the sound at `path` (absolute) with `preset` and `settings` over it.
    /// - Throws: 400 for an unknown preset or setting, 422 for a sound that cannot be read.
    func analyze(path: String, preset: String?, settings: [String: Any]) throws -> StudioAnalysis
}
