import Foundation
import SeededRandom
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

    /// Everything an item shows, in order.
    static func shown(_ items: [NavItem]) -> [String] {
        items.map { "\($0.depth) \($0.title) \($0.href) \($0.root) \($0.current) \($0.expanded) \($0.closes) \($0.isFolder)" }
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

    /// 40 folders, each inside the last, of 50 pages with 300-byte titles:
    /// a page showed every folder on its path whole, so navigation grew
    /// with pages × depth (before: about 1 MB a page, 930 MB for the site).
    /// Capped in bytes: the folders farthest from the page collapse first
    /// (each to the one on the path, and a way to the rest); the top level
    /// stays, and the page's own folder shows the block around the page.
    @Test func deepFoldersOfLongTitles_stayUnderTheByteCap_farFoldersCollapsedFirst() {
        let title = String(repeating: "t", count: 300)
        var pages: [Navigation.Listed] = [Self.page("intro.html", "Intro")]
        for level in 1...40 {
            let folder = String(repeating: "f/", count: level)
            for index in 0..<50 { pages.append(Self.page("\(folder)p\(index).html", "\(level)-\(index) \(title)")) }
        }
        let navigation = Navigation(pages: pages)
        for level in [1, 2, 20, 40] {
            let output = String(repeating: "f/", count: level) + "p7.html", root = String(repeating: "../", count: level)
            let items = navigation.items(current: output, root: root)
            let bytes = items.reduce(0) { $0 + $1.title.utf8.count + $1.href.utf8.count + $1.root.utf8.count }
            #expect(bytes <= 32 << 10, "level \(level): \(bytes) bytes of titles and links")
            #expect(items.filter(\.current).map(\.href) == [output], "level \(level)")
            #expect(items.filter { $0.depth == 1 }.map(\.title) == ["F", "Intro"], "level \(level): the top level")
            let own = items.filter { $0.depth == level + 1 && !$0.title.hasPrefix("…") }.count
            // Whole near the top; past the limit, the block around the page.
            #expect(level <= 2 ? own == 51 : (level == 20 ? 30 : 10)..<51 ~= own, "level \(level): the page's own folder (\(own) entries)")
            if level > 2 {
                #expect(items.filter { $0.depth == 2 }.map(\.title) == ["F", "… 50 more"], "level \(level): the farthest folder collapsed")
                #expect(items.last { $0.depth == 2 }?.href == "f/p0.html", "to the folder's page (its first page: it has none)")
            }
        }
    }

    /// Every page of the deep tree stays reachable by following the
    /// navigation's links from one page: a collapsed folder's "… N more"
    /// leads to the folder's page, which shows it whole.
    @Test func collapsedNavigation_stillReachesEveryPage() {
        let title = String(repeating: "t", count: 300)
        var pages: [Navigation.Listed] = [Self.page("intro.html", "Intro")]
        for level in 1...40 {
            for index in 0..<50 { pages.append(Self.page(String(repeating: "f/", count: level) + "p\(index).html", "\(level)-\(index) \(title)")) }
        }
        let navigation = Navigation(pages: pages)
        var reached: Set<String> = ["intro.html"], queue = ["intro.html"]
        while let output = queue.popLast() {
            let root = String(repeating: "../", count: output.split(separator: "/").count - 1)
            for item in navigation.items(current: output, root: root) where reached.insert(item.href).inserted { queue.append(item.href) }
        }
        #expect(reached.count == pages.count)
    }

    /// A folder path deeper than `Navigation.maxDepth` opens that deep and
    /// no deeper (a theme may draw the tree with a partial that includes
    /// itself, which renders at most `TemplateCheck.renderedPartialDepth`
    /// deep).
    @Test func pathsDeeperThanTheMaximum_openOnlyThatDeep() {
        let pages = (1...80).map { Self.page(String(repeating: "d/", count: $0) + "p.html", "P\($0)") }
        let navigation = Navigation(pages: pages)
        let items = navigation.items(current: String(repeating: "d/", count: 80) + "p.html", root: "")
        #expect(Navigation.maxDepth < TemplateCheck.renderedPartialDepth)
        #expect(items.map(\.depth).max() == Navigation.maxDepth)
        #expect(!items.contains { $0.current }, "the page is past the depth shown")
        #expect(navigation.items(current: String(repeating: "d/", count: 10) + "p.html", root: "").contains { $0.current })
    }

    /// Sites as real ones are built: a page's navigation is exactly what
    /// it was without the byte limit, and the largest is under a third of
    /// it (5.3 KiB and 0.8 KiB). A tree shaped as Hugo's documentation (925
    /// pages: 22 sections, 35 function namespaces, a `methods/page` folder
    /// of 90, 75 commands, titles such as `collections.Where`), and the
    /// benchmark's (1,010 pages four folders deep).
    @Test func realDocumentationTrees_keepTheirWholeNavigation() {
        var largest = 0
        for (name, pages) in [("hugo-docs", Self.hugoDocsLikeTree()), ("bench", Self.benchTree())] {
            let capped = Navigation(pages: pages), whole = Navigation(pages: pages, byteLimit: .max)
            var pageLargest = 0
            for page in pages {
                let root = String(repeating: "../", count: page.output.split(separator: "/").count - 1)
                let items = capped.items(current: page.output, root: root)
                #expect(capped.group(of: page.output, root: root) == whole.group(of: page.output, root: root), "\(name): \(page.output)")
                #expect(Self.shown(items) == Self.shown(whole.items(current: page.output, root: root)), "\(name): \(page.output)")
                pageLargest = max(pageLargest, items.reduce(0) { $0 + $1.title.utf8.count + $1.href.utf8.count + $1.root.utf8.count })
            }
            print("\(name): \(pages.count) pages, the largest navigation \(pageLargest) bytes of titles and links")
            largest = max(largest, pageLargest)
        }
        #expect(largest * 3 < Navigation.byteLimit, "\(largest) bytes")
    }

    /// Random trees under a small limit (2 or 4 KiB), each page's
    /// navigation: within the limit (or three of its heaviest entries, when
    /// one entry alone is most of it), the same as without the limit when
    /// that fits, and, when titles are short beside the limit (a 30th
    /// of it; real ones are a 300th of 32 KiB) and every folder has a page
    /// of its own, every page reachable from the first by its links. `ROWMOTION_FUZZ_SEED` replays one seed.
    @Test func randomTrees_stayUnderTheLimit_unchangedWhenTheyFit_andReachEveryPage() {
        let seeds = ProcessInfo.processInfo.environment["ROWMOTION_FUZZ_SEED"].flatMap(UInt64.init).map { [$0] } ?? Array(1...40)
        var collapsed = [0, 0]
        for seed in seeds {
            var random = SeededGenerator(seed: seed)
            // Odd seeds: titles up to 1,500 characters (3,000 bytes), past
            // a 2 KiB limit alone; even ones: up to 60 (120 bytes), 4 KiB.
            let lengths = seed % 2 == 1 ? [1, 5, 40, 300, 1_500] : [1, 5, 20, 60]
            var pages: [Navigation.Listed] = []
            var outputs = Set<String>()
            for index in 0..<Int.random(in: 1...(seed % 2 == 1 ? 150 : 400), using: &random) {
                let depth = Int.random(in: 0...6, using: &random)
                let folder = (0..<depth).map { _ in ["a", "b", "c-d", "long-folder-name"].randomElement(using: &random)! }.joined(separator: "/")
                let name = Bool.random(using: &random) && depth > 0 && index % 5 == 0 ? "index" : "p\(index)"
                let output = (folder.isEmpty ? "" : folder + "/") + name + ".html"
                guard outputs.insert(output).inserted else { continue }
                let title = String(repeating: "é", count: lengths.randomElement(using: &random)!)
                pages.append(Self.page(output, title, order: Bool.random(using: &random) ? index : nil))
            }
            // Short titles: every folder with a page of its own, as real
            // documentation's have (what reaching every page asks for).
            if seed % 2 == 0 {
                for output in outputs.sorted() {
                    var folder = OutputPaths.parent(of: output)
                    while !folder.isEmpty {
                        if outputs.insert(folder + "/index.html").inserted {
                            pages.append(Self.page(folder + "/index.html", "Section " + folder.split(separator: "/").joined(separator: " ")))
                        }
                        folder = OutputPaths.parent(of: folder)
                    }
                }
            }
            let limit = seed % 2 == 1 ? 2 << 10 : 4 << 10
            let capped = Navigation(pages: pages, byteLimit: limit), whole = Navigation(pages: pages, byteLimit: .max)
            func bytes(_ items: [NavItem]) -> Int { items.reduce(0) { $0 + $1.title.utf8.count + $1.href.utf8.count + $1.root.utf8.count } }
            for page in pages {
                let root = String(repeating: "../", count: page.output.split(separator: "/").count - 1)
                let items = capped.items(current: page.output, root: root), full = whole.items(current: page.output, root: root)
                let heaviest = items.map { $0.title.utf8.count + $0.href.utf8.count + $0.root.utf8.count }.max() ?? 0
                #expect(bytes(items) <= max(limit, 3 * heaviest), "seed \(seed): \(page.output): \(bytes(items)) bytes")
                if bytes(full) <= limit { #expect(Self.shown(items) == Self.shown(full), "seed \(seed): \(page.output)") } else { collapsed[Int(seed % 2)] += 1 }
                #expect(items.filter(\.current).count <= 1, "seed \(seed): \(page.output)")
            }
            guard seed % 2 == 0 else { continue }
            var reached: Set<String> = [pages[0].output], queue = [pages[0].output]
            while let output = queue.popLast() {
                let root = String(repeating: "../", count: output.split(separator: "/").count - 1)
                for item in capped.items(current: output, root: root) where reached.insert(item.href).inserted { queue.append(item.href) }
            }
            #expect(reached.isSuperset(of: outputs), "seed \(seed): \(outputs.subtracting(reached).sorted().prefix(5)) not reached")
        }
        // Both kinds collapse often enough to prove something.
        #expect(seeds.count == 1 || collapsed.allSatisfy { $0 > 100 }, "pages whose navigation passed the limit: \(collapsed)")
        print("randomTrees: navigation collapsed on \(collapsed[0]) pages of short titles, \(collapsed[1]) of long ones; seeds \(seeds.first!)…\(seeds.last!)")
    }

    static func hugoDocsLikeTree() -> [Navigation.Listed] {
        let words = ["Where", "Apply", "Append", "Complement", "Delimit", "Dictionary", "First", "Group", "In", "Index", "Intersect", "IsSet",
                     "KeyVals", "Last", "Merge", "NewScratch", "Querify", "Reverse", "Seq", "Shuffle", "Slice", "Sort", "SymDiff", "Union",
                     "Uniq", "After", "AbsURL", "RelPermalink", "TableOfContents", "WordCount", "FuzzyWordCount", "ReadingTime"]
        var pages: [Navigation.Listed] = []
        func add(_ output: String, _ title: String) { pages.append(Self.page(output, title)) }
        func folder(_ path: String, _ title: String, pages count: Int, titles: (Int) -> String) {
            add("\(path)/index.html", title)
            for index in 0..<count { add("\(path)/\(titles(index).lowercased().replacingOccurrences(of: " ", with: "-"))-\(index).html", titles(index)) }
        }
        let sections = ["about": 8, "configuration": 35, "content-management": 40, "contribute": 6, "getting-started": 8, "host-and-deploy": 12,
                        "hugo-modules": 5, "hugo-pipes": 10, "installation": 4, "quick-reference": 5, "render-hooks": 10, "shortcodes": 15,
                        "templates": 25, "tools": 5, "troubleshooting": 8, "showcase": 30, "myths": 3, "news": 12]
        for (section, count) in sections.sorted(by: { $0.key < $1.key }) {
            folder(section, section.replacingOccurrences(of: "-", with: " ").capitalized, pages: count) { "\(words[$0 % words.count]) and \(words[($0 * 7) % words.count]) in \(section)" }
        }
        folder("commands", "Commands", pages: 75) { "hugo mod \(words[$0 % words.count].lowercased()) \($0)" }
        add("functions/index.html", "Functions")
        let namespaces = ["cast": 3, "collections": 40, "compare": 6, "crypto": 6, "css": 6, "data": 3, "debug": 3, "diagrams": 1, "encoding": 3,
                          "fmt": 7, "global": 3, "go-template": 15, "hash": 2, "hugo": 15, "images": 25, "inflect": 4, "js": 2, "lang": 6,
                          "math": 30, "openapi3": 1, "os": 5, "partials": 2, "path": 6, "reflect": 2, "resources": 15, "safe": 6, "strings": 35,
                          "templates": 5, "time": 8, "transform": 15, "urls": 8, "fmt2": 4, "sort": 3, "site": 4, "page": 4]
        for (namespace, count) in namespaces.sorted(by: { $0.key < $1.key }) {
            folder("functions/\(namespace)", "\(namespace.capitalized) functions", pages: count) { "\(namespace).\(words[$0 % words.count])" }
        }
        add("methods/index.html", "Methods")
        let kinds = ["duration": 10, "menu": 2, "menu-entry": 15, "page": 90, "pager": 15, "pages": 20, "resource": 20, "shortcode": 12, "site": 30,
                     "taxonomy": 10, "time": 15]
        for (kind, count) in kinds.sorted(by: { $0.key < $1.key }) {
            folder("methods/\(kind)", "\(kind.capitalized) methods", pages: count) { "\(words[$0 % words.count])\($0 < words.count ? "" : String($0))" }
        }
        return pages
    }

    /// `rowmotion-bench site`'s pages: `s0/p1/c2/page7.md`, ten sections with their own page.
    /// The navigation orders its entries itself: listed in any order, it
    /// shows every page the same (a build after an edit lists the cache's
    /// records in path order, a whole build in navigation order). Titles
    /// that tie but for case and numbers, orders, section pages, folders
    /// of one name at several depths. `ROWMOTION_FUZZ_SEED` replays one seed.
    @Test func pagesListedInAnyOrder_makeTheSameNavigation() {
        let seeds = ProcessInfo.processInfo.environment["ROWMOTION_FUZZ_SEED"].flatMap(UInt64.init).map { [$0] } ?? Array(1...20)
        for seed in seeds {
            var random = SeededGenerator(seed: seed)
            var pages: [Navigation.Listed] = []
            var outputs = Set<String>()
            for index in 0..<Int.random(in: 1...300, using: &random) {
                let folder = (0..<Int.random(in: 0...4, using: &random)).map { _ in ["a", "b", "a-b"].randomElement(using: &random)! }.joined(separator: "/")
                let name = index % 7 == 0 && !folder.isEmpty ? "index" : "p\(index)"
                let output = (folder.isEmpty ? "" : folder + "/") + name + ".html"
                guard outputs.insert(output).inserted else { continue }
                let title = ["Page 2", "page 10", "Page 02", "Alpha", "alpha", "Beta \(index % 3)"].randomElement(using: &random)!
                pages.append(Navigation.Listed(output: output, title: title, order: Int.random(in: 0..<4, using: &random) == 0 ? index % 5 : nil,
                                               folder: folder, isSectionPage: name == "index"))
            }
            let ordered = Navigation(pages: pages), shuffled = Navigation(pages: pages.shuffled(using: &random))
            for page in pages {
                let root = String(repeating: "../", count: page.output.split(separator: "/").count - 1)
                #expect(Self.shown(shuffled.items(current: page.output, root: root)) == Self.shown(ordered.items(current: page.output, root: root)),
                        "seed \(seed) (ROWMOTION_FUZZ_SEED): \(page.output)")
            }
        }
    }

    static func benchTree() -> [Navigation.Listed] {
        (0..<1_000).map { (number: Int) in Self.page("s\(number % 10)/p\((number / 10) % 5)/c\((number / 50) % 4)/page\(number).html", "Page \(number)", order: number) }
            + (0..<10).map { (section: Int) in Self.page("s\(section)/index.html", "Section \(section)", order: section) }
    }
}
