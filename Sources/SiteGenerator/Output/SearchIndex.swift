import Dispatch
import Foundation

/// The site's search index, written at build time as a script
/// (`search-index.js` at the site's root, beside `index.html`: `assets/`
/// holds only the theme's content-hashed files, and a name that changed
/// with every page would change every page) so that search works from `file://`, where
/// nothing can be fetched: the default theme's script loads it the first
/// time the search box is used, and searches it in the page.
///
/// Each entry is read from the finished page (so cached pages count too):
/// its title, its headings with their ids (results link to the section),
/// and its text, from `<main>` (or `<body>` without `<nav>`, for themes
/// without one), tags, scripts and styles left out, cut at `textLimit`
/// bytes so a 1,000-page index stays a few megabytes.
enum SearchIndex {
    static let path = "search-index.js"
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
            // A page named `javascript:x.md` must still be read as a path.
            slots[index] = Entry(t: page.title, u: RelativeURL.safe(page.output), h: headings, x: text)
        }
        let entries = slots.values.compactMap { $0 }
        return Array(("window.RowmotionSearchIndex = " + SafeJSON.encode(entries) + ";\n").utf8)
    }

    /// A page's headings (`h2`–`h4` with an id) and its text. Byte-level,
    /// on the page's buffer: it reads every page of the site.
    static func read(_ html: [UInt8]) -> (headings: [[String]], text: String) {
        let (start, end) = contentRange(html)
        return html.withUnsafeBufferPointer { page in
            var text: [UInt8] = []
            text.reserveCapacity(min(textLimit + 256, end - start))
            var headings: [[String]] = []
            var index = start
            var skipUntil: [UInt8]?
            var heading: (id: String, start: Int)?
            /// Whether the bytes at `position` are `word` (lowercase), case-insensitively.
            func matches(_ word: [UInt8], at position: Int) -> Bool {
                guard position + word.count <= end else { return false }
                for offset in 0..<word.count where page[position + offset] | 0x20 != word[offset] | 0x20 { return false }
                return true
            }
            func appendSpace() { if let last = text.last, last != 0x20 { text.append(0x20) } }
            while index < end {
                let byte = page[index]
                if byte == UInt8(ascii: "<") {
                    var close = index + 1
                    while close < end, page[close] != UInt8(ascii: ">") { close += 1 }
                    if let until = skipUntil {
                        if matches(until, at: index) { skipUntil = nil }
                        index = close + 1
                        continue
                    }
                    let next = index + 1 < end ? page[index + 1] | 0x20 : 0
                    if next == UInt8(ascii: "s") || next == UInt8(ascii: "n") || next == UInt8(ascii: "t") {
                        for (open, closing) in skipped where matches(open, at: index) { skipUntil = closing }
                    }
                    if next == UInt8(ascii: "h"), index + 2 < end, (UInt8(ascii: "2")...UInt8(ascii: "4")).contains(page[index + 2]) {
                        let tag = String(decoding: UnsafeBufferPointer(rebasing: page[index..<close]), as: UTF8.self)
                        if let id = attribute("id", in: tag) { heading = (id, text.count) }
                    } else if let open = heading, next == UInt8(ascii: "/"), index + 2 < end, page[index + 2] | 0x20 == UInt8(ascii: "h") {
                        let title = trimmed(text[open.start...])
                        if !title.isEmpty { headings.append([title, open.id]) }
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
                if byte == UInt8(ascii: "&"), let (decoded, length) = entity(page, at: index, end: end) {
                    text.append(contentsOf: decoded.utf8)
                    index += length
                    continue
                }
                if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D { appendSpace() } else { text.append(byte) }
                index += 1
            }
            // Cut at a character boundary.
            var cut = min(text.count, textLimit)
            while cut > 0, cut < text.count, text[cut] & 0xC0 == 0x80 { cut -= 1 }
            return (headings, trimmed(text[..<cut]))
        }
    }

    /// Bytes as text without the spaces around it (the only white space left).
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        var slice = bytes
        while slice.first == 0x20 { slice = slice.dropFirst() }
        while slice.last == 0x20 { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }

    /// Elements whose contents are not text to search.
    private static let skipped: [([UInt8], [UInt8])] = ["script", "style", "nav", "template"].map {
        (Array("<\($0)".utf8), Array("</\($0)".utf8))
    }

    /// The character an entity at `index` stands for, and its length.
    private static func entity(_ page: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> (String, Int)? {
        var semicolon = index + 1
        while semicolon < min(end, index + 10), page[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
        guard semicolon < end, page[semicolon] == UInt8(ascii: ";") else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: page[(index + 1)..<semicolon]), as: UTF8.self)
        let decoded: String?
        switch name {
        case "amp": decoded = "&"
        case "lt": decoded = "<"
        case "gt": decoded = ">"
        case "quot": decoded = "\""
        case "#39", "#x27", "apos": decoded = "'"
        case "nbsp": decoded = " "
        default:
            guard name.hasPrefix("#") else { return nil }
            let hex = name.dropFirst().hasPrefix("x") || name.dropFirst().hasPrefix("X")
            decoded = Int(name.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        return decoded.map { ($0, semicolon + 1 - index) }
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
