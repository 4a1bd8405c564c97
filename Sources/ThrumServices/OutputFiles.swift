import AudioResources
import FoundationEssentials

/// Text files written whole or not at all (through ``OutputFile``, the one atomic writer: a temporary
/// file beside the target, renamed over it).
package enum OutputFiles {
    /// Writes `text` to `path`.
    /// - Throws: 74: `cannot write 'PATH': REASON (check that the folder exists and is writable)`.
    package static func write(_ text: String, to path: String) throws(ServiceError) {
        try write(Data(text.utf8), to: path)
    }

    /// Writes `data` to `path`.
    /// - Throws: 74 as ``write(_:to:)-(String,_)``.
    package static func write(_ data: Data, to path: String) throws(ServiceError) {
        do {
            try OutputFile.write(data, to: path)
        } catch {
            throw ServiceError(.ioError, "cannot write '\(path)': \(error.writeReason) (check that the folder exists and is writable)")
        }
    }
}

extension AudioResourceError {
    /// The system's reason of a failed write (`No such file or directory`), or the whole description.
    package var writeReason: String {
        if case .writeFailed(_, let reason) = self { return reason }
        return description
    }

    /// `cannot write PATH: REASON`, as `thrum convert` says it.
    package var writeMessage: String {
        if case .writeFailed(let path, let reason) = self { return "cannot write \(path): \(reason)" }
        return description
    }
}

extension AudioResourceError {
    /// The file a failed write names.
    package var writePath: String {
        if case .writeFailed(let path, _) = self { return path }
        return ""
    }
}
