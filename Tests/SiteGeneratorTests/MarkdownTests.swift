@testable import SiteGenerator
import Testing

@Suite("Markdown")
struct MarkdownTests {
    @Test func commonMark_withSmartPunctuation_andRawHTML() {
        let html = MarkdownRenderer.render("# Title\n\n\"Quoted\" -- text <span class=\"x\">raw</span>\n") { _ in nil }
        #expect(html == "<h1 id=\"title\">Title</h1>\n<p>“Quoted” – text <span class=\"x\">raw</span></p>\n")
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
        #expect(html.contains("<div data-rowmotion-player=\"messenger.yml\"></div>\n<pre><code class=\"language-swift\">let x = 1"))
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
            <h2 id="content-2">Content</h2>
            <h3 id="--quotes"><b> &amp; “quotes”</h3>

            """)
        #expect(SiteBuilder.elementIDs(in: Array(html.utf8)) == ["uikits-batch-update-rules", "the-version-field", "content", "content-2", "--quotes"])
    }

    @Test func headingID_keepsLettersOfEveryScript_andNeverComesOutEmpty() {
        #expect(MarkdownRenderer.headingID("Über Zeilen — 2 Schritte") == "über-zeilen--2-schritte")
        #expect(MarkdownRenderer.headingID("!!!") == "section")
    }
}
