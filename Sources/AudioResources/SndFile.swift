import CSndFile
import FoundationEssentials
import FoundationStandIns

/// Small internal helpers around libsndfile. Not real-time safe.
enum SndFile {
    /// libsndfile's message for `file`, or for the last failed `sf_open` when `file` is nil.
    static func errorMessage(_ file: OpaquePointer?) -> String {
        guard let message = sf_strerror(file) else { return "unknown libsndfile error" }
        return String(cString: message)
    }

    /// libsndfile's log for an open file (header parsing notes, warnings).
    static func log(_ file: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 8192)
        let count = buffer.count
        _ = buffer.withUnsafeMutableBytes { sf_command(file, Int32(SFC_GET_LOG_INFO), $0.baseAddress, Int32(count)) }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// A readable name for a format code, e.g. "WAV (Microsoft), 32 bit float".
    static func formatName(_ format: Int32) -> String {
        func name(_ code: Int32) -> String? {
            var info = SF_FORMAT_INFO()
            info.format = code
            let status = sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
            guard status == 0, let cName = info.name else { return nil }
            return String(cString: cName)
        }
        let major = format & Int32(SF_FORMAT_TYPEMASK)
        let minor = format & Int32(SF_FORMAT_SUBMASK)
        let majorName = name(major) ?? String(cFormat: "format 0x%06X", major)
        let minorName = name(minor) ?? String(cFormat: "encoding 0x%04X", minor)
        return "\(majorName), \(minorName)"
    }

    /// Looks for signs in libsndfile's log that the file is shorter than its header says
    /// (libsndfile silently clamps WAV/AIFF data chunks to the bytes present).
    /// Returns a description of the damage, or nil.
    static func truncationNote(inLog log: String) -> String? {
        for rawLine in log.split(separator: "\n") {
            let line = rawLine.trimmingSpaces
            // "data : 176400 (should be 58746)" (WAV, W64, RF64), "SSND : ... (should be ...)" (AIFF).
            if line.hasPrefix("data") || line.hasPrefix("SSND") || line.hasPrefix("ds64") {
                guard let should = line.firstRange(of: "(should be ") else { continue }
                let declaredText = line[line.startIndex..<should.lowerBound]
                    .split(separator: ":").last?.trimmingSpaces ?? ""
                let actualText = line[should.upperBound...].prefix { $0.isNumber }
                guard let declared = Int64(declaredText), let actual = Int64(actualText) else { continue }
                // 0 and 0xFFFFFFFF (and nearby) mark streamed files whose length was never filled in.
                if declared == 0 || declared >= 0xFFFF_FF00 { continue }
                if declared > actual {
                    return "the file is truncated: its header declares \(declared) bytes of audio data but only \(actual) are present"
                }
            }
            if line.contains("File ended unexpectedly") {
                return "the file is truncated: the Ogg stream ends without its end-of-stream marker"
            }
        }
        return nil
    }
}
