import CConfinedOpen
import FoundationEssentials
import Glibc

/// Finds and opens the file an `EventWaveformPath` names, confined to the pattern's folder and the
/// resource roots.
///
/// Search order: the pattern file's folder, then each root in order; the first existing
/// regular file wins (a folder of that name does not count). Unless `allowAnyPath` is set, absolute
/// paths are rejected, and the path is looked up below each folder with ``ConfinedOpen``: `..` and
/// symbolic links may move within that folder but never out of it, and this is enforced while the
/// file is opened, so what is checked is what is read. A path leading outside gets the same error
/// whether or not anything exists there. Hard links are files like any other: a hard link inside a
/// folder is accepted wherever the file's other names are.
///
/// A value type; safe to use from any thread (it only reads the file system). Not for the real-time thread.
package struct ResourcePathResolver: Sendable, Equatable {
    /// Resource roots (`--resources DIR`), searched after the pattern's folder, in order.
    package var roots: [String]
    /// Accept absolute paths and paths outside every allowed folder (`--allow-any-path`).
    package var allowAnyPath: Bool

    /// Creates a resolver.
    /// - Parameters:
    ///   - roots: folders searched after the pattern's own folder, in order.
    ///   - allowAnyPath: when true, absolute paths and escaping paths are accepted.
    package init(roots: [String] = [], allowAnyPath: Bool = false) {
        self.roots = roots
        self.allowAnyPath = allowAnyPath
    }

    /// Opens the file `path` names.
    ///
    /// - Parameters:
    ///   - path: the path as written in the pattern (usually relative); also the name in messages.
    ///   - patternFolder: the folder of the AHAP file, or nil for patterns not loaded from a file.
    /// - Returns: the open file, checked to be a regular file.
    /// - Throws: `.absolutePathNotAllowed`, `.pathEscapesRoots` (the path leads outside the folder it
    ///   was looked up in, for every folder where it does not simply miss), `.missing` listing every
    ///   place searched, or `.unreadable` (the first file found is a FIFO, device or cannot be opened).
    package func open(_ path: String, relativeTo patternFolder: String?) throws(AudioResourceError) -> AudioFileHandle {
        try open(path, relativeTo: patternFolder, method: nil)
    }

    /// ``open(_:relativeTo:)`` with a chosen confinement method (nil: `openat2`, else the walk).
    func open(_ path: String, relativeTo patternFolder: String?, method: ConfinedOpen.Method?) throws(AudioResourceError)
        -> AudioFileHandle
    {
        guard !path.isEmpty else { throw .missing(path: path, searched: []) }
        if path.hasPrefix("/") {
            guard allowAnyPath else { throw .absolutePathNotAllowed(path: path) }
            return try AudioFileHandle(path: path)
        }
        let folders = ([patternFolder].compactMap { $0 } + roots).filter { !$0.isEmpty }
        var searched: [String] = []
        var escaped = false
        for folder in folders {
            let candidate = folder.hasSuffix("/") ? folder + path : folder + "/" + path
            searched.append(candidate)
            let outcome: AudioFileHandle.Outcome
            if allowAnyPath {
                outcome = AudioFileHandle.check(FileSystemPath.withCString(candidate) { Glibc.open($0, AudioFileHandle.openFlags) })
            } else {
                let descriptor = FileSystemPath.withCString(folder) { Glibc.open($0, thrum_o_path | O_DIRECTORY | O_CLOEXEC) }
                guard descriptor >= 0 else { continue }
                outcome = ConfinedOpen.open(path, beneath: descriptor, method: method)
                close(descriptor)
            }
            switch outcome {
            case .file(let file): return AudioFileHandle(file, path: candidate, displayName: path)
            case .missing, .folder: continue
            case .outside: escaped = true
            case .unusable(let reason): throw .unreadable(path: path, reason: reason)
            }
        }
        if escaped { throw .pathEscapesRoots(path: path, roots: folders) }
        throw .missing(path: path, searched: searched)
    }
}
