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

    /// The navigation of the page at `current`, its links relative to `root`.
    func items(current: String, root: String) -> [NavItem] {
        var items = entries
        let folder = current.split(separator: "/").count > 1 ? current.split(separator: "/")[0] : nil
        for index in items.indices { items[index].root = root }
        if let place = places[current] {
            if let page = place.page {
                var children = folderPages[place.entry] ?? []
                for index in children.indices { children[index].root = root }
                children[page].current = true
                items[place.entry].children = children
            } else {
                items[place.entry].current = true
            }
        } else if let folder, let entry = entries.firstIndex(where: { $0.href.hasPrefix(folder + "/") }) {
            // A page the navigation does not list (an example page): still
            // show its folder's pages.
            var children = folderPages[entry] ?? []
            for index in children.indices { children[index].root = root }
            items[entry].children = children
        }
        return items
    }
}

extension StringProtocol {
    var capitalizedFirstLetter: String { prefix(1).uppercased() + dropFirst() }
}
