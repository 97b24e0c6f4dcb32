import Dispatch
import Foundation

/// The site's search index, written at build time as a script
/// (`assets/search-index.js`) so that search works from `file://`, where
/// nothing can be fetched: the default theme's script loads it the first
/// time the search box is used, and searches it in the page.
///
/// Each entry is read from the finished page (so cached pages count too):
/// its title, its headings with their ids (results link to the section),
/// and its text, from `<main>` (or `<body>` without `<nav>`, for themes
/// without one), tags, scripts and styles left out, cut at `textLimit`
/// bytes so a 1,000-page index stays a few megabytes.
enum SearchIndex {
    static let path = "assets/search-index.js"
    static let textLimit = 4_000

    struct Entry: Encodable {
        /// Title, address (from the site's root), headings as [text, id], text.
        var t: String
        var u: String
        var h: [[String]]
        var x: String
    }

    /// The index script for `pages` (output, title), read from `files`.
    static func script(pages: [(output: String, title: String)], files: [String: [UInt8]]) -> [UInt8] {
        let sorted = pages.sorted { $0.output < $1.output }
        let slots = ResultSlots<Entry?>(count: sorted.count)
        DispatchQueue.concurrentPerform(iterations: sorted.count) { index in
            let page = sorted[index]
            guard let bytes = files[page.output] else { slots[index] = .some(nil); return }
            let (headings, text) = read(bytes)
            slots[index] = Entry(t: page.title, u: page.output, h: headings, x: text)
        }
        let entries = slots.values.compactMap { $0 }
        return Array(("window.RowmotionSearchIndex = " + SafeJSON.encode(entries) + ";\n").utf8)
    }

    /// A page's headings (`h2`–`h4` with an id) and its text.
    static func read(_ html: [UInt8]) -> (headings: [[String]], text: String) {
        let (start, end) = contentRange(html)
        var text: [UInt8] = []
        text.reserveCapacity(min(textLimit, end - start))
        var headings: [[String]] = []
        var index = start
        var skipUntil: [UInt8]?
        var heading: (id: String, start: Int)?
        func lower(_ byte: UInt8) -> UInt8 { byte | 0x20 }
        func matches(_ word: String, at position: Int) -> Bool {
            let bytes = Array(word.utf8)
            guard position + bytes.count <= end else { return false }
            for (offset, byte) in bytes.enumerated() where lower(html[position + offset]) != byte { return false }
            return true
        }
        func appendSpace() { if let last = text.last, last != 0x20 { text.append(0x20) } }
        while index < end {
            let byte = html[index]
            if byte == UInt8(ascii: "<") {
                let close = html[index..<end].firstIndex(of: UInt8(ascii: ">")) ?? end
                if let until = skipUntil {
                    if matches(String(decoding: until, as: UTF8.self), at: index) { skipUntil = nil }
                    index = close + 1
                    continue
                }
                for name in ["script", "style", "nav", "template"] where matches("<" + name, at: index) {
                    skipUntil = Array("</\(name)".utf8)
                }
                if matches("<h2", at: index) || matches("<h3", at: index) || matches("<h4", at: index) {
                    let tag = String(decoding: html[index..<close], as: UTF8.self)
                    if let id = attribute("id", in: tag) { heading = (id, text.count) }
                } else if heading != nil, matches("</h", at: index) {
                    let title = String(decoding: text[heading!.start...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    if !title.isEmpty { headings.append([title, heading!.id]) }
                    heading = nil
                }
                appendSpace()
                index = close + 1
                continue
            }
            if skipUntil != nil || (text.count >= textLimit && heading == nil) {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "&"), let semicolon = html[index..<min(end, index + 10)].firstIndex(of: UInt8(ascii: ";")) {
                let entity = String(decoding: html[(index + 1)..<semicolon], as: UTF8.self)
                let decoded: String? = switch entity {
                case "amp": "&"
                case "lt": "<"
                case "gt": ">"
                case "quot": "\""
                case "#39", "#x27", "apos": "'"
                case "nbsp": " "
                default: entity.hasPrefix("#") ? Int(entity.dropFirst().hasPrefix("x") ? String(entity.dropFirst(2)) : String(entity.dropFirst()),
                                                     radix: entity.dropFirst().hasPrefix("x") ? 16 : 10)
                    .flatMap(Unicode.Scalar.init).map { String(Character($0)) } : nil
                }
                if let decoded {
                    text.append(contentsOf: decoded.utf8)
                    index = semicolon + 1
                    continue
                }
            }
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D { appendSpace() } else { text.append(byte) }
            index += 1
        }
        // Cut at a character boundary.
        var cut = min(text.count, textLimit)
        while cut > 0, cut < text.count, text[cut] & 0xC0 == 0x80 { cut -= 1 }
        return (headings, String(decoding: text[..<cut], as: UTF8.self).trimmingCharacters(in: .whitespaces))
    }

    /// Where a page's content is: inside `<main>`, else inside `<body>`.
    static func contentRange(_ html: [UInt8]) -> (Int, Int) {
        func find(_ word: String, from start: Int = 0) -> Int? {
            let bytes = Array(word.utf8)
            guard html.count >= bytes.count, start <= html.count - bytes.count else { return nil }
            var index = start
            while index <= html.count - bytes.count {
                if html[index] == bytes[0], html[index..<(index + bytes.count)].elementsEqual(bytes) { return index }
                index += 1
            }
            return nil
        }
        for (open, close) in [("<main", "</main>"), ("<body", "</body>")] {
            if let start = find(open), let end = find(close, from: start) { return (start, end) }
        }
        return (0, html.count)
    }

    /// The value of `name="…"` in a tag's text.
    static func attribute(_ name: String, in tag: String) -> String? {
        guard let range = tag.range(of: " \(name)=\"") else { return nil }
        let rest = tag[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
