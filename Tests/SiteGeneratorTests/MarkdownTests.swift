import BuildGraph
import ProjectFiles
import Foundation
import SnapshotFormat
@testable import SiteGenerator
import SeededRandom
import Testing

@Suite("Markdown")
struct MarkdownTests {
    @Test func commonMark_withSmartPunctuation_andRawHTML() {
        let html = MarkdownRenderer.render("# Title\n\n\"Quoted\" -- text <span class=\"x\">raw</span>\n") { _ in nil }
        #expect(html == "<h1 id=\"title\">Title</h1>\n<p>“Quoted” – text <span class=\"x\">raw</span></p>\n")
    }

    /// Issue 13, item 1: a sequence's description is data. Its raw HTML is
    /// shown as text and a `javascript:` link loses its target.
    @Test func dataMarkdown_showsRawHTMLAsText_andDropsUnsafeLinkTargets() {
        let html = MarkdownRenderer.renderData(
            "<img src=x onerror=alert(1)>\n\n<script>alert(2)</script>\n\n[c](javascript:alert(3)) [d](https://example.org/a) [e](other.html#x)")
        #expect(!html.contains("<img"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("javascript:"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains("&lt;script&gt;alert(2)&lt;/script&gt;"))
        #expect(html.contains("<a href=\"\">c</a>"))
        #expect(html.contains("<a href=\"https://example.org/a\">d</a>"))
        #expect(html.contains("<a href=\"other.html#x\">e</a>"))
        #expect(MarkdownRenderer.renderData("Inline <b onclick=x>bold</b> and **real bold**")
            == "<p>Inline &lt;b onclick=x&gt;bold&lt;/b&gt; and <strong>real bold</strong></p>\n")
    }

    @Test func dataURLs_onlyRelativeHTTPAndMailto() {
        for safe in ["page.html", "../a/b.html#x", "#step-2", "?q=1", "https://x.org", "HTTP://x.org", "mailto:a@b.c", "a/b:c", ""] {
            #expect(MarkdownRenderer.isSafeDataURL(safe), "\(safe)")
        }
        for unsafe in ["javascript:alert(1)", "JavaScript:x", " javascript:x", "java\tscript:x", "java\nscript:x",
                       "\u{1}javascript:x", "vbscript:x", "data:text/html,x", "file:///etc/passwd", "ftp://x"] {
            #expect(!MarkdownRenderer.isSafeDataURL(unsafe), "\(unsafe)")
        }
    }

    @Test func rowmotionBlock_isReplacedByThePlayer_atItsLine() {
        var seen: [DemoBlock] = []
        let markdown = "Intro\n\n```rowmotion\nexample: messenger.yml\n```\n\n```swift\nlet x = 1\n```\n"
        let html = MarkdownRenderer.render(markdown, lineOffset: 4) { block in
            seen.append(block)
            return "<div data-rowmotion-player=\"messenger.yml\"></div>"
        }
        #expect(seen.map(\.source) == ["example: messenger.yml\n"])
        #expect(seen.first?.firstLine == 8)
        #expect(html.contains("<div data-rowmotion-player=\"messenger.yml\"></div>\n<pre><code class=\"language-swift\"><span class=\"hl-keyword\">let</span> x"))
        #expect(!html.contains("example: messenger.yml"))
    }

    /// The replacement is structural: a block that merely mentions the
    /// word, or sits inside HTML text, stays as written.
    @Test func otherBlocks_andMentions_areLeftAlone() {
        let markdown = "`rowmotion` inline\n\n```rowmotionish\nx\n```\n\n    ```rowmotion\n    indented code\n"
        var calls = 0
        let html = MarkdownRenderer.render(markdown) { _ in calls += 1; return "PLAYER" }
        #expect(calls == 0)
        #expect(!html.contains("PLAYER"))
    }

    /// Headings get ids readers can link to, GitHub's way, unique in the
    /// page; their inline markup is still rendered and escaped by cmark.
    @Test func headings_receiveUniqueLinkableIDs_keepingTheirMarkup() {
        let markdown = "# UIKit's *batch-update* rules\n\n## The `version` field\n\n## Content\n\n## Content\n\n### <b> & \"quotes\"\n"
        let html = MarkdownRenderer.render(markdown) { _ in nil }
        #expect(html == """
            <h1 id="uikits-batch-update-rules">UIKit’s <em>batch-update</em> rules</h1>
            <h2 id="the-version-field">The <code>version</code> field</h2>
            <h2 id="content">Content</h2>
            <h2 id="content-1">Content</h2>
            <h3 id="--quotes"><b> &amp; “quotes”</h3>

            """)
        // The same ids, from the tree: nothing reads them back from the HTML.
        let document = MarkdownRenderer.renderDocument(ParsedMarkdown(markdown), player: { _ in nil }, link: { _, _, _, _ in nil }).document
        #expect(document.ids == ["uikits-batch-update-rules", "the-version-field", "content", "content-1", "--quotes"])
        #expect(document.headings.map(\.level) == [1, 2, 2, 2, 3] && document.headings[1].text == "The version field")
    }

    /// Repeats are numbered as GitHub and Hugo number them: `-1`, `-2`,
    /// skipping a number a heading already spells.
    @Test func repeatedHeadings_areNumberedFromOne_skippingIDsAHeadingSpells() {
        let html = MarkdownRenderer.render("# A\n\n# A\n\n# A-2\n\n# A\n\n# A\n\n# B\n") { _ in nil }
        #expect(html == "<h1 id=\"a\">A</h1>\n<h1 id=\"a-1\">A</h1>\n<h1 id=\"a-2\">A-2</h1>\n<h1 id=\"a-3\">A</h1>\n<h1 id=\"a-4\">A</h1>\n<h1 id=\"b\">B</h1>\n",
                "\(html)")
        let spelledFirst = MarkdownRenderer.render("# A-1\n\n# A\n\n# A\n") { _ in nil }
        #expect(spelledFirst.contains("<h1 id=\"a-1\">A-1</h1>\n<h1 id=\"a\">A</h1>\n<h1 id=\"a-2\">A</h1>"), "\(spelledFirst)")
    }

    /// The byte path for ASCII headings gives what the character path does,
    /// for every ASCII character and seeded random ASCII text.
    @Test func headingID_ofASCII_byBytes_equalsByCharacters() {
        for scalar in 0..<128 {
            let text = "A\(Character(Unicode.Scalar(UInt8(scalar))))b"
            #expect(MarkdownRenderer.asciiHeadingID(text) == MarkdownRenderer.characterHeadingID(text), "\(scalar)")
        }
        var random = SeededGenerator(seed: 31)
        for _ in 0..<2_000 {
            let text = String(decoding: (0..<Int(random.next() % 12)).map { _ in UInt8(random.next() % 128) }, as: UTF8.self)
            #expect(MarkdownRenderer.asciiHeadingID(text) == MarkdownRenderer.characterHeadingID(text), "\(Array(text.utf8))")
        }
        #expect(MarkdownRenderer.asciiHeadingID("Über") == nil)
    }

    /// Search text collects words with one space between them, whatever
    /// whitespace and pieces they came in: checked against a byte-by-byte
    /// reference on seeded random pieces.
    @Test func searchText_collapsesWhitespace_asAByteByByteReference() {
        var random = SeededGenerator(seed: 77)
        let pieces = ["a", "bc", " ", "\n", "\t", "\r\n", "é", "  x  ", "", "\u{2028}"]
        for _ in 0..<500 {
            var collector = Document.TextCollector()
            var reference: [UInt8] = []
            for _ in 0..<Int(random.next() % 8) {
                let piece = (0..<Int(random.next() % 4)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
                collector.append(piece)
                for byte in piece.utf8 {
                    if [0x20, 0x0A, 0x09, 0x0D].contains(byte) {
                        if let last = reference.last, last != 0x20 { reference.append(0x20) }
                    } else {
                        reference.append(byte)
                    }
                }
            }
            #expect(collector.bytes == reference)
        }
    }

    @Test func headingID_keepsLettersOfEveryScript_andNeverComesOutEmpty() {
        #expect(MarkdownRenderer.headingID("Über Zeilen — 2 Schritte") == "über-zeilen--2-schritte")
        #expect(MarkdownRenderer.headingID("!!!") == "section")
    }
}

@Suite("Link paths")
struct LinkPathTests {
    /// The plain reading of `a/./b/../c`: split on `/`, drop empty and `.`
    /// segments, let `..` take back the one before it.
    static func reference(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", !parts.isEmpty { parts.removeLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    @Test func normalize_dropsDotSegments_andEmptyOnes() {
        #expect(OutputPaths.normalize("guide/../intro.html") == "intro.html")
        #expect(OutputPaths.normalize("a/./b//c/") == "a/b/c")
        #expect(OutputPaths.normalize("a/.well-known/x.html") == "a/.well-known/x.html")
        #expect(OutputPaths.normalize("a/..b/..") == "a")
        #expect(OutputPaths.normalize("sub dir/my page.html") == "sub dir/my page.html")
        #expect(OutputPaths.normalize("") == "")
    }

    /// Random paths over the bytes that matter (`/`, `.`, letters, a
    /// non-ASCII letter): the byte-level normalize agrees with the plain one.
    @Test func normalize_agreesWithThePlainReading_onRandomPaths() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        let pieces = ["/", ".", "..", "a", "b", "é", "x.html", "./", "../"]
        for _ in 0..<5_000 {
            let path = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(OutputPaths.normalize(path) == Self.reference(path), "seed \(seed): '\(path)'")
        }
    }

    /// An output's depth and parent count its folders as the file system
    /// does, by the `/` bytes (a combining mark after a slash leaves it a
    /// slash).
    @Test func depthAndParent_countFoldersByTheSlashBytes_onRandomPaths() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        let pieces = ["/", ".", "..", "a", "b", "é", "x.html", "./", "../", "\u{301}", "\u{600}", "\r\n", "\r"]
        for _ in 0..<5_000 {
            let path = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(OutputPaths.depth(of: path) == path.utf8.split(separator: UInt8(ascii: "/")).count - 1, "seed \(seed): '\(path)'")
            let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            #expect(Array(OutputPaths.parent(of: path).utf8) == Array(parts.dropLast().joined(separator: [UInt8(ascii: "/")])), "seed \(seed): '\(path)'")
        }
        #expect(OutputPaths.depth(of: "a/\u{301}b.html") == 1)
    }
}

/// GFM tables (github/cmark-gfm, test/spec.txt, "Tables (extension)",
/// examples 198–205): the Markdown and the HTML cmark-gfm gives, which ours
/// must equal byte for byte. Example 203 is no table, and its paragraph is
/// rendered with smart punctuation like any other (`---` an em dash).
@Suite("GFM tables")
struct TableTests {
    static let examples: [(number: Int, markdown: String, html: String)] = [
        (198, "| foo | bar |\n| --- | --- |\n| baz | bim |\n",
         "<table>\n<thead>\n<tr>\n<th>foo</th>\n<th>bar</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>baz</td>\n<td>bim</td>\n</tr>\n</tbody>\n</table>\n"),
        (199, "| abc | defghi |\n:-: | -----------:\nbar | baz\n",
         "<table>\n<thead>\n<tr>\n<th align=\"center\">abc</th>\n<th align=\"right\">defghi</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n"
            + "<td align=\"center\">bar</td>\n<td align=\"right\">baz</td>\n</tr>\n</tbody>\n</table>\n"),
        (200, "| f\\|oo  |\n| ------ |\n| b `\\|` az |\n| b **\\|** im |\n",
         "<table>\n<thead>\n<tr>\n<th>f|oo</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>b <code>|</code> az</td>\n</tr>\n<tr>\n"
            + "<td>b <strong>|</strong> im</td>\n</tr>\n</tbody>\n</table>\n"),
        (201, "| abc | def |\n| --- | --- |\n| bar | baz |\n> bar\n",
         "<table>\n<thead>\n<tr>\n<th>abc</th>\n<th>def</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>bar</td>\n<td>baz</td>\n</tr>\n</tbody>\n</table>\n"
            + "<blockquote>\n<p>bar</p>\n</blockquote>\n"),
        (202, "| abc | def |\n| --- | --- |\n| bar | baz |\nbar\n\nbar\n",
         "<table>\n<thead>\n<tr>\n<th>abc</th>\n<th>def</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>bar</td>\n<td>baz</td>\n</tr>\n<tr>\n"
            + "<td>bar</td>\n<td></td>\n</tr>\n</tbody>\n</table>\n<p>bar</p>\n"),
        (203, "| abc | def |\n| --- |\n| bar |\n", "<p>| abc | def |\n| — |\n| bar |</p>\n"),
        (204, "| abc | def |\n| --- | --- |\n| bar |\n| bar | baz | boo |\n",
         "<table>\n<thead>\n<tr>\n<th>abc</th>\n<th>def</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>bar</td>\n<td></td>\n</tr>\n<tr>\n"
            + "<td>bar</td>\n<td>baz</td>\n</tr>\n</tbody>\n</table>\n"),
        (205, "| abc | def |\n| --- | --- |\n", "<table>\n<thead>\n<tr>\n<th>abc</th>\n<th>def</th>\n</tr>\n</thead>\n</table>\n"),
    ]

    @Test(arguments: examples.map(\.number))
    func gfmSpecExample_rendersAsCmarkGFMDoes(number: Int) throws {
        let example = try #require(Self.examples.first { $0.number == number })
        #expect(MarkdownRenderer.render(example.markdown, player: { _ in nil }) == example.html, "example \(number)")
    }

    /// What the spec leaves to the surroundings: text above the header row
    /// stays a paragraph; tables in block quotes and list items; a cell's
    /// `#`, `-` or `1.` is text; smart quotes in cells, none in the
    /// delimiter row; links in cells go through the link rewriting.
    @Test func tablesInContext_keepTheirSurroundingsAndInlineMarkdown() {
        let html = MarkdownRenderer.render("""
            Intro line
            | a | b |
            | :-: | --- |
            | # not a heading | - not a list |
            | 1. x | "quoted" [page](other.md) |

            > | q |
            > | --- |
            > | 1 |

            - | l |
              | - |
              | *m* |
            """, player: { _ in nil }, link: { url, _, _, _ in url == "other.md" ? "other.html" : nil })
        #expect(html.hasPrefix("<p>Intro line</p>\n<table>\n<thead>\n<tr>\n<th align=\"center\">a</th>\n<th>b</th>"), "\(html)")
        #expect(html.contains("<td align=\"center\"># not a heading</td>\n<td>- not a list</td>"), "\(html)")
        #expect(html.contains("<td align=\"center\">1. x</td>\n<td>“quoted” <a href=\"other.html\">page</a></td>"), "\(html)")
        #expect(html.contains("<blockquote>\n<table>\n<thead>\n<tr>\n<th>q</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>"), "\(html)")
        #expect(html.contains("<li>\n<table>\n<thead>\n<tr>\n<th>l</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td><em>m</em></td>"), "\(html)")
        #expect(!html.contains("—") && !html.contains("–"), "no smart dashes from delimiter rows")
    }
}

@Suite("Search index")
struct SearchIndexTests {
    static func document(_ markdown: String) -> Document {
        MarkdownRenderer.renderDocument(ParsedMarkdown(markdown), player: { _ in "<div>Play Pause row a row b</div>" },
                                        link: { _, _, _, _ in nil }).document
    }

    /// A page's text is read from the tree: words, code, entities decoded,
    /// white space folded, blocks a space apart; raw HTML's text without its
    /// tags, scripts or styles; a demo block's player is not text.
    @Test func text_isTheTreesWords_rawHTMLsTextWithoutTagsOrScripts_noPlayer() {
        let document = Self.document("""
            # Title &amp; more

            First   line
            continues &lt;here&gt; &#8212; &#x41;.

            <div class="note" title="a > b">Raw <b>words</b><script>var secret = 1;</script><style>.x{}</style></div>

            ## Part `two`

            ```rowmotion
            steps: []
            ```

            ```swift
            let x = 1
            ```

            - One
            - Two
            """)
        #expect(document.text == "Title & more First line continues <here> — A. Raw words Part two let x = 1 One Two", "\(document.text)")
        let entry = SearchIndex.Entry(output: "a.html", title: "A", document: document)
        #expect(entry.h == [["Part two", "part-two"]])
    }

    @Test func longPages_areCutAtACharacterBoundary() {
        let text = Self.document(String(repeating: "é", count: Document.textLimit)).text
        #expect(text.utf8.count <= Document.textLimit && text.utf8.count > Document.textLimit - 2 && text.allSatisfy { $0 == "é" })
    }

    /// The index is built from Documents: a heading added to a page is
    /// found, a cached page's entry is the same as a rendered one's.
    @Test func searchIndex_ofACachedBuild_isTheSameAsAFreshOnes() throws {
        let project = try FixtureProject(files: sampleFiles + [("site/guide/more.md", "# More\n\n## Findable heading\n\nFindable words.\n")])
        defer { project.remove() }
        var options = project.options
        options.cache = project.root.appendingPathComponent(".cache").path
        let first = SiteBuilder.buildAndWrite(options).site
        options.allowShortcut = false
        let second = SiteBuilder.buildAndWrite(options).site
        #expect(second.cachedCount > 0)
        let index = String(decoding: second.files[SearchIndex.path] ?? [], as: UTF8.self)
        #expect(first.files[SearchIndex.path] == second.files[SearchIndex.path])
        #expect(index.contains(#"["Findable heading","findable-heading"]"#) && index.contains("Findable words."), "\(index)")
        #expect(index.contains(#""t":"A list""#) && index.contains("Rows move."), "\(index)")
    }
}

/// The search index is written without Foundation's encoder (which took
/// longer than libcmark on the whole site); its bytes must stay what
/// `SafeJSON.encode` gives for the same entries, on any text.
@Suite("Search index JSON")
struct SearchIndexJSONTests {
    /// The judge's own model of an entry (the product's type has one
    /// writer, `JSONBytes`): Foundation's encoder writes it.
    struct Encoded: Encodable {
        var h: [[String]]
        var t: String
        var u: String
        var x: String
    }

    /// What the index script was before: the encoder, then the script-safe pass.
    static func encoded(_ entries: [SearchIndex.Entry]) -> [UInt8] {
        let models = entries.sorted { $0.u < $1.u }.map { Encoded(h: $0.h, t: $0.t, u: $0.u, x: $0.x) }
        return Array(("window.RowmotionSearchIndex = " + SafeJSON.encode(models) + ";\n").utf8)
    }

    static let pieces: [String] = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        + ["é", "e\u{301}", "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}", "€", "😀", "\u{FEFF}", "</script>", "<!--", "&amp;", "\\u2028"]

    @Test func everyCharacterAndEscape_isWrittenAsTheEncoderWritesIt() {
        for piece in Self.pieces {
            let entry = SearchIndex.Entry(t: "a" + piece + "z", u: "p.html", h: [[piece, "id"]], x: piece + piece)
            let written = SearchIndex.script([entry]), expected = Self.encoded([entry])
            #expect(written == expected, "\(Array(piece.unicodeScalars.map(\.value))): \(String(decoding: written, as: UTF8.self))")
        }
    }

    /// The eight-byte test says what the byte table says of any of its
    /// bytes: every byte value at every place among plain ones, and random
    /// words (the table is the reference).
    @Test func eightByteTest_agreesWithTheByteTable() {
        func expected(_ word: UInt64) -> Bool { (0..<8).contains { JSONBytes.mayEscape[Int((word >> (8 * UInt64($0))) & 0xFF)] } }
        let plain = UInt64(0x6161_6161_6161_6161)
        for value in 0..<256 {
            for place in 0..<8 {
                let word = plain & ~(UInt64(0xFF) << (8 * UInt64(place))) | UInt64(value) << (8 * UInt64(place))
                #expect(JSONBytes.mayEscapeAny(word) == expected(word), "byte \(value) at \(place)")
            }
        }
        var random = SeededGenerator(seed: 8)
        for _ in 0..<100_000 {
            let word = UInt64.random(in: 0...UInt64.max, using: &random)
            #expect(JSONBytes.mayEscapeAny(word) == expected(word), "\(String(word, radix: 16))")
        }
    }

    @Test func randomEntries_areWrittenAsTheEncoderWritesThem() {
        let seed: UInt64 = 20_261_125
        var random = SeededGenerator(seed: seed)
        for round in 0..<200 {
            func text() -> String {
                (0..<Int.random(in: 0...12, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            }
            let entries = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                SearchIndex.Entry(t: text(), u: text() + ".html", h: (0..<Int.random(in: 0...3, using: &random)).map { _ in [text(), text()] }, x: text())
            }
            let written = SearchIndex.script(entries), expected = Self.encoded(entries)
            #expect(written == expected, "seed \(seed), round \(round): \(String(decoding: written, as: UTF8.self))")
            if written != expected { return }
        }
    }
}

@Suite("Build cache")
struct BuildCacheTests {
    /// Every Document written into the cache reads back as itself: random
    /// headings, ids, links and text over every ASCII character, escapes,
    /// tabs and newlines (the file's separators) and non-ASCII text.
    @Test func randomDocuments_readBackAsThemselves() throws {
        let seed: UInt64 = 20_261_125
        var random = SeededGenerator(seed: seed)
        let pieces = SearchIndexJSONTests.pieces + ["\t", "\n", "\r\n", "-", ""]
        func text() -> String {
            (0..<Int.random(in: 0...10, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        for round in 0..<200 {
            var document = Document()
            document.headings = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                Document.Heading(level: Int.random(in: 1...6, using: &random), text: text(), id: text())
            }
            document.ids = (0..<Int.random(in: 0...3, using: &random)).map { _ in text() }
            document.links = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                FragmentLink(page: text(), fragment: text(), line: Int.random(in: 0...100_000, using: &random), column: Int.random(in: -1...500, using: &random))
            }
            document.text = text()
            var json = JSONBytes()
            document.write(to: &json)
            let decoded = try? JSONDecoder().decode(Document.self, from: Data(json.bytes))
            #expect(decoded == document, "seed \(seed), round \(round): \(String(decoding: json.bytes, as: UTF8.self))")
            if decoded != document { return }

            // And through the store: a page's render as the graph keeps it
            // (its ids, links and search entry) reads back as it was, byte for byte.
            let search = SearchIndex.json(SearchIndex.Entry(output: "page.html", title: text(), document: document))
            let render = PageRender.Value(output: "page.html", size: 3, diagnostics: [], examples: ["a", "b"], ids: document.ids, links: document.links,
                                          search: search, homeContent: nil, homeDescription: nil, tooLarge: false)
            var encoder = StoreEncoder()
            render.encode(to: &encoder)
            let read = encoder.bytes.withUnsafeBytes { raw -> PageRender.Value? in
                var decoder = StoreDecoder(raw)
                return try? PageRender.Value(from: &decoder)
            }
            #expect(read == render, "seed \(seed), round \(round)")
        }
    }
}

@Suite("Swift highlighting")
struct SwiftHighlighterTests {
    @Test func tokens_getTheirClasses_andEverythingIsEscaped() {
        let html = SwiftHighlighter.html("@MainActor func f<T: Equatable>(_ x: T) -> String { // a < b\n  let n = 0x1F + 1.5e-3\n  return \"v \\(x.count) & \\\"q\\\"\" /* c /* nested */ */ #if DEBUG\n}\n")
        #expect(html.contains("<span class=\"hl-attribute\">@MainActor</span> <span class=\"hl-keyword\">func</span> f&lt;"))
        #expect(html.contains("<span class=\"hl-type\">T</span>: <span class=\"hl-type\">Equatable</span>&gt;"))
        #expect(html.contains("<span class=\"hl-comment\">// a &lt; b</span>"))
        #expect(html.contains("<span class=\"hl-number\">0x1F</span> + <span class=\"hl-number\">1.5e-3</span>"))
        #expect(html.contains("<span class=\"hl-string\">&quot;v \\(</span>x.count<span class=\"hl-string\">) &amp; \\&quot;q\\&quot;&quot;</span>"), "\(html)")
        #expect(html.contains("<span class=\"hl-comment\">/* c /* nested */ */</span> <span class=\"hl-directive\">#if</span>"))
    }

    @Test func rawAndMultiLineStrings_endWhereSwiftEndsThem() {
        let raw = SwiftHighlighter.html("let r = #\"a \"quoted\" \\(no) \\#(yes)\"#; let z = 1")
        #expect(raw.contains("<span class=\"hl-string\">#&quot;a &quot;quoted&quot; \\(no) \\#(</span>yes<span class=\"hl-string\">)&quot;#</span>; <span class=\"hl-keyword\">let</span> z"), "\(raw)")
        let multi = SwiftHighlighter.html("let m = \"\"\"\n  one \"two\"\n  \"\"\"\nlet k = 2")
        #expect(multi.contains("<span class=\"hl-string\">&quot;&quot;&quot;\n  one &quot;two&quot;\n  &quot;&quot;&quot;</span>\n<span class=\"hl-keyword\">let</span>"), "\(multi)")
    }

    /// Whatever the input, the output is the input escaped, spans aside.
    @Test func anyInput_keepsItsTextExactly() {
        let samples = ["\"unterminated\nlet x", "/* open", "#\"raw", "`func` café Ünïcode 😀 \\", "\"\\(\"nested \\(1)\")\""]
        for sample in samples {
            let html = SwiftHighlighter.html(sample)
            let text = html.replacingOccurrences(of: #"<span class="hl-[a-z]+">"#, with: "", options: .regularExpression)
                .replacingOccurrences(of: "</span>", with: "")
            let expected = sample.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            #expect(text == expected, "\(sample)")
        }
    }

    @Test func swiftFences_areColoured_othersLeftToCmark() {
        let html = MarkdownRenderer.render("```swift\nlet a = 1\n```\n\n```\nlet b = 2\n```\n", player: { _ in nil })
        #expect(html == "<pre><code class=\"language-swift\"><span class=\"hl-keyword\">let</span> a = <span class=\"hl-number\">1</span>\n</code></pre>\n<pre><code>let b = 2\n</code></pre>\n")
    }

    /// The byte-for-byte keyword lookup must say what the keyword set says,
    /// for keywords, words one edit away from one, and words beyond ASCII
    /// (the Kelvin sign equals a K as text).
    /// Runs of plain bytes copied at once give what the rules give byte by
    /// byte, on random code made of the tokens the rules tell apart.
    @Test func byteRuns_giveTheBytesTheRulesGive_onRandomCode() {
        let seed = UInt64(ProcessInfo.processInfo.environment["ROWMOTION_FUZZ_SEED"] ?? "") ?? 11
        var random = SeededGenerator(seed: seed)
        let pieces = ["let", " ", "x", "Type", "\"", "\"\"\"", "#", "##\"", "\\", "\\(", "\\#(", "(", ")", "/", "//", "/*", "*/", "\n",
                      "@main", "#if", "0x1F", "1e-3", "2.5", "`name`", "&", "<", ">", "'", "é", "日本", "\r\n", "\t", "[", "]", ".", "=", "+"]
        for number in 0..<3_000 {
            let code = (0..<Int.random(in: 0...30, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            var fast: [UInt8] = [], slow: [UInt8] = []
            SwiftHighlighter.html(code, into: &fast)
            SwiftHighlighter.html(code, into: &slow, byteRuns: false)
            #expect(fast == slow, "seed \(seed), case \(number): \(code.debugDescription)")
            if fast != slow { return }
        }
    }

    @Test func keywordLookup_agreesWithTheKeywordSet() {
        let seed = UInt64(ProcessInfo.processInfo.environment["ROWMOTION_FUZZ_SEED"] ?? "") ?? 7
        var random = SeededGenerator(seed: seed)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzSK_0é\u{212A}") + ["e\u{301}"]
        var words = Array(SwiftHighlighter.keywords) + ["Self", "self", "SELF", "\u{212A}", "", "precedencegroupx"]
        for keyword in SwiftHighlighter.keywords {
            for _ in 0..<20 {
                var characters = Array(keyword)
                let place = Int.random(in: 0...characters.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where place < characters.count: characters.remove(at: place)
                case 1 where place < characters.count: characters[place] = alphabet.randomElement(using: &random)!
                default: characters.insert(alphabet.randomElement(using: &random)!, at: place)
                }
                words.append(String(characters))
            }
        }
        var keywordsFound = 0
        for word in words {
            let expected = SwiftHighlighter.keywords.contains(word)
            #expect(SwiftHighlighter.isKeyword(ArraySlice(word.utf8)) == expected, "seed \(seed): \(word.debugDescription)")
            if expected { keywordsFound += 1 }
        }
        #expect(keywordsFound >= SwiftHighlighter.keywords.count)
    }
}

/// Raw HTML's addresses are checked as the browser reads them.
@Suite("Character references in raw HTML addresses")
struct CharacterReferenceTests {
    @Test func decodesNumericReferencesAndTheXMLEntities_andLeavesTheRestAsWritten() {
        #expect(MarkdownRenderer.decodingCharacterReferences("a&amp;b.png") == "a&b.png")
        #expect(MarkdownRenderer.decodingCharacterReferences("x&#46;png?q=1&#x26;r=&lt;&gt;&quot;&apos;") == "x.png?q=1&r=<>\"'")
        #expect(MarkdownRenderer.decodingCharacterReferences("a & b&c&unknown;&#xZZ;&#;&") == "a & b&c&unknown;&#xZZ;&#;&")
        #expect(MarkdownRenderer.decodingCharacterReferences("caf&#233;.html") == "café.html")
        #expect(MarkdownRenderer.decodingCharacterReferences("plain/path.png") == "plain/path.png")
    }
}

/// Where libcmark's quadratic brackets are refused: the line of the block
/// that leaves too many open, fenced code and escaped brackets not counted.
@Suite("Open brackets before libcmark")
struct OpenBracketTests {
    @Test func tooManyOpenBrackets_findsTheLine_skippingFencesEscapesAndClosedBlocks() {
        let many = String(repeating: "[", count: CMarkInput.openBrackets + 1)
        let half = String(repeating: "[", count: CMarkInput.openBrackets / 2 + 1)
        let cases: [(text: String, line: Int?)] = [
            ("a\nb\n" + many, 3),
            (String(repeating: "[", count: CMarkInput.openBrackets), nil),
            (half + "\n" + half, 2),
            (half + "\n \t\n" + half, nil),
            (String(repeating: "[]", count: 5_000), nil),
            (String(repeating: "\\[", count: 2_000), nil),
            ("```swift\n" + many + "\n```\n", nil),
            ("  ~~~\n" + many + "\n~~~~  \n" + "x", nil),
            ("```\n~~~\n" + many + "\n", nil),
            ("````\n```\n" + many + "\n````\n" + many, 5),
            ("```\n```x\n" + many + "\n```\n", nil),
            ("    ```\n" + many, 2),
            ("```\n" + many + "\n```\n" + many, 4),
        ]
        for (text, line) in cases {
            #expect(CMarkInput.tooManyOpenBrackets(text) == line, "\(text.prefix(24).debugDescription)")
        }
    }
}
