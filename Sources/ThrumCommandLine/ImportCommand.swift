import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import HapticFormats
import ThrumServices

let importCommand = Subcommand(
    spec: CommandSpec(
        name: "import",
        summary: "Write each clip of a Haptics Studio project (.hasp) as a .haptic or AHAP file, its audio beside it.",
        positionalUsage: "PROJECT.hasp", minPositionals: 1, maxPositionals: 1,
        options: [
            .value(.output, short: "o", placeholder: "DIR", help: "the folder to write into (made if missing)"),
            .value(.format, placeholder: "FORMAT", help: "haptic (default: the designer's .haptic as it is) or ahap"),
            .flag(.split, help: "with --format ahap: NAME_continuous.ahap and NAME_transients.ahap to play together"),
        ],
        details: """
            Each clip's designed haptic (the project's 'haptic', after the designer's edits) becomes DIR/NAME.haptic,
            every field kept, or DIR/NAME.ahap as 'thrum convert' writes it; the clip's audio file is copied to
            DIR/NAME.EXT. The project is checked whole before anything is written: a clip whose haptic has errors,
            or whose audio is missing, is reported at its FILE:LINE:COLUMN and nothing is written.
            Fields Thrum does not read are reported as notes. 'thrum info PROJECT.hasp' lists the clips.
            Exit status: 0 written, 64 usage, 65 the project has errors, 66 the project or an audio file is
            missing, 74 cannot write.
            """),
    run: { arguments, console in
        let path = arguments.positionals[0]
        guard let folder = arguments.value(.output) else {
            throw UsageError(message: "'thrum import' needs -o DIR (the folder to write the clips into)")
        }
        let format = arguments.value(.format)?.lowercased() ?? "haptic"
        guard format == "haptic" || format == "ahap" else {
            throw UsageError(message: "--format takes haptic or ahap, not '\(format)'")
        }
        let split = arguments.flag(.split)
        if split && format != "ahap" { throw UsageError(message: "--split applies to --format ahap only") }
        let project = try HaspProject.open(path)
        for note in project.notes { console.error("thrum import: note: \(note)") }

        // Everything is read and checked before the first file is written.
        var outputs: [(path: String, text: String)] = []
        var copies: [(from: String, to: String)] = []
        var used: Set<String> = []
        var written: [String] = []
        for clip in project.clips {
            guard let haptic = clip.haptic else {
                console.error("thrum import: note: \(project.place(clip.position)): clip '\(clip.name)' has no haptic yet; skipped")
                continue
            }
            let decoded = HapticFileDecoder.decode(root: haptic, file: path)
            guard let file = decoded.file else {
                let first = decoded.errors.first?.formatted ?? "\(project.place(haptic.position)): the haptic cannot be read"
                throw ServiceError(.dataError, "\(first) (clip '\(clip.name)'; open the project in Haptics Studio and save it again)")
            }
            guard let audio = clip.audioFile, FileManager.default.fileExists(atPath: audio) else {
                throw ServiceError(
                    .noInput,
                    "\(project.place(clip.audioPosition ?? clip.position)): clip '\(clip.name)': audio file '\(clip.audioPath ?? "?")' "
                        + "not found (put it at that path, relative to the project's folder)")
            }
            var stem = fileName(clip.name)
            var counter = 2
            while used.contains(stem.lowercased()) {
                stem = fileName(clip.name) + " \(counter)"
                counter += 1
            }
            used.insert(stem.lowercased())
            let base = PathName.appending(folder, stem)
            if format == "haptic" {
                outputs.append((base + ".haptic", JSONNodeText.text(haptic) + "\n"))
            } else {
                let export = HapticToAHAP.convert(file, split: split)
                if let transients = export.transients {
                    let paths = FormatConverter.splitPaths(base + ".ahap")
                    outputs.append((paths.continuous, AHAPEncoder.encode(export.continuous)))
                    outputs.append((paths.transients, AHAPEncoder.encode(transients)))
                } else {
                    outputs.append((split ? FormatConverter.splitPaths(base + ".ahap").continuous : base + ".ahap", AHAPEncoder.encode(export.continuous)))
                }
            }
            let ext = PathName.fileExtension(audio)
            copies.append((audio, base + (ext.isEmpty ? "" : "." + ext)))
            written.append(stem)
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw ServiceError(.ioError, "cannot make the folder '\(folder)': \(systemReason(of: error))")
        }
        for output in outputs { try writeText(output.text, to: output.path) }
        for copy in copies {
            guard let data = FileManager.default.contents(atPath: copy.from) else {
                throw ServiceError(.ioError, "cannot read '\(copy.from)' (check its permissions)")
            }
            do {
                try data.write(to: URL(fileURLWithPath: copy.to), options: .atomic)
            } catch {
                throw ServiceError(.ioError, "cannot write '\(copy.to)': \(systemReason(of: error)) (check that the folder is writable)")
            }
        }
        console.print(
            "wrote \(written.count) clip\(written.count == 1 ? "" : "s") of \(path) to \(folder): "
                + (written.isEmpty ? "none" : written.joined(separator: ", ")) + " (" + (format == "haptic" ? ".haptic" : ".ahap") + " and audio)")
        return .ok
    })

/// A clip name as a file name: `/`, `\` and control characters become `_`; an empty or dot name `clip`.
func fileName(_ name: String) -> String {
    let cleaned = String(name.unicodeScalars.map { $0 == "/" || $0 == "\\" || $0.value < 0x20 ? "_" : Character($0) })
    return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "clip" : cleaned
}
