import Diagnostics


/// A strict JSON (RFC 8259) reader that keeps each value's line and column,
/// which Foundation's decoder does not report on Linux.
struct JSONReader {
    struct SyntaxError: Error {
        var location: SourceLocation
        var message: String
    }

    private let bytes: [UInt8]
    private let file: String
    private var offset = 0
    private var line = 1
    private var column = 1
    /// Nesting beyond this is refused rather than risking the stack.
    private let maximumDepth = 512

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// Parses one JSON text: a value surrounded only by white space.
    static func parse(_ bytes: [UInt8], file: String) throws(SyntaxError) -> LocatedValue {
        var reader = JSONReader(bytes: bytes, file: file)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        reader.skipWhitespace()
        let value = try reader.value(depth: 0, context: nil)
        reader.skipWhitespace()
        if reader.offset < bytes.count {
            throw reader.error("unexpected \(reader.describeCurrent()) after the top-level value")
        }
        return value
    }

    private var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    private func error(_ message: String, at location: SourceLocation? = nil) -> SyntaxError {
        SyntaxError(location: location ?? self.location, message: message)
    }

    private func describeCurrent() -> String {
        guard offset < bytes.count else { return "end of file" }
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func advance() {
        if bytes[offset] == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if bytes[offset] & 0xC0 != 0x80 {
            // Columns count Unicode scalars, as YAML marks do: continuation
            // bytes of a UTF-8 sequence do not start a new column.
            column += 1
        }
        offset += 1
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { advance() }
    }

    /// `context` names the construct being read, for messages such as
    /// "expected ',' or '}' in the object that starts at 3:5".
    private mutating func value(depth: Int, context: String?) throws(SyntaxError) -> LocatedValue {
        let start = location
        guard offset < bytes.count else {
            throw error("unexpected end of file, expected a value" + (context.map { " \($0)" } ?? ""))
        }
        guard depth < maximumDepth else { throw error("nesting deeper than \(maximumDepth) levels") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth, start: start)
        case UInt8(ascii: "["): return try array(depth: depth, start: start)
        case UInt8(ascii: "\""): return LocatedValue(kind: .string(try string()), location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number(start: start)
        case UInt8(ascii: "t"): try literal("true"); return LocatedValue(kind: .bool(true), location: start)
        case UInt8(ascii: "f"): try literal("false"); return LocatedValue(kind: .bool(false), location: start)
        case UInt8(ascii: "n"): try literal("null"); return LocatedValue(kind: .null, location: start)
        default:
            throw error("unexpected \(describeCurrent()), expected a value" + (context.map { " \($0)" } ?? ""))
        }
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        let start = location
        for expected in word.utf8 {
            guard offset < bytes.count, bytes[offset] == expected else {
                throw error("invalid literal, expected '\(word)'", at: start)
            }
            advance()
        }
    }

    private mutating func object(depth: Int, start: SourceLocation) throws(SyntaxError) -> LocatedValue {
        let context = "in the object that starts at \(start.line):\(start.column)"
        advance()
        var members: [LocatedValue.Member] = []
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "}") {
            advance()
            return LocatedValue(kind: .object(members), location: start)
        }
        while true {
            skipWhitespace()
            let keyLocation = location
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a key in double quotes \(context)")
            }
            let key = try string()
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after the key \"\(key)\" \(context)")
            }
            advance()
            skipWhitespace()
            let value = try value(depth: depth + 1, context: context)
            members.append(LocatedValue.Member(key: key, keyLocation: keyLocation, value: value))
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of file, expected ',' or '}' \(context)") }
            if bytes[offset] == UInt8(ascii: ",") { advance(); continue }
            if bytes[offset] == UInt8(ascii: "}") { advance(); break }
            throw error("unexpected \(describeCurrent()), expected ',' or '}' \(context)")
        }
        return LocatedValue(kind: .object(members), location: start)
    }

    private mutating func array(depth: Int, start: SourceLocation) throws(SyntaxError) -> LocatedValue {
        let context = "in the list that starts at \(start.line):\(start.column)"
        advance()
        var elements: [LocatedValue] = []
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "]") {
            advance()
            return LocatedValue(kind: .array(elements), location: start)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1, context: context))
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of file, expected ',' or ']' \(context)") }
            if bytes[offset] == UInt8(ascii: ",") { advance(); continue }
            if bytes[offset] == UInt8(ascii: "]") { advance(); break }
            throw error("unexpected \(describeCurrent()), expected ',' or ']' \(context)")
        }
        return LocatedValue(kind: .array(elements), location: start)
    }

    private mutating func string() throws(SyntaxError) -> String {
        let start = location
        advance()
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            if !run.isEmpty {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll(keepingCapacity: true)
            }
        }
        while true {
            guard offset < bytes.count else {
                throw error("unterminated string that starts at \(start.line):\(start.column)")
            }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                advance()
                break
            }
            if byte < 0x20 {
                throw error(byte == 0x0A ? "unterminated string that starts at \(start.line):\(start.column)"
                                         : "control character 0x\(String(byte, radix: 16, uppercase: true)) must be escaped in a string")
            }
            if byte != UInt8(ascii: "\\") {
                run.append(byte)
                advance()
                continue
            }
            flush()
            let escapeLocation = location
            advance()
            guard offset < bytes.count else { throw error("unterminated string that starts at \(start.line):\(start.column)") }
            let escaped = bytes[offset]
            advance()
            switch escaped {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4(escapeLocation)
                if (0xD800...0xDBFF).contains(code) {
                    // A high surrogate must be followed by an escaped low one.
                    guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate \\u\(String(code, radix: 16, uppercase: true)) in a string", at: escapeLocation)
                    }
                    advance(); advance()
                    let low = try hex4(escapeLocation)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw error("unpaired surrogate \\u\(String(code, radix: 16, uppercase: true)) in a string", at: escapeLocation)
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw error("unpaired surrogate \\u\(String(code, radix: 16, uppercase: true)) in a string", at: escapeLocation)
                }
                scalars.append(Unicode.Scalar(code)!)
            default:
                throw error("invalid escape sequence in a string", at: escapeLocation)
            }
        }
        flush()
        return String(scalars)
    }

    private mutating func hex4(_ escapeLocation: SourceLocation) throws(SyntaxError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard offset < bytes.count, let digit = hexValue(bytes[offset]) else {
                throw error("invalid \\u escape: expected four hexadecimal digits", at: escapeLocation)
            }
            code = code << 4 | digit
            advance()
        }
        return code
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func number(start: SourceLocation) throws(SyntaxError) -> LocatedValue {
        var text = ""
        func isDigit(_ index: Int) -> Bool { index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) }
        func take() { text.append(Character(Unicode.Scalar(bytes[offset]))); advance() }
        if bytes[offset] == UInt8(ascii: "-") { take() }
        guard isDigit(offset) else { throw error("invalid number: expected a digit", at: start) }
        if bytes[offset] == UInt8(ascii: "0") {
            take()
            if isDigit(offset) { throw error("invalid number: leading zeros are not allowed", at: start) }
        } else {
            while isDigit(offset) { take() }
        }
        var isInteger = true
        if offset < bytes.count && bytes[offset] == UInt8(ascii: ".") {
            isInteger = false
            take()
            guard isDigit(offset) else { throw error("invalid number: expected a digit after '.'", at: start) }
            while isDigit(offset) { take() }
        }
        if offset < bytes.count && (bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E")) {
            isInteger = false
            take()
            if offset < bytes.count && (bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")) { take() }
            guard isDigit(offset) else { throw error("invalid number: expected a digit in the exponent", at: start) }
            while isDigit(offset) { take() }
        }
        if isInteger, let value = Int(text) { return LocatedValue(kind: .integer(value), location: start) }
        guard let value = Double(text), value.isFinite else { throw error("number out of range: \(text)", at: start) }
        return LocatedValue(kind: .number(value), location: start)
    }
}
