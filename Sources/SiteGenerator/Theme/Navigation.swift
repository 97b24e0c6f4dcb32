/// The site's navigation, worked out once per build: a tree of folders and
/// pages to any depth. A page sees the top level, and the contents of each
/// folder on the way to its own (the rest collapsed), so what a page carries
/// grows with the depth of its path and the size of those folders, never
/// with the whole site; and never past `byteLimit` of titles and links,
/// the folders farthest from the page collapsed first (see `Plan`).
///
/// A folder's entry is its section page (`guide/index.html`, from
/// `_index.md`, `index.md` or `README.md`) when it has one, titled by it;
/// otherwise it is named after the folder and links to its first page.
/// Siblings are ordered by `order`/`weight`, then by title in natural order
/// (`SE-0002` before `SE-0100`, 2 before 10), then by address; a folder
/// without an `order` of its own sits where its first page would.
struct Navigation: Sendable {
    /// A listed page: its output, its navigation title and its `order`/`weight`.
    struct Listed: Equatable, Sendable {
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
    /// Each folder's folder, for those not at the top level.
    private var parents: [Int: Int] = [:]
    /// What each folder's entries (and the top level's, under -1) weigh:
    /// their titles' and links' bytes, summed in order.
    private var weights: [Int: Weights] = [:]
    /// For each folder (and the top level, under -1), the most its path's
    /// levels may show: their bytes without the root, their entries (each
    /// shown with the root) and how many levels; a group under the limit
    /// by this needs no plan (most of them).
    private var bounds: [Int: (bytes: Int, entries: Int, levels: Int)] = [:]
    /// The bytes of titles and links a page's navigation may show.
    let byteLimit: Int

    /// - Parameters:
    ///   - pages: the pages to list, the home page left out.
    ///   - byteLimit: the bytes of titles and links (each with the root
    ///     before it) a page's navigation may show.
    init(pages: [Listed], byteLimit: Int = Navigation.byteLimit) {
        self.byteLimit = byteLimit
        typealias Key = (order: Int, title: String, output: String)
        var keys: [Key] = []
        // Each node's title folded once, when first compared, not once per
        // comparison (10,000 pages sorted made a million lowercased copies).
        var folded: [[Unicode.Scalar]?] = []
        func foldedTitle(_ node: Int) -> [Unicode.Scalar] {
            if let known = folded[node] { return known }
            let made = Self.folded(keys[node].title)
            folded[node] = made
            return made
        }
        func precedes(_ a: Int, _ b: Int) -> Bool {
            let (first, second) = (keys[a], keys[b])
            if first.order != second.order { return first.order < second.order }
            let titles = Self.naturalOrder(foldedTitle(a), first.title, foldedTitle(b), second.title)
            if titles != 0 { return titles < 0 }
            return first.output < second.output
        }
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
            if parent.isEmpty { top.append(node) } else {
                let above = folderNode(parent)
                nodes[above].children.append(node)
                parents[node] = above
            }
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
                folded[child] = nil
            }
            children.sort { precedes($0, $1) }
        }
        folded = Array(repeating: nil, count: keys.count)
        arrange(&top)
        // A folder without a page of its own links to its first page.
        func firstLink(_ node: Int) -> String {
            if !nodes[node].href.isEmpty { return nodes[node].href }
            return nodes[node].children.first.map(firstLink) ?? ""
        }
        for node in nodes.indices where nodes[node].href.isEmpty {
            nodes[node].href = firstLink(node)
        }
        weights[-1] = Weights(top.map { nodes[$0] })
        for node in nodes.indices where nodes[node].folder != nil {
            weights[node] = Weights(nodes[node].children.map { nodes[$0] })
        }
        // A level shows at most all its entries, and a way before and after
        // (at most 24 bytes of title, and a link of its own).
        func own(_ children: [Int], _ weights: Weights) -> (bytes: Int, entries: Int) {
            guard children.count > Self.longFolder else { return (weights.whole.last ?? 0, children.count) }
            let longestLink = children.map { nodes[$0].href.utf8.count }.max() ?? 0
            return ((weights.whole.last ?? 0) + 2 * (24 + longestLink), children.count + 2)
        }
        let topOwn = own(top, weights[-1]!)
        bounds[-1] = (topOwn.bytes, topOwn.entries, 1)
        func bound(_ node: Int) -> (bytes: Int, entries: Int, levels: Int) {
            if let known = bounds[node] { return known }
            let above = bound(parents[node] ?? -1), mine = own(nodes[node].children, weights[node]!)
            let result = (above.bytes + mine.bytes, above.entries + mine.entries, above.levels + 1)
            bounds[node] = result
            return result
        }
        for node in nodes.indices where nodes[node].folder != nil { _ = bound(node) }
    }

    /// Whether a group's navigation is surely under the byte limit and
    /// `maxDepth`, shown whole without working out a plan.
    /// `folder`: the group's folder's node (nil: the top level).
    private func surelyFits(_ group: Group, folder: Int?) -> Bool {
        guard group.blockEntries == 0, let bound = bounds[folder ?? -1] else { return false }
        return bound.levels <= Self.maxDepth && bound.bytes + bound.entries * group.root.utf8.count <= byteLimit
    }

    /// A list of entries' bytes, summed in order, whole and with titles cut
    /// to `Navigation.titleBytes`.
    private struct Weights: Sendable {
        var whole: [Int] = [0]
        var cut: [Int] = [0]
        /// The most an entry weighs with its title cut.
        var heaviestCut = 0

        init(_ entries: [Node]) {
            for entry in entries {
                let title = entry.title.utf8.count, href = entry.href.utf8.count
                whole.append(whole.last! + title + href)
                let cutWeight = min(title, Navigation.titleBytes + Navigation.ellipsis.utf8.count) + href
                cut.append(cut.last! + cutWeight)
                heaviestCut = max(heaviestCut, cutWeight)
            }
        }
    }

    /// The same, from pages already in navigation order (their position is
    /// their order).
    init(pages: [(output: String, title: String)], byteLimit: Int = Navigation.byteLimit) {
        self.init(pages: pages.enumerated().map { Listed(output: $1.output, title: $1.title, order: $0) }, byteLimit: byteLimit)
    }

    /// Natural order: runs of digits compare by value (`2` < `10`, `0002` <
    /// `0100`), the rest case-insensitively; -1, 0 or 1.
    static func naturalOrder(_ a: String, _ b: String) -> Int {
        naturalOrder(folded(a), a, folded(b), b)
    }

    /// A title as natural order compares it: lowercased, by its scalars.
    static func folded(_ title: String) -> [Unicode.Scalar] { Array(title.lowercased().unicodeScalars) }

    /// The same, of titles `a` and `b` already `folded` (`x` and `y`).
    static func naturalOrder(_ x: [Unicode.Scalar], _ a: String, _ y: [Unicode.Scalar], _ b: String) -> Int {
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
        /// When the page's own folder is shown in blocks of this many
        /// entries to stay under the byte limit (else 0: `blockSize`).
        var blockEntries = 0
    }

    /// A folder (or the top level) with more than `longFolder` entries shows
    /// one block of `blockSize` of them, the one on the current path, with
    /// an entry before and after it leading to the neighbouring blocks: what
    /// a page carries stays bounded however many pages a folder holds, and
    /// every page stays reachable.
    static let longFolder = 60, blockSize = 50

    /// The titles and links a page's navigation may show, in bytes (each
    /// entry's title, its link and the root before the link): six times
    /// the largest real documentation navigation measured (5.3 KiB, a page
    /// in a Hugo-docs-like tree; `NavigationTests`). Without it, folders
    /// each inside the last made navigation grow with pages × depth (40
    /// folders of 50 pages: 930 MB for the site).
    static let byteLimit = 32 << 10
    /// How many folders deep a page's navigation opens at most: below the
    /// depth a theme's partials may be rendered (a tree drawn by a partial
    /// that includes itself).
    static let maxDepth = 64
    /// A title longer than this is cut, once the navigation collapses.
    static let titleBytes = 1 << 10
    static let ellipsis = "…"

    /// The group of the page at `output`, its links relative to `root`: its
    /// folder open (a section page opens its own). A page the navigation
    /// does not list (an example page) opens its nearest listed folder.
    func group(of output: String, root: String) -> Group {
        var group: Group
        var position: Int?
        if let node = places[output] {
            if let folder = nodes[node].folder { return Group(root: root, folder: folder) }
            let folder = pageFolders[node] ?? OutputPaths.parent(of: output)
            let siblings = folder.isEmpty ? top : folders[folder].map { nodes[$0].children } ?? top
            position = siblings.firstIndex(of: node)
            let block = siblings.count > Self.longFolder ? (position ?? 0) / Self.blockSize : 0
            group = Group(root: root, folder: folder, block: block)
        } else {
            var folder = OutputPaths.parent(of: output)
            while !folder.isEmpty, folders[folder] == nil { folder = OutputPaths.parent(of: folder) }
            return Group(root: root, folder: folder)
        }
        // Past the byte limit with every folder between collapsed, the
        // page's own folder shows the block of entries around it that fits.
        guard !surelyFits(group, folder: folders[group.folder]) else { return group }
        let plan = plan(for: group)
        if plan.innerEntries > 0 {
            group.blockEntries = plan.innerEntries
            group.block = (position ?? 0) / plan.innerEntries
        }
        return group
    }

    /// One level a page's navigation shows: the top level's entries, or a
    /// folder's on the path to the page.
    private struct Level {
        /// The folder (nil: the top level) and its entries.
        var folder: Int?
        var children: [Int]
        /// The entry on the path (the next level's folder), if any.
        var onPath: Int?
        /// The entries shown: one block of `entries`.
        var window: Range<Int>
        var entries: Int
        /// Whether it shows only the entry on the path and a way to the rest.
        var collapsed = false
    }

    /// What a group's navigation shows: its levels, outermost first (the
    /// levels past `shown` are not opened), and whether titles are cut.
    private struct Plan {
        var levels: [Level]
        var shown: Int
        var cutTitles = false
        /// When the innermost level is shown in blocks by bytes: their size.
        var innerEntries = 0
    }

    /// A group's levels and how they are shown.
    ///
    /// Under `byteLimit` (and `maxDepth`), every level whole, long folders
    /// in blocks of `blockSize`. Past it, in turn until it fits: titles are
    /// cut to `titleBytes`; the folders between the top level and the
    /// page's own folder's parent collapse, farthest from the page first,
    /// each to the entry on the path and a "… N more" entry to a page in
    /// the folder; the page's own folder shows the block of entries around
    /// the page that fits, then its parent and the top level the block
    /// around the path (with ways to the blocks before and after: a
    /// folder's entries stay reachable from the pages in it and in its
    /// folders, so every page does when each folder has a page of its
    /// own); then the parent collapses too; last, the path is opened only
    /// as deep as fits. A group decides it all, so pages that share one
    /// share it.
    private func plan(for group: Group) -> Plan {
        // The folders on the path, outermost first (followed up from the
        // folder's node: a path's every prefix is a folder); past
        // `maxDepth` they are never opened.
        var path: [Int] = []
        let innermost = folders[group.folder]
        var folder = innermost
        while let node = folder {
            path.append(node)
            folder = parents[node]
        }
        path.reverse()
        // Whether the last level is the page's own folder (the path is not
        // cut by `maxDepth`).
        let ownFolderShown = path.count < Self.maxDepth
        var levels: [Level] = []
        for index in 0...min(path.count, Self.maxDepth - 1) {
            let folder: Int? = index == 0 ? nil : path[index - 1]
            let children = folder.map { nodes[$0].children } ?? top
            let onPath = index < path.count ? children.firstIndex(of: path[index]) : nil
            var (window, entries) = (children.indices, children.count)
            if group.blockEntries > 0, index == path.count {
                entries = group.blockEntries
                window = Self.window(block: group.block, of: entries, in: children.count)
            } else if children.count > Self.longFolder {
                entries = Self.blockSize
                window = Self.window(block: onPath.map { $0 / Self.blockSize } ?? group.block, of: entries, in: children.count)
            }
            levels.append(Level(folder: folder, children: children, onPath: onPath, window: window, entries: entries))
        }
        var plan = Plan(levels: levels, shown: levels.count)
        guard !surelyFits(group, folder: innermost) else { return plan }
        let root = group.root.utf8.count
        var weights = levels.map { weight(of: $0, root: root, cut: false) }
        var total = weights.reduce(0, +)
        let inner = levels.count - 1
        // A group whose own folder shows blocks by bytes was past the limit.
        let blocked = group.blockEntries > 0 && ownFolderShown
        guard total > byteLimit || blocked else { return plan }
        func update(_ index: Int) {
            let weight = weight(of: plan.levels[index], root: root, cut: true)
            total += weight - weights[index]
            weights[index] = weight
        }
        plan.cutTitles = true
        for index in levels.indices { update(index) }
        // The folders between, farthest first, but the page's own folder's
        // own (its parent) (when the page's own folder shows blocks by bytes,
        // they all are).
        let parent = ownFolderShown ? inner - 1 : inner
        for index in levels.indices.dropFirst() where index < parent {
            guard total > byteLimit || blocked else { break }
            plan.levels[index].collapsed = true
            update(index)
        }
        func heaviest(_ index: Int) -> Int { max(1, (self.weights[plan.levels[index].folder ?? -1]?.heaviestCut ?? 0) + root) }
        /// Shows the block of `entries` at `anchor` of level `index`.
        func window(_ index: Int, entries: Int, anchor: Int) {
            plan.levels[index].window = Self.window(block: anchor / entries, of: entries, in: plan.levels[index].children.count)
            plan.levels[index].entries = entries
            update(index)
        }
        // The page's own folder in blocks of what the collapsed path leaves
        // (at most half the limit) after the least of the levels above it
        // (one entry and a way before and after it each). The block size
        // depends on the folder and the root alone, never on which block,
        // so the pages of a folder share its blocks (and the memo's renders).
        var ownEntries = 0
        if ownFolderShown, total > byteLimit || blocked {
            let above = (0..<inner).reduce(0) { $0 + (plan.levels[$1].collapsed ? weights[$1] : 3 * heaviest($1)) }
            let room = min(byteLimit / 2, byteLimit - above) - 2 * heaviest(inner)
            ownEntries = blocked ? group.blockEntries : max(1, min(Self.blockSize, room / heaviest(inner)))
            window(inner, entries: ownEntries, anchor: group.block * (blocked ? ownEntries : Self.blockSize))
        }
        // Then its parent's and the top level's, each the block around the
        // path in what is left: a folder's entries are all reachable from
        // the pages in it, and from the pages of its folders (a block's
        // ways before and after may lead into a folder).
        for index in Set([parent, 0]).sorted(by: >) where index >= 0 && index < inner && !plan.levels[index].collapsed && total > byteLimit {
            let room = byteLimit - (total - weights[index]) - 2 * heaviest(index)
            window(index, entries: max(1, min(Self.blockSize, room / heaviest(index))), anchor: plan.levels[index].onPath ?? 0)
        }
        // Then the parent to the entry on the path.
        if parent > 0, parent < inner, total > byteLimit {
            plan.levels[parent].collapsed = true
            update(parent)
        }
        // Last, the path only as deep as fits.
        while plan.shown > 1, total > byteLimit {
            plan.shown -= 1
            total -= weights[plan.shown]
            if plan.shown > 1 {
                plan.levels[plan.shown - 1].collapsed = true
                update(plan.shown - 1)
            }
        }
        // Blocks of the page's own folder, if it is still shown.
        if plan.shown == levels.count { plan.innerEntries = ownEntries }
        return plan
    }

    /// The entries `block` of `entries` each shows of `count` (the last
    /// block when past it).
    private static func window(block: Int, of entries: Int, in count: Int) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let start = min(block * entries, (count - 1) / entries * entries)
        return start..<min(count, start + entries)
    }

    /// A level's titles and links as shown, in bytes.
    private func weight(of level: Level, root: Int, cut: Bool) -> Int {
        guard let weights = weights[level.folder ?? -1] else { return 0 }
        let sums = cut ? weights.cut : weights.whole
        func entry(_ index: Int) -> Int { sums[index + 1] - sums[index] + root }
        func more(_ title: String, _ href: Int) -> Int { title.utf8.count + href + root }
        if level.collapsed, let onPath = level.onPath {
            let hidden = level.children.count - 1
            return entry(onPath) + (hidden > 0 ? more(Self.moreTitle(hidden), level.folder.map { pageIn($0).utf8.count } ?? 0) : 0)
        }
        var total = sums[level.window.upperBound] - sums[level.window.lowerBound] + level.window.count * root
        if level.window.lowerBound > 0 {
            total += more("… \(level.window.lowerBound) earlier", nodes[level.children[max(0, level.window.lowerBound - level.entries)]].href.utf8.count)
        }
        if level.window.upperBound < level.children.count {
            total += more("… \(level.children.count - level.window.upperBound) later", nodes[level.children[level.window.upperBound]].href.utf8.count)
        }
        return total
    }

    static func moreTitle(_ count: Int) -> String { "… \(count) more" }

    /// Where a collapsed folder's "… N more" leads: a page in the folder
    /// itself, whose navigation shows the folder's entries (its section
    /// page, else its first page), else where its entry leads.
    private func pageIn(_ folder: Int) -> String {
        let href = nodes[folder].href
        if places[href] == folder { return href }
        return nodes[folder].children.first { nodes[$0].folder == nil }.map { nodes[$0].href } ?? href
    }

    /// One entry a group shows: a node, or a way to more of a long folder.
    private struct Shown {
        var node: Int?
        var depth: Int
        var more: (title: String, href: String)?
        /// Whether a long title is cut (the navigation is collapsed).
        var cutTitle = false
    }

    /// A group's visible entries in document order, with their depth.
    private func visible(in group: Group) -> [Shown] {
        let plan = plan(for: group)
        var result: [Shown] = []
        func walk(_ index: Int) {
            let level = plan.levels[index], depth = index + 1
            let opens = index + 1 < plan.shown
            if level.collapsed, let onPath = level.onPath {
                result.append(Shown(node: level.children[onPath], depth: depth))
                if opens { walk(index + 1) }
                let hidden = level.children.count - 1
                if hidden > 0 {
                    result.append(Shown(node: nil, depth: depth, more: (Self.moreTitle(hidden), level.folder.map(pageIn) ?? "")))
                }
                return
            }
            let range = level.window
            if range.lowerBound > 0 {
                let back = level.children[max(0, range.lowerBound - level.entries)]
                result.append(Shown(node: nil, depth: depth, more: ("… \(range.lowerBound) earlier", nodes[back].href)))
            }
            for position in range {
                result.append(Shown(node: level.children[position], depth: depth))
                if position == level.onPath, opens { walk(index + 1) }
            }
            if range.upperBound < level.children.count {
                result.append(Shown(node: nil, depth: depth,
                                    more: ("… \(level.children.count - range.upperBound) later", nodes[level.children[range.upperBound]].href)))
            }
        }
        walk(0)
        if plan.cutTitles {
            for index in result.indices { result[index].cutTitle = true }
        }
        return result
    }

    /// A title as a collapsed navigation shows it: past `titleBytes`, cut
    /// there (at a character's end) and ended with an ellipsis.
    static func cut(_ title: String) -> String {
        guard title.utf8.count > titleBytes + ellipsis.utf8.count else { return title }
        var end = title.utf8.index(title.utf8.startIndex, offsetBy: titleBytes)
        while end.samePosition(in: title) == nil { end = title.utf8.index(before: end) }
        return String(title[..<end]) + ellipsis
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
    /// `marked`: each item also answers `NavigationMemo.markKey` with the
    /// start of its parts' opening marker (`open`, its index and `.`).
    func items(in group: Group, marked: Bool = false, current: (Int) -> Bool) -> [NavItem] {
        let shown = visible(in: group)
        var items: [NavItem] = []
        items.reserveCapacity(shown.count)
        for (index, entry) in shown.enumerated() {
            let depth = entry.depth
            let next = index + 1 < shown.count ? shown[index + 1].depth : 1
            var item: NavItem
            if let node = entry.node {
                item = NavItem(title: entry.cutTitle ? Self.cut(nodes[node].title) : nodes[node].title, href: nodes[node].href, current: current(index))
                item.isFolder = nodes[node].folder != nil
            } else {
                item = NavItem(title: entry.more?.title ?? "", href: entry.more?.href ?? "", current: current(index))
            }
            item.root = group.root
            item.depth = depth
            item.expanded = next > depth
            item.closes = max(0, depth - next)
            item.mark = marked ? String(NavigationMemo.open) + String(index) + "." : nil
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
