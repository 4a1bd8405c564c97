import AHAPCodec
import AudioAnalysis
import FoundationEssentials
import FoundationStandIns
import ThrumModel

/// Reads analysis settings from a small JSON file: an object whose keys are `preset` (a preset's name)
/// and the settings' field names (`attack`, `release`, `onsetSensitivity`, `normalize`, …), any subset;
/// the rest come from the preset (default `general`).
///
/// Every problem is one line naming the file and the line:column, exit 65 (a missing file: 66).
package enum AnalysisSettingsFile {
    /// The numeric fields, by their key.
    package static var numbers: [(key: String, path: WritableKeyPath<AnalysisSettings, Double>)] {
        [
        ("bandLow", \.bandLow), ("bandHigh", \.bandHigh), ("rmsWindow", \.rmsWindow), ("attack", \.attack),
        ("hold", \.hold), ("release", \.release), ("timeBetweenUpdates", \.timeBetweenUpdates),
        ("onsetSensitivity", \.onsetSensitivity), ("minimumOnsetInterval", \.minimumOnsetInterval),
        ("minimumRise", \.minimumRise), ("plateau", \.plateau), ("riseWindow", \.riseWindow),
        ("ducking", \.ducking),
        ("emphasisSharpnessMin", \.emphasisSharpnessMin), ("emphasisSharpnessMax", \.emphasisSharpnessMax),
        ("textureBrightness", \.textureBrightness), ("textureDensity", \.textureDensity),
        ("breakpointsPerSecond", \.breakpointsPerSecond), ("frequencyBreakpointsPerSecond", \.frequencyBreakpointsPerSecond),
        ("minimumBreakpointScore", \.minimumBreakpointScore), ("tolerance", \.tolerance), ("gain", \.gain),
        ("normalizeLevel", \.normalizeLevel), ("floor", \.floor), ("sharpnessLow", \.sharpnessLow),
        ("sharpnessHigh", \.sharpnessHigh), ("frequencyMin", \.frequencyMin), ("frequencyMax", \.frequencyMax),
        ("frequencyOutputMin", \.frequencyOutputMin), ("frequencyOutputMax", \.frequencyOutputMax),
        ("centroidLowpass", \.centroidLowpass),
        ]
    }

    /// The whole-number fields, by their key.
    static var counts: [(key: String, path: WritableKeyPath<AnalysisSettings, Int>)] {
        [("fftSize", \.fftSize), ("overlap", \.overlap)]
    }

    /// The true/false fields, by their key.
    static var flags: [(key: String, path: WritableKeyPath<AnalysisSettings, Bool>)] {
        [("normalize", \.normalize), ("emphasis", \.emphasis), ("relativeSensitivity", \.relativeSensitivity),
         ("textureEmphasis", \.textureEmphasis)]
    }

    static var keys: [String] { ["preset"] + flags.map(\.key) + numbers.map(\.key) + counts.map(\.key) }

    /// `settings` as a settings file's JSON object (every field, in the order of `keys`).
    package static func json(_ settings: AnalysisSettings) -> String {
        var items = flags.map { "\"\($0.key)\": \(settings[keyPath: $0.path])" }
        items += numbers.map { "\"\($0.key)\": \(AnalysisSettingsError.text(settings[keyPath: $0.path]))" }
        items += counts.map { "\"\($0.key)\": \(settings[keyPath: $0.path])" }
        return "{" + items.joined(separator: ", ") + "}"
    }

    /// The preset called `name`, or a usage error listing the presets.
    package static func preset(named name: String) throws(ServiceError) -> AnalysisSettings {
        guard let found = AnalysisSettings.presets.first(where: { $0.name == name.lowercased() }) else {
            throw .usage("--preset takes \(presetList), not '\(name)'")
        }
        return found.settings
    }

    static var presetList: String {
        let names = AnalysisSettings.presets.map(\.name)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    /// The settings in the file at `path`, starting from `base`, or from the preset the file names when
    /// `presetGiven` is false (a --preset option wins over the file's).
    /// - Returns: the settings and the preset the file named, if any.
    package static func read(_ path: String, base: AnalysisSettings, presetGiven: Bool) throws -> (AnalysisSettings, preset: String?) {
        guard let data = FileBytes.read(path: path, limit: 1 << 20) else {
            throw ServiceError(.noInput, "cannot open settings file '\(path)': no such file (check the path)")
        }
        return try read(data, file: path, base: base, presetGiven: presetGiven)
    }

    /// ``read(_:base:presetGiven:)`` of settings text; `file` names it in messages (nil: no name and no place).
    package static func read(_ data: Data, file path: String?, base: AnalysisSettings, presetGiven: Bool) throws
        -> (AnalysisSettings, preset: String?)
    {
        func at(_ place: String) -> String { path.map { "\($0)\(place): " } ?? "" }
        let parsed = JSONReader.parse(data)
        if let error = parsed.error { throw ServiceError(.dataError, "\(at(":\(error.position)"))\(error.message)") }
        guard let root = parsed.root, case .object(let members) = root.value else {
            throw ServiceError(.dataError, "\(at(""))the settings must be a JSON object, e.g. {\"release\": 0.05}")
        }
        func failure(_ member: JSONMember, _ message: String) -> ServiceError {
            let place = member.keyPosition.map { ":\($0)" } ?? ""
            return ServiceError(.dataError, "\(at(place))\(member.key) \(message)")
        }
        var settings = base
        var preset: String?
        if let named = members.last(where: { $0.key == "preset" }) {
            guard case .string(let name) = named.value.value else { throw failure(named, "must be a string") }
            do {
                let named = try Self.preset(named: name)
                if !presetGiven { settings = named }
            } catch {
                throw failure(named, "must be \(presetList), not '\(name)'")
            }
            preset = name.lowercased()
        }
        for member in members where member.key != "preset" {
            if let field = flags.first(where: { $0.key == member.key }) {
                guard case .bool(let flag) = member.value.value else { throw failure(member, "must be true or false") }
                settings[keyPath: field.path] = flag
            } else if let field = counts.first(where: { $0.key == member.key }) {
                guard case .number(let number, _) = member.value.value, number == number.rounded(), abs(number) < 1e9 else {
                    throw failure(member, "must be a whole number, not \(member.value.typeDescription)")
                }
                settings[keyPath: field.path] = Int(number)
            } else if let field = numbers.first(where: { $0.key == member.key }) {
                guard case .number(let number, _) = member.value.value else {
                    throw failure(member, "must be a number, not \(member.value.typeDescription)")
                }
                settings[keyPath: field.path] = number
            } else {
                let guess = Suggestions.closest(to: member.key, in: keys)
                throw failure(member, "is not a setting" + (guess.map { "; did you mean '\($0)'?" } ?? "; the keys are \(keys.joined(separator: ", "))"))
            }
        }
        do {
            try settings.validate()
        } catch {
            // A value out of range: point at it when the file set it (else the preset's value clashes with one that did).
            let place = members.last(where: { $0.key == error.field })?.keyPosition.map { ":\($0)" } ?? ""
            throw ServiceError(.dataError, "\(at(place))\(error)")
        }
        return (settings, preset)
    }
}
