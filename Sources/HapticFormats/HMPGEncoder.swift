import AHAPCodec
import FoundationEssentials
import ThrumModel

/// Writes `HJIFDocument` as an `.hmpg` stream that MPEG's reference decoder reads back: an initialization
/// unit (timing, the experience, perceptions, effect libraries, channels, bands), then one temporal unit per
/// packet duration that holds keyframes (silent units over the gaps), each band's effects cut at the packet
/// edges and continued by id. What the stream cannot hold is a loss (`HapticIssue` at the document's JSON
/// path): values are quantised (amplitudes to 8 bits over −1…1, gain and mixing weight to 32 bits, the
/// phase to 16 bits); Composite effects are written as their effects; effects whose keyframes lie more than
/// 65535 ticks after their start are cut into several; texts are cut to 255 bytes. Pure and thread-safe.
package enum HMPGEncoder {
    /// What encoding produced: the stream (nil when the document cannot be written) and every loss.
    package struct Result: Sendable {
        package var data: Data?
        package var issues: [HapticIssue]
    }

    /// The stream for `document`.
    package static func encode(_ document: HJIFDocument) -> Result {
        var issues: [HapticIssue] = []
        let prepared = HMPGPreparation.prepare(document, issues: &issues)
        guard !issues.contains(where: { $0.severity == .error }) else { return Result(data: nil, issues: issues) }
        let packet = max(1, Int((Double(document.timescale) * 0.128).rounded()))
        var stream = BitWriter()
        stream.append(unit(.initialization, duration: 0, packets: initializationPackets(prepared, packetTicks: packet)))
        let data = dataPackets(prepared, packetTicks: packet)
        var time = 0
        for window in data.keys.sorted() {
            let start = window * packet
            if start > time {
                stream.append(unit(.silent, duration: start - time, packets: []))
                time = start
            }
            stream.append(unit(.temporal, duration: packet, packets: data[window] ?? []))
            time += packet
        }
        return Result(data: Data(stream.bytes), issues: issues)
    }

    /// A unit of `type` holding `packets` (each a whole number of bytes).
    static func unit(_ type: HMPGFormat.Unit, duration: Int, packets: [BitWriter]) -> BitWriter {
        var unit = BitWriter()
        unit.write(type.rawValue, 6)
        unit.write(0, 2)  // sync: every data packet starts its effects' keyframes afresh or continues them by id
        unit.write(0, 4)  // layer
        unit.write(duration, 24)
        unit.write(packets.reduce(0) { $0 + $1.count } / 8, 32)
        unit.write(0, 4)
        for packet in packets { unit.append(packet) }
        return unit
    }

    /// A packet of `type` around `payload` (padded to whole bytes).
    static func packet(_ type: HMPGFormat.Packet, _ payload: BitWriter) -> BitWriter {
        var body = payload
        body.padToByte()
        var packet = BitWriter()
        packet.write(type.rawValue, 6)
        packet.write(body.count / 8, 17)
        packet.write(0, 1)
        packet.append(body)
        return packet
    }

    static func initializationPackets(_ document: HJIFDocument, packetTicks: Int) -> [BitWriter] {
        var packets: [BitWriter] = []
        var timing = BitWriter()
        timing.write(0, 32)
        timing.write(document.timescale, 32)
        timing.write(packetTicks, 24)
        timing.write(0, 24)
        timing.write(0, 1)
        packets.append(packet(.initializationTiming, timing))
        var experience = BitWriter()
        for text in [document.version, document.profile] { experience.shortString(text) }
        experience.write(document.level, 8)
        experience.shortString(document.date)
        experience.shortString(document.description)
        experience.write(document.perceptions.count, 8)
        experience.write(document.avatars.count, 8)
        for avatar in document.avatars {
            let type = HJIFAvatar.types.firstIndex(of: avatar.type) ?? 0
            experience.write(avatar.id, 8)
            experience.write(avatar.lod, 8)
            experience.write(type, 8)
            if type == 0 { experience.shortString(avatar.mesh ?? "") }
        }
        packets.append(packet(.metadataHaptics, experience))
        for perception in document.perceptions { packets.append(packet(.metadataPerception, perceptionMetadata(perception))) }
        for perception in document.perceptions where !perception.library.isEmpty {
            var library = BitWriter()
            library.write(perception.id, 8)
            library.write(perception.library.count, 16)
            for effect in perception.library { libraryEffect(effect, into: &library) }
            packets.append(packet(.effectLibrary, library))
        }
        for perception in document.perceptions {
            for channel in perception.channels { packets.append(packet(.metadataChannel, channelMetadata(channel, perception: perception.id))) }
        }
        var bandID = 0
        for perception in document.perceptions {
            for channel in perception.channels {
                for band in channel.bands {
                    var metadata = BitWriter()
                    metadata.write(bandID, 8)
                    metadata.write(perception.id, 8)
                    metadata.write(channel.id, 16)
                    metadata.write(band.priority ?? 0, 8)
                    metadata.write(band.type.rawValue, 3)
                    if band.type == .curve { metadata.write(band.curveType?.rawValue ?? 0, 4) }
                    if band.type == .waveletWave { metadata.write(band.blockLength ?? 0, 8) }
                    metadata.write(band.lowerFrequencyLimit, 16)
                    metadata.write(band.upperFrequencyLimit, 16)
                    metadata.write(band.effects.count, 16)
                    packets.append(packet(.metadataBand, metadata))
                    bandID += 1
                }
            }
        }
        return packets
    }

    static func perceptionMetadata(_ perception: HJIFPerception) -> BitWriter {
        var out = BitWriter()
        out.write(perception.id, 8)
        out.write(perception.priority ?? 0, 8)
        out.shortString(perception.description)
        out.write(HJIFPerception.modalities.firstIndex(of: perception.modality) ?? 0, 8)
        out.write(perception.avatarID, 8)
        out.write(perception.library.count, 16)
        if let scheme = perception.effectSemanticScheme {
            out.write(1, 1)
            out.shortString(scheme)
        } else {
            out.write(0, 1)
        }
        out.write(perception.unitExponent ?? -3, 8)
        out.write(perception.perceptionUnitExponent ?? 0, 8)
        out.write(perception.referenceDevices.count, 8)
        for device in perception.referenceDevices {
            out.write(device.id, 8)
            out.shortString(device.name)
            out.write(device.bodyPartMask ?? 0, 32)
            for key in HJIFReferenceDevice.numberKeys { out.write(device.numbers[key] == nil ? 0 : 1, 1) }
            out.write(device.type == nil ? 0 : 1, 1)
            for (k, key) in HJIFReferenceDevice.numberKeys.enumerated() {
                guard let value = device.numbers[key] else { continue }
                let maximum = k < 3 ? HMPGFormat.maxFrequency : HMPGFormat.maxFloat
                out.quantised(value, 32, key == "custom" ? -HMPGFormat.maxFloat : 0, maximum)
            }
            if let type = device.type { out.write(HJIFReferenceDevice.types.firstIndex(of: type) ?? 0, 4) }
        }
        out.write(perception.channels.count, 16)
        return out
    }

    static func channelMetadata(_ channel: HJIFChannel, perception: Int) -> BitWriter {
        var out = BitWriter()
        out.write(channel.id, 16)
        out.write(perception, 8)
        out.write(channel.priority ?? 0, 8)
        out.shortString(channel.description)
        out.write(channel.referenceDeviceID ?? 255, 8)
        out.quantised(channel.gain, 32, -HMPGFormat.maxFloat, HMPGFormat.maxFloat)
        out.quantised(channel.mixingCoefficient, 32, 0, HMPGFormat.maxFloat)
        let options = (channel.actuatorResolution == nil ? 1 : 2) | (channel.direction == nil ? 0 : 4)
        out.write(options, 8)
        if let resolution = channel.actuatorResolution {
            vector(resolution, into: &out)
            let targets = channel.bodyPartTargets ?? []
            out.write(targets.count, 8)
            for target in targets { out.write(HJIFChannel.bodyParts.first { $0.name == target }?.code ?? 0, 8) }
            let actuators = channel.actuatorTargets ?? []
            out.write(actuators.count, 8)
            for actuator in actuators { vector(actuator, into: &out) }
        } else {
            out.write(channel.bodyPartMask, 32)
        }
        out.write(channel.frequencySampling ?? 0, 32)
        if (channel.frequencySampling ?? 0) > 0 { out.write(channel.sampleCount ?? 0, 32) }
        if let direction = channel.direction { vector(direction, into: &out) }
        out.write(channel.vertices.count, 16)
        for vertex in channel.vertices { out.write(vertex, 32) }
        out.write(channel.bands.count, 8)
        return out
    }

    static func vector(_ vector: HJIFVector, into out: inout BitWriter) {
        out.write(vector.x, 8)
        out.write(vector.y, 8)
        out.write(vector.z, 8)
    }

    static func libraryEffect(_ effect: HJIFEffect, into out: inout BitWriter) {
        out.write(effect.id ?? 0, 16)
        out.write(effect.type.rawValue, 2)
        semantic(effect.semantic, into: &out)
        out.write(effect.position, 25)
        if effect.type == .basis {
            out.quantised(effect.phase ?? 0, 16, 0, HMPGFormat.maxPhase)
            out.write((effect.baseSignal ?? .sine).rawValue, 4)
        }
        out.write(effect.keyframes.count, 16)
        for keyframe in effect.keyframes {
            let mask = (keyframe.position == nil ? 0 : 1) | (keyframe.amplitude == nil ? 0 : 2) | (keyframe.frequency == nil ? 0 : 4)
            out.write(mask, 3)
            if let position = keyframe.position { out.write(position, 16) }
            if let amplitude = keyframe.amplitude { out.quantised(amplitude, 8, -1, 1) }
            if let frequency = keyframe.frequency { out.write(frequency, 16) }
        }
        out.write(effect.timeline.count, 16)
        for child in effect.timeline { libraryEffect(child, into: &out) }
    }

    static func semantic(_ keyword: String?, into out: inout BitWriter) {
        if let code = keyword.flatMap(HJIFSemantics.code(of:)) {
            out.write(1, 1)
            out.write(code, 12)
        } else {
            out.write(0, 1)
        }
    }
}
