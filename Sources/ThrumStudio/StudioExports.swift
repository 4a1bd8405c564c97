import AHAPCodec
import AudioResources
import FoundationEssentials
import FoundationStandIns
import Synchronization
import HapticFormats
import Thrum
import ThrumModel
import ThrumServices

/// The document as each export Thrum writes (merged AHAP, `.haptic`, Meta's split AHAP pair), with what
/// each conversion loses, located in the document text where the converter knows the place. Pure.
enum StudioExports {
    static let names = ["ahap", "split", "haptic"]
    static let labels = [
        "ahap": "merged AHAP", "split": "split AHAP pair (NAME_continuous.ahap + NAME_transients.ahap)",
        "haptic": ".haptic (Meta Haptics Studio)",
    ]

    /// One export: the files' texts (suffix "" for one file, `_continuous`/`_transients` for the pair), the
    /// patterns that play it, and its losses.
    struct Export {
        var texts: [(suffix: String, text: Data)]
        var patterns: [PatternData]
        var losses: [Diagnostic]
    }

    /// `document` as `export`; 400 for an unknown name, 409 when it has errors.
    static func export(_ document: StudioDocument, as export: String) throws -> Export {
        guard names.contains(export) else { throw HTTPError(400, "the export is ahap, split or haptic, not '\(export)'") }
        guard let pattern = document.pattern else {
            throw HTTPError(409, "the document has errors; fix them first (see its diagnostics)")
        }
        if export == "ahap" {
            return Export(texts: [("", document.text)], patterns: [pattern], losses: [])
        }
        let map = SourceMap(file: StudioDocument.checkedName(document.file), positions: document.sourcePaths.positions)
        let converted = FormatConverter.haptic(from: [AHAPSource(pattern: pattern, paths: document.sourcePaths)], maps: [map])
        var losses = converted.diagnostics
        guard let haptic = converted.file else { return Export(texts: [], patterns: [], losses: losses) }
        if export == "haptic" {
            return Export(
                texts: [("", Data(HapticFileEncoder.encode(haptic).utf8))], patterns: [HapticPlayback.pattern(for: haptic)],
                losses: losses)
        }
        let split = HapticToAHAP.convert(haptic, split: true, style: .faithful)
        losses += split.issues.map(SourceMap(file: "(the .haptic form)").diagnostic)
        var texts = [("_continuous", Data(AHAPEncoder.encode(split.continuous).utf8))]
        var patterns = [split.continuous]
        if let transients = split.transients {
            texts.append(("_transients", Data(AHAPEncoder.encode(transients).utf8)))
            patterns.append(transients)
        }
        return Export(texts: texts, patterns: patterns, losses: losses)
    }

    static func patterns(of document: StudioDocument, export name: String) throws -> [PatternData] {
        let result = try export(document, as: name)
        guard !result.patterns.isEmpty else { throw HTTPError(422, "the document cannot be converted to \(name)") }
        return result.patterns
    }
}

extension Studio {
    // MARK: save

    func save(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.object(request)
        let overwrite = try Self.bool(body, "overwrite") ?? false
        let (document, openedBytes) = try lock.withLock { (_) throws in (try current(), diskBytes) }
        guard let path = try Self.string(body, "path") ?? document.file else {
            throw HTTPError(400, "give the file to save: {\"path\": \"name.ahap\"}")
        }
        let format = try Self.string(body, "format") ?? (PatternFormat.ofInput(path) == .haptic ? "haptic" : "ahap")
        guard ["ahap", "haptic", "split"].contains(format) else {
            throw HTTPError(400, "\"format\" is ahap, haptic or split, not '\(format)'")
        }
        let export = try Self.nativeExport(document, format: format)
            ?? StudioExports.export(document, as: format == "haptic" ? "haptic" : format == "split" ? "split" : "ahap")
        guard !export.texts.isEmpty else { throw HTTPError(422, "the document cannot be written as \(format)") }
        let stem = PathName.removingExtension(path)
        let files = export.texts.map { (path: $0.suffix.isEmpty ? path : stem + $0.suffix + ".ahap", text: $0.text) }
        let targets = try files.map { file throws in try root.writablePath(file.path) }
        if !overwrite {
            for (file, target) in zip(files, targets) where FileSystem.exists(target) {
                if file.path == document.file {
                    let onDisk = try? root.read(file.path, limit: StudioLimits.patternBytes)
                    if onDisk == openedBytes { continue }
                    throw HTTPError(
                        409, "\(file.path) changed on disk since it was opened; save again with \"overwrite\": true to replace it",
                        extra: ["conflict": "changedOnDisk"])
                }
                throw HTTPError(
                    409, "\(file.path) exists; save again with \"overwrite\": true to replace it", extra: ["conflict": "exists"])
            }
        }
        for (file, target) in zip(files, targets) {
            do throws(AudioResourceError) { try OutputFile.write(file.text, to: target) } catch { throw HTTPError(500, error.description) }
        }
        let answer: [String: Any] = lock.withLock { _ in
            if files.count == 1, var saved = self.document, saved.text == document.text {
                saved.file = files[0].path
                saved.format = format == "haptic" ? .haptic : .ahap
                self.document = saved
                savedText = saved.text
                diskBytes = files[0].text
                diskChanged = false
                watcher = FileWatcher(path: root.absolute(files[0].path))
            }
            return [
                "written": files.map(\.path), "format": format, "losses": export.losses.map(StudioDocument.json),
                "file": self.document?.file ?? JSONNull(),
            ]
        }
        hub.broadcast(lock.withLock { _ in documentMessage("save") })
        return .json(answer)
    }

    // MARK: compare

    func compareList(_ request: HTTPRequest) throws -> HTTPResponse {
        let document = try lock.withLock { (_) throws in try current() }
        guard document.isPlayable else { throw HTTPError(409, "the document has errors; fix them to compare its exports") }
        var exports: [[String: Any]] = []
        for name in StudioExports.names {
            let export = try StudioExports.export(document, as: name)
            exports.append([
                "export": name, "label": StudioExports.labels[name]!, "playable": !export.patterns.isEmpty,
                "losses": export.losses.map(StudioDocument.json),
            ])
        }
        return .json(["exports": exports])
    }

    func comparePlay(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.object(request)
        let names: [String]
        if let listed = body["exports"] {
            guard let list = listed as? [String], !list.isEmpty else { throw HTTPError(400, "\"exports\" is a list of ahap, split, haptic") }
            names = list
        } else {
            names = StudioExports.names
        }
        let gap = try Self.number(body, "gap") ?? 0.5
        guard (0...10).contains(gap) else { throw HTTPError(400, "\"gap\" must be 0…10 seconds") }
        let document = try lock.withLock { (_) throws in try current() }
        let folder = folder(of: document)
        var exports: [(export: String, patterns: [CHHapticPattern])] = []
        for name in names {
            let patterns = try StudioExports.patterns(of: document, export: name)
            exports.append((name, patterns.map { CHHapticPattern(data: $0, sourceFolder: folder) }))
        }
        let schedule = try lock.withLock { (_) throws in try transport.compare(exports, gap: gap) }
        hub.broadcast(lock.withLock { _ in statusMessage() })
        return .json(["schedule": schedule.map { ["export": $0.export, "start": $0.start, "end": $0.end] }])
    }

    // MARK: analysis

    func presets() -> HTTPResponse {
        let presets = Analyzing.presetObjects()
        let keys = Set(presets.values.flatMap(\.keys)).sorted()
        return .json(["presets": presets, "keys": keys])
    }

    func analyze(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.object(request)
        guard let path = try Self.string(body, "path") else { throw HTTPError(400, "give the sound: {\"path\": \"sound.wav\"}") }
        let preset = try Self.string(body, "preset")
        guard body["settings"] == nil || body["settings"] is [String: Any] else {
            throw HTTPError(400, "\"settings\" must be an object of analysis settings")
        }
        let adopt = try Self.bool(body, "adopt") ?? false
        let sound = try root.confinedPath(path)
        let analysis = try StudioWork.analyze(path: sound, preset: preset, settings: body["settings"] as? [String: Any] ?? [:])
        var answer: [String: Any] = [
            "settings": analysis.settings, "duration": analysis.duration, "warnings": analysis.warnings,
            "pattern": (try? AHAPEncoder.dictionary(analysis.pattern)) ?? [:],
        ]
        guard adopt else { return .json(answer) }
        var pattern = analysis.pattern
        pattern.events.insert(EventData(type: .audioCustom, time: 0, waveformPath: path), at: 0)
        let made = StudioDocument(
            text: Data(AHAPEncoder.encode(pattern).utf8), file: nil, format: .ahap, root: root)
        answer.merge(adoptDocument(made, source: "analysis")) { $1 }
        return .json(answer)
    }

    /// Makes `made` (a document not saved yet) the document, an undo step when one was open, and tells the
    /// pages; `source` says where it came from. - Returns: the document's answer.
    func adoptDocument(_ made: StudioDocument, source: String) -> [String: Any] {
        let changed: [String: Any] = lock.withLock { _ in
            transport.stop()
            change(to: made, recording: document != nil)
            watcher = nil
            savedText = nil
            diskBytes = nil
            diskChanged = false
            return documentAnswer()
        }
        hub.broadcast(lock.withLock { _ in documentMessage(source) })
        return changed
    }
}
