import AudioResources

/// Text made safe for a terminal: strings from a pattern or the file system may carry control
/// characters (an escape sequence can erase a line, move the cursor or retitle the window), so every
/// line Thrum prints, except `--json` output, shows them as escapes instead.
enum TerminalText {
    /// `text` with every control character but the newline written as an escape: C0 controls and DEL as
    /// `\xNN` (`ESC` → `\x1b`), C1 controls and the bidirectional overrides and isolates (which reorder
    /// what is shown) as `\u{NNNN}`, and the bytes of a file name that are not UTF-8
    /// (``FileSystemPath``) as `\xNN`, exactly as they are on disk. Everything else is kept.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            if FileSystemPath.rawByteScalars.contains(scalar.value) {
                result += "\\x" + String(scalar.value - 0x10_FF00, radix: 16)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            result += scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{\(hex)}"
        }
        return result
    }

    /// Whether `scalar` is shown as an escape.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A: false
        case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, FileSystemPath.rawByteScalars: true
        default: false
        }
    }
}
