/// The site's navigation, worked out once per build: a tree of folders and
/// pages to any depth. A page sees the top level, and the contents of each
/// folder on the way to its own (the rest collapsed), so what a page carries
/// grows with the depth of its path and the size of those folders, never
/// with the whole site.
///
/// A folder's entry is its section page (`guide/index.html`, from
/// `_index.md`, `index.md` or `README.md`) when it has one, titled by it;
/// otherwise it is named after the folder and links to its first page.
/// Siblings are ordered by `order`/`weight`, then by title in natural order
/// (`SE-0002` before `SE-0100`, 2 before 10), then by address; a folder
/// without an `order` of its own sits where its first page would.
struct Navigation: Sendable {
    /// A listed page: its output, its navigation title and its `order`/`weight`.
    struct Listed: Sendable {
        var output: String
        var title: String
        var order: Int?
        /// The folder it is listed in, and whether it is that folder's own
        /// page: from its source, since with pretty URLs `guide/a.md` is
        /// `guide/a/index.html` too.
        var folder: String
        var isSectionPage: Bool

        init(output: String, title: String, order: Int?, folder: String? = nil, isSectionPage: Bool? = nil) {
            let section = isSectionPage ?? (output == "index.html" || output.hasSuffix("/index.html"))
            (self.output, self.title, self.order, self.isSectionPage) = (output, title, order, section)
            self.folder = folder ?? OutputPaths.parent(of: output)
        }
    }

    /// A folder or a page of the tree.
    private struct Node: Sendable {
        var title: String
        var href: String
        /// The folder's path (`guide/advanced`), nil for a page.
        var folder: String?
        var children: [Int] = []
    }

    private var nodes: [Node] = []
    /// The top level's nodes, in order.
    private var top: [Int] = []
    /// Each listed output's node (a section page is its folder's node).
    private var places: [String: Int] = [:]
    /// Each folder's node, by path.
    private var folders: [String: Int] = [:]
    /// The folder each listed page (not a section page) is in.
    private var pageFolders: [Int: String] = [:]

    /// - Parameter pages: the pages to list, the home page left out.
    init(pages: [Listed]) {
        typealias Key = (order: Int, title: String, output: String)
        func precedes(_ a: Key, _ b: Key) -> Bool {
            if a.order != b.order { return a.order < b.order }
            let titles = Self.naturalOrder(a.title, b.title)
            if titles != 0 { return titles < 0 }
            return a.output < b.output
        }
        var keys: [Key] = []
        // Folders first, so that pages can hang under them.
        func folderNode(_ path: String) -> Int {
            if let known = folders[path] { return known }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let node = nodes.count
            nodes.append(Node(title: name.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ").capitalizedFirstLetter,
                              href: "", folder: path))
            keys.append((.max, "", path))
            folders[path] = node
            let parent = OutputPaths.parent(of: path)
            if parent.isEmpty { top.append(node) } else { let above = folderNode(parent); nodes[above].children.append(node) }
            return node
        }
        var sectionPages: [Int: Key] = [:]
        for page in pages {
            let key: Key = (page.order ?? .max, page.title, page.output)
            let folder = page.folder
            if page.isSectionPage, !folder.isEmpty {
                // The folder's own page: its entry's title and link.
                let node = folderNode(folder)
                nodes[node].title = page.title
                nodes[node].href = page.output
                sectionPages[node] = key
                places[page.output] = node
                continue
            }
            let node = nodes.count
            nodes.append(Node(title: page.title, href: page.output, folder: nil))
            keys.append(key)
            places[page.output] = node
            pageFolders[node] = folder
            if folder.isEmpty { top.append(node) } else { let above = folderNode(folder); nodes[above].children.append(node) }
        }
        // Order from the leaves up: a folder sorts by its section page's
        // `order` if that page has one, else by its first page's, then by
        // its own title.
        func arrange(_ children: inout [Int]) {
            for child in children where nodes[child].folder != nil {
                var contents = nodes[child].children
                arrange(&contents)
                nodes[child].children = contents
                let order = sectionPages[child].map(\.order).flatMap { $0 == .max ? nil : $0 }
                    ?? nodes[child].children.first.map { keys[$0].order } ?? .max
                keys[child] = (order, nodes[child].title, nodes[child].folder ?? "")
            }
            children.sort { precedes(keys[$0], keys[$1]) }
        }
        arrange(&top)
        // A folder without a page of its own links to its first page.
        func firstLink(_ node: Int) -> String {
            if !nodes[node].href.isEmpty { return nodes[node].href }
            return nodes[node].children.first.map(firstLink) ?? ""
        }
        for node in nodes.indices where nodes[node].href.isEmpty {
            nodes[node].href = firstLink(node)
        }
    }

    /// The same, from pages already in navigation order (their position is
    /// their order).
    init(pages: [(output: String, title: String)]) {
        self.init(pages: pages.enumerated().map { Listed(output: $1.output, title: $1.title, order: $0) })
    }

    /// Natural order: runs of digits compare by value (`2` < `10`, `0002` <
    /// `0100`), the rest case-insensitively; -1, 0 or 1.
    static func naturalOrder(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased().unicodeScalars), y = Array(b.lowercased().unicodeScalars)
        var i = 0, j = 0
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }
        while i < x.count, j < y.count {
            if isDigit(x[i]), isDigit(y[j]) {
                var endI = i, endJ = j
                while endI < x.count, isDigit(x[endI]) { endI += 1 }
                while endJ < y.count, isDigit(y[endJ]) { endJ += 1 }
                // Leading zeros do not count; then the longer number is larger.
                let digitsA = x[i..<endI].drop { $0 == "0" }, digitsB = y[j..<endJ].drop { $0 == "0" }
                if digitsA.count != digitsB.count { return digitsA.count < digitsB.count ? -1 : 1 }
                for (p, q) in zip(digitsA, digitsB) where p != q { return p.value < q.value ? -1 : 1 }
                i = endI
                j = endJ
                continue
            }
            if x[i] != y[j] { return x[i].value < y[j].value ? -1 : 1 }
            i += 1
            j += 1
        }
        if x.count - i != y.count - j { return x.count - i < y.count - j ? -1 : 1 }
        return a == b ? 0 : (a < b ? -1 : 1)
    }

    /// What a page's navigation shows besides which item is current: the
    /// links' root, and the folder whose path is open.
    struct Group: Hashable, Sendable {
        var root: String
        var folder: String
        /// Which block of a long folder's pages the page is in (see `blockSize`).
        var block = 0
    }

    /// A folder (or the top level) with more than `longFolder` entries shows
    /// one block of `blockSize` of them, the one on the current path, with
    /// an entry before and after it leading to the neighbouring blocks: what
    /// a page carries stays bounded however many pages a folder holds, and
    /// every page stays reachable.
    static let longFolder = 60, blockSize = 50

    /// The group of the page at `output`, its links relative to `root`: its
    /// folder open (a section page opens its own). A page the navigation
    /// does not list (an example page) opens its nearest listed folder.
    func group(of output: String, root: String) -> Group {
        if let node = places[output] {
            if let folder = nodes[node].folder { return Group(root: root, folder: folder) }
            let folder = pageFolders[node] ?? OutputPaths.parent(of: output)
            let siblings = folder.isEmpty ? top : folders[folder].map { nodes[$0].children } ?? top
            let block = siblings.count > Self.longFolder ? (siblings.firstIndex(of: node) ?? 0) / Self.blockSize : 0
            return Group(root: root, folder: folder, block: block)
        }
        var folder = OutputPaths.parent(of: output)
        while !folder.isEmpty, folders[folder] == nil { folder = OutputPaths.parent(of: folder) }
        return Group(root: root, folder: folder)
    }

    /// One entry a group shows: a node, or a way to more of a long folder.
    private struct Shown {
        var node: Int?
        var depth: Int
        var more: (title: String, href: String)?
    }

    /// A group's visible entries in document order, with their depth.
    private func visible(in group: Group) -> [Shown] {
        var open: Set<Int> = []
        var path = group.folder
        let innermost = folders[group.folder]
        while !path.isEmpty {
            if let node = folders[path] { open.insert(node) }
            path = OutputPaths.parent(of: path)
        }
        func firstLink(_ node: Int) -> String { nodes[node].href }
        var result: [Shown] = []
        func walk(_ children: [Int], depth: Int, isInnermost: Bool) {
            var range = children.indices
            if children.count > Self.longFolder {
                let onPath = children.firstIndex { open.contains($0) }
                let block = isInnermost && onPath == nil ? group.block : (onPath ?? 0) / Self.blockSize
                let start = min(block * Self.blockSize, (children.count - 1) / Self.blockSize * Self.blockSize)
                range = start..<min(children.count, start + Self.blockSize)
            }
            if range.lowerBound > 0 {
                let count = range.lowerBound
                result.append(Shown(node: nil, depth: depth,
                                    more: ("… \(count) earlier", firstLink(children[max(0, range.lowerBound - Self.blockSize)]))))
            }
            for child in children[range] {
                result.append(Shown(node: child, depth: depth))
                if open.contains(child) { walk(nodes[child].children, depth: depth + 1, isInnermost: child == innermost) }
            }
            if range.upperBound < children.count {
                result.append(Shown(node: nil, depth: depth,
                                    more: ("… \(children.count - range.upperBound) later", firstLink(children[range.upperBound]))))
            }
        }
        walk(top, depth: 1, isInnermost: innermost == nil)
        return result
    }

    /// The index (as `items(in:current:)` counts, in document order) of the
    /// page at `output` in its group, nil if the group does not show it.
    func itemIndex(of output: String, in group: Group) -> Int? {
        guard let node = places[output] else { return nil }
        return visible(in: group).firstIndex { $0.node == node }
    }

    /// The index of every output the group shows, by output.
    func itemIndexes(in group: Group) -> [String: Int] {
        var indexes: [String: Int] = [:]
        for (index, shown) in visible(in: group).enumerated() {
            // A folder without a page links to its first page, which is not it.
            guard let node = shown.node else { continue }
            let output = nodes[node].href
            if places[output] == node { indexes[output] = index }
        }
        return indexes
    }

    /// A group's navigation as a flat list in document order, each item with
    /// its depth and how many lists close after it, the items at the indexes
    /// `current` picks marked current.
    /// `marked`: each item also answers `NavigationMemo.markKey` with its index.
    func items(in group: Group, marked: Bool = false, current: (Int) -> Bool) -> [NavItem] {
        let shown = visible(in: group)
        var items: [NavItem] = []
        items.reserveCapacity(shown.count)
        for (index, entry) in shown.enumerated() {
            let depth = entry.depth
            let next = index + 1 < shown.count ? shown[index + 1].depth : 1
            var item: NavItem
            if let node = entry.node {
                item = NavItem(title: nodes[node].title, href: nodes[node].href, current: current(index))
                item.isFolder = nodes[node].folder != nil
            } else {
                item = NavItem(title: entry.more?.title ?? "", href: entry.more?.href ?? "", current: current(index))
            }
            item.root = group.root
            item.depth = depth
            item.expanded = next > depth
            item.closes = max(0, depth - next)
            item.mark = marked ? String(NavigationMemo.open) + String(index) + String(NavigationMemo.owned) : nil
            items.append(item)
        }
        return items
    }

    /// The flat list as a tree: each item's `children` are the items one
    /// level below it.
    static func tree(_ list: [NavItem]) -> [NavItem] {
        var index = 0
        func level(_ depth: Int) -> [NavItem] {
            var result: [NavItem] = []
            while index < list.count, list[index].depth == depth {
                var item = list[index]
                index += 1
                if item.expanded { item.children = level(depth + 1) }
                result.append(item)
            }
            return result
        }
        return level(1)
    }

    /// The navigation of the page at `current`, its links relative to `root`.
    func items(current output: String, root: String) -> [NavItem] {
        let group = group(of: output, root: root)
        let index = itemIndex(of: output, in: group)
        return items(in: group) { $0 == index }
    }
}

extension StringProtocol {
    var capitalizedFirstLetter: String { prefix(1).uppercased() + dropFirst() }
}
