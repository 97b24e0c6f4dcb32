import ProjectFiles
import Diagnostics
import Dispatch
import Foundation
import ListDiff
import SnapshotFormat

/// A page of `site/`, loaded: its front matter, its body parsed once, its title and address.
struct LoadedPage: Sendable {
    /// The Markdown file as diagnostics name it (`site/guide/a.md`), and its
    /// path under the site folder (`guide/a.md`).
    var source: String
    var path: String
    var output: String
    var title: String
    var frontMatter: FrontMatter
    /// A key of the front matter's text; nil without one.
    var frontMatterKey: String?
    var bodyLineOffset: Int
    var sourceKey: String
    /// The body, parsed once when first needed (its first `h1`, for a page
    /// without a title; its render): a page the cache gives is never parsed.
    var markdown: ParsedMarkdown
    /// The folder the page belongs to under `site/` (`guide` for
    /// `guide/a.md` and `guide/index.md`), whatever its output.
    var folder: String
    /// Whether it is its folder's own page (`guide/index.md`).
    var isSectionPage: Bool
}

/// Loading: the pages of `site/` (front matter, body, title).
enum SiteLoading {
    /// The file names that make a page its folder's own page (`guide/index.html`):
    /// Hugo's `_index.md`, `index.md`, and GitHub's `README.md`.
    static let sectionPageNames: Set<String> = ["_index.md", "index.md", "README.md", "readme.md"]

    /// Where the page at `path` (relative, `.md`) is written: `a/b.md` →
    /// `a/b.html` (`a/b/index.html` with pretty URLs), a section page
    /// `a/README.md` → `a/index.html`. Links to pages are rewritten the same way.
    static func outputPath(ofPage path: String, urls: URLStyle = .plain) -> String {
        if SiteLoading.isSectionPage(path) { return OutputPaths.parent(of: path).isEmpty ? "index.html" : OutputPaths.parent(of: path) + "/index.html" }
        return String(path.dropLast(3)) + (urls == .pretty ? "/index.html" : ".html")
    }

    /// Whether the page at `path` is its folder's own page (`guide/_index.md`).
    static func isSectionPage(_ path: String) -> Bool {
        let folderEnd = OutputPaths.lastSlash(in: path).map { path.index(after: $0) } ?? path.startIndex
        return sectionPageNames.contains(String(path[folderEnd...]))
    }

    /// One page of the site folder, at `path` under it, or nil with its error.
    static func loadPage(_ path: String, in site: InputFolder, urls: URLStyle, diagnostics: inout [Diagnostic]) -> LoadedPage? {
        let bytes: Result<[UInt8], FileContents.Failure>
        do throws(FileContents.Failure) { bytes = .success(try site.read(path, limit: SnapshotLimits.standard.fileBytes)) } catch { bytes = .failure(error) }
        return loadPage(path, bytes: bytes, in: site, urls: urls, diagnostics: &diagnostics)
    }

    /// The page at `path` from the bytes read of it (or why they could not be).
    static func loadPage(_ path: String, bytes read: Result<[UInt8], FileContents.Failure>, in site: InputFolder, urls: URLStyle,
                         diagnostics: inout [Diagnostic]) -> LoadedPage? {
        let file = site.path(of: path)
        let start = SourceLocation(file: file, line: 1, column: 1)
        let bytes: [UInt8]
        switch read {
        case .success(let read): bytes = read
        case .failure(let error):
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
        if let (toml, tomlBody, tomlOffset) = FrontMatter.splitTOML(text) {
            matter = FrontMatter.parsedTOML(toml, file: file, diagnostics: &diagnostics)
            (body, offset) = (tomlBody, tomlOffset)
        } else if let yaml {
            if let read = FrontMatter.read(yaml, file: file, diagnostics: &diagnostics) {
                matter = read
            } else {
                (body, offset) = (text, 0)
            }
        }
        // libcmark's time grows with the square of the brackets a block
        // leaves open: such a page is refused before it is parsed.
        if let line = CMarkInput.tooManyOpenBrackets(body) {
            diagnostics.append(.error("markdown-too-complex", at: SourceLocation(file: file, line: line + offset, column: 1),
                                      CMarkInput.message("page")))
            return nil
        }
        let markdown = ParsedMarkdown(body)
        let output = SiteLoading.outputPath(ofPage: path, urls: urls)
        // Without a title or an `h1`: the file's name, or a section page's folder's.
        let folder = OutputPaths.parent(of: path)
        // Worked out only when needed (most pages have a title).
        func name() -> String {
            SiteLoading.isSectionPage(path) && !folder.isEmpty
                ? String(folder.split(separator: "/").last ?? "").replacingOccurrences(of: "-", with: " ").capitalizedFirstLetter
                : ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        }
        let matterBytes = bytes.count - body.utf8.count
        return LoadedPage(source: file, path: path, output: output,
                    title: matter.title ?? markdown.firstH1 ?? name(), frontMatter: matter,
                    frontMatterKey: matterBytes > 0 ? Digest.sha256(bytes.prefix(matterBytes)) : nil, bodyLineOffset: offset,
                    sourceKey: Digest.sha256(bytes), markdown: markdown, folder: folder,
                    isSectionPage: SiteLoading.isSectionPage(path))
    }
}
