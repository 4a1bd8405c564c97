import AHAPCodec
import AudioAnalysis
import FoundationStandIns
import HapticFormats

/// The facts of a Haptics Studio project (`thrum info PROJECT.hasp`, the studio's clip list): each clip
/// with its audio (or none: a Freeform Haptics clip), its designed haptic and its analysis settings in
/// Thrum's names, and the notes on fields Thrum does not read. A value; thread-safe.
package struct ProjectInfo: Sendable {
    /// One clip.
    package struct Clip: Sendable {
        package let index: Int
        package let name: String
        /// `audioAsset.path` as written; nil when the clip has no audio (its designed haptic alone).
        package let audioPath: String?
        /// Whether the audio file is there.
        package let audioFound: Bool
        /// The designed haptic, when it reads without errors.
        package let haptic: HapticFile?
        /// The haptic's first error, when it has errors.
        package let hapticError: String?
        /// The clip's analysis settings; nil when it has none (the general preset is used).
        package let settings: AnalysisSettings?

        /// Whether the clip has audio.
        package var hasAudio: Bool { audioPath != nil }
        /// The settings its sound is analysed with: its own, else the general preset's.
        package var analysisSettings: AnalysisSettings { settings ?? .general }
    }

    package let path: String
    package let name: String?
    package let version: String?
    package let clips: [Clip]
    /// Located notes on fields Thrum does not read and settings it reads but does not use.
    package let notes: [String]
    /// The project itself.
    package let project: HaspProject

    /// Reads the project at `path`.
    /// - Throws: 66 missing, 65 not a project or a clip's settings of a wrong type or out of range, located.
    package init(_ path: String) throws(ServiceError) {
        let project = try HaspProject.open(path)
        var notes = project.notes
        var clips: [Clip] = []
        for clip in project.clips {
            var haptic: HapticFile?
            var hapticError: String?
            if let node = clip.haptic {
                let decoded = HapticFileDecoder.decode(root: node, file: path)
                haptic = decoded.file
                if decoded.file == nil { hapticError = decoded.errors.first?.formatted ?? "cannot be read" }
            }
            var settings: AnalysisSettings?
            if clip.settings != nil {
                let read = try Analyzing.clipSettings(clip, of: project)
                settings = read.0
                notes += read.notes
            }
            clips.append(
                Clip(
                    index: clip.index, name: clip.name, audioPath: clip.audioPath,
                    audioFound: clip.audioFile.map(FileSystem.exists) ?? false, haptic: haptic, hapticError: hapticError,
                    settings: settings))
        }
        self.path = path
        name = project.name
        version = project.version
        self.clips = clips
        self.notes = notes
        self.project = project
    }
}
