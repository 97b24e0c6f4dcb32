import Diagnostics
import Foundation
import SeededRandom
@testable import SiteGenerator
import Testing

/// The navigation rendered once per folder must give every page exactly
/// what rendering the theme's `nav` for that page gives, whatever the
/// template does with `current`; templates it cannot prove exact fall back.
@Suite("Navigation memo")
struct NavigationMemoTests {
    /// Pages at the top and in folders, listed and not (examples), with
    /// titles that need escaping and one holding a marker code point.
    static let outputs = ["guide.html", "a/one.html", "a/two.html", "a/three.html", "b/x.html", "c/only.html",
                          "examples/list.html", "index.html"]
    static let navigation = Navigation(pages: [
        ("guide.html", "Guide <&>"), ("a/one.html", "One \"1\""), ("a/two.html", "Two \u{10FFFC}"), ("a/three.html", "Three"),
        ("b/x.html", "X"), ("c/only.html", "Only"),
    ])

    func theme(nav: String) throws -> Theme {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-nav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(nav.utf8).write(to: folder.appendingPathComponent("nav.mustache"))
        return try Theme.load(projectTemplates: folder.path)
    }

    func chrome(_ output: String) -> Chrome { Self.chrome(output, navigation: Self.navigation) }

    /// A page's chrome with `navigation` as its own render shows it.
    static func chrome(_ output: String, navigation: Navigation, siteTitle: String = "Site") -> Chrome {
        let root = String(repeating: "../", count: output.split(separator: "/").count - 1)
        return Chrome(siteTitle: siteTitle, root: root, stylesheet: "s.css", script: "s.js", nav: navigation.items(current: output, root: root))
    }

    /// Memoized pages equal per-page renders; returns how many were memoized.
    func memoizedMatchingPerPage(nav: String) throws -> Int {
        let theme = try theme(nav: nav)
        let memo = NavigationMemo(outputs: Self.outputs, navigation: Self.navigation, theme: theme,
                                  root: { chrome($0).root }, chrome: chrome)
        for output in Self.outputs {
            guard let memoized = memo.html[output] else { continue }
            let expected = theme.library.mustache.render(chrome(output), withTemplate: "nav")
            #expect(memoized == expected, "\(output) with nav:\n\(nav)")
        }
        return memo.html.count
    }

    @Test func defaultNavigation_isMemoized_andEqualsEveryPagesOwnRender() throws {
        let nav = try #require(DefaultTheme.files["nav.mustache"])
        // Composed from its items, every page (a title holding the whole
        // renders' marker is only text to the items' renders).
        let memoized = try memoizedMatchingPerPage(nav: nav)
        #expect(memoized == Self.outputs.count)
        #expect(try theme(nav: nav).itemizedNavigation != nil)
    }

    /// A title holding the items' marker makes a render split into more
    /// parts than items: the whole navigation falls back to the memo of
    /// whole renders, every page still its own render's bytes.
    @Test func titleHoldingTheItemMarker_fallsBackExactly() throws {
        let navigation = Navigation(pages: [("guide.html", "Guide \u{10FFF9}"), ("a/one.html", "One"), ("a/two.html", "Two")])
        let outputs = ["guide.html", "a/one.html", "a/two.html", "index.html"]
        func chrome(_ output: String) -> Chrome { Self.chrome(output, navigation: navigation) }
        let theme = try Theme.load(projectTemplates: nil)
        #expect(theme.itemizedNavigation != nil)
        let memo = NavigationMemo(outputs: outputs, navigation: navigation, theme: theme, root: { chrome($0).root }, chrome: chrome)
        #expect(memo.html.count == outputs.count)
        for output in outputs {
            #expect(memo.html[output] == theme.library.mustache.render(chrome(output), withTemplate: "nav"), "\(output)")
        }
    }

    /// Each memoized page holds a copy of its group's navigation: past the
    /// memory it is given, a group is left to render page by page (whose
    /// bytes count against the site's limit), the groups before it kept.
    @Test func memo_keepsGroupsOnlyWhileTheirCopiesFitItsMemory() throws {
        let theme = try Theme.load(projectTemplates: nil)
        func memo(_ limit: Int) -> NavigationMemo {
            NavigationMemo(outputs: Self.outputs, navigation: Self.navigation, theme: theme, root: { chrome($0).root },
                           memory: OutputBudget(limit: limit), chrome: chrome)
        }
        let whole = memo(.max)
        #expect(whole.html.count == Self.outputs.count)
        #expect(memo(0).html.isEmpty)
        // Every page's own copy, its group's shared render besides: enough.
        let copies = whole.html.values.reduce(0) { $0 + $1.utf8.count }
        #expect(memo(2 * copies).html == whole.html)
        // Less than the largest page's navigation: none of that group.
        let largest = whole.html.max { $0.value.utf8.count < $1.value.utf8.count }!
        let part = memo(largest.value.utf8.count - 1).html
        #expect(part[largest.key] == nil && part.allSatisfy { whole.html[$0.key] == $0.value })
    }

    /// A tree four folders deep, read as a flat list (the default theme) and
    /// as nested `children`: every page memoized, each equal to its own render.
    @Test func deepTree_isMemoizedExactly_asAListAndAsATree() throws {
        let navigation = NavigationTests.navigation
        let outputs = ["intro.html", "a/index.html", "a/one.html", "a/b/index.html", "a/b/c/d/deep.html", "a/b/c/d/deeper.html",
                       "a/b/two.html", "z/only.html", "a/b/c/unlisted.html", "index.html"]
        func chrome(_ output: String) -> Chrome { Self.chrome(output, navigation: navigation) }
        let recursive = "{{#nav}}<a{{#current}} class=on{{/current}}>{{title}}</a>{{#children}}<b>{{title}}{{#current}}!{{/current}}"
            + "{{#children}}<c>{{title}}{{#current}}!{{/current}}{{#children}}{{depth}}{{title}}{{/children}}</c>{{/children}}</b>{{/children}}{{/nav}}"
        for nav in [try #require(DefaultTheme.files["nav.mustache"]), recursive] {
            let theme = try theme(nav: nav)
            let memo = NavigationMemo(outputs: outputs, navigation: navigation, theme: theme, root: { chrome($0).root }, chrome: chrome)
            #expect(memo.html.count == outputs.count, "nav:\n\(nav)")
            for output in outputs {
                let expected = theme.library.mustache.render(chrome(output), withTemplate: "nav")
                #expect(memo.html[output] == expected, "\(output) with nav:\n\(nav)")
            }
        }
    }

    /// A long folder, shown a block at a time: each block is a group, and
    /// every page's memoized navigation equals its own render.
    @Test func longFolderBlocks_areMemoizedExactly() throws {
        let outputs = (0..<130).map { "long/p\($0).html" } + ["top.html"]
        let navigation = Navigation(pages: outputs.map { (output: $0, title: $0) })
        func chrome(_ output: String) -> Chrome { Self.chrome(output, navigation: navigation) }
        let theme = try theme(nav: try #require(DefaultTheme.files["nav.mustache"]))
        let memo = NavigationMemo(outputs: outputs, navigation: navigation, theme: theme, root: { chrome($0).root }, chrome: chrome)
        #expect(memo.html.count == outputs.count)
        for output in outputs {
            #expect(memo.html[output] == theme.library.mustache.render(chrome(output), withTemplate: "nav"), "\(output)")
        }
    }

    @Test func templatesUsingCurrentInEveryForm_areMemoizedExactly() throws {
        let forms = [
            "{{#nav}}<a{{#current}} class=\"on\" title=\"{{title}}\"{{/current}}>{{title}}</a>{{/nav}}\n",
            "{{#nav}}{{^current}}<a href=\"{{url}}\">{{/current}}{{title}}{{^current}}</a>{{/current}}{{#children}}[{{current}}:{{title}}]{{/children}}{{/nav}}",
            "<ul>{{#nav}}<li>{{{current}}}{{& title}}{{#expanded}}<ul>{{#children}}<li{{#current}} id=\"here\"{{/current}}>{{#title}}{{.}}{{/title}}</li>{{/children}}</ul>{{/expanded}}</li>{{/nav}}</ul>{{siteTitle}}\n",
            // The flat list's parts are rendered alone for an item: parts
            // reading the item's names and the chrome's, parts side by side.
            "{{#navList}}<a{{#current}} data-site=\"{{siteTitle}}\" href=\"{{root}}{{href}}\" d={{depth}}{{#folder}} f{{/folder}}{{/current}}>"
                + "{{^current}}<i>{{title}}</i>{{/current}}{{current}}{{{current}}}</a>{{#closes}}</ul>{{/closes}}\n{{/navList}}",
        ]
        for nav in forms {
            #expect(try memoizedMatchingPerPage(nav: nav) > 0, "nav:\n\(nav)")
        }
    }

    /// Random `nav` templates from the names a navigation may read, in any
    /// nesting the memo accepts or refuses: every page it memoizes equals
    /// that page's own render, judged by rendering the theme per page.
    @Test func randomNavigationTemplates_memoizeExactlyOrFallBack() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        func body(_ depth: Int, inItem: Bool) -> String {
            (0..<Int.random(in: 1...4, using: &random)).map { _ in
                // (`.` alone in an item is the item: written as text, a theme error.)
                let names = inItem ? ["title", "href", "url", "current", "root", "siteTitle", "expanded", "depth", "folder"] : ["siteTitle", "root"]
                switch Int.random(in: 0..<(depth > 2 ? 3 : 7), using: &random) {
                case 0: return ["<li>", "</li>", " ", "|", "\n", "<a class=\"on\">"].randomElement(using: &random)!
                case 1: return "{{\(names.randomElement(using: &random)!)}}"
                case 2: return "{{{\(names.randomElement(using: &random)!)}}}"
                // Inside an item, the whole list again is refused (its
                // renders would multiply): only the item's own children.
                case 3 where !inItem:
                    let list = ["nav", "navList"].randomElement(using: &random)!
                    return "{{#\(list)}}\(body(depth + 1, inItem: true)){{/\(list)}}"
                case 4 where inItem: return "{{#children}}\(body(depth + 1, inItem: true)){{/children}}"
                case 5 where inItem:
                    let kind = Bool.random(using: &random) ? "#" : "^"
                    let name = ["current", "current", "expanded", "title", "closes", "folder"].randomElement(using: &random)!
                    return "{{\(kind)\(name)}}\(body(depth + 1, inItem: true)){{/\(name)}}"
                case 6 where inItem: return "{{#title}}<b>{{.}}</b>{{/title}}"
                default: return inItem ? "<li>{{title}}</li>" : "{{#nav}}<li>{{title}}</li>{{/nav}}"
                }
            }.joined()
        }
        var (memoizedTemplates, itemizedTemplates) = (0, 0)
        for _ in 0..<60 {
            let nav = body(0, inItem: false)
            let theme = try theme(nav: nav)
            let memo = NavigationMemo(outputs: Self.outputs, navigation: Self.navigation, theme: theme,
                                      root: { chrome($0).root }, chrome: chrome)
            if !memo.html.isEmpty { memoizedTemplates += 1 }
            if theme.itemizedNavigation != nil { itemizedTemplates += 1 }
            for output in Self.outputs {
                guard let memoized = memo.html[output] else { continue }
                let expected = theme.library.mustache.render(chrome(output), withTemplate: "nav")
                #expect(memoized == expected, "seed \(seed): \(output) with nav:\n\(nav)")
            }
        }
        #expect(memoizedTemplates > 10, "seed \(seed): the memo took too few templates to test it")
        print("randomNavigationTemplates: seed \(seed), \(memoizedTemplates) memoized, \(itemizedTemplates) composed from items")
    }

    /// Random flat lists (one `{{#navList}}` at the top, any body of the
    /// item's names, standalone lines or not): composed from each item's
    /// own render, every page equals that page's own render.
    @Test func randomFlatLists_composedFromItems_equalEveryPagesOwnRender() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["ROWMOTION_FUZZ_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        let navigation = NavigationTests.navigation
        let outputs = ["intro.html", "a/index.html", "a/one.html", "a/b/index.html", "a/b/c/d/deep.html", "a/b/c/d/deeper.html",
                       "a/b/two.html", "z/only.html", "a/b/c/unlisted.html", "index.html"]
        func chrome(_ output: String) -> Chrome { Self.chrome(output, navigation: navigation, siteTitle: "Site <&>") }
        func pick(_ items: [String]) -> String { items.randomElement(using: &random)! }
        func body(_ depth: Int) -> String {
            (0..<Int.random(in: 1...4, using: &random)).map { _ in
                let names = ["title", "href", "url", "current", "root", "siteTitle", "expanded", "depth", "folder", "stylesheet"]
                switch Int.random(in: 0..<(depth > 2 ? 3 : 5), using: &random) {
                case 0: return pick(["<li>", "</li>", " ", "|", "\n", "\n  ", "<a class=\"on\">"])
                case 1: return "{{\(pick(names))}}"
                case 2: return "{{{\(pick(names))}}}"
                case 3:
                    let kind = pick(["#", "^"])
                    let name = pick(["current", "expanded", "title", "closes", "folder"])
                    let (open, close) = (pick(["", "\n"]), pick(["", "\n"]))
                    return "{{\(kind)\(name)}}\(open)\(body(depth + 1))\(close){{/\(name)}}"
                default: return "{{#title}}<b>{{.}}</b>{{/title}}"
                }
            }.joined()
        }
        var composed = 0
        for _ in 0..<40 {
            let nav = pick(["", "<ul>", "<nav>{{siteTitle}}\n", "  "]) + "{{#navList}}" + pick(["", "\n", "  \n"]) + body(0)
                + pick(["", "\n"]) + "{{/navList}}" + pick(["", "\n", "</ul>\n{{root}}"])
            let theme = try theme(nav: nav)
            let memo = NavigationMemo(outputs: outputs, navigation: navigation, theme: theme, root: { chrome($0).root }, chrome: chrome)
            if theme.itemizedNavigation != nil, memo.html.count == outputs.count { composed += 1 }
            for output in outputs {
                guard let memoized = memo.html[output] else { continue }
                #expect(memoized == theme.library.mustache.render(chrome(output), withTemplate: "nav"),
                        "seed \(seed) (ROWMOTION_FUZZ_SEED): \(output) with nav:\n\(nav)")
            }
        }
        print("randomFlatLists: seed \(seed), \(composed) of 40 composed from items")
        #expect(composed >= 20, "seed \(seed): only \(composed) of 40 templates were composed from items")
    }

    @Test func templatesItCannotProve_fallBackToPagePerPage() throws {
        let unprovable = [
            "{{title}}{{#nav}}{{title}}{{/nav}}",                       // the page's title, outside the items
            "{{#nav}}{{#current}}{{#current}}x{{/current}}{{/current}}{{/nav}}", // nested current
            "{{=<% %>=}}<%#nav%><%title%><%/nav%>",                     // other delimiters
            "{{#nav}}{{nav.current}}{{/nav}}",                          // dotted names
        ]
        for nav in unprovable {
            let theme = try theme(nav: nav)
            #expect(theme.markedNavigation == nil, "nav:\n\(nav)")
        }
        // An item's name outside the items is not the page's: the theme is refused.
        #expect(throws: Diagnostic.self) { try theme(nav: "{{current}}{{#nav}}{{title}}{{/nav}}") }
        // `{{> nav}}` inside a section of the page, or indented, is rendered page by page.
        #expect(NavigationMemo.marked("{{#nav}}{{title}}{{/nav}}", includers: ["{{#title}}\n{{> nav}}\n{{/title}}"]) == nil)
        #expect(NavigationMemo.marked("{{#nav}}{{title}}{{/nav}}", includers: ["<body>\n  {{> nav}}\n"]) == nil)
        #expect(NavigationMemo.marked("{{#nav}}{{title}}{{/nav}}", includers: ["<body>\n{{> nav}}\n"]) != nil)
    }
}
