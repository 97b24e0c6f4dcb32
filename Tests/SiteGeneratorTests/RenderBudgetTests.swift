import Foundation
import Mustache
@testable import SiteGenerator
import Testing

/// Every byte a template renders is counted as it is made, through metered
/// values; a theme whose own text multiplies past a page is refused.
@Suite("Render budget")
struct RenderBudgetTests {
    typealias Bag = TemplateLibraryTests.Bag

    /// How many names were read from the contexts that share it.
    final class Reads: @unchecked Sendable {
        var count = 0
    }

    /// A context that counts the names read from it.
    struct Counted: TemplateContext {
        let reads: Reads
        var fields: [String: Any]

        init(_ reads: Reads, _ fields: [String: Any]) { (self.reads, self.fields) = (reads, fields) }
        init(from decoder: any Decoder) { (reads, fields) = (Reads(), [:]) }

        func child(named key: String) -> Any? {
            reads.count += 1
            return fields[key]
        }
    }

    /// A render stops at the limit as it goes, instead of making every byte
    /// first (once: 1,000 items of 50 KB were all rendered, 50 MB, and only
    /// then measured).
    @Test func transformTheme_stopsAtThePageLimit_asItRenders() throws {
        let library = try TemplateLibraryTests.library(["t": "{{lowercased(title)}}{{#items}}{{{big}}}{{/items}}"])
        let reads = Reads()
        let items = (0..<1_000).map { _ in Counted(reads, ["n": 1]) }
        let context = Bag(["title": "T", "items": items, "big": String(repeating: "x", count: 50_000)])
        #expect(throws: (any Error).self) { try library.renderBytes(context, withTemplate: "t", limit: 500_000) }
        // Each item is asked for `big` before the lookup climbs to the page.
        #expect(reads.count <= 20, "\(reads.count) of 1,000 items were rendered for a limit of 10 items")
    }

    /// Partials including partials a thousand times each make every page
    /// over the limit from the theme's text alone: refused where it loads,
    /// at the include that passes the limit.
    @Test func themeTextMultipliedPastAPage_isALocatedErrorAtLoad() throws {
        let project = try FixtureProject(files: [
            ("templates/page.mustache", String(repeating: "{{> head}}", count: 1_000) + "{{{content}}}\n"),
            ("templates/head.mustache", String(repeating: "{{> nav}}", count: 1_000)),
            ("templates/nav.mustache", String(repeating: "x", count: 100)),
        ])
        defer { project.remove() }
        let error = project.themeLoadError()
        #expect(error?.hasPrefix(
            "templates/page.mustache:1:6711: error: the theme's text, each partial written out where it is included, passes 64 MiB here") == true,
            "\(error ?? "the theme loaded")")
    }

    /// A dynamic partial reads its name as a `String`, which a metered
    /// render never hands out: the theme check refuses one.
    @Test func dynamicPartial_isRefusedByTheThemeCheck() throws {
        let diagnostics = try ContextSchemaTests.diagnostics([("page.mustache", "{{>*title}}{{{content}}}\n")])
        #expect(diagnostics.contains { $0.hasPrefix("templates/page.mustache:1:1: error: the template includes a partial '*title' the theme does not have") },
                "\(diagnostics)")
    }

    /// Builds check only a project's theme for its expansion: the built-in
    /// one's, checked here, is a few kilobytes a page.
    @Test func builtInTheme_expandsToAFewKilobytes() throws {
        let theme = try Theme.load(projectTemplates: nil)
        let expansion = theme.library.expansion
        #expect(expansion.firstPast == nil)
        #expect(Theme.templateNames.allSatisfy { (expansion.roots[$0] ?? .max) < 64 << 10 }, "\(expansion.roots)")
    }
}
