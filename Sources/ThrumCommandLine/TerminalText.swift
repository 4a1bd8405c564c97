/// Text made safe for a terminal: strings from a pattern or the file system may carry control
/// characters (an escape sequence can erase a line, move the cursor or retitle the window), so every
/// line Thrum prints, except `--json` output, shows them as escapes instead.
enum TerminalText {
    /// `text` with every control character but the newline written as an escape: C0 controls, DEL and
    /// the bytes a terminal reads as C1 as `\xNN` (`ESC` → `\x1b`), C1 controls and the bidirectional
    /// overrides and isolates (which reorder what is shown) as `\u{NNNN}`. Everything else is kept.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
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
        case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
