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
        json.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            var out: [UInt8] = []
            out.reserveCapacity(count + 64)
            var index = 0
            var plain = 0
            func flush() {
                if plain < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<index])) }
            }
            while index < count {
                let byte = bytes[index]
                var escape: StaticString?
                var width = 1
                switch byte {
                case UInt8(ascii: "<"): escape = #"\u003C"#
                case UInt8(ascii: ">"): escape = #"\u003E"#
                case UInt8(ascii: "&"): escape = #"\u0026"#
                case 0xE2 where index + 2 < count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    // U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
                    escape = bytes[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#
                    width = 3
                default: break
                }
                if let escape {
                    flush()
                    escape.withUTF8Buffer { out.append(contentsOf: $0) }
                    index += width
                    plain = index
                } else {
                    index += 1
                }
            }
            flush()
            return String(decoding: out, as: UTF8.self)
        }
    }
}
