import Mustache

/// The escaping every `{{name}}` in a theme gets: `&`, `<`, `>`, `"` and
/// `'` as entities — the characters swift-mustache's own HTML content type
/// escapes — but found byte by byte. Mustache's version compares whole
/// characters, so a quote followed by a combining mark (`"\u{301}`) is one
/// character that is not `"` and went through unescaped, closing the
/// attribute it sat in. Working on bytes is also several times faster, and
/// text with nothing to escape is returned as it is.
struct ByteHTMLEscaping: MustacheContentType {
    /// The name templates are switched to it by.
    static let name = "ROWMOTION_HTML"
    /// Put before every template's text: a standalone line, so it adds
    /// nothing to the output (parse errors subtract it from their line).
    static let pragma = "{{% CONTENT_TYPE: \(name)}}\n"

    /// Registers the content type with Mustache, once per process.
    static let registered: Void = MustacheContentTypes.register(ByteHTMLEscaping(), named: name)

    func escapeText(_ text: String) -> String {
        Self.escape(text)
    }

    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.firstIndex(where: needsEscape) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 16)
            out.append(contentsOf: bytes[..<first])
            for byte in bytes[first...] {
                switch byte {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
                default: out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
}
