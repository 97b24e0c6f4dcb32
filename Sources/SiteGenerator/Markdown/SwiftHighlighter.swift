import Reports

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

    /// The keywords by length and first byte, as bytes: an identifier is
    /// looked up without making a String of it or hashing it.
    static let keywordTable: [[[UInt8]]] = {
        var table = [[[UInt8]]](repeating: [], count: 32 * 128)
        for keyword in keywords { table[keywordSlot(length: keyword.utf8.count, first: keyword.utf8.first!)!].append(Array(keyword.utf8)) }
        return table
    }()

    static func keywordSlot(length: Int, first: UInt8) -> Int? {
        length < 32 && first < 128 ? length * 128 + Int(first) : nil
    }

    /// Whether `word` (an identifier's bytes) is a keyword: compared byte for
    /// byte, as `keywords.contains` compares ASCII; a word with other
    /// characters is looked up as text (one can equal an ASCII word: the
    /// Kelvin sign is a K).
    static func isKeyword(_ word: ArraySlice<UInt8>) -> Bool {
        guard let first = word.first else { return false }
        if word.contains(where: { $0 >= 0x80 }) { return keywords.contains(String(decoding: word, as: UTF8.self)) }
        guard let slot = keywordSlot(length: word.count, first: first) else { return false }
        return keywordTable[slot].contains { $0.elementsEqual(word) }
    }

    /// `code` as HTML: escaped, with spans.
    static func html(_ code: String) -> String {
        var out: [UInt8] = []
        html(code, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `code` as HTML, appended to `out`. `byteRuns`: copy runs of bytes
    /// that are text to every rule at once (off, every byte takes the
    /// rules one by one, which a test compares with).
    static func html(_ code: String, into out: inout [UInt8], byteRuns: Bool = true) {
        var lexer = Lexer(bytes: Array(code.utf8))
        lexer.byteRuns = byteRuns
        swap(&lexer.out, &out)
        // Only into an empty buffer: reserving again for every piece
        // appended would grow it by exactly that much each time (a copy of
        // everything so far per call line), where appending grows it
        // geometrically.
        if lexer.out.isEmpty { lexer.out.reserveCapacity(lexer.bytes.count * 2) }
        lexer.run()
        swap(&lexer.out, &out)
    }

    /// One pass over the bytes, never back: strings and the code of their
    /// interpolations nest on an explicit stack (30,000 nested `"\(` once
    /// overflowed the call stack), and the length of every run of `#` is
    /// known up front, so a raw string's delimiters are checked in one step
    /// (a long run of `#` once took time quadratic in its length).
    private struct Lexer {
        let bytes: [UInt8]
        /// How many `#` start at each index (0 where there is none).
        let hashRuns: [Int]
        var index = 0
        var out: [UInt8] = []
        var byteRuns = true

        /// Bytes that code writes as they are: no token starts with them,
        /// no rule looks at them, and HTML needs no escape for them.
        static let plainInCode: [Bool] = (0...255).map { value in
            let byte = UInt8(value)
            return byte < 0x80 && !isIdentifierStart(byte) && !isDigit(byte) && !"\"#@/`()".utf8.contains(byte) && !HTMLText.needsEscape(byte)
        }
        /// Bytes that a string's text writes as they are.
        static let plainInString: [Bool] = (0...255).map { value in
            let byte = UInt8(value)
            return !"\\\n".utf8.contains(byte) && !HTMLText.needsEscape(byte)
        }

        /// The run of bytes from `index` that `table` calls plain, written
        /// as it is; whether there was one.
        mutating func plainRun(_ table: [Bool]) -> Bool {
            guard byteRuns, table[Int(bytes[index])] else { return false }
            var end = index + 1
            while end < bytes.count, table[Int(bytes[end])] { end += 1 }
            out.append(contentsOf: bytes[index..<end])
            index = end
            return true
        }

        enum Context {
            /// Code; inside an interpolation, `depth` counts its open parentheses.
            case code(interpolation: Bool, depth: Int)
            case string(hashes: Int, delimiter: Int, multiLine: Bool)
        }

        init(bytes: [UInt8]) {
            self.bytes = bytes
            var runs = [Int](repeating: 0, count: bytes.count + 1)
            for position in bytes.indices.reversed() where bytes[position] == UInt8(ascii: "#") {
                runs[position] = runs[position + 1] + 1
            }
            hashRuns = runs
        }

        func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func hashes(at position: Int) -> Int { position < bytes.count ? hashRuns[position] : 0 }

        mutating func escaped(_ byte: UInt8) {
            HTMLText.appendEscaped(byte, to: &out)
        }

        /// The next `count` bytes, escaped (`HTMLText`'s escaping, runs
        /// without a byte to escape appended whole).
        mutating func copy(_ count: Int) {
            let end = min(index + count, bytes.count)
            guard byteRuns else {
                while index < end { escaped(bytes[index]); index += 1 }
                return
            }
            bytes[index..<end].withUnsafeBufferPointer { HTMLText.appendEscaped($0, to: &out) }
            index = end
        }

        mutating func open(_ kind: StaticString) {
            out.append(contentsOf: #"<span class="hl-"#.utf8)
            out.append(contentsOf: UnsafeBufferPointer(start: kind.utf8Start, count: kind.utf8CodeUnitCount))
            out.append(contentsOf: #"">"#.utf8)
        }
        mutating func close() { out.append(contentsOf: "</span>".utf8) }

        /// A span of `count` bytes from the current index.
        mutating func span(_ kind: StaticString, count: Int) {
            open(kind)
            copy(count)
            close()
        }

        static func isIdentifierStart(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_") || byte >= 0x80
        }
        static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }
        static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

        mutating func run() {
            var stack: [Context] = [.code(interpolation: false, depth: 0)]
            while index < bytes.count, let context = stack.last {
                switch context {
                case let .code(interpolation, depth):
                    if plainRun(Self.plainInCode) { continue }
                    let byte = bytes[index]
                    if interpolation, byte == UInt8(ascii: ")"), depth == 0 {
                        // Back in the string: the `)` is the string's.
                        stack.removeLast()
                        open("string")
                        copy(1)
                        continue
                    }
                    if byte == UInt8(ascii: "(") { stack[stack.count - 1] = .code(interpolation: interpolation, depth: depth + 1) }
                    if byte == UInt8(ascii: ")") { stack[stack.count - 1] = .code(interpolation: interpolation, depth: depth - 1) }
                    if let string = stringStart() {
                        stack.append(string)
                    } else {
                        token(byte)
                    }
                case let .string(hashes, delimiter, multiLine):
                    if plainRun(Self.plainInString) { continue }
                    if let interpolation = stringPart(hashes: hashes, delimiter: delimiter, multiLine: multiLine) {
                        if interpolation { stack.append(.code(interpolation: true, depth: 0)) } else { stack.removeLast() }
                    }
                }
            }
            // The end inside strings: each string's span is closed, as if
            // every interpolation had ended there.
            while let context = stack.popLast() {
                switch context {
                case .string: close()
                case .code(interpolation: true, _): open("string")
                case .code: break
                }
            }
        }

        /// A string literal starting here (plain, multi-line or raw): its
        /// opening delimiter is written, and its context returned.
        mutating func stringStart() -> Context? {
            let quote = UInt8(ascii: "\"")
            let hashes = hashes(at: index)
            guard bytes[index] == quote || (hashes > 0 && peek(hashes) == quote) else { return nil }
            let multiLine = index + hashes + 2 < bytes.count && bytes[index + hashes + 1] == quote && bytes[index + hashes + 2] == quote
            let delimiter = multiLine ? 3 : 1
            open("string")
            copy(hashes + delimiter)
            return .string(hashes: hashes, delimiter: delimiter, multiLine: multiLine)
        }

        /// One step inside a string: nil while it goes on, true when an
        /// interpolation opens, false when the string ends.
        mutating func stringPart(hashes: Int, delimiter: Int, multiLine: Bool) -> Bool? {
            let quote = UInt8(ascii: "\"")
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                // An escape needs as many `#` as the string has.
                let marks = hashes == 0 || self.hashes(at: index + 1) >= hashes
                let after = peek(hashes + 1)
                if marks, after == UInt8(ascii: "(") {
                    copy(hashes + 2)
                    close()
                    return true
                }
                if marks, after != nil {
                    copy(hashes + 2)
                    return nil
                }
            }
            if byte == quote, (0..<delimiter).allSatisfy({ peek($0) == quote }), self.hashes(at: index + delimiter) >= hashes {
                copy(delimiter + hashes)
                close()
                return false
            }
            // A one-line string that never closes ends at its line.
            if byte == UInt8(ascii: "\n"), !multiLine {
                close()
                return false
            }
            escaped(byte)
            index += 1
            return nil
        }

        /// One token of code that is not a string.
        mutating func token(_ byte: UInt8) {
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
            } else if byte == UInt8(ascii: "@"), let next = peek(1), Self.isIdentifierStart(next) {
                span("attribute", count: 1 + identifierLength(from: index + 1))
            } else if byte == UInt8(ascii: "#"), hashes(at: index) > 1 {
                // A run of `#` that opens no raw string: all but the last are plain.
                copy(hashes(at: index) - 1)
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
                let word = bytes[index..<(index + length)]
                if SwiftHighlighter.isKeyword(word) {
                    span("keyword", count: length)
                } else if byte < 0x80 ? (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                            : String(decoding: word, as: UTF8.self).unicodeScalars.first?.properties.isUppercase == true {
                    // An ASCII letter is uppercase exactly when it is A–Z
                    // (Unicode's property, read without its tables).
                    span("type", count: length)
                } else {
                    copy(length)
                }
            } else if byte == UInt8(ascii: "`") {
                // A name in backticks is a name, whatever it spells.
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "`"), bytes[end] != UInt8(ascii: "\n") { end += 1 }
                copy(min(end + 1, bytes.count) - index)
            } else {
                escaped(byte)
                index += 1
            }
        }

        func identifierLength(from start: Int) -> Int {
            var end = start
            while end < bytes.count, Self.isIdentifierPart(bytes[end]) { end += 1 }
            return end - start
        }
    }
}
