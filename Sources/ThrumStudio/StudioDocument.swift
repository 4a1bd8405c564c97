import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import HapticFormats
import ThrumModel
import ThrumServices

/// The pattern being edited: its AHAP text exactly as last opened or PUT, and what reading it found.
/// A value; thread-safe.
package struct StudioDocument: Sendable {
    /// The AHAP JSON text (possibly not valid: a document with errors is kept for editing).
    package var text: Data
    /// The file it was opened from or saved to, relative to the root; nil for one made by analysis.
    package var file: String?
    /// The format of `file` (`.haptic` files are edited as their AHAP form and saved back as `.haptic`).
    package var format: PatternFormat
    /// The checker's findings (`thrum check`), with the `.haptic` reading's first for a `.haptic` file.
    package var diagnostics: [Diagnostic]
    /// The pattern to play; nil when there is an error.
    package var pattern: PatternData?
    /// Where the AHAP text's entries are (for conversion losses).
    package var sourcePaths: AHAPDecodeResult.SourcePaths
    /// A `.haptic` document's own signals, edited directly (`PUT /api/haptic`); nil for AHAP and after an
    /// edit of the AHAP text (then saving converts the AHAP form).
    package var native: HapticFile?
    /// The `.haptic` file's bytes as read, while `native` is unedited: saved back as they are (byte-stable).
    package var nativeBytes: Data?

    /// Whether it can be played, rendered and saved.
    package var isPlayable: Bool { pattern != nil }

    /// Reads `text` as the AHAP document of `file` (its folder is where its audio files are found);
    /// `extra` diagnostics (a `.haptic` file's reading) come first.
    package init(
        text: Data, file: String?, format: PatternFormat, root: StudioRoot,
        extra: [Diagnostic] = []
    ) {
        self.text = text
        self.file = file
        self.format = format
        let checkedName = Self.checkedName(file)
        let checked = Checking.check(text: text, path: root.absolute(checkedName), resources: [root.path])
        sourcePaths = checked.sourcePaths
        let found = checked.diagnostics.map { diagnostic in
            var located = diagnostic
            if located.file == root.absolute(checkedName) { located.file = checkedName }
            return located
        }
        diagnostics = extra + found
        pattern = diagnostics.contains { $0.severity == .error } ? nil : checked.pattern
    }

    /// The AHAP name the text is checked as: the file's, with `.ahap` for a `.haptic` file.
    static func checkedName(_ file: String?) -> String {
        guard let file else { return "untitled.ahap" }
        return PatternFormat.ofInput(file) == .haptic ? PathName.removingExtension(file) + ".ahap" : file
    }

    /// The document of the pattern file `file` (AHAP, or `.haptic` converted to AHAP) with `bytes`.
    package static func opening(_ bytes: Data, file: String, root: StudioRoot) -> StudioDocument {
        if let mpeg = openingMPEG(bytes, file: file, root: root) { return mpeg }
        guard PatternFormat.ofInput(file) == .haptic else {
            return StudioDocument(text: bytes, file: file, format: .ahap, root: root)
        }
        let read = HapticFileDecoder.decode(data: bytes, file: file)
        guard let haptic = read.file else {
            return StudioDocument(text: Data(), file: file, format: .haptic, root: root, extra: read.diagnostics)
        }
        var document = converted(haptic, file: file, format: .haptic, root: root, extra: read.diagnostics, map: read.sourceMap)
        document.native = haptic
        document.nativeBytes = bytes
        return document
    }

    /// The document of a `.haptic` file's content, converted to AHAP (its losses located through `map`);
    /// `file` nil: a document not saved yet (a project's clip).
    static func converted(
        _ haptic: HapticFile, file: String?, format: PatternFormat, root: StudioRoot, extra: [Diagnostic], map: SourceMap
    ) -> StudioDocument {
        let export = HapticToAHAP.convert(haptic, split: false, style: .faithful)
        let text = Data(AHAPEncoder.encode(export.continuous).utf8)
        return StudioDocument(
            text: text, file: file, format: format, root: root, extra: extra + export.issues.map(map.diagnostic))
    }

    /// The diagnostic as JSON, with `entry`: the index N of `Pattern[N]` it is about (nil: the document).
    package static func json(_ diagnostic: Diagnostic) -> [String: Any] {
        var object = diagnostic.jsonObject
        object["entry"] = entry(of: diagnostic.path) ?? JSONNull()
        return object
    }

    /// N of a path starting `Pattern[N]`.
    static func entry(of path: String) -> Int? {
        guard path.hasPrefix("Pattern["), let close = path.firstIndex(of: "]") else { return nil }
        return Int(path[path.index(path.startIndex, offsetBy: 8)..<close])
    }

    /// Counts for `POST /api/open`: entries, events by type, parameter curves.
    package var summary: [String: Any] {
        var events: [String: Int] = ["HapticTransient": 0, "HapticContinuous": 0, "AudioContinuous": 0, "AudioCustom": 0]
        for event in pattern?.events ?? [] { events[event.type.rawValue, default: 0] += 1 }
        let entries = (pattern.map { $0.events.count + $0.parameters.count + $0.curves.count }) ?? 0
        return ["entries": entries, "events": events, "parameterCurves": pattern?.curves.count ?? 0]
    }
}

/// Undo and redo of document texts: every change pushes the text it replaced. Not thread-safe (the
/// studio's lock guards it).
package struct DocumentHistory: Sendable {
    private(set) var undoTexts: [Data] = []
    private(set) var redoTexts: [Data] = []
    /// Most steps kept.
    static let limit = 200

    package var canUndo: Bool { !undoTexts.isEmpty }
    package var canRedo: Bool { !redoTexts.isEmpty }

    /// Records that `previous` was replaced by an edit (clears redo).
    package mutating func recordEdit(replacing previous: Data) {
        undoTexts.append(previous)
        if undoTexts.count > Self.limit { undoTexts.removeFirst() }
        redoTexts.removeAll()
    }

    /// The text to go back to from `current`, or nil.
    package mutating func undo(from current: Data) -> Data? {
        guard let text = undoTexts.popLast() else { return nil }
        redoTexts.append(current)
        return text
    }

    /// The text to go forward to from `current`, or nil.
    package mutating func redo(from current: Data) -> Data? {
        guard let text = redoTexts.popLast() else { return nil }
        undoTexts.append(current)
        return text
    }

    package mutating func clear() {
        undoTexts.removeAll()
        redoTexts.removeAll()
    }
}
