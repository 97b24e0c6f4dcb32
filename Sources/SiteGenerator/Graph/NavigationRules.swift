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

/// One group's navigation HTML for each of its outputs, rendered once for
/// the group (`NavigationMemo`); none for an output the memo cannot prove
/// (its page renders its own). Not stored: its key is (`GroupNavigationKey`),
/// and the pages hold the HTML.
enum GroupNavigation: Rule {
    static let name = "group-navigation"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String: String] {
        let members = try build.value(GroupMembers.self, argument)
        _ = try build.value(GroupItems.self, argument)
        // The memo proves its renders against every template that includes `nav`.
        _ = try build.value(ThemeFacts.self, "")
        let base = try build.value(ChromeBase.self, "")
        // What the memo reads of the tree is in the group's items, read above.
        let navigation = try build.untracked(NavigationTree.self, "")
        let theme = try build.theme()
        let options = build.site.options
        let memo = NavigationMemo(outputs: members, navigation: navigation, theme: theme, root: { OutputPaths.root(of: $0, options: options) },
                                  memory: build.site.navigationMemory) { output in
            Chrome(siteTitle: base.siteTitle, root: OutputPaths.root(of: output, options: options), stylesheet: base.stylesheet, script: base.script, nav: [])
        }
        return memo.html
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
