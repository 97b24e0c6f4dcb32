/// A page as libcmark's tree gave it, worked out once when the page is
/// rendered: what every later stage reads — search, the checks of links to
/// an element, the build cache — instead of reading the HTML back. Plain
/// values only, so it crosses threads and is stored as it is.
struct Document: Equatable, Sendable, Decodable {
    /// A heading of the content, with the id the renderer gave it.
    struct Heading: Equatable, Sendable, Decodable {
        var level: Int
        var text: String
        var id: String
    }

    var headings: [Heading] = []
    /// Every id of the content a link can name: the headings', and those
    /// raw HTML in the Markdown gives (`id`, `<a name>`). The theme's own
    /// ids are not the page's to know (see `SiteBuilder.themeIDs`).
    var ids: [String] = []
    /// Its links to an element of a page (`#id`, `page.md#id`).
    var links: [FragmentLink] = []
    /// Its text for search: the blocks' text, a space between blocks, white
    /// space runs as one space, cut at `textLimit` bytes on a character
    /// boundary (a 1,000-page index stays a few megabytes).
    var text = ""

    static let textLimit = 4_000

    /// Collects a document's text as the tree is walked.
    struct TextCollector {
        private(set) var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(512) }

        var isFull: Bool { bytes.count >= Document.textLimit }

        mutating func append(_ text: String) {
            guard !isFull else { return }
            var text = text
            text.withUTF8 { append(utf8: $0) }
        }

        /// Text as UTF-8 (a tree's literal, read in place).
        mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
            guard !isFull else { return }
            // Runs between whitespace appended whole (a byte at a time
            // was 2 % of a build).
            var start = 0
            for (index, byte) in utf8.enumerated() where byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
                if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
                separate()
                start = index + 1
            }
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        }

        mutating func append(_ scanned: [UInt8]) {
            guard !isFull else { return }
            for byte in scanned {
                if byte == 0x20 { separate() } else { bytes.append(byte) }
            }
        }

        /// A space, unless there is one already (or nothing yet).
        mutating func separate() {
            if let last = bytes.last, last != 0x20 { bytes.append(0x20) }
        }

        /// The text, cut at `textLimit` bytes on a character boundary, without spaces around it.
        var text: String {
            var cut = min(bytes.count, Document.textLimit)
            while cut > 0, cut < bytes.count, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            var slice = bytes[..<cut]
            while slice.last == 0x20 { slice = slice.dropLast() }
            return String(decoding: slice, as: UTF8.self)
        }
    }
}

extension Document {
    /// The JSON `JSONDecoder` reads back as this Document (its `Codable`
    /// keys), written directly.
    func write(to json: inout JSONBytes) {
        json.object { document in
            document.member("headings") {
                $0.objects(headings) { fields, heading in
                    fields.member("id") { $0.string(heading.id) }
                    fields.member("level") { $0.int(heading.level) }
                    fields.member("text") { $0.string(heading.text) }
                }
            }
            document.member("ids") { $0.strings(ids) }
            document.member("links") {
                $0.objects(links) { fields, link in
                    fields.member("column") { $0.int(link.column) }
                    fields.member("fragment") { $0.string(link.fragment) }
                    fields.member("line") { $0.int(link.line) }
                    fields.member("page") { $0.string(link.page) }
                }
            }
            document.member("text") { $0.string(text) }
        }
    }
}

/// A link to an element of a page: `#id` in the same page, `page.md#id`
/// or `examples/x.html#step-2` to another one.
struct FragmentLink: Equatable, Sendable, Decodable {
    /// The output the link leads to (`engine.html`).
    var page: String
    /// The id after `#`, percent-decoded.
    var fragment: String
    /// The line and column of the link's address in its page's Markdown file.
    var line: Int
    var column = 1

    init(page: String, fragment: String, line: Int, column: Int = 1) {
        self.page = page
        self.fragment = fragment
        self.line = line
        self.column = column
    }
}

