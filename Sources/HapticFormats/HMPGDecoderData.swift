extension HMPGStreamReader {
    /// The index of perception `id`, or nil after reporting it.
    mutating func perception(_ id: Int, _ reader: BitReader, _ context: String) -> Int? {
        if let index = document.perceptions.firstIndex(where: { $0.id == id }) { return index }
        fail(reader.byteOffset, "perception \(id) has not been described before this packet", context)
        return nil
    }

    mutating func readChannel(_ reader: inout BitReader, context: String) {
        var channel = HJIFChannel(id: reader.int(16))
        guard let p = perception(reader.int(8), reader, context) else { return }
        let priority = reader.int(8)
        channel.priority = priority == 0 ? nil : priority
        channel.description = reader.shortString()
        let device = reader.int(8)
        channel.referenceDeviceID = device < 255 ? device : nil
        channel.gain = reader.quantised(32, -HMPGFormat.maxFloat, HMPGFormat.maxFloat)
        channel.mixingCoefficient = reader.quantised(32, 0, HMPGFormat.maxFloat)
        let options = reader.int(8)
        if options & 1 != 0 {
            channel.bodyPartMask = reader.int(32)
        } else if options & 2 != 0 {
            channel.actuatorResolution = readVector(&reader)
            var targets: [String] = []
            for _ in 0..<reader.int(8) where reader.overrun == nil {
                let code = reader.int(8)
                guard let part = HJIFChannel.bodyParts.first(where: { $0.code == code }) else {
                    fail(reader.byteOffset, "unknown body part target \(code)", context)
                    return
                }
                targets.append(part.name)
            }
            channel.bodyPartTargets = targets
            var actuators: [HJIFVector] = []
            for _ in 0..<reader.int(8) where reader.overrun == nil { actuators.append(readVector(&reader)) }
            channel.actuatorTargets = actuators
        }
        let sampling = reader.int(32)
        if sampling > 0 {
            channel.frequencySampling = sampling
            channel.sampleCount = reader.int(32)
        }
        if options & 4 != 0 { channel.direction = readVector(&reader) }
        for _ in 0..<reader.int(16) where reader.overrun == nil { channel.vertices.append(reader.int(32)) }
        _ = reader.int(8)  // band count
        if let c = document.perceptions[p].channels.firstIndex(where: { $0.id == channel.id }) {
            channel.bands = document.perceptions[p].channels[c].bands
            document.perceptions[p].channels[c] = channel
        } else {
            document.perceptions[p].channels.append(channel)
        }
    }

    mutating func readVector(_ reader: inout BitReader) -> HJIFVector {
        HJIFVector(x: reader.signed(8), y: reader.signed(8), z: reader.signed(8))
    }

    /// The indices of the channel `id` in perception `p`, or nil after reporting it.
    mutating func channel(_ id: Int, in p: Int, _ reader: BitReader, _ context: String) -> Int? {
        if let index = document.perceptions[p].channels.firstIndex(where: { $0.id == id }) { return index }
        fail(reader.byteOffset, "channel \(id) of perception \(document.perceptions[p].id) has not been described", context)
        return nil
    }

    mutating func readBand(_ reader: inout BitReader, context: String) {
        let id = reader.int(8)
        guard let p = perception(reader.int(8), reader, context), let c = channel(reader.int(16), in: p, reader, context) else {
            return
        }
        let priority = reader.int(8)
        let typeCode = reader.int(3)
        guard let type = HJIFBandType(rawValue: typeCode) else {
            fail(reader.byteOffset, "unknown band type \(typeCode)", context)
            return
        }
        var band = HJIFBand(type: type, priority: priority == 0 ? nil : priority)
        if type == .curve {
            let curve = reader.int(4)
            guard let curveType = HJIFCurveType(rawValue: curve) else {
                fail(reader.byteOffset, "unknown curve type \(curve)", context)
                return
            }
            band.curveType = curveType
        } else if type == .waveletWave {
            band.blockLength = reader.int(8)
        }
        band.lowerFrequencyLimit = reader.int(16)
        band.upperFrequencyLimit = reader.int(16)
        _ = reader.int(16)  // effect count
        if let known = bands[id], known.perception == p, known.channel == c {
            band.effects = document.perceptions[p].channels[c].bands[known.band].effects
            document.perceptions[p].channels[c].bands[known.band] = band
        } else {
            bands[id] = (p, c, document.perceptions[p].channels[c].bands.count)
            document.perceptions[p].channels[c].bands.append(band)
        }
    }

    mutating func readData(_ reader: inout BitReader, context: String) {
        _ = reader.int(1)  // access unit type (random access or dependent)
        guard let p = perception(reader.int(8), reader, context), let c = channel(reader.int(16), in: p, reader, context) else {
            return
        }
        let bandID = reader.int(8)
        guard let place = bands[bandID], place.perception == p, place.channel == c else {
            fail(reader.byteOffset, "band \(bandID) has not been described for this channel", context)
            return
        }
        let band = document.perceptions[p].channels[c].bands[place.band]
        let count = reader.int(16)
        var effects: [HJIFEffect] = []
        if band.type == .waveletWave {
            guard count > 0 else { return }
            let id = reader.int(16)
            _ = reader.int(2)  // effect type
            var effect = HJIFEffect(type: .basis, id: id, position: 0)
            if reader.int(1) == 1 {
                guard let semantic = readSemantic(&reader, context: context) else { return }
                effect.semantic = semantic
            }
            // The reference decoder places block k at k × block length ticks (in its units).
            let upper = max(band.upperFrequencyLimit, 1)
            effect.position = document.timescale * (band.blockLength ?? 0) * band.effects.count / upper
            var stream: [UInt8] = []
            for _ in 0..<reader.int(16) where reader.overrun == nil { stream.append(UInt8(reader.int(8))) }
            effect.waveletStream = stream
            effects.append(effect)
        } else {
            for _ in 0..<count where reader.overrun == nil {
                guard let effect = readEffect(&reader, band: band.type, context: context) else { return }
                effects.append(effect)
            }
        }
        for effect in effects { add(effect, to: (p, c, place.band)) }
    }

    mutating func readEffect(_ reader: inout BitReader, band: HJIFBandType, context: String) -> HJIFEffect? {
        let id = reader.int(16)
        let typeCode = reader.int(2)
        guard let type = HJIFEffectType(rawValue: typeCode) else {
            fail(reader.byteOffset, "unknown effect type \(typeCode)", context)
            return nil
        }
        var effect = HJIFEffect(type: type, id: id, position: reader.signed(25) + time)
        guard type == .basis else { return effect }
        if reader.int(1) == 1 {
            guard let semantic = readSemantic(&reader, context: context) else { return nil }
            effect.semantic = semantic
        }
        let keyframes = reader.int(16)
        if band == .vectorialWave {
            effect.phase = reader.quantised(16, 0, HMPGFormat.maxPhase)
            let code = reader.int(4)
            guard let signal = HJIFBaseSignal(rawValue: code) else {
                fail(reader.byteOffset, "unknown base signal \(code)", context)
                return nil
            }
            effect.baseSignal = signal
        }
        for _ in 0..<keyframes where reader.overrun == nil {
            switch band {
            case .transient:
                let amplitude = reader.quantised(8, -1, 1)
                let position = reader.int(16)
                effect.keyframes.append(HJIFKeyframe(position: position, amplitude: amplitude, frequency: reader.int(16)))
            case .curve:
                let amplitude = reader.quantised(8, -1, 1)
                effect.keyframes.append(HJIFKeyframe(position: reader.int(16), amplitude: amplitude))
            case .vectorialWave:
                let mask = reader.int(2)
                let amplitude = mask & 1 != 0 ? reader.quantised(8, -1, 1) : nil
                let position = reader.int(16)
                let frequency = mask & 2 != 0 ? reader.int(16) : nil
                effect.keyframes.append(HJIFKeyframe(position: position, amplitude: amplitude, frequency: frequency))
            case .waveletWave:
                break
            }
        }
        return effect
    }

    /// Adds a decoded effect to its band: keyframes of a Basis effect the band already has (same id, from
    /// an earlier packet) continue it; anything else is placed by position after those at the same time.
    mutating func add(_ effect: HJIFEffect, to place: (perception: Int, channel: Int, band: Int)) {
        var band = document.perceptions[place.perception].channels[place.channel].bands[place.band]
        if effect.type == .basis, band.type != .waveletWave, let existing = band.effects.firstIndex(where: { $0.id == effect.id }) {
            band.effects[existing].keyframes += effect.keyframes
        } else {
            let index = band.effects.firstIndex { $0.position > effect.position } ?? band.effects.count
            band.effects.insert(effect, at: index)
        }
        document.perceptions[place.perception].channels[place.channel].bands[place.band] = band
    }
}
