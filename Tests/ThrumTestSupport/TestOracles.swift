import Foundation

/// Meta's `.haptic` test files and their expected AHAP conversions (`meta-haptics-sdk/test_files` in the
/// shared oracles, not part of the repository; see its MANIFEST.md).
///
/// Found at `$THRUM_ORACLES` (the oracles folder), else at `../shared/oracles` beside the repository.
/// Suites that read them are enabled only when they are found (`isAvailable`) and otherwise skipped with
/// `skipReason`. A `THRUM_ORACLES` that names a missing folder is not skipped: the suites then fail.
public enum TestOracles {
    /// The oracles folder, or nil when `THRUM_ORACLES` is unset and `../shared/oracles` does not exist.
    public static let root: URL? = {
        if let given = ProcessInfo.processInfo.environment["THRUM_ORACLES"], !given.isEmpty {
            return URL(fileURLWithPath: given, isDirectory: true)
        }
        return FileManager.default.fileExists(atPath: besideRepository.path) ? besideRepository : nil
    }()

    /// `../shared/oracles` relative to the repository.
    public static let besideRepository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/oracles", isDirectory: true)

    /// Whether the oracle suites run.
    public static var isAvailable: Bool { root != nil }

    /// Why the oracle suites are skipped.
    public static let skipReason =
        "no Meta oracles: set THRUM_ORACLES to the oracles folder or put it at \(besideRepository.path)"

    /// The path of a file in `meta-haptics-sdk/test_files` (`valid_v1.haptic`).
    public static func metaTestFile(_ name: String) -> String {
        (root ?? besideRepository).appendingPathComponent("meta-haptics-sdk/test_files/\(name)").path
    }
}
