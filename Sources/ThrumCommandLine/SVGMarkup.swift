import FoundationEssentials
import FoundationStandIns

/// Numbers and text as they appear in the SVG: fixed formats so the output is deterministic.
enum SVGText {
    /// A coordinate with one decimal ("-0.0" written as "0.0").
    static func coordinate(_ value: Double) -> String {
        let text = String(cFormat: "%.1f", value)
        return text == "-0.0" ? "0.0" : text
    }

    /// A time or value with up to six decimals and no trailing zeros: 0.25, 1, 0.123457.
    static func number(_ value: Double) -> String {
        var text = String(cFormat: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// `text` escaped for XML character data and attribute values.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default:
                // XML 1.0 allows no control characters other than tab, newline and carriage return.
                if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                    scalar.value < 0x20, scalar != "\t", scalar != "\n", scalar != "\r"
                {
                    result += " "
                } else {
                    result.append(character)
                }
            }
        }
        return result
    }
}

/// One SVG (XML) element: its attributes in the order given, then text or child elements. Attribute values
/// and text are escaped when written (`SVGText.escaped`), so no caller writes markup or escapes by hand.
struct SVGElement {
    private enum Content {
        case none
        case text(String)
        /// Child elements; `onSeparateLines` puts each on a line of its own between the tags.
        case children([SVGElement], onSeparateLines: Bool)
    }

    let name: String
    /// Name and value of each attribute, in order; nil values were left out.
    private let attributes: [(name: String, value: String)]
    private let content: Content

    private init(_ name: String, _ attributes: KeyValuePairs<String, String?>, content: Content) {
        self.name = name
        self.attributes = attributes.compactMap { pair in pair.value.map { (pair.key, $0) } }
        self.content = content
    }

    /// An empty element, `<name a="…"/>`; attributes whose value is nil are left out.
    init(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:]) {
        self.init(name, attributes, content: .none)
    }

    /// An element holding `text`, `<name a="…">text</name>`.
    init(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:], text: String) {
        self.init(name, attributes, content: .text(text))
    }

    /// An element holding `children`, written one after another or each on a line of its own.
    init(
        _ name: String, _ attributes: KeyValuePairs<String, String?> = [:], children: [SVGElement],
        onSeparateLines: Bool
    ) {
        self.init(name, attributes, content: .children(children, onSeparateLines: onSeparateLines))
    }

    /// The element as XML text.
    var markup: String {
        var open = "<" + name
        for attribute in attributes { open += " \(attribute.name)=\"\(SVGText.escaped(attribute.value))\"" }
        switch content {
        case .none:
            return open + "/>"
        case .text(let text):
            return open + ">" + SVGText.escaped(text) + "</\(name)>"
        case .children(let children, let onSeparateLines):
            let separator = onSeparateLines ? "\n" : ""
            return open + ">" + separator + children.map(\.markup).joined(separator: separator) + separator + "</\(name)>"
        }
    }
}
