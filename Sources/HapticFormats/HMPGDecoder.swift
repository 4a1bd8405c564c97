import AHAPCodec
import FoundationEssentials
import ThrumModel

/// The field widths and ranges of the `.hmpg` stream (ISO/IEC 23090-31's binary form, as MPEG's reference
/// software reads and writes it).
enum HMPGFormat {
    /// Unit header: type 6, sync 2, layer 4, duration 24, payload length 32 (bytes), reserved 4.
    static let unitHeaderBytes = 9
    /// Packet header: type 6, payload length 17 (bytes), reserved 1.
    static let packetHeaderBytes = 3
    static let maxFrequency: Float = 10_000
    static let maxFloat: Float = 10_000
    static let maxPhase: Float = 6.28318

    /// Unit types.
    enum Unit: Int { case initialization = 0, temporal, spatial, silent }

    /// Packet types.
    enum Packet: Int {
        case timing = 0, metadataHaptics, metadataPerception, metadataChannel, metadataBand, data, effectLibrary
        case crc32, crc16, globalCRC16, globalCRC32, initializationTiming
    }
}

/// Reads `.hmpg` streams (the binary form of MPEG haptics) into `HJIFDocument`: the units and packets MPEG's
/// reference encoder writes (initialization metadata, effect libraries, data packets whose effects continue
/// across packets), each problem an error at its byte offset (`path` "byte N (…)"), never a crash. Values
/// come back as the stream quantised them (amplitudes in 8 bits, gain in 32). Pure and thread-safe.
package enum HMPGDecoder {
    /// Decodes the bytes of a stream; `file` is only used in diagnostics.
    package static func decode(data: Data, file: String? = nil) -> HJIFDecodeResult {
        var reader = HMPGStreamReader(bytes: [UInt8](data), file: file)
        reader.readAll()
        var diagnostics = reader.diagnostics
        var document = reader.diagnostics.contains { $0.severity == .error } ? nil : reader.document
        if let found = document {
            diagnostics += HJIFChecks.issues(in: found).map { issue in
                // An error about the whole document is placed at the stream's start.
                Diagnostic(
                    issue.severity, file: file, path: issue.severity == .error ? "byte 0 (stream)" : issue.path,
                    message: issue.message, suggestion: issue.suggestion, code: issue.code)
            }
            if diagnostics.contains(where: { $0.severity == .error }) { document = nil }
        }
        return HJIFDecodeResult(document: document, diagnostics: diagnostics, sourceMap: SourceMap(file: file))
    }
}

/// The state of reading one stream: the document so far, the time of the current unit, the bands by id.
struct HMPGStreamReader {
    let bytes: [UInt8]
    let file: String?
    var document = HJIFDocument(version: "", profile: "", level: 0, date: "", timescale: HJIFDocument.defaultTimescale)
    var diagnostics: [Diagnostic] = []
    /// Ticks at the start of the current unit.
    var time = 0
    /// Band id → (perception index, channel index, band index).
    var bands: [Int: (perception: Int, channel: Int, band: Int)] = [:]
    /// Whether the stream began with an initialization unit (with its timing).
    var initialized = false
    var unitNumber = 0

    init(bytes: [UInt8], file: String?) {
        self.bytes = bytes
        self.file = file
    }

    mutating func fail(_ byte: Int, _ message: String, _ context: String) {
        diagnostics.append(
            Diagnostic(
                .error, file: file, path: "byte \(byte) (\(context))", message: message,
                suggestion: "the file is not an MPEG haptics stream, or it is cut short", code: .invalidPatternData))
    }

    mutating func readAll() {
        guard !bytes.isEmpty else {
            fail(0, "the file is empty", "stream")
            return
        }
        var offset = 0
        while offset < bytes.count && diagnostics.isEmpty {
            let context = "unit \(unitNumber)"
            guard offset + HMPGFormat.unitHeaderBytes <= bytes.count else {
                fail(offset, "a unit header needs \(HMPGFormat.unitHeaderBytes) bytes, \(bytes.count - offset) are left", context)
                return
            }
            var header = BitReader(bytes, from: offset, to: offset + HMPGFormat.unitHeaderBytes)
            let type = header.int(6)
            _ = header.int(2)  // sync
            _ = header.int(4)  // layer
            let duration = header.int(24)
            let length = header.int(32)
            guard HMPGFormat.Unit(rawValue: type) != nil else {
                fail(offset, "unknown unit type \(type)", context)
                return
            }
            let start = offset + HMPGFormat.unitHeaderBytes
            guard length <= bytes.count - start else {
                fail(offset, "the unit's payload of \(length) bytes runs past the end of the file", context)
                return
            }
            readPackets(from: start, to: start + length)
            time += duration
            offset = start + length
            unitNumber += 1
        }
        if diagnostics.isEmpty && !initialized {
            fail(0, "the stream has no initialization unit (its timescale and metadata)", "stream")
        }
    }

    mutating func readPackets(from start: Int, to end: Int) {
        var offset = start
        var number = 0
        while offset < end && diagnostics.isEmpty {
            let context = "unit \(unitNumber), packet \(number)"
            guard offset + HMPGFormat.packetHeaderBytes <= end else {
                fail(offset, "a packet header needs \(HMPGFormat.packetHeaderBytes) bytes, \(end - offset) are left in the unit", context)
                return
            }
            var header = BitReader(bytes, from: offset, to: offset + HMPGFormat.packetHeaderBytes)
            let type = header.int(6)
            let length = header.int(17)
            let payload = offset + HMPGFormat.packetHeaderBytes
            guard length <= end - payload else {
                fail(offset, "the packet's payload of \(length) bytes runs past the end of its unit", context)
                return
            }
            guard let kind = HMPGFormat.Packet(rawValue: type) else {
                fail(offset, "unknown packet type \(type)", context)
                return
            }
            var reader = BitReader(bytes, from: payload, to: payload + length)
            readPacket(kind, &reader, context: context + ", \(kind)")
            if diagnostics.isEmpty, let short = reader.overrun {
                fail(short / 8, "the \(kind) packet ends before its fields do", context)
            }
            offset = payload + length
            number += 1
        }
    }

    mutating func readPacket(_ kind: HMPGFormat.Packet, _ reader: inout BitReader, context: String) {
        switch kind {
        case .initializationTiming:
            time = reader.int(32)
            let timescale = reader.int(32)
            _ = reader.int(24)  // nominal duration
            _ = reader.int(24)  // duration deviation
            _ = reader.int(1)  // overlapping
            guard timescale > 0 else {
                fail(reader.byteOffset, "the timescale is 0", context)
                return
            }
            document.timescale = timescale
            if !document.syncs.contains(where: { $0.timestamp == time && $0.timescale == timescale }) {
                document.syncs.append(HJIFSync(timestamp: time, timescale: timescale))
            }
            initialized = true
        case .timing:
            let timestamp = reader.int(32)
            time = timestamp * 1000 / max(document.timescale, 1)
        case .metadataHaptics:
            readExperience(&reader, context: context)
        case .metadataPerception:
            readPerception(&reader, context: context)
        case .effectLibrary:
            readLibrary(&reader, context: context)
        case .metadataChannel:
            readChannel(&reader, context: context)
        case .metadataBand:
            readBand(&reader, context: context)
        case .data:
            readData(&reader, context: context)
        case .crc16, .crc32, .globalCRC16, .globalCRC32:
            break  // Checksums: the reference decoder only waits for the next sync when one fails.
        }
    }

    mutating func readExperience(_ reader: inout BitReader, context: String) {
        document.version = reader.shortString()
        document.profile = reader.shortString()
        document.level = reader.int(8)
        document.date = reader.shortString()
        document.description = reader.shortString()
        _ = reader.int(8)  // perception count
        let avatars = reader.int(8)
        document.avatars = []
        for _ in 0..<avatars where reader.overrun == nil {
            let id = reader.int(8)
            let lod = reader.int(8)
            let type = reader.int(8)
            let mesh = type == 0 ? reader.shortString() : nil
            guard HJIFAvatar.types.indices.contains(type) else {
                fail(reader.byteOffset, "unknown avatar type \(type)", context)
                return
            }
            document.avatars.append(HJIFAvatar(id: id, lod: lod, type: HJIFAvatar.types[type], mesh: mesh))
        }
    }

    mutating func readPerception(_ reader: inout BitReader, context: String) {
        var perception = HJIFPerception(id: reader.int(8))
        let priority = reader.int(8)
        perception.priority = priority == 0 ? nil : priority
        perception.description = reader.shortString()
        let modality = reader.int(8)
        guard HJIFPerception.modalities.indices.contains(modality) else {
            fail(reader.byteOffset, "unknown perception modality \(modality)", context)
            return
        }
        perception.modality = HJIFPerception.modalities[modality]
        perception.avatarID = reader.int(8)
        _ = reader.int(16)  // library size
        if reader.int(1) == 1 { perception.effectSemanticScheme = reader.shortString() }
        perception.unitExponent = reader.signed(8)
        perception.perceptionUnitExponent = reader.signed(8)
        let devices = reader.int(8)
        for _ in 0..<devices where reader.overrun == nil {
            guard let device = readDevice(&reader, context: context) else { return }
            perception.referenceDevices.append(device)
        }
        _ = reader.int(16)  // channel count
        if let index = document.perceptions.firstIndex(where: { $0.id == perception.id }) {
            perception.library = document.perceptions[index].library
            perception.channels = document.perceptions[index].channels
            document.perceptions[index] = perception
        } else {
            document.perceptions.append(perception)
        }
    }

    mutating func readDevice(_ reader: inout BitReader, context: String) -> HJIFReferenceDevice? {
        var device = HJIFReferenceDevice(id: reader.int(8), name: reader.shortString())
        device.bodyPartMask = reader.int(32)
        let mask = reader.int(12)
        for (k, key) in HJIFReferenceDevice.numberKeys.enumerated() where mask & (1 << (11 - k)) != 0 {
            let frequency = k < 3
            let minimum: Float = key == "custom" ? -HMPGFormat.maxFloat : 0
            device.numbers[key] = reader.quantised(32, minimum, frequency ? HMPGFormat.maxFrequency : HMPGFormat.maxFloat)
        }
        if mask & 1 != 0 {
            let type = reader.int(4)
            guard HJIFReferenceDevice.types.indices.contains(type) else {
                fail(reader.byteOffset, "unknown actuator type \(type)", context)
                return nil
            }
            device.type = HJIFReferenceDevice.types[type]
        }
        return device
    }

    mutating func readLibrary(_ reader: inout BitReader, context: String) {
        let id = reader.int(8)
        guard let p = document.perceptions.firstIndex(where: { $0.id == id }) else {
            fail(reader.byteOffset, "an effect library for perception \(id), which the stream has not described", context)
            return
        }
        let count = reader.int(16)
        for _ in 0..<count where reader.overrun == nil {
            guard let effect = readLibraryEffect(&reader, depth: 0, context: context) else { return }
            document.perceptions[p].library.append(effect)
        }
    }

    mutating func readLibraryEffect(_ reader: inout BitReader, depth: Int, context: String) -> HJIFEffect? {
        let id = reader.int(16)
        let typeCode = reader.int(2)
        guard let type = HJIFEffectType(rawValue: typeCode), depth < 16 else {
            fail(reader.byteOffset, depth < 16 ? "unknown effect type \(typeCode)" : "effects nested too deep", context)
            return nil
        }
        var effect = HJIFEffect(type: type, id: id, position: 0)
        if reader.int(1) == 1 {
            guard let semantic = readSemantic(&reader, context: context) else { return nil }
            effect.semantic = semantic
        }
        effect.position = reader.int(25)
        if type == .basis {
            effect.phase = reader.quantised(16, 0, HMPGFormat.maxPhase)
            effect.baseSignal = HJIFBaseSignal(rawValue: reader.int(4))
            if effect.baseSignal == nil {
                fail(reader.byteOffset, "unknown base signal", context)
                return nil
            }
        }
        let keyframes = reader.int(16)
        for _ in 0..<keyframes where reader.overrun == nil {
            let mask = reader.int(3)
            let position = mask & 1 != 0 ? reader.int(16) : nil
            let amplitude = mask & 2 != 0 ? reader.quantised(8, -1, 1) : nil
            let frequency = mask & 4 != 0 ? reader.int(16) : nil
            effect.keyframes.append(HJIFKeyframe(position: position, amplitude: amplitude, frequency: frequency))
        }
        let timeline = reader.int(16)
        for _ in 0..<timeline where reader.overrun == nil {
            guard let child = readLibraryEffect(&reader, depth: depth + 1, context: context) else { return nil }
            effect.timeline.append(child)
        }
        return effect
    }

    mutating func readSemantic(_ reader: inout BitReader, context: String) -> String? {
        let code = reader.int(12)
        guard let keyword = HJIFSemantics.keyword(of: code) else {
            fail(reader.byteOffset, "unknown effect semantic \(code)", context)
            return nil
        }
        return keyword
    }
}
