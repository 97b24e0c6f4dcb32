import SnapshotFormat

/// JSON that can sit inside `<script type="application/json">` in an HTML
/// page: `<`, `>` and `&` are written as `\u003C`, `\u003E`, `\u0026`, so
/// `</script>` and `<!--` in row text cannot end or change the script, and
/// U+2028 and U+2029 are escaped for older JavaScript parsers. The JSON's
/// meaning is unchanged.
public enum SafeJSON {
    public static func string(_ text: String) -> String { JSONText.string(text, htmlSafe: true) }

    /// A JSON array of already encoded values.
    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// A JSON object of already encoded values, keys in the given order.
    static func object(_ members: KeyValuePairs<String, String>) -> String {
        "{" + members.map { string($0.key) + ":" + $0.value }.joined(separator: ",") + "}"
    }
}

/// Text for HTML element content and attribute values.
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
