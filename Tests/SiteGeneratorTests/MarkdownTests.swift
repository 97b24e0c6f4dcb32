@testable import SiteGenerator
import Testing

@Suite("Markdown")
struct MarkdownTests {
    @Test func commonMark_withSmartPunctuation_andRawHTML() {
        let html = MarkdownRenderer.render("# Title\n\n\"Quoted\" -- text <span class=\"x\">raw</span>\n") { _ in nil }
        #expect(html == "<h1>Title</h1>\n<p>“Quoted” – text <span class=\"x\">raw</span></p>\n")
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
}
