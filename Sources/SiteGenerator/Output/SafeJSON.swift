import Foundation

/// JSON that can sit inside `<script type="application/json">` in an HTML
/// page: encoded by Foundation's encoder (keys sorted, so the same value
/// gives the same bytes), then one pass writes `<`, `>` and `&` as `\u003C`,
/// `\u003E`, `\u0026`, so `</script>` and `<!--` in row text cannot end or
/// change the script, and U+2028 and U+2029 as escapes for older
/// JavaScript parsers. The JSON's meaning is unchanged.
public enum SafeJSON {
    public static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Contract types hold only strings, integers, arrays and objects: encoding cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        return scriptSafe(data)
    }

    /// Encoded JSON made safe inside `<script>` (outside strings the JSON has
    /// none of these bytes, so only string contents change).
    static func scriptSafe(_ json: Data) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(json.count + 64)
        var index = json.startIndex
        while index < json.endIndex {
            let byte = json[index]
            switch byte {
            case UInt8(ascii: "<"): out.append(contentsOf: #"\u003C"#.utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: #"\u003E"#.utf8)
            case UInt8(ascii: "&"): out.append(contentsOf: #"\u0026"#.utf8)
            case 0xE2 where index + 2 < json.endIndex && json[index + 1] == 0x80 && (json[index + 2] == 0xA8 || json[index + 2] == 0xA9):
                // U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
                out.append(contentsOf: (json[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                index += 3
                continue
            default: out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
