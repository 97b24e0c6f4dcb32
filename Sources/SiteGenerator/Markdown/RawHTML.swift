/// Raw HTML as libcmark hands it over (the literal of an HTML block or an
/// inline tag), which its tree does not look into: tags read the way a
/// browser tokenizes them, so a `>` or a quote inside a quoted attribute
/// value stays inside it. One pass, each byte looked at a bounded number of
/// times, whatever the input.
enum RawHTML {
    /// An attribute of a start tag: the tag's and the attribute's names
    /// lowercased, its value as written (entities not decoded).
    struct Attribute: Equatable {
        var tag: String
        var name: String
        var value: String
        /// Whether the value is in quotes (an unquoted one ends at a space).
        var quoted = false
    }

    /// What `scan` found: the start tags' attributes, in order, and the
    /// text between tags (comments, `<script>` and `<style>` left out),
    /// runs of white space as one space.
    struct Scan {
        var attributes: [Attribute] = []
        var text: [UInt8] = []
    }

    static func scan(_ html: String) -> Scan {
        var result = Scan()
        let bytes = Array(html.utf8)
        let count = bytes.count
        var index = 0
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        func lowercased(_ range: Range<Int>) -> String {
            String(decoding: bytes[range].map { isLetter($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        func appendText(_ byte: UInt8) {
            if isSpace(byte) {
                if let last = result.text.last, last != 0x20 { result.text.append(0x20) }
            } else {
                result.text.append(byte)
            }
        }
        /// The index just after `needle` (ASCII, lowercase) at or after `start`, case-insensitively; `count` when absent.
        func skipPast(_ needle: [UInt8], from start: Int) -> Int {
            var position = start
            while position + needle.count <= count {
                var matched = true
                for offset in 0..<needle.count where bytes[position + offset] | (isLetter(bytes[position + offset]) ? 0x20 : 0) != needle[offset] {
                    matched = false
                    break
                }
                if matched { return position + needle.count }
                position += 1
            }
            return count
        }
        while index < count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "<"), index + 1 < count else {
                appendText(byte)
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "!") {
                // A comment ends at `-->`; `<!doctype …>` and `<![CDATA[…]]>` at their `>`.
                let isComment = index + 3 < count && bytes[index + 2] == UInt8(ascii: "-") && bytes[index + 3] == UInt8(ascii: "-")
                index = isComment ? skipPast(Array("-->".utf8), from: index + 4) : skipPast([UInt8(ascii: ">")], from: index + 2)
                continue
            }
            if next == UInt8(ascii: "/") || next == UInt8(ascii: "?") {
                index = skipPast([UInt8(ascii: ">")], from: index + 2)
                continue
            }
            guard isLetter(next) else {
                appendText(byte)
                index += 1
                continue
            }
            // A start tag: its name, then attributes until `>`.
            var position = index + 1
            while position < count, !isSpace(bytes[position]), bytes[position] != UInt8(ascii: "/"), bytes[position] != UInt8(ascii: ">") {
                position += 1
            }
            let tag = lowercased((index + 1)..<position)
            while position < count, bytes[position] != UInt8(ascii: ">") {
                if isSpace(bytes[position]) || bytes[position] == UInt8(ascii: "/") {
                    position += 1
                    continue
                }
                let nameStart = position
                while position < count, !isSpace(bytes[position]), bytes[position] != UInt8(ascii: "/"), bytes[position] != UInt8(ascii: ">"),
                      bytes[position] != UInt8(ascii: "=") || position == nameStart {
                    position += 1
                }
                let name = lowercased(nameStart..<position)
                var valueStart = position, valueEnd = position
                var probe = position
                while probe < count, isSpace(bytes[probe]) { probe += 1 }
                if probe < count, bytes[probe] == UInt8(ascii: "=") {
                    probe += 1
                    while probe < count, isSpace(bytes[probe]) { probe += 1 }
                    if probe < count, bytes[probe] == UInt8(ascii: "\"") || bytes[probe] == UInt8(ascii: "'") {
                        let quote = bytes[probe]
                        valueStart = probe + 1
                        valueEnd = valueStart
                        while valueEnd < count, bytes[valueEnd] != quote { valueEnd += 1 }
                        position = min(count, valueEnd + 1)
                        result.attributes.append(Attribute(tag: tag, name: name, value: String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self),
                                                           quoted: true))
                        continue
                    } else {
                        valueStart = probe
                        valueEnd = probe
                        while valueEnd < count, !isSpace(bytes[valueEnd]), bytes[valueEnd] != UInt8(ascii: ">") { valueEnd += 1 }
                        position = valueEnd
                    }
                    result.attributes.append(Attribute(tag: tag, name: name, value: String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)))
                } else {
                    result.attributes.append(Attribute(tag: tag, name: name, value: ""))
                }
            }
            index = min(count, position + 1)
            // What a script or a style holds is not text.
            if tag == "script" || tag == "style" {
                index = skipPast([UInt8(ascii: ">")], from: skipPast(Array("</\(tag)".utf8), from: index))
            }
            if let last = result.text.last, last != 0x20 { result.text.append(0x20) }
        }
        return result
    }

    /// The `src` and `href` values of start tags, in order.
    static func addresses(in html: String) -> [String] {
        scan(html).attributes.filter { $0.name == "src" || $0.name == "href" }.map(\.value)
    }

    /// The ids a reader can link to: every `id`, and `name` on `<a>`,
    /// which browsers scroll to as well.
    static func ids(in html: String) -> [String] {
        ids(of: scan(html).attributes)
    }

    static func ids(of attributes: [Attribute]) -> [String] {
        attributes.filter { ($0.name == "id" || ($0.name == "name" && $0.tag == "a")) && !$0.value.isEmpty }
            .map { MarkdownRenderer.decodingCharacterReferences($0.value) }
    }
}
