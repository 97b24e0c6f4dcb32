/// Text for HTML element content and attribute values: `&`, `<`, `>`, `"`
/// and `'` as entities, found byte by byte. Comparing whole characters lets
/// a quote followed by a combining mark (`"\u{301}`, one `Character` that is
/// not `"`) through unescaped, closing the attribute it sits in; UTF-8 bytes
/// of those five never occur inside another character. The one escaper of
/// markup: the site's pages, the theme's `{{name}}` and the filmstrip's SVG.
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.firstIndex(where: needsEscape) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 16)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<first]))
            appendEscaped(UnsafeBufferPointer(rebasing: bytes[first...]), to: &out)
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }

    /// `bytes` escaped, appended to `out`: runs without a byte to escape
    /// are appended whole.
    public static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var plain = 0
        for index in bytes.indices where needsEscape(bytes[index]) {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<index]))
            appendEscaped(bytes[index], to: &out)
            plain = index + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain...]))
    }

    /// One byte, escaped, appended to `out`.
    public static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
        case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
        case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
        case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
        case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
        default: out.append(byte)
        }
    }

    /// Whether a byte is one of the five written as an entity.
    public static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
}
