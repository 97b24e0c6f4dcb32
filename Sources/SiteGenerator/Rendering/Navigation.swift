/// The site's navigation, worked out once per build: the top-level pages
/// and one entry per folder (linking to its first page). Each page gets it
/// with the pages of its own folder listed under that folder's entry, so
/// every page is reachable and a page's size does not grow with the whole
/// site.
struct Navigation: Sendable {
    /// Top-level pages and folder entries, in page order.
    private var entries: [NavItem] = []
    /// Each folder's pages, by the folder's index in `entries`.
    private var folderPages: [Int: [NavItem]] = [:]
    /// Where each output is: its entry, and its place among its folder's pages.
    private var places: [String: (entry: Int, page: Int?)] = [:]

    /// - Parameter pages: outputs (`guide.html`, `scenarios/messenger.html`)
    ///   and titles, in navigation order.
    init(pages: [(output: String, title: String)]) {
        var folderEntry: [Substring: Int] = [:]
        for page in pages {
            let parts = page.output.split(separator: "/")
            guard parts.count > 1 else {
                places[page.output] = (entries.count, nil)
                entries.append(NavItem(title: page.title, href: page.output, current: false))
                continue
            }
            let entry: Int
            if let known = folderEntry[parts[0]] {
                entry = known
            } else {
                entry = entries.count
                folderEntry[parts[0]] = entry
                entries.append(NavItem(title: parts[0].replacingOccurrences(of: "-", with: " ").capitalizedFirstLetter,
                                       href: page.output, current: false))
            }
            places[page.output] = (entry, folderPages[entry, default: []].count)
            folderPages[entry, default: []].append(NavItem(title: page.title, href: page.output, current: false))
        }
    }

    /// What a page's navigation shows besides which item is current: the
    /// links' root, and the folder entry whose pages are listed.
    struct Group: Hashable, Sendable {
        var root: String
        var expanded: Int?
    }

    /// The group of the page at `output`, its links relative to `root`.
    func group(of output: String, root: String) -> Group {
        if let place = places[output] { return Group(root: root, expanded: place.page == nil ? nil : place.entry) }
        // A page the navigation does not list (an example page): still
        // show its folder's pages.
        let parts = output.split(separator: "/")
        guard parts.count > 1, let entry = entries.firstIndex(where: { $0.href.hasPrefix(parts[0] + "/") }) else {
            return Group(root: root, expanded: nil)
        }
        return Group(root: root, expanded: entry)
    }

    /// The items a group's navigation has: the entries, then the listed pages.
    func itemCount(in group: Group) -> Int {
        entries.count + (group.expanded.map { folderPages[$0]?.count ?? 0 } ?? 0)
    }

    /// The index (as `items(in:current:)` counts) of the page at `output`
    /// in its group, nil if the navigation does not list it.
    func itemIndex(of output: String, in group: Group) -> Int? {
        guard let place = places[output] else { return nil }
        if let page = place.page { return place.entry == group.expanded ? entries.count + page : nil }
        return place.entry
    }

    /// A group's navigation, with the items at the indexes `current` picks
    /// marked current (entries first, then the listed pages).
    /// `marked`: each item also answers `NavigationMemo.markKey` with its index.
    func items(in group: Group, marked: Bool = false, current: (Int) -> Bool) -> [NavItem] {
        func mark(_ index: Int) -> String? {
            marked ? String(NavigationMemo.open) + String(index) + String(NavigationMemo.owned) : nil
        }
        var items = entries
        for index in items.indices {
            items[index].root = group.root
            items[index].current = current(index)
            items[index].mark = mark(index)
        }
        if let entry = group.expanded {
            var children = folderPages[entry] ?? []
            for index in children.indices {
                children[index].root = group.root
                children[index].current = current(entries.count + index)
                children[index].mark = mark(entries.count + index)
            }
            items[entry].children = children
        }
        return items
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
