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
    struct Entry: Encodable {
        /// Title, address (from the site's root), headings as [text, id], text.
        var t: String
        var u: String
        var h: [[String]]
        var x: String

        /// A page's entry: its `h2`–`h4` headings.
        init(output: String, title: String, document: Document) {
            // A page named `javascript:x.md` must still be read as a path.
            t = title
            u = RelativeURL.safe(output)
            h = document.headings.filter { (2...4).contains($0.level) }.map { [$0.text, $0.id] }
            x = document.text
        }
    }

    /// The index script of these entries, in address order.
    static func script(_ entries: [Entry]) -> [UInt8] {
        Array(("window.RowmotionSearchIndex = " + SafeJSON.encode(entries.sorted { $0.u < $1.u }) + ";\n").utf8)
    }
}
