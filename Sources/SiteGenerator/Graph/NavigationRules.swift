import BuildGraph
import Diagnostics
import ProjectFiles

// The navigation: the tree of every page's title and place, each page's
// group (what its navigation shows besides which item is current), each
// group's items and their HTML. A title edited changes the tree; only the
// groups that show that title change their items, and only their pages
// are made again.

/// The pages the navigation lists, in its order.
enum NavigationEntries: StoredRule {
    static let name = "navigation-entries"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [Navigation.Listed] {
        try build.value(SiteShape.self, "").listed
    }
}

/// The navigation's tree (made again in a new process that asks for it).
enum NavigationTree: Rule {
    static let name = "navigation"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Navigation {
        Navigation(pages: try build.value(NavigationEntries.self, ""))
    }
    static func same(_ old: Navigation, _ new: Navigation) -> Bool { false }
}

/// Every output that has the theme's chrome: the pages, the example
/// pages, the index, and with `--baseline` the review.
enum ChromeOutputs: StoredRule {
    static let name = "chrome-outputs"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String] {
        let shape = try build.value(SiteShape.self, "")
        return shape.pages.map(\.output) + shape.examples.map(OutputPaths.examplePath) + ["index.html"]
            + (build.site.options.baseline == nil ? [] : [OutputPaths.changes])
    }
}

/// Each output's navigation group (its key), and each group's outputs.
enum NavigationGroups: StoredRule {
    static let name = "navigation-groups"

    struct Value: StoreCodable, Equatable {
        var groups: [String: String]
        var members: [String: [String]]

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(groups)
            encoder.write(members)
        }

        init(groups: [String: String], members: [String: [String]]) { (self.groups, self.members) = (groups, members) }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (groups, members) = (try decoder.read(), try decoder.read())
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let outputs = try build.value(ChromeOutputs.self, "")
        let navigation = try build.value(NavigationTree.self, "")
        let options = build.site.options
        var groups: [String: String] = [:], members: [String: [String]] = [:]
        groups.reserveCapacity(outputs.count)
        for output in outputs {
            let key = NavigationGroupKey(navigation.group(of: output, root: OutputPaths.root(of: output, options: options))).text
            groups[output] = key
            members[key, default: []].append(output)
        }
        return Value(groups: groups, members: members)
    }
}

/// A navigation group as a key: its root, folder and block.
struct NavigationGroupKey {
    var group: Navigation.Group

    init(_ group: Navigation.Group) { self.group = group }

    init(_ text: String) {
        let parts = text.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        group = Navigation.Group(root: parts.first ?? "", folder: parts.count > 1 ? parts[1] : "",
                                 block: parts.count > 2 ? Int(parts[2]) ?? 0 : 0, blockEntries: parts.count > 3 ? Int(parts[3]) ?? 0 : 0)
    }

    var text: String { [group.root, group.folder, String(group.block), String(group.blockEntries)].joined(separator: "\u{1F}") }
}

/// An output's navigation group.
enum PageGroup: StoredRule {
    static let name = "page-group"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> String {
        try build.value(NavigationGroups.self, "").groups[argument] ?? ""
    }
}

/// The outputs of one navigation group.
enum GroupMembers: StoredRule {
    static let name = "group-members"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String] {
        try build.value(NavigationGroups.self, "").members[argument] ?? []
    }
}

/// What one group's navigation shows: its items, none current, and the
/// index of each output's own item.
enum GroupItems: StoredRule {
    static let name = "group-items"

    struct Item: StoreCodable, Equatable {
        var title: String
        var href: String
        var depth: Int
        var expanded: Bool
        var isFolder: Bool
        var closes: Int

        init(_ item: NavItem) {
            (title, href, depth, expanded, isFolder, closes) = (item.title, item.href, item.depth, item.expanded, item.isFolder, item.closes)
        }

        func navItem(root: String, current: Bool) -> NavItem {
            var item = NavItem(title: title, href: href, current: current)
            (item.root, item.depth, item.expanded, item.isFolder, item.closes) = (root, depth, expanded, isFolder, closes)
            return item
        }

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(title)
            encoder.write(href)
            encoder.write(depth)
            encoder.write(expanded)
            encoder.write(isFolder)
            encoder.write(closes)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (title, href, depth) = (try decoder.read(), try decoder.read(), try decoder.read())
            (expanded, isFolder, closes) = (try decoder.read(), try decoder.read(), try decoder.read())
        }
    }

    struct Value: StoreCodable, Equatable {
        var items: [Item]
        var indexes: [String: Int]

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(items)
            encoder.write(indexes)
        }

        init(items: [Item], indexes: [String: Int]) { (self.items, self.indexes) = (items, indexes) }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (items, indexes) = (try decoder.read(), try decoder.read())
        }

        /// The navigation of `output` in this group, its links relative to `root`.
        func items(current output: String, root: String) -> [NavItem] {
            let index = indexes[output]
            return items.enumerated().map { $1.navItem(root: root, current: $0 == index) }
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let navigation = try build.value(NavigationTree.self, "")
        let group = NavigationGroupKey(argument).group
        return Value(items: navigation.items(in: group) { _ in false }.map(Item.init), indexes: navigation.itemIndexes(in: group))
    }
}

/// What every page's chrome shares: the site's title and the theme's
/// stylesheet and script.
enum ChromeBase: StoredRule {
    static let name = "chrome-base"

    struct Value: StoreCodable, Equatable {
        var siteTitle: String
        var stylesheet: String
        var script: String

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(siteTitle)
            encoder.write(stylesheet)
            encoder.write(script)
        }

        init(siteTitle: String, stylesheet: String, script: String) { (self.siteTitle, self.stylesheet, self.script) = (siteTitle, stylesheet, script) }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (siteTitle, stylesheet, script) = (try decoder.read(), try decoder.read(), try decoder.read())
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let theme = try build.value(ThemeFacts.self, "")
        return Value(siteTitle: try build.value(SiteTitle.self, ""), stylesheet: theme.stylesheet, script: theme.script)
    }
}

/// The item parts every group of one root needs (the groups of pages at
/// one depth share a chrome): each item's shape (with holes for titles
/// and links where the theme writes them as text, so an edited title
/// changes no shape), and a few items as they are to check shapes with.
enum NavigationShapes: StoredRule {
    static let name = "navigation-shapes"

    struct Value: StoreCodable, Equatable {
        var shapes: [StoredNavItem]
        var samples: [StoredNavItem]
        /// The group whose first page is composed and held to its own render.
        var proof: String?

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(shapes)
            encoder.write(samples)
            encoder.write(proof)
        }

        init(shapes: [StoredNavItem], samples: [StoredNavItem], proof: String?) { (self.shapes, self.samples, self.proof) = (shapes, samples, proof) }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (shapes, samples, proof) = (try decoder.read(), try decoder.read(), try decoder.read())
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let holes = try build.value(ThemeFacts.self, "").navigationHoles
        let groups = try build.value(NavigationGroups.self, "").members.keys.filter { NavigationGroupKey($0).group.root == argument }.sorted()
        let items = try build.values(GroupItems.self, groups)
        let members = try build.values(GroupMembers.self, groups)
        var wanted: [NavigationMemo.ItemKey: NavItem] = [:]
        var samples: [NavItem] = []
        for (group, members) in zip(items, members) {
            NavigationMemo.shapes(of: group.items(current: "", root: argument), indexes: group.indexes, outputs: members, holes: holes,
                                  into: &wanted, samples: &samples)
        }
        let shapes = wanted.values.map(StoredNavItem.init).sorted { $0.order.lexicographicallyPrecedes($1.order) }
        return Value(shapes: shapes, samples: samples.map(StoredNavItem.init), proof: groups.first)
    }
}

/// One root's pieces of the navigation: the text around the list and each
/// shape's part, rendered once for every group of that root; nil when the
/// renders do not prove them, or the first page of the proof group
/// composed is not its own render (not stored: made again in a new
/// process that renders a page).
enum NavigationPieces: Rule {
    static let name = "navigation-pieces"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> NavigationMemo.Pieces? {
        let facts = try build.value(ThemeFacts.self, "")
        let shapes = try build.value(NavigationShapes.self, argument)
        let base = try build.value(ChromeBase.self, "")
        let theme = try build.theme()
        guard let template = theme.itemizedNavigation else { return nil }
        let chrome = Chrome(siteTitle: base.siteTitle, root: argument, stylesheet: base.stylesheet, script: base.script, nav: [])
        guard let pieces = NavigationMemo.pieces(chrome: chrome, wanted: shapes.shapes.map(\.navItem), samples: shapes.samples.map(\.navItem),
                                                 template: template, plain: theme.library, holes: facts.navigationHoles) else { return nil }
        // One page composed is its own render.
        if let proof = shapes.proof, let output = try build.value(GroupMembers.self, proof).first {
            let items = try build.value(GroupItems.self, proof)
            var own = chrome
            own.nav = items.items(current: output, root: argument)
            guard let composed = NavigationMemo.compose(items: items.items(current: "", root: argument), indexes: items.indexes, outputs: [output],
                                                        piece: pieces, holes: facts.navigationHoles, memory: OutputBudget(limit: .max))?[output],
                  let reference = try? theme.library.renderBytes(own, withTemplate: "nav"), reference.elementsEqual(composed.utf8) else { return nil }
        }
        return pieces
    }
    static func same(_ old: NavigationMemo.Pieces?, _ new: NavigationMemo.Pieces?) -> Bool { false }
}

/// A navigation item as a store keeps it.
struct StoredNavItem: StoreCodable, Equatable {
    var title: String
    var href: String
    var current: Bool
    var root: String
    var expanded: Bool
    var depth: Int
    var isFolder: Bool
    var closes: Int

    init(_ item: NavItem) {
        (title, href, current, root) = (item.title, item.href, item.current, item.root)
        (expanded, depth, isFolder, closes) = (item.expanded, item.depth, item.isFolder, item.closes)
    }

    var navItem: NavItem {
        var item = NavItem(title: title, href: href, current: current)
        (item.root, item.expanded, item.depth, item.isFolder, item.closes) = (root, expanded, depth, isFolder, closes)
        return item
    }

    /// A stable order: the same shapes, the same renders.
    var order: [String] { [String(depth), expanded ? "1" : "0", current ? "1" : "0", isFolder ? "1" : "0", String(closes), root, title, href] }

    func encode(to encoder: inout StoreEncoder) {
        for text in [title, href, root] { encoder.write(text) }
        for flag in [current, expanded, isFolder] { encoder.write(flag) }
        encoder.write(depth)
        encoder.write(closes)
    }

    init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
        (title, href, root) = (try decoder.read(), try decoder.read(), try decoder.read())
        (current, expanded, isFolder) = (try decoder.read(), try decoder.read(), try decoder.read())
        (depth, closes) = (try decoder.read(), try decoder.read())
    }
}

/// One group's navigation HTML for each of its outputs: composed from its
/// root's pieces, else rendered for the group with markers
/// (`NavigationMemo`); none for an output neither can prove (its page
/// renders its own). Not stored: its key is (`GroupNavigationKey`), and
/// the pages hold the HTML.
enum GroupNavigation: Rule {
    static let name = "group-navigation"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String: String] {
        let members = try build.value(GroupMembers.self, argument)
        let items = try build.value(GroupItems.self, argument)
        let facts = try build.value(ThemeFacts.self, "")
        let base = try build.value(ChromeBase.self, "")
        let group = NavigationGroupKey(argument).group
        if facts.itemizedNavigation, let pieces = try build.value(NavigationPieces.self, group.root),
           let composed = NavigationMemo.compose(items: items.items(current: "", root: group.root), indexes: items.indexes, outputs: members,
                                                 piece: pieces, holes: facts.navigationHoles, memory: build.site.navigationMemory) {
            return composed
        }
        let theme = try build.theme()
        guard let marked = theme.markedNavigation, let first = members.first else { return [:] }
        // What the memo reads of the tree is in the group's items, read above.
        let navigation = try build.untracked(NavigationTree.self, "")
        let chrome = Chrome(siteTitle: base.siteTitle, root: group.root, stylesheet: base.stylesheet, script: base.script, nav: [])
        _ = first
        return NavigationMemo.render(group: group, outputs: members, navigation: navigation, base: chrome, template: marked, plain: theme.library,
                                     memory: build.site.navigationMemory)
    }
    // (Its key, stored, is what a change is told by.)
    static func same(_ old: [String: String], _ new: [String: String]) -> Bool { false }
}

/// A key of one group's navigation HTML: what a page reads of it.
enum GroupNavigationKey: StoredRule {
    static let name = "group-navigation-key"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> String {
        var hash = ContentHash()
        for (output, html) in try build.value(GroupNavigation.self, argument).sorted(by: { $0.key < $1.key }) {
            hash.add(output)
            hash.add(html)
        }
        return hash.key
    }
}

extension Derivation {
    /// The chrome of `output`: the shared parts, its root, and its
    /// navigation from its group's.
    func chrome(for output: String) throws(BuildStopped) -> Chrome {
        let base = try value(ChromeBase.self, "")
        let group = try value(PageGroup.self, output)
        let options = site.options
        let root = OutputPaths.root(of: output, options: options)
        // The HTML's key is what the page reads of it.
        _ = try value(GroupNavigationKey.self, group)
        let html = try untracked(GroupNavigation.self, group)[output]
        let items = try value(GroupItems.self, group)
        guard let html else {
            return Chrome(siteTitle: base.siteTitle, root: root, stylesheet: base.stylesheet, script: base.script, nav: items.items(current: output, root: root))
        }
        // The items are made only if the theme reads `nav` outside its partial.
        return Chrome(siteTitle: base.siteTitle, root: root, stylesheet: base.stylesheet, script: base.script, nav: [],
                      navigationHTML: html, navItems: LazyNavItems { items.items(current: output, root: root) })
    }
}

extension OutputPaths {
    /// The way from `output` back to the site's root: `../` per folder,
    /// or the base URL when it is not `/`.
    static func root(of output: String, options: BuildOptions) -> String {
        let base = options.baseURL == "/" || options.baseURL.isEmpty ? nil : (options.baseURL.hasSuffix("/") ? options.baseURL : options.baseURL + "/")
        return base ?? String(repeating: "../", count: OutputPaths.depth(of: output))
    }
}

extension Navigation.Listed: StoreCodable {
    func encode(to encoder: inout StoreEncoder) {
        encoder.write(output)
        encoder.write(title)
        encoder.write(order)
        encoder.write(folder)
        encoder.write(isSectionPage)
    }

    init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
        let (output, title, order): (String, String, Int?) = (try decoder.read(), try decoder.read(), try decoder.read())
        let (folder, isSectionPage): (String, Bool) = (try decoder.read(), try decoder.read())
        self.init(output: output, title: title, order: order, folder: folder, isSectionPage: isSectionPage)
    }
}
