import AHAPCodec
import AudioResources
import FoundationEssentials
import FoundationStandIns
import Synchronization
import Thrum

/// `thrum play --onset-log FILE.jsonl`: one JSON line per event onset, collected from the engine's
/// `onsetHandler` (its delivery thread, never the render thread) and written once playback ends, under a
/// temporary name renamed over FILE when complete, so a failure leaves no partial file (docs/timing.md).
///
/// A line: `{"pattern_time":0.5,"stream_frame":24000,"engine_time":0.5,"dac_time":8123.456789012,
/// "pattern":"tap.ahap","player":1,"instance":1,"event":2,"type":"HapticTransient","loop":0}`; when onsets
/// could not be reported (the log fell behind), a last line `{"lost_onsets":N}`.
/// - Important: Thread safety: any thread (a mutex guards the lines and the names).
package final class OnsetLog: Sendable {
    /// The file, as given.
    package let path: String
    private struct Lines {
        var text: [UInt8] = []
        var count = 0
        /// The pattern each player plays (`ThrumPlayerState.playerID` → the pattern's name).
        var patterns: [Int: String] = [:]
        /// The name for players not in `patterns` (a `--watch` reload of the one pattern), or nil.
        var fallbackPattern: String?
    }
    private let lines = Locked(Lines())

    /// Checks that `path` can be created (its folder exists and is writable, it is not a folder).
    /// - Throws: `ServiceError` (exit 73) naming the file and what to do.
    package init(path: String) throws(ServiceError) {
        self.path = path
        if FileSystem.isDirectory(path) == true {
            throw ServiceError(.cantCreate, "cannot create onset log '\(path)': it is a folder; give a file name")
        }
        let folder = PathName.parent(FileSystem.absolutePath(path))
        guard FileSystem.isDirectory(folder) == true else {
            throw ServiceError(.cantCreate, "cannot create onset log '\(path)': folder '\(folder)' does not exist")
        }
        guard access(folder, W_OK) == 0 else {
            throw ServiceError(.cantCreate, "cannot create onset log '\(path)': folder '\(folder)' is not writable")
        }
    }

    /// Names the pattern a player plays; `fallback` names players not named (a reloaded pattern).
    package func name(playerID: Int, pattern: String, fallback: Bool) {
        lines.withLock { lines in
            lines.patterns[playerID] = pattern
            if fallback { lines.fallbackPattern = pattern }
        }
    }

    /// Onsets recorded so far.
    package var onsetCount: Int { lines.withLock { $0.count } }

    /// Adds the line for `onset` (the engine's `onsetHandler`).
    package func record(_ onset: ThrumOnset) {
        lines.withLock { lines in
            let pattern = lines.patterns[onset.playerID] ?? lines.fallbackPattern
            lines.text += Array(Self.line(onset, pattern: pattern).utf8)
            lines.count += 1
        }
    }

    /// Adds the line for `onset` of a player named here (a ``LiveEngine``'s: numbered per engine, labelled).
    package func record(_ onset: ThrumOnset, pattern: String?, label: String?) {
        lines.withLock { lines in
            lines.text += Array(Self.line(onset, pattern: pattern, label: label).utf8)
            lines.count += 1
        }
    }

    /// Writes the file: every line recorded, then `{"lost_onsets":N}` when `lost` > 0.
    /// - Throws: `ServiceError` (exit 74) naming the file and the system's reason.
    package func commit(lost: Int) throws(ServiceError) {
        var data = lines.withLock { Data($0.text) }
        if lost > 0 { data += Data("{\"lost_onsets\":\(lost)}\n".utf8) }
        do {
            try OutputFile.write(data, to: path)
        } catch {
            guard case .writeFailed(_, let reason) = error else { throw ServiceError(.ioError, "\(error)") }
            throw ServiceError(.ioError, "cannot write onset log '\(path)': \(reason)")
        }
    }

    /// One JSON line (keys in a fixed order; `dac_time` null when unknown, `pattern` null when unnamed; a
    /// last key `label` only for a labelled player).
    package static func line(_ onset: ThrumOnset, pattern: String?, label: String? = nil) -> String {
        let dac = onset.dacTime.map { String(cFormat: "%.9f", $0) } ?? "null"
        return "{\"pattern_time\":\(number(onset.patternTime)),\"stream_frame\":\(onset.streamFrame),"
            + "\"engine_time\":\(number(onset.engineTime)),\"dac_time\":\(dac),"
            + "\"pattern\":\(pattern.map(jsonString) ?? "null"),\"player\":\(onset.playerID),"
            + "\"instance\":\(onset.instance),\"event\":\(onset.eventIndex),"
            + "\"type\":\(jsonString(onset.eventType.rawValue)),\"loop\":\(onset.loopPass)"
            + (label.map { ",\"label\":\(jsonString($0))" } ?? "") + "}\n"
    }

    /// A finite number as JSON (shortest form that reads back exactly; Swift's `description`).
    private static func number(_ value: Double) -> String { value.isFinite ? "\(value)" : "null" }

    /// `text` as a JSON string (the AHAP encoder's escaping).
    static func jsonString(_ text: String) -> String { AHAPEncoder.quoted(text) }
}
