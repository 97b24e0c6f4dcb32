import Foundation
@testable import SiteGenerator
import Testing

/// The navigation tree: any depth, the current path open and the rest
/// collapsed, sections shown once, natural order.
@Suite("Navigation tree")
struct NavigationTests {
    static func page(_ output: String, _ title: String, order: Int? = nil) -> Navigation.Listed {
        Navigation.Listed(output: output, title: title, order: order)
    }

    /// A small site four folders deep, a section page at two levels.
    static let navigation = Navigation(pages: [
        page("intro.html", "Intro", order: 1),
        page("a/index.html", "Section A"),
        page("a/one.html", "One"),
        page("a/b/index.html", "Section B"),
        page("a/b/c/d/deep.html", "Deep"),
        page("a/b/c/d/deeper.html", "Deeper"),
        page("a/b/two.html", "Two"),
        page("z/only.html", "Only"),
    ])

    static func outline(_ items: [NavItem]) -> [String] {
        items.map { String(repeating: "  ", count: $0.depth - 1) + $0.title + ($0.current ? " *" : "") + ($0.expanded ? " /" : "") }
    }

    @Test func deepPage_opensEveryFolderOnItsPath_andNoOther() {
        let items = Self.navigation.items(current: "a/b/c/d/deep.html", root: "../../../../")
        #expect(Self.outline(items) == [
            "Intro",
            "Section A /",
            "  One",
            "  Section B /",
            "    C /",
            "      D /",
            "        Deep *",
            "        Deeper",
            "    Two",
            "Z",
        ])
        // Every open list is closed once, after its last item.
        #expect(items.map(\.closes) == [0, 0, 0, 0, 0, 0, 0, 2, 2, 0])
        #expect(items.first { $0.title == "C" }?.href == "a/b/c/d/deep.html", "a folder without a page links to its first page")
        #expect(items.allSatisfy { $0.root == "../../../../" })
    }

    @Test func sectionPage_isItsFoldersEntry_currentAndOpen_andListedOnce() {
        let items = Self.navigation.items(current: "a/index.html", root: "../")
        #expect(Self.outline(items) == ["Intro", "Section A * /", "  One", "  Section B", "Z"])
        #expect(items[1].href == "a/index.html" && items[1].isFolder)
        #expect(items.filter { $0.href == "a/index.html" }.count == 1)
    }

    @Test func tree_nestsTheFlatList_byDepth() {
        let tree = Navigation.tree(Self.navigation.items(current: "a/b/two.html", root: ""))
        #expect(tree.map(\.title) == ["Intro", "Section A", "Z"])
        #expect(tree[1].children.map(\.title) == ["One", "Section B"])
        #expect(tree[1].children[1].children.map(\.title) == ["C", "Two"])
        #expect(tree[1].children[1].children[1].current)
        #expect(tree[1].children[1].children[0].children.isEmpty, "C is collapsed")
    }

    /// `SE-0002` before `SE-0100`, 2 before 10; `order`/`weight` first.
    @Test func siblings_areInOrderThenNaturalOrder() {
        let navigation = Navigation(pages: [
            Self.page("p/SE-0100.html", "SE-0100"), Self.page("p/SE-0002.html", "SE-0002"), Self.page("p/SE-0010.html", "SE-0010"),
            Self.page("p/ch10.html", "Chapter 10"), Self.page("p/ch2.html", "Chapter 2"), Self.page("p/first.html", "zzz", order: 0),
            Self.page("p/se-0003.html", "se-0003"),
        ])
        let titles = navigation.items(current: "p/ch2.html", root: "../").dropFirst().map(\.title)
        #expect(titles == ["zzz", "Chapter 2", "Chapter 10", "SE-0002", "se-0003", "SE-0010", "SE-0100"])
        #expect(Navigation.naturalOrder("a2", "a10") < 0 && Navigation.naturalOrder("a10", "a2") > 0)
        #expect(Navigation.naturalOrder("x007", "x7") != 0, "equal numbers written differently still have an order")
    }

    /// What a page carries grows with the folders on its path, not with
    /// the site: 1,000 pages in 10 folders of 10 folders.
    @Test func itemsPerPage_areBoundedByThePath_notThePageCount() {
        var pages: [Navigation.Listed] = []
        for a in 0..<10 { for b in 0..<10 { for c in 0..<10 { pages.append(Self.page("s\(a)/t\(b)/p\(c).html", "P\(c)")) } } }
        let navigation = Navigation(pages: pages)
        let items = navigation.items(current: "s3/t4/p5.html", root: "../../")
        #expect(items.count == 10 + 10 + 10, "the top folders, s3's folders, t4's pages")
        #expect(items.filter(\.current).map(\.href) == ["s3/t4/p5.html"])
    }

    /// A folder of 575 pages (Swift Evolution's proposals) shows the block
    /// of 50 the page is in, with an entry to the blocks around it: bounded,
    /// and every page reachable by walking the blocks.
    @Test func longFolders_showTheCurrentBlock_withWaysToTheOthers() {
        let pages = (0..<575).map { Self.page("proposals/\(String(format: "%04d", $0)).html", "SE-\(String(format: "%04d", $0))") }
            + [Self.page("intro.html", "Intro", order: 0)]
        let navigation = Navigation(pages: pages)
        let items = navigation.items(current: "proposals/0123.html", root: "../")
        #expect(items.count == 2 + 1 + 50 + 1)
        #expect(items[2].title == "… 100 earlier" && items[2].href == "proposals/0050.html")
        #expect(items[3].title == "SE-0100" && items[52].title == "SE-0149")
        #expect(items[53].title == "… 425 later" && items[53].href == "proposals/0150.html")
        #expect(items.filter(\.current).map(\.title) == ["SE-0123"])
        // Walking the "later" entries from the first block reaches the last page.
        var output = "proposals/0000.html", seen: Set<String> = []
        while true {
            let shown = navigation.items(current: output, root: "../")
            seen.formUnion(shown.map(\.href).filter { $0.hasPrefix("proposals/0") })
            guard let later = shown.first(where: { $0.title.hasSuffix("later") }) else { break }
            output = later.href
        }
        #expect(seen.count == 575)
        // The first and last blocks have one way out each.
        #expect(navigation.items(current: "proposals/0001.html", root: "../").filter { $0.title.hasPrefix("…") }.count == 1)
        #expect(navigation.items(current: "proposals/0574.html", root: "../").filter { $0.title.hasPrefix("…") }.map(\.title) == ["… 550 earlier"])
    }
}
