import Foundation
import Testing

@testable import ALSAOutput

/// Thrum's simulated sound card (Tools/simcard): an ALSA ioplug plugin built by `Tools/simcard/build.sh`
/// (Tools/test.sh builds it and exports `THRUM_SIMCARD_PLUGIN`; without that the first test builds it).
/// Its profiles (`Tools/simcard/profiles.conf`) are loaded as a private configuration, never the system's.
enum SimulatedCard {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The plugin's path, or why it could not be built. Sets `THRUM_SIMCARD_PLUGIN` (read by the
    /// profiles' `pcm_type.simcard.lib`) once, before any configuration is loaded.
    static let plugin: Result<String, BuildFailure> = {
        if let path = ProcessInfo.processInfo.environment["THRUM_SIMCARD_PLUGIN"], !path.isEmpty {
            return .success(path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [repository.appendingPathComponent("Tools/simcard/build.sh").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch { return .failure(BuildFailure(message: "\(error)")) }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let path = text.split(separator: "\n").last.map(String.init) ?? ""
        guard process.terminationStatus == 0, path.hasSuffix(".so") else {
            return .failure(BuildFailure(message: "Tools/simcard/build.sh failed: \(text)"))
        }
        setenv("THRUM_SIMCARD_PLUGIN", path, 1)
        return .success(path)
    }()

    struct BuildFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The profiles file's text: `pcm_type.simcard` and one `pcm.sim_*` per profile.
    static let profiles: String = (try? String(
        contentsOf: repository.appendingPathComponent("Tools/simcard/profiles.conf"), encoding: .utf8)) ?? ""

    /// Fails the test (with the build's output) when the card cannot be built.
    static func require() throws {
        _ = try plugin.get()
        try #require(!profiles.isEmpty, "Tools/simcard/profiles.conf is missing")
    }
}

/// One use of a simulated card: a private folder for its capture and statistics.
struct SimulatedCardRun {
    /// The PCM name (a profile such as `sim_umc`, or `custom` for a card defined by `definition`).
    let name: String
    let directory: String
    /// A `pcm.custom { … }` body (without capture/stats) when the card is not one of the profiles.
    let definition: String?

    init(profile: String) throws {
        try SimulatedCard.require()
        name = profile
        definition = nil
        directory = try Self.makeDirectory()
    }

    /// A card defined on the spot: `fields` are simcard keys (`formats [ S16_BE ]`, `channels 2`, …).
    init(fields: String) throws {
        try SimulatedCard.require()
        name = "custom"
        definition = fields
        directory = try Self.makeDirectory()
    }

    private static func makeDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "thrum-simcard-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
        return try #require(made, "cannot create a temporary folder")
    }

    /// The device as ALSAOutput opens it: the profiles plus the custom card, as a private configuration.
    var source: ALSADeviceSource {
        guard let definition else {
            return .configuration(text: SimulatedCard.profiles, pcmName: "\(name):DIR=\(directory)")
        }
        let text = SimulatedCard.profiles + """

            pcm.custom {
                type simcard
                \(definition)
                capture "\(directory)/custom.raw"
                stats "\(directory)/custom.stats"
            }
            """
        return .configuration(text: text, pcmName: "custom")
    }

    /// Everything the card played, raw interleaved frames in its format.
    func capture() -> [UInt8] {
        FileManager.default.contents(atPath: "\(directory)/\(name).raw").map { [UInt8]($0) } ?? []
    }

    /// The card's own account (written at each stop and at close): format, access, channels, rate,
    /// period, buffer, underruns, suspends, resumes, starts, played, wakeups, vanished.
    func stats() -> [String: String] {
        guard let text = try? String(contentsOfFile: "\(directory)/\(name).stats", encoding: .utf8) else { return [:] }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
        return result
    }

    /// An integer statistic, or -1 when missing.
    func stat(_ key: String) -> Int { stats()[key].flatMap { Int($0) } ?? -1 }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// The bytes a card in `format` must receive for `rampSample(frame:channel:)` (k / 32768, exact in every
/// format): k scaled to the format's width, in its byte order. Silent channels (≥ `sourceChannels`) are 0.
func expectedRampBytes(format: ALSASampleFormat, frames: Int, deviceChannels: Int, sourceChannels: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(frames * deviceChannels * format.bytesPerSample)
    for frame in 0..<frames {
        for channel in 0..<deviceChannels {
            let k = channel < sourceChannels ? Int32(rampS16(frame: frame, channel: channel)) : 0
            let word: UInt32
            switch format.integerBits {
            case nil: word = (channel < sourceChannels ? rampSample(frame: frame, channel: channel) : 0).bitPattern
            case 32?: word = UInt32(bitPattern: k << 16)
            case 24?: word = UInt32(bitPattern: k << 8)
            default: word = UInt32(bitPattern: k)
            }
            let little = (0..<format.bytesPerSample).map { UInt8((word >> (8 * UInt32($0))) & 0xFF) }
            bytes += format.isBigEndian ? little.reversed() : little
        }
    }
    return bytes
}

/// Index of the first differing byte, or nil when `got` starts with `want`'s first `count` bytes.
func firstDifference(_ got: [UInt8], _ want: [UInt8], count: Int) -> Int? {
    for i in 0..<count where i >= got.count || i >= want.count || got[i] != want[i] { return i }
    return nil
}
