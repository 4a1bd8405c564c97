import AudioResources
import FoundationEssentials
import FoundationStandIns
import Glibc

/// The one folder Thrum Studio reads and writes. Paths from requests are relative to it; reading uses the
/// confinement of `--resources` (``ResourcePathResolver``: `..` and symbolic links may move inside the
/// root, never out of it, decided while the file is opened); writing refuses absolute paths and `..`, and
/// a folder or existing file whose real path is not inside the root. A value; thread-safe.
package struct StudioRoot: Sendable {
    /// The root's real path (symbolic links resolved).
    package let path: String

    /// The root at `folder`; nil when it is not an existing folder.
    package init?(_ folder: String) {
        guard let real = FileSystem.realPath(folder), FileSystem.isDirectory(real) == true else { return nil }
        path = real
    }

    /// The absolute path of `relative` (not checked: for names in messages and the checker).
    package func absolute(_ relative: String) -> String { path == "/" ? "/" + relative : path + "/" + relative }

    /// The bytes of the file `relative` names, at most `limit`.
    /// - Throws: 403 outside the root or absolute, 404 missing, 413 over `limit`, 422 unreadable.
    package func read(_ relative: String, limit: Int) throws -> Data {
        do throws(AudioResourceError) {
            let handle = try ResourcePathResolver(roots: [path]).open(relative, relativeTo: nil)
            return try handle.readAll(limit: limit)
        } catch {
            switch error {
            case .absolutePathNotAllowed, .pathEscapesRoots:
                throw HTTPError(403, "'\(relative)' is outside the studio's folder \(path)")
            case .missing: throw HTTPError(404, "no file '\(relative)' in \(path)")
            case .fileTooLarge(_, let bytes, let limit):
                throw HTTPError(413, "'\(relative)' is \(bytes) bytes; the limit is \(limit) bytes")
            default: throw HTTPError(422, error.description)
            }
        }
    }

    /// The absolute path to write `relative` at, once checked to lie inside the root.
    /// - Throws: 400 for an empty path, 403 for an absolute path, `..`, or a folder or file outside the
    ///   root, 404 when its folder does not exist.
    package func writablePath(_ relative: String) throws -> String {
        let names = relative.split(separator: "/", omittingEmptySubsequences: true)
        guard !names.isEmpty, !relative.contains("\0") else { throw HTTPError(400, "give a file name (\"path\")") }
        guard !relative.hasPrefix("/"), !names.contains(where: { $0 == ".." || $0 == "." }) else {
            throw HTTPError(403, "'\(relative)' is outside the studio's folder \(path): give a path inside it without '..'")
        }
        let target = absolute(names.joined(separator: "/"))
        let folder = PathName.parent(target)
        guard let realFolder = FileSystem.realPath(folder) else { throw HTTPError(404, "no folder for '\(relative)' in \(path)") }
        guard contains(realFolder) else { throw HTTPError(403, "'\(relative)' is outside the studio's folder \(path)") }
        if let realTarget = FileSystem.realPath(target), !contains(realTarget) {
            throw HTTPError(403, "'\(relative)' leads outside the studio's folder \(path)")
        }
        return realFolder + "/" + PathName.lastComponent(target)
    }

    /// `absolute` relative to the root, when inside it.
    package func relative(_ absolute: String) -> String? {
        let real = FileSystem.realPath(absolute) ?? absolute
        guard contains(real), real != path else { return nil }
        return String(real.dropFirst(path == "/" ? 1 : path.count + 1))
    }

    /// Whether the real path `real` is the root or inside it.
    private func contains(_ real: String) -> Bool { real == path || real.hasPrefix(path == "/" ? "/" : path + "/") }

    /// Pattern, project (`.hasp`) and sound files under the root, as the page lists them.
    package struct Listing {
        package var files: [(path: String, kind: String, bytes: Int)] = []
        package var truncated = false
    }

    static let patternExtensions: Set<String> = ["ahap", "haptic", "json", "hjif", "hmpg"]
    package static let soundExtensions: Set<String> = ["wav", "aif", "aiff", "aifc", "flac", "ogg", "oga", "caf", "au", "w64"]

    /// The pattern, project and sound files at most `depth` folders deep, at most `limit` of them, hidden names
    /// skipped, symbolic links not followed out of the root.
    package func listing(depth: Int = 6, limit: Int = 5000) -> Listing {
        var listing = Listing()
        func walk(_ folder: String, _ prefix: String, _ level: Int) {
            guard level <= depth, let names = FileSystem.directoryEntries(folder) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                if listing.files.count >= limit {
                    listing.truncated = true
                    return
                }
                let full = folder + "/" + name
                let relative = prefix.isEmpty ? name : prefix + "/" + name
                guard let real = FileSystem.realPath(full), contains(real) else { continue }
                guard let isFolder = FileSystem.isDirectory(real) else { continue }
                if isFolder {
                    walk(full, relative, level + 1)
                    continue
                }
                let ext = PathName.fileExtension(name).lowercased()
                let kind =
                    Self.patternExtensions.contains(ext)
                    ? "pattern" : ext == "hasp" ? "project" : Self.soundExtensions.contains(ext) ? "sound" : nil
                guard let kind else { continue }
                var status = stat()
                let bytes = stat(real, &status) == 0 ? Int(status.st_size) : 0
                listing.files.append((relative, kind, bytes))
            }
        }
        walk(path, "", 0)
        return listing
    }
}

extension StudioRoot {
    /// The absolute path of the existing file `relative` names, opened once with the confinement of ``read(_:limit:)``
    /// (for tools that open it again by name, like the analysis).
    /// - Throws: 403 outside the root, 404 missing, 422 unreadable.
    package func confinedPath(_ relative: String) throws -> String {
        do throws(AudioResourceError) {
            return try ResourcePathResolver(roots: [path]).open(relative, relativeTo: nil).path
        } catch {
            switch error {
            case .absolutePathNotAllowed, .pathEscapesRoots:
                throw HTTPError(403, "'\(relative)' is outside the studio's folder \(path)")
            case .missing: throw HTTPError(404, "no file '\(relative)' in \(path)")
            default: throw HTTPError(422, error.description)
            }
        }
    }
}
