/// Swift code blocks coloured at build time: a small lexer (not a parser)
/// that tells keywords, types, strings (with their interpolations lexed as
/// code), numbers, comments, attributes and compiler directives apart, and
/// writes each as a `<span class="hl-…">` a theme can restyle.
///
/// Why not swift-syntax's classifier: building SwiftParser and
/// SwiftIDEUtils took 117 s in debug on this 2-core machine (and release
/// longer), more than the rest of the package; CI builds both. What the
/// lexer cannot know (a lower-case type, a contextual keyword used as a
/// name) it leaves plain or colours by its spelling.
enum SwiftHighlighter {
    static let keywords: Set<String> = [
        "actor", "any", "as", "associatedtype", "async", "await", "borrowing", "break", "case", "catch", "class", "consuming",
        "continue", "convenience", "default", "defer", "deinit", "didSet", "do", "dynamic", "each", "else", "enum", "extension",
        "fallthrough", "false", "fileprivate", "final", "for", "func", "get", "guard", "if", "import", "in", "indirect", "infix",
        "init", "inout", "internal", "is", "isolated", "lazy", "let", "macro", "mutating", "nil", "nonisolated", "nonmutating",
        "open", "operator", "optional", "override", "package", "postfix", "precedencegroup", "prefix", "private", "protocol",
        "public", "repeat", "required", "rethrows", "return", "self", "Self", "sending", "set", "some", "static", "struct",
        "subscript", "super", "switch", "throw", "throws", "true", "try", "typealias", "unowned", "var", "weak", "where",
        "while", "willSet",
    ]

    /// `code` as HTML: escaped, with spans.
    static func html(_ code: String) -> String {
        var lexer = Lexer(bytes: Array(code.utf8))
        lexer.code(until: nil)
        return String(decoding: lexer.out, as: UTF8.self)
    }

    private struct Lexer {
        let bytes: [UInt8]
        var index = 0
        var out: [UInt8] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
            out.reserveCapacity(bytes.count * 2)
        }

        func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

        mutating func escaped(_ byte: UInt8) {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            default: out.append(byte)
            }
        }

        mutating func open(_ kind: String) { out.append(contentsOf: "<span class=\"hl-\(kind)\">".utf8) }
        mutating func close() { out.append(contentsOf: "</span>".utf8) }

        /// A span of `count` bytes from the current index.
        mutating func span(_ kind: String, count: Int) {
            open(kind)
            for _ in 0..<count { escaped(bytes[index]); index += 1 }
            close()
        }

        static func isIdentifierStart(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_") || byte >= 0x80
        }
        static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }
        static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

        /// Code, until the `)` that closes an interpolation (`until` is its
        /// depth counter start) or the end.
        mutating func code(until closing: UInt8?) {
            var depth = 0
            while let byte = peek() {
                if let closing, byte == closing, depth == 0 { return }
                if byte == UInt8(ascii: "(") { depth += 1 } else if byte == UInt8(ascii: ")") { depth -= 1 }
                if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                    var end = index
                    while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                    span("comment", count: end - index)
                } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                    // Block comments nest in Swift.
                    var end = index + 2, nesting = 1
                    while end < bytes.count, nesting > 0 {
                        if bytes[end] == UInt8(ascii: "/"), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "*") { nesting += 1; end += 2 }
                        else if bytes[end] == UInt8(ascii: "*"), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "/") { nesting -= 1; end += 2 }
                        else { end += 1 }
                    }
                    span("comment", count: min(end, bytes.count) - index)
                } else if byte == UInt8(ascii: "\"") || (byte == UInt8(ascii: "#") && rawStringHashes() != nil) {
                    string()
                } else if byte == UInt8(ascii: "@"), let next = peek(1), Self.isIdentifierStart(next) {
                    span("attribute", count: 1 + identifierLength(from: index + 1))
                } else if byte == UInt8(ascii: "#"), let next = peek(1), Self.isIdentifierStart(next) {
                    span("directive", count: 1 + identifierLength(from: index + 1))
                } else if Self.isDigit(byte) {
                    var end = index + 1
                    while end < bytes.count, Self.isIdentifierPart(bytes[end])
                            || (bytes[end] == UInt8(ascii: ".") && end + 1 < bytes.count && Self.isDigit(bytes[end + 1]))
                            || ((bytes[end] == UInt8(ascii: "-") || bytes[end] == UInt8(ascii: "+"))
                                && (bytes[end - 1] | 0x20 == UInt8(ascii: "e") || bytes[end - 1] | 0x20 == UInt8(ascii: "p"))
                                && !(bytes[index] == UInt8(ascii: "0") && index + 1 < bytes.count && bytes[index + 1] | 0x20 == UInt8(ascii: "x") && bytes[end - 1] | 0x20 == UInt8(ascii: "e"))) {
                        end += 1
                    }
                    span("number", count: end - index)
                } else if Self.isIdentifierStart(byte) {
                    let length = identifierLength(from: index)
                    let word = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
                    if SwiftHighlighter.keywords.contains(word) {
                        span("keyword", count: length)
                    } else if let first = word.unicodeScalars.first, first.properties.isUppercase {
                        span("type", count: length)
                    } else {
                        for _ in 0..<length { escaped(bytes[index]); index += 1 }
                    }
                } else if byte == UInt8(ascii: "`") {
                    // A name in backticks is a name, whatever it spells.
                    var end = index + 1
                    while end < bytes.count, bytes[end] != UInt8(ascii: "`"), bytes[end] != UInt8(ascii: "\n") { end += 1 }
                    let stop = min(end + 1, bytes.count)
                    while index < stop { escaped(bytes[index]); index += 1 }
                } else {
                    escaped(byte)
                    index += 1
                }
            }
        }

        func identifierLength(from start: Int) -> Int {
            var end = start
            while end < bytes.count, Self.isIdentifierPart(bytes[end]) { end += 1 }
            return end - start
        }

        /// The number of `#` before a raw string's quote here, if one starts.
        func rawStringHashes() -> Int? {
            var count = 0
            while index + count < bytes.count, bytes[index + count] == UInt8(ascii: "#") { count += 1 }
            return index + count < bytes.count && bytes[index + count] == UInt8(ascii: "\"") && count > 0 ? count : nil
        }

        /// A string literal (plain, multi-line or raw), its interpolations
        /// lexed as code.
        mutating func string() {
            let hashes = rawStringHashes() ?? 0
            let quote = UInt8(ascii: "\"")
            let multiLine = index + hashes + 2 < bytes.count && bytes[index + hashes + 1] == quote && bytes[index + hashes + 2] == quote
            let delimiter = (multiLine ? 3 : 1)
            open("string")
            for _ in 0..<(hashes + delimiter) { escaped(bytes[index]); index += 1 }
            while let byte = peek() {
                if byte == UInt8(ascii: "\\") {
                    // An escape needs as many `#` as the string has.
                    let marks = (1...max(1, hashes)).allSatisfy { peek($0) == UInt8(ascii: "#") } || hashes == 0
                    let after = hashes == 0 ? peek(1) : peek(hashes + 1)
                    if marks, after == UInt8(ascii: "(") {
                        for _ in 0..<(hashes + 2) { escaped(bytes[index]); index += 1 }
                        close()
                        code(until: UInt8(ascii: ")"))
                        open("string")
                        if peek() == UInt8(ascii: ")") { escaped(bytes[index]); index += 1 }
                        continue
                    }
                    if marks, after != nil {
                        for _ in 0..<(hashes + 2) where index < bytes.count { escaped(bytes[index]); index += 1 }
                        continue
                    }
                }
                if byte == quote, (0..<delimiter).allSatisfy({ peek($0) == quote }),
                   (0..<hashes).allSatisfy({ peek(delimiter + $0) == UInt8(ascii: "#") }) {
                    for _ in 0..<(delimiter + hashes) { escaped(bytes[index]); index += 1 }
                    break
                }
                // A one-line string that never closes ends at its line.
                if byte == UInt8(ascii: "\n"), !multiLine { break }
                escaped(byte)
                index += 1
            }
            close()
        }
    }
}
