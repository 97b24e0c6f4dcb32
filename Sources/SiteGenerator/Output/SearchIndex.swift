import ProjectFiles
/// The site's search index, written at build time as a script
/// (`search-index.js` at the site's root, beside `index.html`: `assets/`
/// holds only the theme's content-hashed files, and a name that changed
/// with every page would change every page) so that search works from `file://`, where
/// nothing can be fetched: the default theme's script loads it the first
/// time the search box is used, and searches it in the page.
///
/// Each entry is the page's title, its headings with their ids (results
/// link to the section) and its text, from the page's `Document` (a cached
/// page's comes from the cache): never read back from the HTML. An
/// example's entry is its title, description and step labels.
enum SearchIndex {
    static let path = OutputPaths.searchIndex
    struct Entry: Sendable {
        /// Title, address (from the site's root), headings as [text, id], text.
        var t: String
        var u: String
        var h: [[String]]
        var x: String

        init(t: String, u: String, h: [[String]], x: String) { (self.t, self.u, self.h, self.x) = (t, u, h, x) }

        /// A page's entry: its `h2`–`h4` headings.
        init(output: String, title: String, document: Document) {
            // A page named `javascript:x.md` must still be read as a path.
            t = title
            u = RelativeURL.safe(output)
            h = document.headings.filter { (2...4).contains($0.level) }.map { [$0.text, $0.id] }
            x = document.text
        }
    }

    /// The index script of these entries, in address order: the JSON
    /// `SafeJSON.encode` gives (keys sorted: h, t, u, x), written directly.
    static func script(_ entries: [Entry]) -> [UInt8] {
        script(joining: Parallel.map(entries.sorted { $0.u < $1.u }) { json($0) })
    }

    /// One entry's JSON (kept by `serve` per page, and joined again after an edit).
    static func json(_ entry: Entry) -> [UInt8] {
        var json = JSONBytes(capacity: entry.x.utf8.count + entry.t.utf8.count + 64)
        json.object { fields in
            fields.member("h") { $0.array(entry.h) { json, heading in json.strings(heading) } }
            fields.member("t") { $0.string(entry.t) }
            fields.member("u") { $0.string(entry.u) }
            fields.member("x") { $0.string(entry.x) }
        }
        return json.bytes
    }

    /// The script of entries' JSON, in the order given (by address).
    static func script(joining entries: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.reduce(64) { $0 + $1.count + 1 })
        bytes += "window.RowmotionSearchIndex = [".utf8
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += entry
        }
        bytes += "];\n".utf8
        return bytes
    }
}
