import AHAPCodec
import FoundationEssentials
import Glibc
import ThrumModel

/// Fits an `HJIFDocument` to what the `.hmpg` stream holds before it is written, reporting each change as a
/// loss (or an error where nothing fits): ids within their field widths, channel ids unique across
/// perceptions (the reference decoder finds channels by id alone), Composite effects flattened, keyframes
/// in time order, each effect's keyframes within 0…65535 ticks of its start (longer effects cut), texts
/// within 255 bytes, unknown semantics dropped, and the ids that tie an effect's packets together.
enum HMPGPreparation {
    static func prepare(_ original: HJIFDocument, issues: inout [HapticIssue]) -> HJIFDocument {
        var document = original
        func loss(_ message: String, _ path: String) { issues.append(HapticIssue(.warning, nil, message, path: path)) }
        func error(_ message: String, _ path: String) {
            issues.append(HapticIssue(.error, .invalidPatternData, message, suggestion: "write HJIF (.hjif) instead", path: path))
        }
        for key in ["version", "profile", "date", "description"] {
            let text = key == "version" ? document.version : key == "profile" ? document.profile : key == "date" ? document.date : document.description
            if text.utf8.count > 255 { loss("the stream keeps the first 255 bytes of \(key)", key) }
        }
        if !(1...Int(UInt32.max)).contains(document.timescale) { error("timescale \(document.timescale) does not fit 32 bits", "timescale") }
        if !(0...255).contains(document.level) { error("level \(document.level) does not fit 8 bits", "level") }
        if document.perceptions.count > 255 || document.avatars.count > 255 {
            error("the stream holds at most 255 perceptions and 255 avatars", "perceptions")
        }
        for (a, avatar) in document.avatars.enumerated() where !(0...255).contains(avatar.id) || !(0...255).contains(avatar.lod) {
            error("avatar id and lod must fit 8 bits", "avatars[\(a)]")
        }
        if document.syncs.contains(where: { $0.timestamp != 0 }) {
            loss("sync points are not written: the stream starts with one at 0", "syncs")
        }
        let channelIDs = document.perceptions.flatMap { $0.channels.map(\.id) }
        let renumber = Set(channelIDs).count != channelIDs.count || channelIDs.contains { !(0...65_535).contains($0) }
        if renumber { loss("channel ids are renumbered 0, 1, … across perceptions (the stream finds a channel by its id alone)", "perceptions") }
        var nextChannel = 0
        var bandCount = 0
        for p in document.perceptions.indices {
            let path = "perceptions[\(p)]"
            var perception = document.perceptions[p]
            if !(0...255).contains(perception.id) || !(0...255).contains(perception.avatarID) {
                error("perception id and avatar_id must fit 8 bits", path)
            }
            if perception.unitExponent == nil || perception.perceptionUnitExponent == nil {
                loss("the stream always holds the unit exponents (the defaults −3 and 0 are written)", path)
            }
            for (d, device) in perception.referenceDevices.enumerated() where !(0...254).contains(device.id) {
                error("reference device id \(device.id) does not fit (0…254)", "\(path).reference_devices[\(d)]")
            }
            for (e, effect) in perception.library.enumerated() where !(0...65_535).contains(effect.id ?? 0) || effect.position < 0 {
                error("a library effect needs an id within 0…65535 and a position ≥ 0", "\(path).effect_library[\(e)]")
            }
            for c in perception.channels.indices {
                let channelPath = "\(path).channels[\(c)]"
                var channel = perception.channels[c]
                if renumber {
                    channel.id = nextChannel
                    nextChannel += 1
                }
                if channel.actuatorResolution != nil && channel.bodyPartMask != 0 {
                    loss("body_part_mask is not written for a channel with actuator_resolution", channelPath + ".body_part_mask")
                }
                if channel.bands.count > 255 { error("a channel holds at most 255 bands", channelPath + ".bands") }
                for b in channel.bands.indices {
                    channel.bands[b] = prepare(channel.bands[b], library: perception.library, timescale: document.timescale,
                        path: "\(channelPath).bands[\(b)]", loss: loss, error: error)
                }
                bandCount += channel.bands.count
                perception.channels[c] = channel
            }
            document.perceptions[p] = perception
        }
        if bandCount > 256 { error("the stream holds at most 256 bands in all", "perceptions") }
        return document
    }

    static func prepare(
        _ original: HJIFBand, library: [HJIFEffect], timescale: Int, path: String, loss: (String, String) -> Void,
        error: (String, String) -> Void
    ) -> HJIFBand {
        var band = original
        if !(0...65_535).contains(band.lowerFrequencyLimit) || !(0...65_535).contains(band.upperFrequencyLimit) {
            loss("frequency limits are clamped to 0…65535", path)
            band.lowerFrequencyLimit = min(max(band.lowerFrequencyLimit, 0), 65_535)
            band.upperFrequencyLimit = min(max(band.upperFrequencyLimit, 0), 65_535)
        }
        if band.effects.contains(where: { $0.type == .composite }) {
            loss("Composite effects are written as the effects of their timelines", path)
            band.effects = band.effects.flatMap { $0.type == .composite ? HJIFSynthesis.flatten([$0], library: []) : [$0] }
        }
        var effects: [HJIFEffect] = []
        for (e, original) in band.effects.enumerated() {
            var effect = original
            let effectPath = "\(path).effects[\(e)]"
            if let semantic = effect.semantic, HJIFSemantics.code(of: semantic) == nil {
                loss("semantic keyword \"\(semantic)\" has no code in the stream and is dropped", effectPath)
                effect.semantic = nil
            }
            if effect.position < 0 || effect.position > 1 << 30 {
                error("effect position \(effect.position) is outside what the stream holds", effectPath)
                continue
            }
            guard effect.type == .basis, band.type != .waveletWave else {
                if band.type == .waveletWave, (effect.waveletStream?.count ?? 0) > 65_535 {
                    error("a wavelet block holds at most 65535 bytes", effectPath)
                }
                effects.append(effect)
                continue
            }
            let positions = effect.keyframes.map { $0.position ?? 0 }
            if effect.keyframes.contains(where: { $0.position == nil }) {
                loss("keyframes without relative_position are written at 0", effectPath)
            }
            if zip(positions, positions.dropFirst()).contains(where: { $0 > $1 }) {
                loss("keyframes are written in time order", effectPath)
            }
            effect.keyframes = zip(effect.keyframes, positions).map { keyframe, position in
                HJIFKeyframe(
                    position: position, amplitude: keyframe.amplitude ?? (band.type == .vectorialWave ? nil : 0),
                    frequency: keyframe.frequency.map { min(max($0, 0), 65_535) } ?? (band.type == .transient ? 0 : nil))
            }.enumerated().sorted { a, b in
                a.element.position! != b.element.position! ? a.element.position! < b.element.position! : a.offset < b.offset
            }.map(\.element)
            if original.keyframes.contains(where: { !(0...65_535).contains($0.frequency ?? 0) }) {
                loss("frequencies are clamped to 0…65535 Hz", effectPath)
            }
            if let first = effect.keyframes.first?.position, first < 0 {
                loss("keyframes before their effect's start are written at its start", effectPath)
                effect.keyframes = effect.keyframes.map { HJIFKeyframe(position: max($0.position ?? 0, 0), amplitude: $0.amplitude, frequency: $0.frequency) }
            }
            let pieces = cut(effect, band: band, timescale: timescale)
            if pieces.count > 1 { loss("an effect longer than 65535 ticks is written as \(pieces.count) effects", effectPath) }
            effects += pieces
        }
        for e in effects.indices where effects[e].type == .basis { effects[e].id = e }
        if effects.count > 65_535 { error("a band holds at most 65535 effects", path) }
        band.effects = effects
        return band
    }

    /// `effect` cut at keyframes into effects whose keyframes lie within 65535 ticks of their start: each
    /// piece starts at the keyframe that ends the one before (with the amplitude, frequency and phase the
    /// first one plays there), so that the pieces play as the whole.
    static func cut(_ effect: HJIFEffect, band: HJIFBand, timescale: Int) -> [HJIFEffect] {
        var pieces: [HJIFEffect] = []
        var rest = effect
        while let last = rest.keyframes.last?.position, last > 65_535, rest.keyframes.count > 1 {
            let keyframes = rest.keyframes
            var split = keyframes.lastIndex { ($0.position ?? 0) <= 65_535 } ?? 0
            if split == 0 { split = 1 }
            let at = keyframes[split].position ?? 0
            var head = rest
            head.keyframes = Array(keyframes[...split])
            var tail = rest
            tail.position = rest.position + at
            tail.keyframes = keyframes[split...].map { HJIFKeyframe(position: ($0.position ?? 0) - at, amplitude: $0.amplitude, frequency: $0.frequency) }
            if band.type == .vectorialWave {
                var wave = HJIFSynthesis.VectorialWave(rest, lower: band.lowerFrequencyLimit, upper: band.upperFrequencyLimit, timescale: timescale)
                let state = wave.state(at: Double(at))
                tail.keyframes[0].amplitude = tail.keyframes[0].amplitude ?? Float(state.amplitude)
                tail.keyframes[0].frequency = tail.keyframes[0].frequency ?? Int(state.frequency.rounded())
                head.keyframes[split].amplitude = tail.keyframes[0].amplitude
                head.keyframes[split].frequency = tail.keyframes[0].frequency
                tail.phase = Float(state.phase.truncatingRemainder(dividingBy: 2 * Double.pi) + (state.phase < 0 ? 2 * Double.pi : 0))
            }
            pieces.append(head)
            rest = tail
        }
        pieces.append(rest)
        return pieces
    }
}
