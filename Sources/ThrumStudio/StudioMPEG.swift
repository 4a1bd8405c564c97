import FoundationEssentials
import HapticFormats

extension StudioDocument {
    /// The document of an MPEG haptics file (`.hjif`, `.hmpg`), or nil for another format: its content as
    /// AHAP through the `.haptic` form (`thrum convert x.hjif -o x.ahap`'s path; the losses located in the
    /// file), with no file of its own, so Save asks where to write the AHAP or `.haptic` it has become
    /// (the studio does not write HJIF: `thrum convert` does).
    static func openingMPEG(_ bytes: Data, file: String, root: StudioRoot) -> StudioDocument? {
        guard PatternFormat.ofInput(file).isMPEG else { return nil }
        let read = PatternFiles.read(data: bytes, file: file)
        let map = SourceMap(file: file)
        guard let document = read.hjifDocument, !read.hasErrors else {
            return StudioDocument(text: Data(), file: nil, format: .ahap, root: root, extra: read.diagnostics)
        }
        let haptic = HJIFToHaptic.convert(document)
        guard let file = haptic.file else {
            return StudioDocument(text: Data(), file: nil, format: .ahap, root: root, extra: read.diagnostics + haptic.issues.map(map.diagnostic))
        }
        return converted(file, file: nil, format: .ahap, root: root, extra: read.diagnostics + haptic.issues.map(map.diagnostic), map: map)
    }
}
