extension StringProtocol {
    /// The text without leading and trailing spaces: what Foundation's `trimmingCharacters(in: .whitespaces)`
    /// removes (tab and Unicode's space separators, Zs: U+0020, U+00A0, U+2000…), newlines kept. Thread-safe.
    package var trimmingSpaces: String { trimming { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator } }

    /// The text without leading and trailing white space and newlines (Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`: Unicode's White_Space property). Thread-safe.
    package var trimmingSpacesAndNewlines: String { trimming { $0.properties.isWhitespace } }

    /// The text without the leading and trailing characters all of whose scalars `isTrimmed` accepts.
    package func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let kept: (Character) -> Bool = { !$0.unicodeScalars.allSatisfy(isTrimmed) }
        guard let first = firstIndex(where: kept), let last = lastIndex(where: kept) else { return "" }
        return String(self[first...last])
    }
}

extension String {
    /// The text cut or padded with spaces on the right to exactly `width` characters: Foundation's
    /// `padding(toLength: width, withPad: " ", startingAt: 0)`, for aligned columns. Thread-safe.
    package func padded(to width: Int) -> String {
        count >= width ? String(prefix(max(width, 0))) : self + String(repeating: " ", count: width - count)
    }
}
