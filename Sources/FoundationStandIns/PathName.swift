/// Path names as strings, split and joined the way NSString's path methods do it (for the paths Thrum handles:
/// absolute or relative, `/`-separated, no `~` expansion), without linking full Foundation for them.
/// Nothing here touches the file system. Thread-safe.
package enum PathName {
    /// The last component: `"/a/b.wav"` → `"b.wav"`, `"/a/b/"` → `"b"`, `"/"` → `"/"`, `""` → `""`.
    package static func lastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" || trimmed.isEmpty { return trimmed }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The path without its last component: `"/a/b"` → `"/a"`, `"/a"` → `"/"`, `"b"` → `""`, `"/"` → `"/"`.
    package static func parent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let parent = withoutTrailingSlashes(String(trimmed[..<slash]))
        return parent.isEmpty ? "/" : parent
    }

    /// The last component's extension without the dot: `"a/b.WAV"` → `"WAV"`; `""` when it has none or the
    /// component only starts with a dot (`".thrumrc"`).
    package static func fileExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The path without the last component's extension and its dot: `"a/b.tar.gz"` → `"a/b.tar"`, `"a."` → `"a"`.
    package static func removingExtension(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        let name = lastComponent(trimmed)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return trimmed }
        return String(trimmed.dropLast(name.distance(from: dot, to: name.endIndex)))
    }

    /// `component` joined to `path` with a slash: `("a/", "b")` → `"a/b"`, `("", "b")` → `"b"`, `("/", "b")` → `"/b"`.
    package static func appending(_ path: String, _ component: String) -> String {
        if path.isEmpty { return component }
        let base = withoutTrailingSlashes(path)
        if component.isEmpty { return base }
        return (base == "/" ? "/" : base + "/") + component
    }

    /// The path without trailing slashes, except that `"/"` stays `"/"`.
    private static func withoutTrailingSlashes(_ path: String) -> String {
        var result = Substring(path)
        while result.count > 1, result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }
}
