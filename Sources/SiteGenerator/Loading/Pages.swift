import Diagnostics
import Dispatch
import Foundation
import ListDiff
import SnapshotFormat

/// Loading: the pages of `site/` (front matter, body, title) and the examples they show.
extension SiteBuilder {
    struct Page: Sendable {
        var source: String
        var output: String
        var title: String
        var frontMatter: FrontMatter
        var body: String
        var bodyLineOffset: Int
        var sourceKey: String
        /// The body parsed once: its first `h1` is read here, and it is rendered later.
        var markdown: ParsedMarkdown
        /// Whether the Markdown has a level-1 heading of its own (else the
        /// theme shows the front matter's title as the heading).
        var hasH1: Bool
    }

    static func loadPages(_ options: BuildOptions, diagnostics: inout [Diagnostic]) -> [Page] {
        let manager = FileManager.default
        guard manager.fileExists(atPath: options.site) else { return [] }
        let relative = FolderWalk.paths(under: options.site).filter { $0.hasSuffix(".md") }
        // Read on every core; each page's result lands in its own slot, and
        // pages and diagnostics are gathered in path order.
        let loaded = ResultSlots<(page: Page?, diagnostics: [Diagnostic])>(count: relative.count)
        let realSite = Paths.real(options.site)
        DispatchQueue.concurrentPerform(iterations: relative.count) { index in
            var found: [Diagnostic] = []
            let page = loadPage(relative[index], site: options.site, realSite: realSite, diagnostics: &found)
            loaded[index] = (page, found)
        }
        var pages: [Page] = []
        for result in loaded.values {
            diagnostics.append(contentsOf: result.diagnostics)
            if let page = result.page { pages.append(page) }
        }
        return pages
    }

    /// One page of `site`, at `path` under it, or nil with its error.
    static func loadPage(_ path: String, site: String, realSite: String, diagnostics: inout [Diagnostic]) -> Page? {
        let file = (site as NSString).appendingPathComponent(path)
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard Paths.isInside(file, realFolder: realSite) else {
            diagnostics.append(InputFolders.outside(file, folder: site))
            return nil
        }
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(file, limit: SnapshotLimits.standard.fileBytes)
        } catch {
            diagnostics.append(.error("unreadable-file", at: start, error.message))
            return nil
        }
        if let offset = SnapshotReader.firstInvalidUTF8Offset(bytes) {
            diagnostics.append(.error("invalid-utf8", at: SnapshotReader.location(ofOffset: offset, in: bytes, file: file),
                                      "the page is not valid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))"))
            return nil
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // A first `---` that never closes, or closes something that is not
        // a mapping, is a thematic break: the page is all Markdown.
        var (yaml, body, offset) = FrontMatter.split(text) ?? (nil, text, 0)
        var matter = FrontMatter()
        if let yaml {
            if let read = FrontMatter.read(yaml, file: file, diagnostics: &diagnostics) {
                matter = read
            } else {
                (body, offset) = (text, 0)
            }
        }
        let markdown = ParsedMarkdown(body)
        let heading = markdown.firstH1
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return Page(source: file, output: String(path.dropLast(3)) + ".html",
                    title: matter.title ?? heading ?? name, frontMatter: matter, body: body, bodyLineOffset: offset,
                    sourceKey: BuildCache.key([text]), markdown: markdown, hasH1: heading != nil)
    }

    /// An example, read and diffed.
    struct Example: Sendable {
        var name: String
        var sequence: SnapshotSequence
        var changesets: [Changeset<String, Record<String>>]
        /// A hash of the file's text, for the build cache.
        var sourceKey = ""
    }
}
