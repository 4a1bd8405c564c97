import Foundation
import Testing
import ThrumModel

@testable import RenderCore

/// Golden renders: raw little-endian float32, interleaved L, R, H at 8000 Hz, in `Golden/`.
/// Re-record with `RECORD_GOLDEN=1 swift test --filter Golden` (a recording run fails, so it is never
/// mistaken for a check; run again without it). Tolerance: 1e-6 per sample.
@Suite("Golden renders")
struct GoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let tolerance: Float = 1e-6

    static func cases() throws -> [(String, CompiledPattern)] {
        let transient = PatternData(events: [
            event(.hapticTransient, 0.01, [(.hapticIntensity, 0.9), (.hapticSharpness, 0.4)]),
            event(.hapticTransient, 0.05, [(.hapticIntensity, 0.5), (.hapticSharpness, 1)]),
        ])
        let continuous = PatternData(
            events: [
                event(.hapticContinuous, 0.005, duration: 0.15, [(.hapticIntensity, 0.8), (.attackTime, 0.2), (.releaseTime, 0.3)])
            ],
            curves: [
                ParameterCurveData(
                    id: .hapticIntensityControl, time: 0.02,
                    points: [ControlPointData(time: 0, value: 1), ControlPointData(time: 0.1, value: 0.3)]),
                ParameterCurveData(
                    id: .hapticSharpnessControl, time: 0,
                    points: [ControlPointData(time: 0, value: 0), ControlPointData(time: 0.15, value: 0.7)]),
            ])
        let tone = PatternData(events: [
            event(.audioContinuous, 0.01, duration: 0.1, [(.audioPitch, -0.3), (.audioBrightness, 0.5), (.audioPan, 0.4)])
        ])
        var samples: [Float] = []
        for i in 0..<600 {
            let x = Double(i)
            let decay = exp(-x / 300)
            samples.append(Float(sin(x * 0.13) * 0.6 * decay))
        }
        let buffer = SampleBuffer(samples: samples, sampleRate: 8000)
        let custom = PatternData(events: [
            EventData(
                type: .audioCustom, time: 0.02, duration: 0.05,
                parameters: [EventParameterData(id: .audioVolume, value: 0.8), EventParameterData(id: .audioPan, value: -0.5)])
        ])
        return [
            ("transient", try compile(transient)),
            ("continuous-curve", try compile(continuous)),
            ("audio-tone", try compile(tone)),
            ("audio-custom", try compile(custom, buffers: [0: buffer])),
        ]
    }

    @Test("renders match the committed golden files", arguments: ["transient", "continuous-curve", "audio-tone", "audio-custom"])
    func golden(name: String) throws {
        let pattern = try #require(try Self.cases().first { $0.0 == name }?.1)
        let frames = 2000
        let rendered = render(pattern, frames: frames, blockSize: 97).interleaved
        let url = Self.directory.appendingPathComponent("\(name).f32")
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            var data = Data()
            for x in rendered { withUnsafeBytes(of: x.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
            try data.write(to: url)
            Issue.record("recorded golden \(name).f32 (RECORD_GOLDEN=1 never passes); run again without RECORD_GOLDEN")
            return
        }
        let data = try Data(contentsOf: url)
        #expect(data.count == rendered.count * 4)
        let golden: [Float] = stride(from: 0, to: data.count, by: 4).map { i in
            Float(bitPattern: UInt32(littleEndian: data[i..<(i + 4)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }))
        }
        var worst: Float = 0
        for i in 0..<min(golden.count, rendered.count) { worst = max(worst, abs(golden[i] - rendered[i])) }
        #expect(worst <= Self.tolerance, "\(name): max difference \(worst)")
        #expect(rendered.contains { $0 != 0 })
    }
}

@Suite("Channel map")
struct ChannelMapTests {
    @Test("parses the documented forms")
    func parse() throws {
        #expect(try ChannelMap(parsing: "L+H,R+H").sources == [.leftHaptic, .rightHaptic])
        #expect(try ChannelMap(parsing: "L,R,H").sources == [.left, .right, .haptic])
        #expect(try ChannelMap(parsing: "m, h").sources == [.mono, .haptic])
        #expect(try ChannelMap(parsing: "0,H").sources == [.silence, .haptic])
        #expect(try ChannelMap(parsing: "M+H").description == "M+H")
    }

    @Test("an invalid entry is named, with the valid ones listed")
    func invalid() {
        do {
            _ = try ChannelMap(parsing: "L,X+H")
            Issue.record("expected an error")
        } catch {
            #expect(error == .invalidEntry(index: 2, entry: "X+H"))
            #expect(error.description.contains("entry 2 'X+H'"))
            #expect(error.description.contains("L, R, M, H, L+H, R+H, M+H, 0"))
        }
        #expect(throws: ChannelMapError.empty) { try ChannelMap(parsing: "") }
    }

    @Test("H:NAME entries name actuators: one bus each, in order of first appearance; H is the default actuator")
    func actuators() throws {
        let map = try ChannelMap(parsing: "L, R, H:leftHandle, h:RIGHTHANDLE, L+H:woofer, M+H:leftHandle, H, 0")
        #expect(map.sources == [.left, .right, .haptic, .haptic, .leftHaptic, .monoHaptic, .haptic, .silence])
        #expect(map.channelActuators == [nil, nil, "leftHandle", "rightHandle", "woofer", "leftHandle", "default", nil])
        #expect(map.actuators == ["leftHandle", "rightHandle", "woofer", "default"])
        #expect(map.description == "L,R,H:leftHandle,H:rightHandle,L+H:woofer,M+H:leftHandle,H,0")
        #expect(try ChannelMap(parsing: "H:default,H").actuators == ["default"])
        #expect(try ChannelMap(parsing: "L,R").actuators == ["default"])
        #expect(try ChannelMap(parsing: "L,R,H:leftHandle,H:rightHandle") == .dualSense)
        #expect(ChannelMap.dualSense.description == "L,R,H:leftHandle,H:rightHandle")
    }

    @Test("a wrong actuator is named with the fix: groups, names on audio entries, bad names, too many")
    func wrongActuators() {
        func message(_ text: String) -> String {
            do {
                _ = try ChannelMap(parsing: text)
                return "parsed"
            } catch { return error.description }
        }
        #expect(
            message("L,H:handles")
                == "channel map: entry 2 'H:handles': 'handles' is a group of actuators; a channel carries one actuator (H:leftHandle, H:rightHandle)")
        #expect(message("H:all").contains("'all' is a group of actuators"))
        #expect(
            message("L:woofer")
                == "channel map: entry 1 'L:woofer': only entries with H carry an actuator (e.g. H:woofer or L+H:woofer)")
        #expect(message("H:9x").contains("'9x' is not an actuator name; use letters, digits, _ and -"))
        #expect(message("H:").contains("'' is not an actuator name"))
        #expect(message("X:woofer").contains("entry 1 'X:woofer' is not valid"))
        let many = (0...ChannelMap.maxActuators).map { "H:t\($0)" }.joined(separator: ",")
        #expect(message(many) == "channel map: 65 actuators; at most 64 are driven")
    }

    @Test("interleave: each channel carries its actuator's bus")
    func interleaveBuses() throws {
        let map = try ChannelMap(parsing: "H:b,L+H:a,H")
        let l: [Float] = [0.25, 0.5]
        let r: [Float] = [0, 0]
        let buses: [Float] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]  // bus 0 (b), 1 (a), 2 (default), stride 2
        var out = [Float](repeating: 7, count: 6)
        out.withUnsafeMutableBufferPointer { o in
            map.interleave(audioL: l, audioR: r, haptics: buses, hapticStride: 2, frameCount: 2, into: o.baseAddress!)
        }
        #expect(out == [0.1, 0.25 + 0.3, 0.5, 0.2, 0.5 + 0.4, 0.6])
    }

    @Test("interleave: layout, mono = 0.5 × (L + R), sums never beyond ±1")
    func interleave() throws {
        let map = try ChannelMap(parsing: "L,R,M,H,L+H,M+H,0")
        let l: [Float] = [0.5, 0.9, -1.5]
        let r: [Float] = [0.1, 0.9, -1.5]
        let h: [Float] = [0.2, 0.9, -0.99]
        var out = [Float](repeating: 7, count: 21)
        out.withUnsafeMutableBufferPointer { o in
            map.interleave(audioL: l, audioR: r, haptics: h, hapticStride: 3, frameCount: 3, into: o.baseAddress!)
        }
        #expect(Array(out[0..<7]) == [0.5, 0.1, 0.3, 0.2, 0.7, 0.5, 0])
        #expect(out.allSatisfy { abs($0) <= 1 })
        #expect(out[7 + 4] > 0.9 && out[7 + 4] < 1)  // 1.8 soft-limited
    }
}
