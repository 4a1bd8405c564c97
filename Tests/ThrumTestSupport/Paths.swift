import Foundation

/// The repository's root folder (for `Resources/` and a test target's own files), found from this file's path.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
