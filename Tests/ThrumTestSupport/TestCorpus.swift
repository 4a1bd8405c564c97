import Foundation

/// The shared corpus of real AHAP files (not part of the repository): `ahap/` with `MANIFEST.tsv` listing
/// its files, and `ricochet/` (Apple's Ricochet sample: `HapticPatterns/` and the audio in `StreamingAssets/`).
///
/// Found at `$THRUM_CORPUS`, else at `../shared/corpus` beside the repository. Suites that read it are
/// enabled only when it is found (`isAvailable`) and otherwise skipped with `skipReason`. A `THRUM_CORPUS`
/// that names a missing folder is not skipped: the suites then fail, because a corpus was asked for.
public enum TestCorpus {
    /// The corpus folder, or nil when `THRUM_CORPUS` is unset and `../shared/corpus` does not exist.
    public static let root: URL? = {
        if let given = ProcessInfo.processInfo.environment["THRUM_CORPUS"], !given.isEmpty {
            return URL(fileURLWithPath: given, isDirectory: true)
        }
        return FileManager.default.fileExists(atPath: besideRepository.path) ? besideRepository : nil
    }()

    /// `../shared/corpus` relative to the repository.
    public static let besideRepository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/corpus", isDirectory: true)

    /// Whether the corpus suites run.
    public static var isAvailable: Bool { root != nil }

    /// Why the corpus suites are skipped.
    public static let skipReason =
        "no AHAP corpus: set THRUM_CORPUS to the corpus folder or put it at \(besideRepository.path)"

    /// `root`, for suites enabled only when it is available.
    public static var folder: URL { root ?? besideRepository }

    /// The file names `MANIFEST.tsv` lists: the first column of every row after the header.
    /// Throws when the manifest cannot be read.
    public static func manifestNames() throws -> [String] {
        let text = try String(contentsOf: folder.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).dropFirst()
            .compactMap { $0.split(separator: "\t", omittingEmptySubsequences: false).first.map(String.init) }
            .filter { !$0.isEmpty }
    }

    /// The regular files in `subfolder` of the corpus, sorted by name; empty when it does not exist.
    public static func files(in subfolder: String) -> [URL] {
        let directory = folder.appendingPathComponent(subfolder, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }
}
