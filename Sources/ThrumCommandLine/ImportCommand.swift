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
            DIR/NAME.EXT. A clip without audio (Haptics Studio's Freeform Haptics) is written alone. A clip that
            cannot be written (its haptic has errors, its audio file is missing) is named at its FILE:LINE:COLUMN
            and the other clips are written; each clip's files appear together or not at all.
            Fields Thrum does not read are reported as notes. 'thrum info PROJECT.hasp' lists the clips.
            Exit status: 0 every clip written, 64 usage, 65 the project has errors or a clip's haptic has errors,
            66 the project or a clip's audio file is missing (with clips not written, the status is that of the
            first one), 74 cannot write.
            """),
    run: { arguments, console in
        guard let folder = arguments.value(.output) else {
            throw UsageError(message: "'thrum import' needs -o DIR (the folder to write the clips into)")
        }
        var request = ImportRequest(project: arguments.positionals[0], folder: folder)
        request.format = arguments.value(.format)
        request.split = arguments.flag(.split)
        let imported = try ProjectImport.run(request)
        for note in imported.notes { console.error("thrum import: note: \(note)") }
        for failure in imported.failures { console.error("thrum import: error: \(failure.message)") }
        let written = imported.written
        if !written.isEmpty || imported.failures.isEmpty {
            let kind = request.format?.lowercased() == "ahap" ? ".ahap" : ".haptic"
            let audio = written.allSatisfy(\.hasAudio) ? " and audio" : "; audio beside the clips that have it"
            console.print(
                "wrote \(written.count) clip\(written.count == 1 ? "" : "s") of \(request.project) to \(folder): "
                    + (written.isEmpty ? "none" : written.map(\.stem).joined(separator: ", ")) + " (\(kind)\(audio))")
        }
        if let summary = imported.failureSummary { throw ServiceError(imported.status, summary) }
        return .ok
    })
