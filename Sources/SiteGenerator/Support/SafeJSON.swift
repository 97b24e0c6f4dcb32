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
                if let (escape, width) = scriptEscape(bytes, at: index) {
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

extension SafeJSON {
    /// The escape a byte of JSON text needs to sit inside `<script>`, and
    /// how many bytes it replaces: `<`, `>`, `&`, and U+2028 LINE SEPARATOR
    /// and U+2029 PARAGRAPH SEPARATOR (for older JavaScript parsers).
    @inline(__always)
    static func scriptEscape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (StaticString, Int)? {
        switch bytes[index] {
        case UInt8(ascii: "<"): return (#"\u003C"#, 1)
        case UInt8(ascii: ">"): return (#"\u003E"#, 1)
        case UInt8(ascii: "&"): return (#"\u0026"#, 1)
        case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
            return (bytes[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#, 3)
        default: return nil
        }
    }
}

/// JSON written straight into bytes, script-safe as `SafeJSON` makes it:
/// the bytes Foundation's encoder would give (keys in the order the
/// caller writes them, which must be sorted; `/` unescaped; the same
/// escapes: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other controls as
/// `\u00xx`), with `<`, `>`, `&`, U+2028 and U+2029 escaped in the same
/// pass. For the search index, whose thousands of entries the encoder
/// took longer to encode than libcmark took to render their pages. A test
/// holds the two byte for byte.
struct JSONBytes {
    var bytes: [UInt8] = []

    /// The bytes a string's escaping looks at: controls, `"`, `\`, the
    /// script escapes' `<`, `>`, `&`, and 0xE2, which starts U+2028 and U+2029.
    static let mayEscape: [Bool] = (0..<256).map {
        $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0xE2
    }

    /// Whether any of the eight bytes of `word` is one `mayEscape` marks:
    /// below 0x20, or `"`, `\\`, `<`, `>`, `&` or 0xE2 (the lead byte of
    /// U+2028 and U+2029). Each test is exact for "some byte is": a byte
    /// below `n` (n ≤ 0x80) sets a high bit of `(w - n·0x01…) & ~w`, and a
    /// byte equal to `c` is a zero byte of `w ^ c·0x01…`.
    @inline(__always)
    static func mayEscapeAny(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        return (word &- ones &* 0x20) & ~word & highs != 0
            || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C)) || hasZero(word ^ (ones &* 0x3C))
            || hasZero(word ^ (ones &* 0x3E)) || hasZero(word ^ (ones &* 0x26)) || hasZero(word ^ (ones &* 0xE2))
    }

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A string, quoted and escaped.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        Self.mayEscape.withUnsafeBufferPointer { mayEscape in text.withUTF8 { utf8 in
            var plain = 0, index = 0
            let count = utf8.count
            while index < count {
                // Most text needs nothing: eight bytes at a time while none
                // of them may need an escape.
                if index + 8 <= count,
                   !Self.mayEscapeAny(UnsafeRawPointer(utf8.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = utf8[index]
                // Most bytes need nothing: one look-up for them.
                if !mayEscape[Int(byte)] {
                    index += 1
                    continue
                }
                var escape: StaticString?
                var control: UInt8?
                var width = 1
                switch byte {
                case UInt8(ascii: "\""): escape = #"\""#
                case UInt8(ascii: "\\"): escape = #"\\"#
                case 0x08: escape = #"\b"#
                case 0x0C: escape = #"\f"#
                case 0x0A: escape = #"\n"#
                case 0x0D: escape = #"\r"#
                case 0x09: escape = #"\t"#
                case 0x00...0x1F: control = byte
                default: if let script = SafeJSON.scriptEscape(utf8, at: index) { (escape, width) = (script.0, script.1) }
                }
                guard escape != nil || control != nil else {
                    index += 1
                    continue
                }
                if plain < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plain..<index])) }
                if let escape {
                    escape.withUTF8Buffer { bytes.append(contentsOf: $0) }
                } else if let control {
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    raw(#"\u00"#)
                    bytes.append(hex[Int(control >> 4)])
                    bytes.append(hex[Int(control & 0xF)])
                }
                index += width
                plain = index
            }
            if plain < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plain..<count])) }
        } }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An integer, in decimal.
    mutating func int(_ number: Int) {
        bytes.append(contentsOf: String(number).utf8)
    }

    /// An object: `fields` writes its members with `member`, keys in the
    /// order given (sorted, as the encoder with `.sortedKeys` writes them).
    mutating func object(_ fields: (inout ObjectWriter) -> Void) {
        var writer = ObjectWriter(json: self)
        bytes = []
        writer.json.raw("{")
        fields(&writer)
        writer.json.raw("}")
        self = writer.json
    }

    /// An array, each element written by `element`.
    mutating func array<Element>(_ elements: [Element], _ element: (inout JSONBytes, Element) -> Void) {
        raw("[")
        for (index, value) in elements.enumerated() {
            if index > 0 { raw(",") }
            element(&self, value)
        }
        raw("]")
    }

    /// An array of objects, each one's members written by `fields`.
    mutating func objects<Element>(_ elements: [Element], _ fields: (inout ObjectWriter, Element) -> Void) {
        array(elements) { json, element in json.object { fields(&$0, element) } }
    }

    /// Writes an object's members, a comma between them.
    struct ObjectWriter {
        var json: JSONBytes
        var first = true

        /// `"key":` and the value `value` writes.
        mutating func member(_ key: StaticString, _ value: (inout JSONBytes) -> Void) {
            json.raw(first ? "\"" : ",\"")
            first = false
            json.raw(key)
            json.raw("\":")
            value(&json)
        }

        /// A member whose key is data (escaped as any string).
        mutating func member(text key: String, _ value: (inout JSONBytes) -> Void) {
            if !first { json.raw(",") }
            first = false
            json.string(key)
            json.raw(":")
            value(&json)
        }
    }

    /// An array of integers.
    mutating func ints(_ numbers: [Int]) {
        array(numbers) { $0.int($1) }
    }

    /// An array of strings.
    mutating func strings(_ texts: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(text)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
