import ProjectFiles
import CCMark
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fenced code block whose info string is `rowmotion`: a player to put
/// in the page.
public struct DemoBlock: Sendable {
    /// The block's text (between the fences).
    public var source: String
    /// The line of the block's first content line in the `.md` file.
    public var firstLine: Int
}

/// What kind of address the renderer hands to its `link` callback.
public enum LinkKind: Sendable {
    /// A Markdown link: the callback may rewrite it (`.md` → `.html`).
    case link
    /// A Markdown image: rewritten like a link's path, checked as a file.
    case image
    /// A `src` or `href` in raw HTML: checked only, never rewritten.
    case rawHTML
}

/// Markdown to HTML through libcmark (CommonMark), with raw HTML passed
/// through (`CMARK_OPT_UNSAFE`: the docs are written by the project's own
/// authors) and smart punctuation. Demo blocks are found by walking the
/// syntax tree and replaced there, never by searching the HTML.
public enum MarkdownRenderer {
    /// Renders `markdown`, asking `player` for the HTML of each demo block.
    ///
    /// - Parameters:
    ///   - lineOffset: lines before `markdown` in its file (front matter),
    ///     so demo blocks know their line in the file.
    ///   - player: the HTML that replaces a demo block, or nil to leave a
    ///     visible placeholder (the caller reports why).
    public static func render(_ markdown: String, lineOffset: Int = 0, player: (DemoBlock) -> String?) -> String {
        render(markdown, lineOffset: lineOffset, player: player, link: { _, _, _, _ in nil })
    }

    /// Renders `markdown`; `link` sees every link's URL (with the line and
    /// column of its address in the file) and may return a replacement
    /// (`.md` pages become `.html`).
    public static func render(_ markdown: String, lineOffset: Int = 0, player: (DemoBlock) -> String?,
                              link: (_ url: String, _ line: Int, _ column: Int, _ kind: LinkKind) -> String?) -> String {
        render(ParsedMarkdown(markdown), lineOffset: lineOffset, player: player, link: link)
    }

    /// Renders a document parsed earlier (when its title was read); a
    /// document is rendered once, since rendering changes its tree.
    static func render(_ parsed: ParsedMarkdown, lineOffset: Int = 0, player: (DemoBlock) -> String?,
                       link: (_ url: String, _ line: Int, _ column: Int, _ kind: LinkKind) -> String?) -> String {
        renderDocument(parsed, lineOffset: lineOffset, player: player, link: link).html
    }

    /// A code block's language: the first word of its info string (cmark
    /// 0.30 has no cmark_node_get_fenced: a non-empty info string means fenced).
    static func language(of node: OpaquePointer) -> Substring? {
        (cmark_node_get_fence_info(node).map { String(cString: $0) } ?? "").split(separator: " ").first
    }

    static func isDemoBlock(_ node: OpaquePointer) -> Bool {
        cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK && language(of: node) == "rowmotion"
    }

    /// A demo block node's text and where it starts.
    static func demoBlock(_ node: OpaquePointer, lineOffset: Int) -> DemoBlock {
        let source = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
        // The fence is on the node's start line; the content starts below it.
        return DemoBlock(source: source, firstLine: Int(cmark_node_get_start_line(node)) + 1 + lineOffset)
    }

    /// The HTML, and what the tree says of the page (headings and their
    /// ids, the ids raw HTML gives, its text for search), read on the same
    /// walk: nothing after this reads the HTML back.
    static func renderDocument(_ parsed: ParsedMarkdown, lineOffset: Int = 0, player: (DemoBlock) -> String?,
                               link: (_ url: String, _ line: Int, _ column: Int, _ kind: LinkKind) -> String?) -> (html: String, document: Document) {
        let options = ParsedMarkdown.options
        var page = Document()
        guard let document = parsed.take() else { return ("", page) }
        defer { cmark_node_free(document) }
        var text = Document.TextCollector()

        // Collect first: replacing nodes while iterating would upset the iterator.
        var blocks: [OpaquePointer] = []
        var swiftBlocks: [OpaquePointer] = []
        var headings: [OpaquePointer] = []
        var finder = LinkPlaces(source: parsed.source)
        let iterator = cmark_iter_new(document)
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            text.take(node, event)
            guard event == CMARK_EVENT_ENTER else { continue }
            if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE, let url = cmark_node_get_url(node).map({ String(cString: $0) }) {
                let (line, column) = finder.place(of: url, in: node)
                if let replacement = link(url, line + lineOffset, column, type == CMARK_NODE_LINK ? .link : .image) {
                    cmark_node_set_url(node, replacement)
                }
                continue
            }
            if type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE, let html = cmark_node_get_literal(node).map({ String(cString: $0) }) {
                // Raw HTML is passed through as written: its addresses are
                // checked, its ids can be linked to, its text is searched.
                let scanned = RawHTML.scan(html)
                page.ids += RawHTML.ids(of: scanned.attributes)
                text.append(scanned.text)
                for url in scanned.attributes.filter({ $0.name == "src" || $0.name == "href" }).map(\.value) {
                    // Found where it is written; checked as the browser reads it (`&amp;` is `&`).
                    let (line, column) = finder.place(of: url, in: node)
                    _ = link(decodingCharacterReferences(url), line + lineOffset, column, .rawHTML)
                }
                continue
            }
            if cmark_node_get_type(node) == CMARK_NODE_HEADING {
                headings.append(node)
                continue
            }
            guard cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK else { continue }
            if isDemoBlock(node) { blocks.append(node); continue }
            if language(of: node) == "swift" { swiftBlocks.append(node) }
            text.append(cmark_node_get_literal(node).map { String(cString: $0) } ?? "")
        }
        cmark_iter_free(iterator)

        // Swift code, coloured at build time.
        for node in swiftBlocks {
            let code = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
            guard let replacement = cmark_node_new(CMARK_NODE_HTML_BLOCK) else { continue }
            cmark_node_set_literal(replacement, "<pre><code class=\"language-swift\">" + SwiftHighlighter.html(code) + "</code></pre>\n")
            cmark_node_replace(node, replacement)
            cmark_node_free(node)
        }

        for node in blocks {
            let block = demoBlock(node, lineOffset: lineOffset)
            let html = player(block) ?? "<div class=\"rowmotion-error\">This demo block could not be built.</div>"
            guard let replacement = cmark_node_new(CMARK_NODE_HTML_BLOCK) else { continue }
            cmark_node_set_literal(replacement, html + "\n")
            cmark_node_replace(node, replacement)
            cmark_node_free(node)
        }
        // Headings get ids readers can link to (`#` links are checked
        // against the finished page's ids).
        var anchors: [String: Int] = [:]
        for heading in headings {
            let title = plainText(of: heading)
            let id = uniqueID(headingID(title), among: &anchors)
            page.headings.append(Document.Heading(level: Int(cmark_node_get_heading_level(heading)), text: title, id: id))
            identify(heading, as: id, options: options)
        }
        page.ids += page.headings.map(\.id)
        page.text = text.text
        guard let rendered = cmark_render_html(document, options) else { return ("", page) }
        defer { free(rendered) }
        return (String(cString: rendered), page)
    }

    /// An attribute value as the browser reads it: numeric character
    /// references and the five XML entities decoded (`a&amp;b` is `a&b`);
    /// anything else, a bare `&` included, stays as written.
    static func decodingCharacterReferences(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "&")) else { return value }
        let named: [Substring: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
        var result = ""
        var rest = value[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(10).firstIndex(of: ";") else {
                result += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            let name = rest[afterAmpersand..<semicolon]
            var decoded: String?
            if let text = named[name] {
                decoded = text
            } else if name.hasPrefix("#") {
                let digits = name.dropFirst()
                let number = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                decoded = number.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            }
            if let decoded {
                result += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[afterAmpersand...]
            }
        }
        return result + rest
    }

    /// Renders Markdown that comes from data (a sequence file's
    /// `description`), which may have been written by anyone: raw HTML is
    /// shown as text, never passed through, and a link or image keeps its
    /// URL only when it is relative or `http`, `https` or `mailto`; `link`
    /// may rewrite a kept one (a page's `.md` to its `.html`).
    public static func renderData(_ markdown: String, link: (String) -> String? = { _ in nil }) -> String {
        guard let document = CMarkInput.parse(markdown, options: CMARK_OPT_SMART) else { return "" }
        defer { cmark_node_free(document) }
        var raw: [OpaquePointer] = []
        let iterator = cmark_iter_new(document)
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
                raw.append(node)
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                if !isSafeDataURL(url) { cmark_node_set_url(node, "") } else if let rewritten = link(url) { cmark_node_set_url(node, rewritten) }
            default:
                break
            }
        }
        cmark_iter_free(iterator)
        for node in raw {
            // Raw HTML becomes the text it is, escaped by the renderer.
            var literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
            let isBlock = cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK
            while isBlock && literal.hasSuffix("\n") { literal.removeLast() }
            guard let text = cmark_node_new(CMARK_NODE_TEXT) else { continue }
            cmark_node_set_literal(text, literal)
            if isBlock, let paragraph = cmark_node_new(CMARK_NODE_PARAGRAPH) {
                cmark_node_append_child(paragraph, text)
                cmark_node_replace(node, paragraph)
            } else {
                cmark_node_replace(node, text)
            }
            cmark_node_free(node)
        }
        guard let rendered = cmark_render_html(document, CMARK_OPT_SMART) else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }

    /// The addresses of the links and images of Markdown from data, in order.
    static func linkAddresses(ofData markdown: String) -> [String] {
        guard let document = CMarkInput.parse(markdown, options: CMARK_OPT_SMART) else { return [] }
        defer { cmark_node_free(document) }
        var urls: [String] = []
        let iterator = cmark_iter_new(document)
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                  cmark_node_get_type(node) == CMARK_NODE_LINK || cmark_node_get_type(node) == CMARK_NODE_IMAGE else { continue }
            urls.append(cmark_node_get_url(node).map { String(cString: $0) } ?? "")
        }
        return urls
    }

    /// Whether a URL from data may be a link target: relative (no scheme),
    /// or `http`, `https` or `mailto`. Read as a browser reads it: tabs and
    /// line breaks inside are ignored, leading spaces and controls dropped.
    static func isSafeDataURL(_ url: String) -> Bool {
        let scalars = url.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
            .drop { $0.value <= 0x20 }
        var scheme = ""
        for scalar in scalars {
            if scalar == ":" { return ["http", "https", "mailto"].contains(scheme.lowercased()) }
            let isSchemeCharacter = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar == "+" || scalar == "-" || scalar == ".")
            // A path, query or fragment character first: no scheme, relative.
            if !isSchemeCharacter { return true }
            scheme.unicodeScalars.append(scalar)
        }
        return true
    }

    /// The id a heading with this text receives, as GitHub forms it:
    /// lowercased, spaces as hyphens, punctuation other than `-` and `_`
    /// dropped ("UIKit’s batch-update rules" → `uikits-batch-update-rules`).
    public static func headingID(_ text: String) -> String {
        asciiHeadingID(text) ?? characterHeadingID(text)
    }

    /// `headingID` character by character, for any text.
    static func characterHeadingID(_ text: String) -> String {
        var id = ""
        for character in text.lowercased() {
            if character == " " { id.append("-") }
            else if character == "-" || character == "_" || character.isLetter || character.isNumber { id.append(character) }
        }
        return id.isEmpty ? "section" : id
    }

    /// `headingID` of ASCII text, byte by byte (nil for other text): the
    /// letters and digits of ASCII are exactly what `isLetter` and
    /// `isNumber` accept there, and lowercasing maps A–Z alone.
    static func asciiHeadingID(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "): bytes.append(UInt8(ascii: "-"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 32)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                bytes.append(byte)
            case 0x80...: return nil
            default: continue
            }
        }
        return bytes.isEmpty ? "section" : String(decoding: bytes, as: UTF8.self)
    }

    /// `id`, or `id-1`, `id-2`… when an earlier heading of the page took it,
    /// as GitHub (and Hugo) number repeats: each base id counts its
    /// repeats, skipping numbers another heading already spells
    /// (`# A`, `# A-1`, `# A` give `a`, `a-1`, `a-2`). `taken` maps each
    /// id given so far to its repeats.
    static func uniqueID(_ id: String, among taken: inout [String: Int]) -> String {
        var candidate = id
        while let _ = taken[candidate] {
            let repeats = taken[id, default: 0] + 1
            taken[id] = repeats
            candidate = "\(id)-\(repeats)"
        }
        taken[candidate] = 0
        return candidate
    }

    /// The text of Markdown that comes from data (a sequence's
    /// `description`), as search reads it: words and code, no markup.
    static func plainText(ofMarkdown markdown: String) -> String {
        guard let document = CMarkInput.parse(markdown, options: CMARK_OPT_SMART) else { return "" }
        defer { cmark_node_free(document) }
        var text = Document.TextCollector()
        let iterator = cmark_iter_new(document)
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            text.take(node, event)
            if event == CMARK_EVENT_ENTER, cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK {
                text.append(cmark_node_get_literal(node).map { String(cString: $0) } ?? "")
            }
        }
        return text.text
    }

    /// The text a heading shows: its text and code spans, breaks as spaces.
    static func plainText(of node: OpaquePointer) -> String {
        var text = ""
        let iterator = cmark_iter_new(node)
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let child = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(child) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE: text += cmark_node_get_literal(child).map { String(cString: $0) } ?? ""
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: text += " "
            default: break
            }
        }
        return text
    }

    /// Gives a heading an `id`. cmark has no attributes, so the heading
    /// becomes raw HTML: its inline children are moved into a paragraph of
    /// their own and rendered (and escaped) by cmark, then put between
    /// tags that carry the id.
    static func identify(_ heading: OpaquePointer, as id: String, options: Int32) {
        let level = cmark_node_get_heading_level(heading)
        guard let paragraph = cmark_node_new(CMARK_NODE_PARAGRAPH), let block = cmark_node_new(CMARK_NODE_HTML_BLOCK) else { return }
        defer { cmark_node_free(paragraph) }
        while let child = cmark_node_first_child(heading) {
            cmark_node_unlink(child)
            cmark_node_append_child(paragraph, child)
        }
        var inline = ""
        if let rendered = cmark_render_html(paragraph, options) {
            inline = String(cString: rendered)
            free(rendered)
        }
        if inline.hasPrefix("<p>") { inline.removeFirst(3) }
        if inline.hasSuffix("</p>\n") { inline.removeLast(5) }
        // Heading ids hold letters, digits, `-` and `_` only: nothing to escape.
        cmark_node_set_literal(block, "<h\(level) id=\"\(id)\">\(inline)</h\(level)>\n")
        cmark_node_replace(heading, block)
        cmark_node_free(heading)
    }
}

/// A page's Markdown parsed once by libcmark: its title is read from the
/// tree when the page is loaded, and the same tree is rendered later.
final class ParsedMarkdown: Sendable {
    static let options = CMARK_OPT_UNSAFE | CMARK_OPT_SMART
    /// libcmark's tree, parsed when first asked for and kept until it is
    /// rendered (one thread at a time reads it): a page whose output the
    /// cache gives as it was is never parsed, and a clean build holds a
    /// tree only from a page's render to its end, not every page's at once.
    private let state: Locked<State>
    private let text: String
    /// The Markdown it was parsed from.
    var source: String { text }

    private struct State {
        var tree: OpaquePointer?
        var parsed = false
        var tableProblems: [Tables.Problem] = []
    }

    init(_ markdown: String) {
        text = markdown
        state = Locked(State())
    }

    /// libcmark's tree, with GFM tables made tables.
    static func parse(_ text: String) -> (OpaquePointer?, [Tables.Problem]) {
        guard let document = CMarkInput.parse(text, options: options) else { return (nil, []) }
        return (document, Tables.apply(to: document, source: text, options: options))
    }

    deinit { state.withLock { if let document = $0.tree { cmark_node_free(document) } } }

    /// The state, parsed first if it was not.
    private func withParsed<T>(_ body: (inout State) -> T) -> T {
        state.withLock { state in
            if !state.parsed {
                (state.tree, state.tableProblems) = Self.parse(text)
                state.parsed = true
            }
            return body(&state)
        }
    }

    /// Tables over the limits, shown as text (the page reports them).
    var tableProblems: [Tables.Problem] { withParsed { $0.tableProblems } }

    /// The plain text of the first level-1 heading (ATX or setext), never
    /// a `#` line inside code, an HTML block or a comment.
    var firstH1: String? {
        withParsed { state in
            let tree = state.tree ?? Self.parse(text).0
            defer { if tree != state.tree, let tree { cmark_node_free(tree) } }
            guard let tree else { return nil }
            var child = cmark_node_first_child(tree)
            while let node = child {
                if cmark_node_get_type(node) == CMARK_NODE_HEADING, cmark_node_get_heading_level(node) == 1 {
                    return MarkdownRenderer.plainText(of: node)
                }
                child = cmark_node_next(node)
            }
            return nil
        }
    }

    /// The page's demo blocks in document order, numbered as the render
    /// meets them (the review names a block `page.md#N` by it), read off the
    /// tree without taking it (or off a fresh parse once it was rendered).
    func demoBlocks(lineOffset: Int) -> [DemoBlock] {
        withParsed { state in
            let document = state.tree
            let tree = document ?? Self.parse(text).0
            defer { if tree != document, let tree { cmark_node_free(tree) } }
            guard let tree else { return [] }
            var blocks: [DemoBlock] = []
            let iterator = cmark_iter_new(tree)
            defer { cmark_iter_free(iterator) }
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator), MarkdownRenderer.isDemoBlock(node) else { continue }
                blocks.append(MarkdownRenderer.demoBlock(node, lineOffset: lineOffset))
            }
            return blocks
        }
    }

    /// The page's raw HTML, block and inline, in document order: what can
    /// script or restyle its players, for the review.
    func rawHTML() -> [String] {
        withParsed { state in
            let document = state.tree
            let tree = document ?? Self.parse(text).0
            defer { if tree != document, let tree { cmark_node_free(tree) } }
            guard let tree else { return [] }
            var html: [String] = []
            let iterator = cmark_iter_new(tree)
            defer { cmark_iter_free(iterator) }
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                      cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK || cmark_node_get_type(node) == CMARK_NODE_HTML_INLINE else { continue }
                html.append(cmark_node_get_literal(node).map { String(cString: $0) } ?? "")
            }
            return html
        }
    }

    /// The tree, handed over to be rendered (and freed) by the caller; a
    /// second caller gets a fresh parse of the same text.
    func take() -> OpaquePointer? {
        withParsed { state in
            defer { state.tree = nil }
            if let document = state.tree { return document }
            return Self.parse(text).0
        }
    }
}

/// Where each link's address is written. cmark 0.30 gives inline nodes no
/// position, so the address is looked up in the source lines of the block
/// around the link, from where the previous link was found (links come in
/// document order): the line and column of its first character. A link
/// whose address is not written there as is (a reference link, an escaped
/// or entity-encoded address) is placed at its block's start.
struct LinkPlaces {
    private let bytes: [UInt8]
    /// Where each line starts in `bytes`, worked out on the first link.
    private var lineStarts: [Int] = []
    /// Where the previous link's address was found (0-based line, UTF-8 offset after it).
    private var cursor = (line: 0, offset: 0)

    init(source: String) {
        bytes = Array(source.utf8)
    }

    /// The 1-based line and column of `url` as the link `node` writes it.
    mutating func place(of url: String, in node: OpaquePointer) -> (line: Int, column: Int) {
        if lineStarts.isEmpty {
            lineStarts.reserveCapacity(bytes.count / 40 + 1)
            lineStarts.append(0)
            for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(index + 1) }
        }
        // The nearest enclosing node with a position; inside a table, the
        // node around the table (a cell's own positions count from the cell).
        guard let block = positioned(outermostCustom(above: node).flatMap(cmark_node_parent) ?? node) else { return (1, 1) }
        // The document (around a table's cells) spans every line.
        let isDocument = cmark_node_get_type(block) == CMARK_NODE_DOCUMENT
        let first = isDocument ? 1 : Int(cmark_node_get_start_line(block))
        let last = isDocument ? lineStarts.count : max(first, Int(cmark_node_get_end_line(block)))
        let fallback = (first, isDocument ? 1 : max(1, Int(cmark_node_get_start_column(block))))
        guard !url.isEmpty, first >= 1 else { return fallback }
        let needle = Array(url.utf8)
        var line = max(first - 1, cursor.line)
        var offset = line == cursor.line ? cursor.offset : 0
        while line < min(last, lineStarts.count) {
            let start = lineStarts[line], end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
            if let found = find(needle, from: start + offset, to: end) {
                cursor = (line, found - start + needle.count)
                return (line + 1, found - start + 1)
            }
            line += 1
            offset = 0
        }
        return fallback
    }

    /// Each node's outermost custom (table) ancestor, and the nearest node
    /// at or above it with a position, worked out once per node: a link
    /// nested in n images (or n quotes) climbed n levels for each of them,
    /// quadratic (160,000 nested images: over 80 s).
    private var custom: [OpaquePointer: OpaquePointer?] = [:]
    private var positions: [OpaquePointer: OpaquePointer?] = [:]

    /// The outermost custom node among `node`'s ancestors (not itself).
    private mutating func outermostCustom(above node: OpaquePointer) -> OpaquePointer? {
        func isCustom(_ node: OpaquePointer) -> Bool {
            let type = cmark_node_get_type(node)
            return type == CMARK_NODE_CUSTOM_BLOCK || type == CMARK_NODE_CUSTOM_INLINE
        }
        if let known = custom.index(forKey: node) { return custom[known].value }
        // Up to the root or a node whose answer is known.
        var chain = [node]
        var parent = cmark_node_parent(node)
        while let above = parent, custom.index(forKey: above) == nil {
            chain.append(above)
            parent = cmark_node_parent(above)
        }
        // Then down again, each node's answer from the one above it.
        var answerAbove = parent.flatMap { custom[$0] ?? nil }
        for node in chain.reversed() {
            let answer = parent.flatMap { answerAbove ?? (isCustom($0) ? $0 : nil) }
            custom[node] = .some(answer)
            (answerAbove, parent) = (answer, node)
        }
        return custom[node] ?? nil
    }

    private mutating func positioned(_ node: OpaquePointer) -> OpaquePointer? {
        var climbed: [OpaquePointer] = []
        var current: OpaquePointer? = node
        var found: OpaquePointer?
        while let here = current {
            if let known = positions[here] { found = known; break }
            if cmark_node_get_start_line(here) != 0 { found = here; break }
            climbed.append(here)
            current = cmark_node_parent(here)
        }
        for node in climbed { positions[node] = found }
        return found
    }

    private func find(_ needle: [UInt8], from start: Int, to end: Int) -> Int? {
        guard !needle.isEmpty, start <= end - needle.count else { return nil }
        for index in start...(end - needle.count) where bytes[index] == needle[0] {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}

extension Document.TextCollector {
    /// Takes in what `node` shows, met as `event` on a walk of the tree:
    /// blocks a space apart at both ends, text and code spans, breaks as
    /// spaces. (Code blocks are the walker's to take or leave.)
    mutating func take(_ node: OpaquePointer, _ event: cmark_event_type) {
        let type = cmark_node_get_type(node)
        if type.rawValue < CMARK_NODE_FIRST_INLINE.rawValue { separate() }
        guard event == CMARK_EVENT_ENTER else { return }
        switch type {
        case CMARK_NODE_TEXT, CMARK_NODE_CODE:
            // In place: libcmark's literals are UTF-8 (the page was checked,
            // and libcmark writes U+FFFD for a reference to no character).
            if let literal = cmark_node_get_literal(node) {
                append(utf8: UnsafeBufferPointer(start: UnsafeRawPointer(literal).assumingMemoryBound(to: UInt8.self), count: strlen(literal)))
            }
        case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: separate()
        default: break
        }
    }
}
