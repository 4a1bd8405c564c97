import AHAPCodec
import FoundationEssentials
import ThrumModel

/// The warnings about a readable HJIF document: what MPEG's reference software reads but reports as not
/// conformant to ISO/IEC 23090-31, and what its synthesizer plays in its own way (where Thrum does too, or
/// where it plainly fails and Thrum does not: docs/decisions.md "HJIF"), and one error: channels that last
/// more than `HJIFPlayback.maxSignalSeconds` together. Pure and thread-safe.
package enum HJIFChecks {
    /// Every warning for `document`, at JSON paths of its HJIF form.
    package static func issues(in document: HJIFDocument) -> [HapticIssue] {
        var issues: [HapticIssue] = []
        func warn(_ message: String, _ path: String, _ suggestion: String? = nil) {
            issues.append(HapticIssue(.warning, nil, message, suggestion: suggestion, path: path))
        }
        if !versionConforms(document.version) {
            warn("version \"\(document.version)\" is not a year from 2023 on, optionally with -amendment", "version", "write \"2023\"")
        }
        let simple = document.profile == "Simple Parametric"
        if document.profile != "Main" && !simple {
            warn("profile \"\(document.profile)\" is neither \"Main\" nor \"Simple Parametric\"", "profile")
        }
        if document.level != 1 && document.level != 2 { warn("level \(document.level) is neither 1 nor 2", "level") }
        if simple && document.timescale != 1000 {
            warn("the Simple Parametric profile takes timescale 1000 only, not \(document.timescale)", "timescale")
        } else if !simple && document.timescale > 48_000 {
            warn("the Main profile takes a timescale up to 48000, not \(document.timescale)", "timescale")
        }
        let avatarIDs = document.avatars.map(\.id)
        for (a, avatar) in document.avatars.enumerated() {
            if avatar.id == 0 { warn("avatar id 0 is reserved for an unspecified avatar", "avatars[\(a)].id") }
            if avatarIDs.filter({ $0 == avatar.id }).count > 1 { warn("avatar id \(avatar.id) is not unique", "avatars[\(a)].id") }
        }
        let perceptionIDs = document.perceptions.map(\.id)
        for (p, perception) in document.perceptions.enumerated() {
            let path = "perceptions[\(p)]"
            if perceptionIDs.filter({ $0 == perception.id }).count > 1 {
                warn("perception id \(perception.id) is not unique", path + ".id")
            }
            if perception.avatarID != 0 && !avatarIDs.contains(perception.avatarID) {
                warn("avatar \(perception.avatarID) does not exist", path + ".avatar_id")
            }
            let limit = document.level == 1 ? 127 : 65_535
            if perception.channels.count > limit {
                warn("\(perception.channels.count) channels: level \(document.level) takes up to \(limit)", path + ".channels")
            }
            let libraryIDs = perception.library.compactMap(\.id)
            for (e, effect) in perception.library.enumerated() where libraryIDs.filter({ $0 == effect.id }).count > 1 {
                warn("library effect id \(effect.id ?? 0) is not unique", "\(path).effect_library[\(e)].id")
            }
            let channelIDs = perception.channels.map(\.id)
            for (c, channel) in perception.channels.enumerated() {
                let channelPath = "\(path).channels[\(c)]"
                if channelIDs.filter({ $0 == channel.id }).count > 1 {
                    warn("channel id \(channel.id) is not unique in its perception", channelPath + ".id")
                }
                if let device = channel.referenceDeviceID, !perception.referenceDevices.contains(where: { $0.id == device }) {
                    warn("reference device \(device) does not exist", channelPath + ".reference_device_id")
                }
                let bandLimit = document.level == 1 ? 7 : 63
                if channel.bands.count > bandLimit {
                    warn("\(channel.bands.count) bands: level \(document.level) takes up to \(bandLimit)", channelPath + ".bands")
                }
                for (b, band) in channel.bands.enumerated() {
                    check(band, "\(channelPath).bands[\(b)]", simple: simple, library: libraryIDs, warn: warn)
                }
            }
        }
        for perception in document.perceptions {
            for channel in perception.channels {
                for band in channel.bands where band.type == .waveletWave {
                    let (samples, overflow) = HJIFSynthesis.blockSamples(of: band).multipliedReportingOverflow(by: band.effects.count)
                    guard overflow || samples > HJIFSynthesis.maxWaveletSamples else { continue }
                    issues.append(
                        HapticIssue(
                            .error, .invalidPatternData,
                            "a WaveletWave band of \(samples) samples; Thrum decodes at most \(HJIFSynthesis.maxWaveletSamples) (600 s at 48 kHz) a band",
                            suggestion: "split the file", path: "perceptions"))
                }
            }
        }
        let channels = HJIFSynthesis.channels(of: document)
        let scale = Double(max(document.timescale, 1))
        let total = channels.reduce(0) { $0 + $1.endTicks } / scale
        if total > HJIFPlayback.maxSignalSeconds {
            issues.append(
                HapticIssue(
                    .error, .invalidPatternData,
                    "the channels last \(seconds(total)) s together; Thrum plays at most \(Int(HJIFPlayback.maxSignalSeconds)) s of MPEG haptics (computed before it plays)",
                    suggestion: "split the file", path: "perceptions"))
        }
        // The encoder pads a wavelet band's last block to a whole block past the channel's sample count: no warning
        // for that padding.
        for channel in channels
        where channel.endTicks > channel.referenceTicks + 0.5 + (channel.bands.map { $0.blockTicks(channel.timescale) }.max() ?? 0) {
            warn(
                "MPEG's reference synthesizer stops this channel at \(seconds(channel.referenceTicks / scale)) s (the end of the effect that starts last in a band); Thrum plays it to \(seconds(channel.endTicks / scale)) s",
                "perceptions[\(channel.perception)].channels[\(channel.index)]",
                "put effects that outlast the last-starting one in a band of their own")
        }
        return issues
    }

    /// `value` with three decimals.
    static func seconds(_ value: Double) -> String {
        let millis = Int((value * 1000).rounded())
        return "\(millis / 1000).\(zeroPadded(millis % 1000, 3))"
    }

    /// Whether `version` is `YYYY` or `YYYY-N` with a year from 2023 and an amendment from 1.
    static func versionConforms(_ version: String) -> Bool {
        let parts = version.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts[0].count == 4, let year = Int(parts[0]), year >= 2023 else { return false }
        guard parts.count == 2 else { return true }
        return parts[1].count == 1 && (Int(parts[1]) ?? 0) > 0
    }

    static func check(
        _ band: HJIFBand, _ path: String, simple: Bool, library: [Int], warn: (String, String, String?) -> Void
    ) {
        if band.type != .curve && band.curveType != nil {
            warn("curve_type applies to Curve bands only", path + ".curve_type", nil)
        }
        if band.type == .waveletWave {
            if simple { warn("the Simple Parametric profile has no WaveletWave bands", path + ".band_type", nil) }
            if let length = band.blockLength, length & (length - 1) != 0 {
                warn("block_length \(length) is not a power of two", path + ".block_length", nil)
            }
        }
        if band.upperFrequencyLimit < band.lowerFrequencyLimit {
            warn("upper_frequency_limit is below lower_frequency_limit", path + ".upper_frequency_limit", nil)
        }
        for (e, effect) in band.effects.enumerated() {
            let effectPath = "\(path).effects[\(e)]"
            switch effect.type {
            case .reference:
                if let id = effect.id, !library.contains(id) {
                    warn("effect \(id) is not in the perception's effect_library: it plays nothing", effectPath + ".id", nil)
                }
            case .composite:
                if simple { warn("the Simple Parametric profile has no Composite effects", effectPath, nil) }
                if !effect.timeline.isEmpty {
                    warn(
                        "MPEG's reference HJIF reader ignores a Composite effect's timeline (its synthesizer plays nothing here); Thrum plays the timeline's effects",
                        effectPath + ".timeline", nil)
                }
            case .basis:
                break
            }
            if let semantic = effect.semantic, HJIFSemantics.code(of: semantic) == nil {
                warn("\"\(semantic)\" is not an effect semantic of ISO/IEC 23090-31", effectPath + ".semantic_keywords", nil)
            }
            checkKeyframes(effect, band: band, effectPath, warn: warn)
        }
    }

    static func checkKeyframes(_ effect: HJIFEffect, band: HJIFBand, _ path: String, warn: (String, String, String?) -> Void) {
        let positions = effect.keyframes.compactMap(\.position)
        if zip(positions, positions.dropFirst()).contains(where: { $0 > $1 }) {
            warn(
                "keyframes are not in time order; they are played in file order, as MPEG's reference synthesizer does",
                path + ".keyframes", "sort them by relative_position")
        }
        switch band.type {
        case .waveletWave:
            if !effect.keyframes.isEmpty { warn("an effect of a WaveletWave band has no keyframes; these are ignored", path + ".keyframes", nil) }
        case .transient:
            for (k, keyframe) in effect.keyframes.enumerated() where keyframe.amplitude == nil {
                warn(
                    "a Transient keyframe without amplitude_modulation: MPEG's reference synthesizer never finishes on it; Thrum leaves it out",
                    "\(path).keyframes[\(k)]", "add \"amplitude_modulation\"")
            }
        case .curve:
            guard effect.type == .basis else { return }
            if effect.keyframes.count == 2 || (effect.keyframes.count > 2 && effect.position != 0) {
                warn(
                    "MPEG's reference synthesizer leaves out a Curve effect with two keyframes or not at position 0; Thrum plays it",
                    path, nil)
            } else if effect.keyframes.count == 1 {
                warn("a Curve effect with one keyframe has no curve: it plays nothing", path + ".keyframes", nil)
            }
        case .vectorialWave:
            break
        }
    }
}

/// The effect semantics of ISO/IEC 23090-31 (`semantic_keywords`) and their binary codes: category × 256 +
/// the keyword's place in its category.
package enum HJIFSemantics {
    static let categories: [(name: String, keywords: [String])] = [
        ("UX", ["Undefined", "Click", "DoubleClick", "Success", "Error", "Alarm", "Confirmatioon", "Wrong", "Ring", "Message"]),
        ("Avatar", ["Undefined", "Jumping", "Fall", "Crawl", "Swim", "Collision", "Grab", "Touch", "Swip", "Footstep"]),
        ("SpecialFX", ["Undefined", "Washout", "Noise"]),
        (
            "WeaponCombat",
            [
                "Undefined", "Blade", "Hit", "HandThrown", "ElasticPropulsion", "Pneumatic", "Handgun", "Rifle", "Shotgun",
                "Gun", "Machinegun", "Taser", "ElectricShock", "Mine", "Missile", "Grenade", "Blast",
            ]
        ),
        (
            "Ambient",
            [
                "Undefined", "Wind", "Heat", "Cold", "Rain", "Waterfall", "WaterDrop", "ElectricBuzz", "Ignition", "Cracks",
                "Earthquack", "Sparks", "Thunderbolt",
            ]
        ),
        ("Texture", ["Undefined", "Rock", "Gravel", "Sand", "Wood", "Metal", "Plastic"]),
        (
            "Vehicle",
            [
                "Undefined", "Engine", "Doors", "Brake", "MechanicalContraption", "Drift", "RoadFriction", "RoadBump", "Tires",
                "AirFriction",
            ]
        ),
        (
            "Music",
            ["Undefined", "HardMaterial", "BouncyMaterial", "Pucking", "Bowing", "Striking", "BrassInstrument", "WoodWindInstrument"]
        ),
    ]

    /// The binary code of `keyword` ("UX/Click" → 1), or nil when it is not one.
    package static func code(of keyword: String) -> Int? {
        let parts = keyword.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let category = categories.firstIndex(where: { $0.name == parts[0] }),
            let index = categories[category].keywords.firstIndex(of: String(parts[1]))
        else { return nil }
        return category * 256 + index
    }

    /// The keyword of a binary code, or nil when there is none.
    package static func keyword(of code: Int) -> String? {
        let category = code / 256
        let index = code % 256
        guard categories.indices.contains(category), categories[category].keywords.indices.contains(index) else { return nil }
        return categories[category].name + "/" + categories[category].keywords[index]
    }
}
