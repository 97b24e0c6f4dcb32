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
    struct Entry: Encodable, Sendable {
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
    /// Written in runs of entries on every core, joined in order.
    static func script(_ entries: [Entry]) -> [UInt8] {
        let sorted = entries.sorted { $0.u < $1.u }
        let runLength = max(32, (sorted.count + 15) / 16)
        let runs = stride(from: 0, to: sorted.count, by: runLength).map { $0..<min($0 + runLength, sorted.count) }
        let written = Parallel.map(runs) { run -> [UInt8] in
            var json = JSONBytes(capacity: sorted[run].reduce(0) { $0 + $1.x.utf8.count + $1.t.utf8.count + 64 })
            for index in run {
                let entry = sorted[index]
                if index > 0 { json.raw(",") }
                json.object { fields in
                    fields.member("h") { $0.array(entry.h) { json, heading in json.strings(heading) } }
                    fields.member("t") { $0.string(entry.t) }
                    fields.member("u") { $0.string(entry.u) }
                    fields.member("x") { $0.string(entry.x) }
                }
            }
            return json.bytes
        }
        var json = JSONBytes(capacity: written.reduce(64) { $0 + $1.count })
        json.raw("window.RowmotionSearchIndex = [")
        for run in written { json.bytes.append(contentsOf: run) }
        json.raw("];\n")
        return json.bytes
    }
}
