import CCMark

/// The one way text reaches libcmark. Debian 12's libcmark (0.30.2) takes
/// time quadratic in the brackets a block leaves open (CVE-2023-22486, fixed
/// in 0.30.3): `![[]()` 160,000 times in one paragraph (960 KB) took 90 s.
/// A block — lines up to a blank one, fenced code left out — may leave at
/// most `openBrackets` of them open; text past it is refused before libcmark
/// sees it (a page or a description with its located error), so every parse
/// stays linear. Balanced links (`[a](b)`, a table of thousands) never count.
enum CMarkInput {
    /// Far past any real paragraph (a table of links leaves none open), and
    /// low enough that the quadratic part stays a few milliseconds a block.
    static let openBrackets = 1_000

    /// Where a block first leaves more than `openBrackets` brackets open:
    /// its 1-based line in `text`, or nil when none does.
    static func tooManyOpenBrackets(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            var open = 0, line = 1
            // Inside a fenced code block: its fence's byte and length.
            var fence: (byte: UInt8, length: Int)?
            var blank = true, escaped = false
            var lineStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    // A line's first bytes are read for a fence only where
                    // one could start.
                    if lineStart < index, [UInt8(ascii: " "), UInt8(ascii: "`"), UInt8(ascii: "~")].contains(bytes[lineStart]),
                       let run = fenceRun(Array(bytes[lineStart..<min(index, lineStart + 64)])) {
                        if let current = fence {
                            if run.byte == current.byte, run.length >= current.length, run.rest.isEmpty { fence = nil }
                        } else {
                            fence = (run.byte, run.length)
                        }
                    }
                    if blank { open = 0 }
                    (line, blank, escaped) = (line + 1, true, false)
                    lineStart = index + 1
                    continue
                }
                if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") { blank = false }
                guard fence == nil else { continue }
                if escaped {
                    escaped = false
                    continue
                }
                switch byte {
                case UInt8(ascii: "\\"): escaped = true
                case UInt8(ascii: "["):
                    open += 1
                    if open > openBrackets { return line }
                case UInt8(ascii: "]"): open = max(0, open - 1)
                default: break
                }
            }
            return nil
        }
    }

    /// A line's fence: up to three spaces, then three or more backticks or
    /// tildes; `rest` is what follows (a closing fence has nothing).
    static func fenceRun(_ lead: [UInt8]) -> (byte: UInt8, length: Int, rest: ArraySlice<UInt8>)? {
        var index = 0
        while index < lead.count, index < 3, lead[index] == UInt8(ascii: " ") { index += 1 }
        guard index < lead.count, lead[index] == UInt8(ascii: "`") || lead[index] == UInt8(ascii: "~") else { return nil }
        let byte = lead[index]
        var length = 0
        while index < lead.count, lead[index] == byte {
            length += 1
            index += 1
        }
        guard length >= 3 else { return nil }
        var rest = lead[index...]
        while let last = rest.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\r") { rest = rest.dropLast() }
        return (byte, length, rest)
    }

    /// libcmark's tree of `text`, or nil when it is refused (see above) or
    /// cannot be parsed.
    static func parse(_ text: String, options: Int32) -> OpaquePointer? {
        guard tooManyOpenBrackets(text) == nil else { return nil }
        let bytes = Array(text.utf8)
        return cmark_parse_document(bytes, bytes.count, options)
    }

    /// The error for text refused at `line`.
    static func message(_ what: String) -> String {
        "this \(what) leaves more than \(openBrackets) brackets '[' open in one block; the Markdown library's time grows "
            + "with their square (libcmark 0.30.2, CVE-2023-22486), so a block may leave at most \(openBrackets) open"
    }
}
