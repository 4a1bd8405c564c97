import Foundation

/// Thrum's simulated sound card (Tools/dev/simcard): an ALSA ioplug plugin built by `Tools/dev/simcard/build.sh`
/// (Tools/test.sh builds it and exports `THRUM_SIMCARD_PLUGIN`; without that the first use builds it).
/// Its profiles (`Tools/dev/simcard/profiles.conf`) reach ALSA as a private configuration in-process, or
/// through `ALSA_CONFIG_PATH` for a `thrum` child process: never through the system's configuration.
public enum SimulatedCard {
    /// Why the card cannot be used.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The plugin's path, or why it could not be built. Sets `THRUM_SIMCARD_PLUGIN` (read by the
    /// profiles' `pcm_type.simcard.lib`) once, before any configuration is loaded in this process.
    public static let plugin: Result<String, Unavailable> = {
        if let path = ProcessInfo.processInfo.environment["THRUM_SIMCARD_PLUGIN"], !path.isEmpty {
            return .success(path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [packageRoot.appendingPathComponent("Tools/dev/simcard/build.sh").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch { return .failure(Unavailable(description: "\(error)")) }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let path = text.split(separator: "\n").last.map(String.init) ?? ""
        guard process.terminationStatus == 0, path.hasSuffix(".so") else {
            return .failure(Unavailable(description: "Tools/dev/simcard/build.sh failed: \(text)"))
        }
        setenv("THRUM_SIMCARD_PLUGIN", path, 1)
        return .success(path)
    }()

    /// The profiles file.
    public static let profilesPath = packageRoot.appendingPathComponent("Tools/dev/simcard/profiles.conf").path

    /// The profiles file's text: `pcm_type.simcard` and one `pcm.sim_*` per profile.
    public static let profiles: String = (try? String(contentsOfFile: profilesPath, encoding: .utf8)) ?? ""

    /// ALSA's own top-level configuration, which `ALSA_CONFIG_PATH` replaces unless listed first.
    public static let systemConfiguration = "/usr/share/alsa/alsa.conf"

    /// Throws (with the build's output) when the card cannot be used.
    public static func require() throws {
        _ = try plugin.get()
        if profiles.isEmpty { throw Unavailable(description: "\(profilesPath) is missing") }
        if !FileManager.default.fileExists(atPath: systemConfiguration) {
            throw Unavailable(description: "\(systemConfiguration) is missing (is libasound2-data installed?)")
        }
    }

    /// The environment for a `thrum` (or `aplay`) child process that sees the simulated cards, plus the
    /// configuration files in `extraConfigurations`.
    public static func environment(extraConfigurations: [String] = []) throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["THRUM_SIMCARD_PLUGIN"] = try plugin.get()
        environment["ALSA_CONFIG_PATH"] = ([systemConfiguration, profilesPath] + extraConfigurations).joined(separator: ":")
        return environment
    }
}

/// One use of a simulated card: a private folder for its capture and statistics, removed with the run.
public struct SimulatedCardRun: Sendable {
    /// The PCM name in the configuration: a profile such as `sim_umc`, or `custom`.
    public let name: String
    /// The body of `pcm.custom { … }` (simcard keys) when the card is not one of the profiles.
    public let definition: String?
    private let folder = TemporaryDirectory("simcard")

    /// The folder holding `NAME.raw` (the capture) and `NAME.stats`.
    public var directory: String { folder.path }

    /// A run of one of the profiles.
    public init(profile: String) throws {
        try SimulatedCard.require()
        name = profile
        definition = nil
    }

    /// A card defined on the spot: `fields` are simcard keys (`formats [ S16_BE ]`, `channels 2`, …).
    public init(fields: String) throws {
        try SimulatedCard.require()
        name = "custom"
        definition = fields
    }

    /// The device name to open: `sim_umc:DIR=/tmp/…` for a profile, `custom` for a card defined on the spot.
    public var deviceName: String { definition == nil ? "\(name):DIR=\(directory)" : name }

    /// The `pcm.custom` definition (with its capture and statistics paths), or "" for a profile.
    public var customConfiguration: String {
        guard let definition else { return "" }
        return """

            pcm.custom {
                type simcard
                \(definition)
                capture "\(directory)/custom.raw"
                stats "\(directory)/custom.stats"
            }

            """
    }

    /// The configuration text for an in-process private configuration: the profiles plus the custom card.
    public var configurationText: String { SimulatedCard.profiles + customConfiguration }

    /// Writes the custom card's configuration to a file for `ALSA_CONFIG_PATH` and returns its path (nil for
    /// a profile, which profiles.conf already defines).
    public func configurationFile() throws -> String? {
        guard definition != nil else { return nil }
        let path = "\(directory)/custom.conf"
        try customConfiguration.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Everything the card played: raw interleaved frames in its format.
    public func capture() -> [UInt8] {
        FileManager.default.contents(atPath: "\(directory)/\(name).raw").map { [UInt8]($0) } ?? []
    }

    /// The card's own account (written at each stop, hw_params, vanish and close): format, access, channels, rate,
    /// period, buffer, underruns, suspends, resumes, starts, played, wakeups, vanished.
    public func stats() -> [String: String] {
        guard let text = try? String(contentsOfFile: "\(directory)/\(name).stats", encoding: .utf8) else { return [:] }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
        return result
    }

    /// An integer statistic, or -1 when missing.
    public func stat(_ key: String) -> Int { stats()[key].flatMap { Int($0) } ?? -1 }
}
