import Foundation
import ThrumTestSupport

/// Runs the `thrum` built beside the tests with the simulated cards visible (`ALSA_CONFIG_PATH`).
struct ThrumProcess {
    var status: Int32
    var output: String
    var errors: String

    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("thrum").path

    /// Runs `thrum arguments…`, or `prefix… thrum arguments…` (e.g. setpriv), and waits for it.
    static func run(_ arguments: [String], card: SimulatedCardRun? = nil, prefix: [String] = []) throws -> ThrumProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prefix.first ?? executable)
        process.arguments = prefix.isEmpty ? arguments : Array(prefix.dropFirst()) + [executable] + arguments
        process.environment = try SimulatedCard.environment(extraConfigurations: card?.configurationFile().map { [$0] } ?? [])
        // Output to files, not pipes: nothing can fill up and block the process.
        let folder = TemporaryDirectory("cli")
        let out = try folder.write("out", "")
        let err = try folder.write("err", "")
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        process.waitUntilExit()
        return ThrumProcess(
            status: process.terminationStatus,
            output: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}

/// Interleaved integer samples (float samples as their bit patterns), one array per file or capture.
struct Samples: Equatable {
    var channels: Int
    var values: [Int64]
    var frames: Int { channels > 0 ? values.count / channels : 0 }
    func value(frame: Int, channel: Int) -> Int64 { values[frame * channels + channel] }

    /// A raw capture in an ALSA format (little-endian formats only: those are what the profiles take).
    init(capture bytes: [UInt8], format: String, channels: Int) {
        self.channels = channels
        let width: Int
        switch format {
        case "S16_LE": width = 2
        case "S24_3LE": width = 3
        default: width = 4  // S32_LE, S24_LE, FLOAT_LE
        }
        let signed = format != "FLOAT_LE"
        let bits = format == "S24_LE" ? 24 : width * 8
        values = Self.decode(bytes[...], width: width, bits: bits, signed: signed)
    }

    /// The data chunk of a WAV file (PCM 16/24/32 or IEEE float).
    init(wav path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        var offset = 12
        var channels = 0
        var bits = 0
        var isFloat = false
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = u32(offset + 4)
            if id == "fmt " {
                isFloat = u16(offset + 8) == 3
                channels = u16(offset + 10)
                bits = u16(offset + 22)
            } else if id == "data" {
                self.channels = channels
                values = Self.decode(
                    bytes[(offset + 8)..<min(offset + 8 + size, bytes.count)], width: bits / 8, bits: bits, signed: !isFloat)
                return
            }
            offset += 8 + size + size % 2
        }
        throw SimulatedCard.Unavailable(description: "\(path) has no data chunk")
    }

    /// Little-endian samples of `width` bytes; `bits` significant bits, sign-extended when `signed`.
    private static func decode(_ bytes: ArraySlice<UInt8>, width: Int, bits: Int, signed: Bool) -> [Int64] {
        let start = bytes.startIndex
        return (0..<(bytes.count / width)).map { index in
            var raw: Int64 = 0
            for byte in 0..<width { raw |= Int64(bytes[start + index * width + byte]) << (8 * byte) }
            raw &= (Int64(1) << bits) - 1
            return signed && raw >= Int64(1) << (bits - 1) ? raw - (Int64(1) << bits) : raw
        }
    }
}

/// A 0.6 s pattern that puts signal on every bus: a haptic continuous event under an intensity curve, a
/// transient, and a panned, filtered audio tone (so L, R and H all differ).
let mixedTestPattern = """
    {
      "Version": 1.0,
      "Pattern": [
        {"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.6, "EventParameters": [
          {"ParameterID": "HapticIntensity", "ParameterValue": 0.8}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.3}]}},
        {"Event": {"Time": 0.1, "EventType": "HapticTransient", "EventParameters": [
          {"ParameterID": "HapticIntensity", "ParameterValue": 1.0}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.9}]}},
        {"Event": {"Time": 0.05, "EventType": "AudioContinuous", "EventDuration": 0.5, "EventParameters": [
          {"ParameterID": "AudioVolume", "ParameterValue": 0.6}, {"ParameterID": "AudioPan", "ParameterValue": -0.4},
          {"ParameterID": "AudioBrightness", "ParameterValue": 0.5}]}},
        {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.0, "ParameterCurveControlPoints": [
          {"Time": 0, "ParameterValue": 0.3}, {"Time": 0.5, "ParameterValue": 1.0}]}}
      ]
    }
    """
