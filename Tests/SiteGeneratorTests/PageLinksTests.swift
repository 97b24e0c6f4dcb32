import Diagnostics
@testable import SiteGenerator
import Testing

/// The rules of a page's links, case by case: what the page writes
/// instead of the address, the warning, and the `#` link kept for the
/// check of ids.
@Suite("Page links")
struct PageLinksTests {
    static let outputs: Set<String> = ["index.html", "guide/index.html", "guide/a.html", "guide/b/index.html", "Functions/Errorf.html",
                                       "img/logo.png", "examples/list.html", "files/data.json"]

    /// `guide/a.md` written as `guide/a.html` (plain URLs), or as
    /// `guide/a/index.html` (pretty: one folder deeper than its source).
    static func links(output: String = "guide/a.html", urls: URLStyle = .plain, root: String = "../") -> PageLinks {
        PageLinks(source: "site/guide/a.md", folder: "guide", output: output, urls: urls, outputs: outputs,
                  foldedOutputs: Dictionary(outputs.map { ($0.lowercased(), $0) }) { first, _ in first }, root: root)
    }

    struct Case: CustomStringConvertible, Sendable {
        var url: String
        var kind: LinkKind = .link
        var output = "guide/a.html"
        var root = "../"
        /// What the page writes (nil: as written), the warning's id, the `#` link's target and id.
        var rewritten: String?
        var problem: String?
        var fragment: (page: String, id: String)?

        var description: String { "\(url) (\(kind)) from \(output)" }
    }

    static let cases: [Case] = [
        // Pages by their source, relative to the page's file.
        Case(url: "intro.md", rewritten: "intro.html", problem: "broken-link"),
        Case(url: "../index.md", rewritten: "../index.html"),
        Case(url: "b.md#usage", rewritten: "b/index.html#usage", fragment: ("guide/b/index.html", "usage")),
        Case(url: "../guide/", rewritten: "../guide/index.html"),
        // Root-absolute: relative to the page again, or under a base URL.
        Case(url: "/guide/a.md?x=1#top", rewritten: "../guide/a.html?x=1#top", fragment: ("guide/a.html", "top")),
        Case(url: "/guide/a.md", root: "/docs/", rewritten: "/docs/guide/a.html"),
        // The other form of a page's address, and another case.
        Case(url: "b.html", rewritten: "b/index.html"),
        Case(url: "/functions/errorf/", rewritten: "../Functions/Errorf.html"),
        // A fragment alone: this page's element; percent-decoded.
        Case(url: "#caf%C3%A9", fragment: ("guide/a.html", "café")),
        // Images are files; raw HTML is checked and never rewritten.
        Case(url: "../img/logo.png", kind: .image),
        Case(url: "../img/missing.png", kind: .image, problem: "missing-image"),
        Case(url: "b.md", kind: .rawHTML, problem: "raw-html-link"),
        Case(url: "nowhere.html", kind: .rawHTML, problem: "broken-link"),
        Case(url: "../files/data.json"),
        Case(url: "../files/other.json", problem: "broken-link"),
        // Left alone: schemes, protocol-relative addresses, nothing at all.
        Case(url: "https://example.com/a.md"),
        Case(url: "mailto:someone@example.com"),
        Case(url: "//example.com/a.md"),
        Case(url: ""),
        // With pretty URLs the page is a folder deeper than its file.
        Case(url: "b.md", output: "guide/a/index.html", rewritten: "../b/index.html"),
        Case(url: "../index.md#top", output: "guide/a/index.html", rewritten: "../../index.html#top", fragment: ("index.html", "top")),
    ]

    @Test(arguments: cases)
    func eachAddress_isRewrittenWarnedAndKeptAsItsRuleSays(_ example: Case) {
        let links = Self.links(output: example.output, root: example.root)
        let resolved = links.resolve(example.url, line: 3, column: 5, kind: example.kind)
        #expect(resolved.rewritten == example.rewritten, "\(example)")
        #expect(resolved.problem?.id == example.problem, "\(example): \(resolved.problem?.message ?? "no warning")")
        #expect(resolved.problem.map { $0.location == SourceLocation(file: "site/guide/a.md", line: 3, column: 5) } ?? true)
        #expect(resolved.fragment?.page == example.fragment?.page && resolved.fragment?.fragment == example.fragment?.id, "\(example)")
    }
}
