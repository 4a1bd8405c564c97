import AHAPCodec
import AudioResources
import FoundationEssentials
import FoundationStandIns
import HapticFormats

/// What `import` is asked: a Haptics Studio project, the folder to write its clips into, and how.
package struct ImportRequest: Sendable {
    /// The project (`.hasp`).
    package var project: String
    /// The folder to write into (made if missing).
    package var folder: String
    /// `haptic` (default: the designer's `.haptic` as it is) or `ahap` (`--format`).
    package var format: String?
    /// With `ahap`: `NAME_continuous.ahap` and `NAME_transients.ahap` to play together (`--split`).
    package var split = false

    package init(project: String, folder: String) {
        self.project = project
        self.folder = folder
    }
}

/// What an import wrote, and what it could not write.
package struct Imported: Sendable {
    /// One clip written: its name as a file name, the files written (pattern files, then its audio, if any).
    package struct Clip: Sendable {
        package var stem: String
        package var files: [String]
        /// Whether the clip has audio (a Freeform Haptics clip has none: its designed haptic alone).
        package var hasAudio: Bool
    }

    package var written: [Clip] = []
    /// The clips that could not be written, each with its status (65 its haptic has errors, 66 its audio
    /// is missing, 74 a file cannot be written) and a located message naming it.
    package var failures: [ServiceError] = []
    /// The names of the clips in `failures`.
    package var failedClips: [String] = []
    /// Located notes: fields Thrum does not read, clips without a haptic yet (skipped).
    package var notes: [String] = []

    /// 0 when every clip with a haptic was written; else the status of the first clip that failed.
    package var status: ExitCode { failures.first?.status ?? .ok }

    /// One line for the clips not written (`2 clips not written: 'A', 'B'`), or nil.
    package var failureSummary: String? {
        guard !failedClips.isEmpty else { return nil }
        let count = failedClips.count
        return "\(count) clip\(count == 1 ? "" : "s") not written: " + failedClips.map { "'\($0)'" }.joined(separator: ", ")
    }
}

/// `import`: each clip of a Haptics Studio project as a `.haptic` or AHAP file, its audio file copied beside
/// it. A clip that cannot be written is named and the others are written (each clip's files appear
/// together or not at all).
package enum ProjectImport {
    /// Largest audio file copied (as `thrum analyze` reads).
    static let maxAudioBytes = 2_000_000_000

    /// Imports the project.
    /// - Throws: ``ServiceError`` only when nothing can be imported: 64 a wrong format or option, 66 the
    ///   project is missing, 65 it is not a project, 74 the folder cannot be made. Clips that fail are in
    ///   ``Imported/failures``.
    package static func run(_ request: ImportRequest) throws(ServiceError) -> Imported {
        let format = request.format?.lowercased() ?? "haptic"
        guard format == "haptic" || format == "ahap" else { throw .usage("--format takes haptic or ahap, not '\(format)'") }
        if request.split && format != "ahap" { throw .usage("--split applies to --format ahap only") }
        let project = try HaspProject.open(request.project)
        var result = Imported()
        result.notes = project.notes
        var clips: [(clip: HaspProject.Clip, stem: String, files: [(path: String, data: Data)], audio: String?)] = []
        var used: Set<String> = []
        for clip in project.clips {
            guard let haptic = clip.haptic else {
                result.notes.append("\(project.place(clip.position)): clip '\(clip.name)' has no haptic yet; skipped")
                continue
            }
            let decoded = HapticFileDecoder.decode(root: haptic, file: project.path)
            guard let file = decoded.file else {
                let first = decoded.errors.first?.formatted ?? "\(project.place(haptic.position)): the haptic cannot be read"
                result.failures.append(
                    ServiceError(.dataError, "\(first) (clip '\(clip.name)'; open the project in Haptics Studio and save it again)"))
                result.failedClips.append(clip.name)
                continue
            }
            if clip.audioPath != nil, !(clip.audioFile.map(FileSystem.exists) ?? false) {
                result.failures.append(
                    ServiceError(
                        .noInput,
                        "\(project.place(clip.audioPosition ?? clip.position)): clip '\(clip.name)': audio file '\(clip.audioPath ?? "?")' "
                            + "not found (put it at that path, relative to the project's folder)"))
                result.failedClips.append(clip.name)
                continue
            }
            var stem = fileName(clip.name)
            var counter = 2
            while used.contains(stem.lowercased()) {
                stem = fileName(clip.name) + " \(counter)"
                counter += 1
            }
            used.insert(stem.lowercased())
            let base = PathName.appending(request.folder, stem)
            var files: [(path: String, data: Data)] = []
            if format == "haptic" {
                files.append((base + ".haptic", Data((JSONNodeText.text(haptic) + "\n").utf8)))
            } else {
                let export = HapticToAHAP.convert(file, split: request.split)
                if let transients = export.transients {
                    let paths = FormatConverter.splitPaths(base + ".ahap")
                    files.append((paths.continuous, Data(AHAPEncoder.encode(export.continuous).utf8)))
                    files.append((paths.transients, Data(AHAPEncoder.encode(transients).utf8)))
                } else {
                    let path = request.split ? FormatConverter.splitPaths(base + ".ahap").continuous : base + ".ahap"
                    files.append((path, Data(AHAPEncoder.encode(export.continuous).utf8)))
                }
            }
            var audioCopy: String?
            if clip.audioPath != nil, let audio = clip.audioFile {
                let ext = PathName.fileExtension(audio)
                audioCopy = base + (ext.isEmpty ? "" : "." + ext)
            }
            clips.append((clip, stem, files, audioCopy))
        }
        if clips.isEmpty && !result.failures.isEmpty { return result }
        if let reason = FileSystem.makeFolders(request.folder) {
            throw ServiceError(.ioError, "cannot make the folder '\(request.folder)': \(reason)")
        }
        for (clip, stem, var files, audioCopy) in clips {
            if let audioCopy, let audio = clip.audioFile {
                guard let data = FileBytes.read(path: audio, limit: maxAudioBytes + 1), data.count <= maxAudioBytes else {
                    result.failures.append(ServiceError(.ioError, "cannot read '\(audio)' (check its permissions)"))
                    result.failedClips.append(clip.name)
                    continue
                }
                files.append((audioCopy, data))
            }
            do {
                try OutputFile.write(together: files)
            } catch {
                result.failures.append(
                    ServiceError(.ioError, "cannot write '\(error.writePath)': \(error.writeReason) (check that the folder is writable)"))
                result.failedClips.append(clip.name)
                continue
            }
            result.written.append(Imported.Clip(stem: stem, files: files.map(\.path), hasAudio: audioCopy != nil))
        }
        return result
    }

    /// A clip name as a file name: `/`, `\` and control characters become `_`; an empty or dot name `clip`.
    package static func fileName(_ name: String) -> String {
        let cleaned = String(name.unicodeScalars.map { $0 == "/" || $0 == "\\" || $0.value < 0x20 ? "_" : Character($0) })
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "clip" : cleaned
    }
}
