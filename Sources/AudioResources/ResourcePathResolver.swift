import Foundation

/// Turns an `EventWaveformPath` into the full path of an existing file, confined to the
/// pattern's folder and the resource roots.
///
/// Search order: the pattern file's folder, then each root in order; the first existing
/// regular file wins. Unless `allowAnyPath` is set, absolute paths are rejected, and a file
/// whose real path (symbolic links and `..` resolved with `realpath`) is not inside the real
/// path of one of the allowed folders is rejected. A value type; safe to use from any thread
/// (it only reads the file system). Not for the real-time thread.
public struct ResourcePathResolver: Sendable, Equatable {
    /// Resource roots (`--resources DIR`), searched after the pattern's folder, in order.
    public var roots: [String]
    /// Accept absolute paths and paths outside every allowed folder (`--allow-any-path`).
    public var allowAnyPath: Bool

    /// Creates a resolver.
    /// - Parameters:
    ///   - roots: folders searched after the pattern's own folder, in order.
    ///   - allowAnyPath: when true, absolute paths and escaping paths are accepted.
    public init(roots: [String] = [], allowAnyPath: Bool = false) {
        self.roots = roots
        self.allowAnyPath = allowAnyPath
    }

    /// Resolves `path` to the canonical full path of an existing file.
    ///
    /// - Parameters:
    ///   - path: the path as written in the pattern (usually relative).
    ///   - patternFolder: the folder of the AHAP file, or nil for patterns not loaded from a file.
    /// - Returns: the file's real path (absolute, symbolic links resolved).
    /// - Throws: `.absolutePathNotAllowed`, `.pathEscapesRoots` (a file exists but lies
    ///   outside every allowed folder), or `.missing` listing every place searched.
    public func resolve(_ path: String, relativeTo patternFolder: String?) throws(AudioResourceError) -> String {
        guard !path.isEmpty else { throw .missing(path: path, searched: []) }

        if path.hasPrefix("/") {
            guard allowAnyPath else { throw .absolutePathNotAllowed(path: path) }
            if Self.isRegularFile(path), let real = Self.realPath(path) { return real }
            throw .missing(path: path, searched: [path])
        }

        let folders = ([patternFolder].compactMap { $0 } + roots).filter { !$0.isEmpty }
        // Real paths of the folders that exist: a resolved file must lie inside one of them.
        let allowed = folders.compactMap { Self.realPath($0) }

        var searched: [String] = []
        var escaped = false
        for folder in folders {
            let candidate = folder.hasSuffix("/") ? folder + path : folder + "/" + path
            searched.append(candidate)
            guard Self.isRegularFile(candidate), let real = Self.realPath(candidate) else { continue }
            if allowAnyPath || allowed.contains(where: { Self.isInside(real, folder: $0) }) {
                return real
            }
            escaped = true
        }
        if escaped { throw .pathEscapesRoots(path: path, roots: folders) }
        throw .missing(path: path, searched: searched)
    }

    /// True if `path` (after following links) is an existing regular file or other non-directory.
    static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// `realpath(3)`: absolute, with `.`, `..` and symbolic links resolved; nil if it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// True if the real path `file` lies inside the real folder `folder`.
    static func isInside(_ file: String, folder: String) -> Bool {
        if folder == "/" { return true }
        return file.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
