import FoundationStandIns
import Synchronization

/// Tracks the decoded-sample memory used by all registered audio resources against one limit
/// (default 92 160 000 bytes, docs/decisions.md).
///
/// Thread-safe: every method may be called from any thread (a `Locked` guards the total).
/// Not for the real-time thread (the mutex may block briefly).
package final class AudioResourceBudget: Sendable {
    /// The budget in bytes of float samples (frames × channels × 4).
    package let limitBytes: Int
    private let used: Locked<Int>

    /// Creates an empty budget of `limitBytes` bytes.
    package init(limitBytes: Int = AudioResourceLimits.defaultMaxTotalDecodedBytes) {
        self.limitBytes = limitBytes
        self.used = Locked(0)
    }

    /// Creates an empty budget using `limits.maxTotalDecodedBytes`.
    package convenience init(limits: AudioResourceLimits) {
        self.init(limitBytes: limits.maxTotalDecodedBytes)
    }

    /// Bytes currently reserved.
    package var usedBytes: Int { used.withLock { $0 } }

    /// Bytes still available (never negative).
    package var availableBytes: Int { max(0, limitBytes - usedBytes) }

    /// Reserves `bytes` for `file` (the name used in the error message).
    ///
    /// Either the whole amount is reserved or nothing is: on failure earlier reservations are
    /// unchanged and ``AudioResourceError/budgetExceeded(path:decodedBytes:used:limit:)`` is thrown.
    package func reserve(_ bytes: Int, for file: String) throws(AudioResourceError) {
        precondition(bytes >= 0, "cannot reserve a negative byte count")
        let result: Int? = used.withLock { total in
            if bytes > limitBytes - total { return total }
            total += bytes
            return nil
        }
        if let inUse = result {
            throw .budgetExceeded(path: file, decodedBytes: bytes, used: inUse, limit: limitBytes)
        }
    }

    /// Reserves ``DecodedAudio/byteCount`` for `audio`, naming it by `file` (default: its source path).
    package func reserve(_ audio: DecodedAudio, file: String? = nil) throws(AudioResourceError) {
        try reserve(audio.byteCount, for: file ?? audio.sourcePath)
    }

    /// Returns `bytes` previously reserved. Releasing more than is reserved leaves zero.
    package func release(_ bytes: Int) {
        precondition(bytes >= 0, "cannot release a negative byte count")
        used.withLock { $0 = max(0, $0 - bytes) }
    }
}
