import AHAPCodec
import AudioAnalysis
import FoundationEssentials

/// Meta Haptics Studio's analysis settings (a `.hasp` clip's `settings`: the serde form of
/// `OfflineAnalysisSettings` and `PreprocessingSettings` in meta-haptics-sdk's `audio_analysis`) as
/// Thrum's ``AnalysisSettings``, each meaning what it means in Haptics Studio. The table below is the
/// whole mapping (docs/analysis.md explains each line). A setting the clip does not give keeps
/// Haptics Studio's default (the `studio` preset); Thrum's own texture emphasis is off, as Haptics
/// Studio has none; the live detector's settings keep the `general` preset's values.
///
/// A wrong type or a value out of range is an error at its place (exit 65); a key Thrum does not know
/// is a located note.
package enum HaspSettings {
    /// One Meta setting: its path under `settings`, the Thrum field and the factor from Meta's unit.
    struct Field: Sendable {
        let path: String
        let thrum: String
        let apply: @Sendable (inout AnalysisSettings, Double) -> Void
    }

    /// One boolean Meta setting and the Thrum field it sets.
    struct Flag: Sendable {
        let path: String
        let thrum: String
        let apply: @Sendable (inout AnalysisSettings, Bool) -> Void
    }

    static let fields: [Field] = [
        Field(path: "preprocessing.gain_db", thrum: "gain") { $0.gain = $1 },
        Field(path: "preprocessing.normalize_level_db", thrum: "normalizeLevel") { $0.normalizeLevel = $1 },
        Field(path: "offline.amplitude_breakpoints_per_second", thrum: "breakpointsPerSecond") { $0.breakpointsPerSecond = $1 },
        Field(path: "offline.minimum_breakpoint_score", thrum: "minimumBreakpointScore") { $0.minimumBreakpointScore = $1 },
        Field(path: "offline.amplitude.envelope_attack_time", thrum: "attack") { $0.attack = $1 },
        Field(path: "offline.amplitude.envelope_hold_time", thrum: "hold") { $0.hold = $1 },
        Field(path: "offline.amplitude.envelope_release_time", thrum: "release") { $0.release = $1 },
        Field(path: "offline.amplitude.rms_windowing_time", thrum: "rmsWindow") { $0.rmsWindow = $1 },
        Field(path: "offline.amplitude.time_between_updates", thrum: "timeBetweenUpdates") { $0.timeBetweenUpdates = $1 },
        Field(path: "offline.frequency_breakpoints_per_second", thrum: "frequencyBreakpointsPerSecond") {
            $0.frequencyBreakpointsPerSecond = $1
        },
        Field(path: "offline.frequency.frequency_min", thrum: "frequencyMin") { $0.frequencyMin = $1 },
        Field(path: "offline.frequency.frequency_max", thrum: "frequencyMax") { $0.frequencyMax = $1 },
        Field(path: "offline.frequency.output_min", thrum: "frequencyOutputMin") { $0.frequencyOutputMin = $1 },
        Field(path: "offline.frequency.output_max", thrum: "frequencyOutputMax") { $0.frequencyOutputMax = $1 },
        Field(path: "offline.emphasis.sensitivity_percent", thrum: "onsetSensitivity") { $0.onsetSensitivity = $1 / 100 },
        Field(path: "offline.emphasis.peak_window_ms", thrum: "minimumOnsetInterval") { $0.minimumOnsetInterval = $1 / 1000 },
        Field(path: "offline.emphasis.minimum_rise", thrum: "minimumRise") { $0.minimumRise = $1 },
        Field(path: "offline.emphasis.plateau_factor_percent", thrum: "plateau") { $0.plateau = $1 / 100 },
        Field(path: "offline.emphasis.sharpness_min", thrum: "emphasisSharpnessMin") { $0.emphasisSharpnessMin = $1 },
        Field(path: "offline.emphasis.sharpness_max", thrum: "emphasisSharpnessMax") { $0.emphasisSharpnessMax = $1 },
        Field(path: "offline.emphasis.ducking_percent", thrum: "ducking") { $0.ducking = $1 / 100 },
        Field(path: "offline.spectrum.centroid_lowpass_hz", thrum: "centroidLowpass") { $0.centroidLowpass = $1 },
        Field(path: "offline.spectrum.fft_size", thrum: "fftSize") { $0.fftSize = Int(exactly: $1) ?? 0 },
        Field(path: "offline.spectrum.overlap_factor", thrum: "overlap") { $0.overlap = Int(exactly: $1) ?? 0 },
    ]
    /// Boolean settings.
    static let flags: [Flag] = [
        Flag(path: "preprocessing.normalize_audio", thrum: "normalize") { $0.normalize = $1 },
        Flag(path: "offline.emphasis_enabled", thrum: "emphasis") { $0.emphasis = $1 },
    ]
    /// The objects of the settings tree.
    static let groups = [
        "preprocessing", "offline", "offline.amplitude", "offline.frequency", "offline.emphasis", "offline.spectrum",
    ]

    /// The settings of `node` (a clip's `settings` object) in `file`, and the located notes.
    /// - Throws: `ServiceError` (65) at the first value of a wrong type or out of range.
    package static func read(_ node: JSONNode, file: String) throws -> (AnalysisSettings, notes: [String]) {
        var settings = AnalysisSettings.studio
        var notes: [String] = []
        var positions: [String: SourcePosition] = [:]
        func place(_ position: SourcePosition?) -> String { position.map { "\(file):\($0)" } ?? file }
        func walk(_ node: JSONNode, path: String) throws {
            guard case .object(let members) = node.value else {
                throw ServiceError(.dataError, "\(place(node.position)): settings.\(path) must be an object, not \(node.typeDescription)")
            }
            for member in members {
                let full = path.isEmpty ? member.key : path + "." + member.key
                positions[full] = member.keyPosition
                if groups.contains(full) {
                    try walk(member.value, path: full)
                } else if let field = fields.first(where: { $0.path == full }) {
                    guard case .number(let value, _) = member.value.value else {
                        throw ServiceError(.dataError, "\(place(member.keyPosition)): settings.\(full) must be a number, not \(member.value.typeDescription)")
                    }
                    field.apply(&settings, value)
                } else if let flag = flags.first(where: { $0.path == full }) {
                    guard case .bool(let value) = member.value.value else {
                        throw ServiceError(.dataError, "\(place(member.keyPosition)): settings.\(full) must be true or false")
                    }
                    flag.apply(&settings, value)
                } else {
                    notes.append("\(place(member.keyPosition)): settings.\(full) is not a Haptics Studio setting Thrum knows; ignored")
                }
            }
        }
        try walk(node, path: "")
        // Haptics Studio ignores the gain when it normalises.
        if settings.normalize { settings.gain = 0 }
        do {
            try settings.validate()
        } catch {
            let meta = fields.first { $0.thrum == error.field }?.path
            let position = meta.flatMap { positions[$0] }
            throw ServiceError(
                .dataError,
                "\(place(position)): " + (meta.map { "settings.\($0) → " } ?? "") + "\(error) (change it in Haptics Studio or the project file)")
        }
        return (settings, notes)
    }
}
