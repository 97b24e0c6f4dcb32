import Diagnostics
import Foundation

/// How one page's links are read: the rules, as a value the renderer asks
/// about each address it meets (and a table of cases tests).
///
/// Links to pages of the site: `.md` becomes `.html`, and the target must
/// exist. Relative links are relative to the page's file, as on GitHub and
/// in MkDocs (with pretty URLs `guide/a.md` is written one folder deeper, as
/// `guide/a/index.html`); root-absolute ones (`/guide/a.md`) are rewritten
/// relative to the page, or under `--base-url`. The path is percent-decoded
/// to find the page; a `?query` and a `#fragment` are kept as written. A
/// folder's address is its index page (opened from disk too). A page's
/// address in the other form (`/a/b/` for `a/b.html`, `a/b.html` for
/// `a/b/index.html`, or `a/b` for either) leads to it, and an address in
/// another case (Hugo lowercases its addresses) to the file of that name,
/// rewritten in its own case. Images are files: their path is rewritten
/// alike and checked. Raw HTML's `src` and `href` are checked, never
/// rewritten. Addresses with a scheme, protocol-relative ones and empty
/// ones are left alone. Byte-level: a page has dozens of links, a site
/// thousands.
struct PageLinks {
    /// The page's Markdown file as diagnostics name it, its folder under
    /// the site folder, and its output.
    var source: String
    var folder: String
    var output: String
    var urls: URLStyle
    /// Whether the site has an output, and the output a lowercased path
    /// names (the first by bytes of those that fold to it).
    var exists: (String) -> Bool
    var foldedOutput: (String) -> String?
    /// The way from the page to the site's root (`../`, or the base URL).
    var root: String

    init(source: String, folder: String, output: String, urls: URLStyle, exists: @escaping (String) -> Bool,
         foldedOutput: @escaping (String) -> String?, root: String) {
        (self.source, self.folder, self.output, self.urls, self.root) = (source, folder, output, urls, root)
        (self.exists, self.foldedOutput) = (exists, foldedOutput)
    }

    /// Links against a set of every output, and the same by lowercased path.
    init(source: String, folder: String, output: String, urls: URLStyle, outputs: Set<String>, foldedOutputs: [String: String], root: String) {
        self.init(source: source, folder: folder, output: output, urls: urls, exists: { outputs.contains($0) }, foldedOutput: { foldedOutputs[$0] },
                  root: root)
    }

    /// What the page does with an address.
    struct Resolution: Equatable {
        /// What the page writes instead; nil to keep it as written.
        var rewritten: String?
        /// A warning: a target that is not in the site, raw HTML naming a
        /// page by its source.
        var problem: Diagnostic?
        /// A link to an element, checked once every page's ids are known.
        var fragment: FragmentLink?
    }

    func resolve(_ url: String, line: Int, column: Int, kind: LinkKind) -> Resolution {
        var resolution = Resolution()
        let bytes = url.utf8
        let rootAbsolute = bytes.first == UInt8(ascii: "/") && bytes.dropFirst().first != UInt8(ascii: "/")
        guard !bytes.isEmpty, !bytes.contains(UInt8(ascii: ":")), bytes.first != UInt8(ascii: "/") || rootAbsolute else { return resolution }
        let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let target = String(url[..<end])
        let rest = url[end...]
        let fragment = rest.utf8.firstIndex(of: UInt8(ascii: "#")).map { String(rest[rest.utf8.index(after: $0)...]) }
        var rewritten = kind == .image ? target
            : target.hasSuffix(".md") ? SiteLoading.outputPath(ofPage: target, urls: urls)
            : target.hasSuffix("/") ? target + "index.html" : target
        func resolve(_ written: String) -> (path: String, resolved: String) {
            let path = written.utf8.contains(UInt8(ascii: "%")) ? written.removingPercentEncoding ?? written : written
            return (path, path.isEmpty ? output : OutputPaths.normalize(rootAbsolute || folder.isEmpty ? path : folder + "/" + path))
        }
        var (path, resolved) = resolve(rewritten)
        if !path.isEmpty, kind != .image, !exists(resolved) {
            for other in Self.otherForms(of: rewritten) {
                let candidate = resolve(other)
                if exists(candidate.resolved) {
                    (rewritten, path, resolved) = (other, candidate.path, candidate.resolved)
                    break
                }
            }
        }
        var caseFixed: String?
        if !path.isEmpty, !exists(resolved) {
            for candidate in [rewritten] + (kind == .image ? [] : Self.otherForms(of: rewritten)) {
                if let actual = foldedOutput(resolve(candidate).resolved.lowercased()) {
                    (caseFixed, resolved) = (actual, actual)
                    rewritten = "/" + actual
                    break
                }
            }
        }
        let here = SourceLocation(file: source, line: max(line, 1), column: column)
        if !path.isEmpty, !exists(resolved), !resolved.hasPrefix("assets/") {
            let isPage = rewritten.hasSuffix(".html") || !(rewritten.split(separator: "/").last ?? "").contains(".")
            let message: String
            switch kind {
            case .image: message = "image '\(target)', which is not a file of the site"
            case .rawHTML: message = "raw HTML points to '\(target)', which is not " + (isPage ? "a page" : "a file") + " of the site"
            case .link: message = isPage ? "link to '\(target)', which no page of the site produces"
                                         : "link to '\(target)', which is not a file of the site"
            }
            resolution.problem = .warning(kind == .image ? "missing-image" : "broken-link", at: here, message)
        } else {
            if kind == .rawHTML, rewritten != target {
                // Raw HTML stays as written: `<a href="x.md">` would break in the site.
                resolution.problem = .warning("raw-html-link", at: here,
                                              "raw HTML links to '\(target)', which the site publishes as '\(rewritten)'; raw HTML is not "
                                                  + "rewritten: write '\(rewritten)' or a Markdown link")
            }
            if let fragment, !fragment.isEmpty, kind != .image {
                let decoded = fragment.utf8.contains(UInt8(ascii: "%")) ? fragment.removingPercentEncoding ?? fragment : fragment
                resolution.fragment = FragmentLink(page: resolved, fragment: decoded, line: line, column: column)
            }
        }
        if kind == .rawHTML || path.isEmpty { return resolution }
        if let caseFixed {
            resolution.rewritten = root + (caseFixed.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? caseFixed) + rest
        } else if rootAbsolute {
            // Only the path changes; the query and fragment stay as written.
            resolution.rewritten = root + String(rewritten.dropFirst()) + rest
        } else if OutputPaths.parent(of: output) != folder {
            // A page written as `a/b/index.html` from `a/b.md`: one folder deeper.
            resolution.rewritten = "../" + rewritten + rest
        } else if rewritten != target {
            resolution.rewritten = rewritten + rest
        }
        return resolution
    }

    /// The other ways of writing a page's address (`written` as a link
    /// has it, `.md` already rewritten): `a/b/index.html` ↔ `a/b.html`,
    /// and `a/b` (no extension) → either; tried in this order when the
    /// address as written is not an output.
    static func otherForms(of written: String) -> [String] {
        if written.hasSuffix("/index.html") {
            let folder = written.dropLast("/index.html".count)
            return folder.isEmpty || folder.hasSuffix("/") || folder.hasSuffix(".") ? [] : [folder + ".html"]
        }
        if written.hasSuffix(".html") { return [written.dropLast(".html".count) + "/index.html"] }
        let last = written.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        if last.isEmpty || last.contains(".") { return [] }
        return [written + "/index.html", written + ".html"]
    }

    /// Where a relative link of an example's description leads in the site,
    /// as a page's link would from the example's page (`guide.md` is the
    /// page's `.html`): the address to write and the output it names; nil
    /// for an address with a scheme, a fragment alone, or `//host`.
    static func descriptionLink(_ url: String, from page: String, urls: URLStyle) -> (rewritten: String, output: String)? {
        let bytes = url.utf8
        guard let first = bytes.first, first != UInt8(ascii: "#"), !bytes.contains(UInt8(ascii: ":")),
              !url.hasPrefix("//") else { return nil }
        let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let target = String(url[..<end]), rest = String(url[end...])
        let rewritten = target.hasSuffix(".md") ? SiteLoading.outputPath(ofPage: target, urls: urls)
            : target.hasSuffix("/") ? target + "index.html" : target
        let decoded = rewritten.removingPercentEncoding ?? rewritten
        let folder = OutputPaths.parent(of: page)
        let output = OutputPaths.normalize(decoded.hasPrefix("/") ? String(decoded.dropFirst()) : (folder.isEmpty ? decoded : folder + "/" + decoded))
        // Root-absolute addresses are written relative to the page (it is opened from disk).
        let written = decoded.hasPrefix("/") ? String(repeating: "../", count: OutputPaths.depth(of: page)) + String(rewritten.dropFirst()) : rewritten
        return (written + rest, output)
    }
}
