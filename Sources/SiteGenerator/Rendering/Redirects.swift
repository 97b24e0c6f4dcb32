import Diagnostics
import Foundation
import ProjectFiles
import Reports

/// The pages `aliases` ask for: at each old address of a page, a small
/// page that sends readers (and search engines, by its canonical link) to
/// where the page is now, opened from disk or served.
enum Redirects {
    /// Output path → bytes; an alias that would leave the site, replace one
    /// of the site's own files or its marker, or name a hidden path (a folder
    /// or file whose name starts with `.`) is an error at the alias, and one
    /// that names a page or static file is a warning (the page wins, as in Hugo).
    /// Each redirect counts against `budget`, and at most `fileRoom` are
    /// made: a line of front matter makes a file, and a page's title is
    /// written into each of its redirects (past either, the rest are not
    /// made, and `budget` says why).
    /// Of `pages` (each page's source, output, title and
    /// aliases) in a site of `outputs`.
    static func redirects(pages: [(source: String, output: String, title: String, aliases: [FrontMatter.Alias])], outputs: Set<String>,
                          root: (String) -> String, budget: OutputBudget, fileRoom: Int, diagnostics: inout [Diagnostic]) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        var owners: [String: String] = [:]
        let folded = SiteInputs.folded(outputs)
        // Each page's source by its output, for an alias that names a page
        // (looked up, not searched for: a page may have thousands of aliases).
        var sources: [String: String] = [:]
        for page in pages where sources[page.output] == nil { sources[page.output] = page.source }
        // By path: of two pages that declare the same alias, the first by
        // path keeps it, whatever order the pages were listed in.
        for page in pages.sorted(by: { Paths.precedes($0.source, $1.source) }) {
            // Escaped once for all of the page's redirects.
            let title = page.aliases.isEmpty ? "" : HTMLText.escape(page.title)
            for alias in page.aliases {
                guard files.count < fileRoom, !budget.isPastLimit else {
                    if files.count >= fileRoom { budget.tooManyFiles() }
                    return files
                }
                guard let output = Redirects.aliasOutput(alias.path, of: page.output) else {
                    diagnostics.append(.error("alias", at: alias.location, "the alias '\(alias.path)' is not an address inside the site"))
                    continue
                }
                // The marker tells this site from any other folder: a redirect in its place
                // (`/.rowmotion-site` is a folder with an index.html) left the build unable to write it.
                if output.split(separator: "/").first == Substring(SiteFolder.marker) {
                    diagnostics.append(.error("alias", at: alias.location,
                                              "the alias '\(alias.path)' names \(SiteFolder.marker), the site's marker file; an alias may not name it"))
                    continue
                }
                // A hidden name (`.git`, `.htaccess`) is one servers keep to themselves or act on.
                if output.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                    diagnostics.append(.error("alias", at: alias.location,
                                              "the alias '\(alias.path)' names the hidden path \(output); an alias may not start a name with '.'"))
                    continue
                }
                // The theme's files are `assets/rowmotion.<hash>.css|js`; an
                // alias elsewhere under `assets/` (Hugo's docs have `/assets/`) replaces none.
                if output.hasPrefix(OutputPaths.changes + "/") || output.hasPrefix(OutputPaths.reviewFolder + "/") {
                    diagnostics.append(.error("alias", at: alias.location,
                                              "the alias '\(alias.path)' names \(output), where `--baseline` writes the review; an alias may not name it"))
                    continue
                }
                if output.hasPrefix("assets/rowmotion.") || output == OutputPaths.changes || output == OutputPaths.searchIndex {
                    diagnostics.append(.error("alias", at: alias.location,
                                              "the alias '\(alias.path)' would replace \(output), which the site already has"))
                    continue
                }
                // Inside a folder that is a file of the site (`/a.js/` beside `site/a.js`).
                if let slash = output.indices.first(where: { index in
                    output[index] == "/" && (folded[output[..<index].lowercased()] != nil || owners[String(output[..<index])] != nil)
                }) {
                    diagnostics.append(.error("alias", at: alias.location,
                                              "the alias '\(alias.path)' names \(output), inside \(output[..<slash]), which is a file of the site; "
                                                  + "a path cannot be both a file and a folder"))
                    continue
                }
                if outputs.contains(output) {
                    // Hugo keeps the page and drops the redirect: a page
                    // that took over an old address wins over the alias.
                    let owner = sources[output].map { "the page made from '\($0)'" } ?? "a file of the site"
                    diagnostics.append(.warning("alias", at: alias.location,
                                                "the alias '\(alias.path)' names \(output), which is \(owner); "
                                                    + "the page stays there and no redirect is written"))
                    continue
                }
                if let other = owners[output] {
                    // Hugo builds such a site (its own docs declare one alias
                    // twice): a warning naming both pages, the first keeping it.
                    diagnostics.append(.warning("alias", at: alias.location,
                                                "the alias '\(alias.path)' is also an alias of '\(other)', which comes first by path and keeps it; "
                                                    + "no redirect to this page is written there"))
                    continue
                }
                owners[output] = page.source
                let bytes = Array(Redirects.redirectPage(to: RelativeURL.safe(root(output) + page.output), escapedTitle: title).utf8)
                budget.take(bytes.count)
                files[output] = bytes
            }
        }
        return files
    }

    /// Where an alias lives in the site: `/old/` and `old` (no extension)
    /// are folders with an `index.html`; a relative alias is relative to the
    /// page's folder; nil for one that leaves the site.
    static func aliasOutput(_ alias: String, of pageOutput: String) -> String? {
        let path = String(alias.prefix { $0 != "?" && $0 != "#" })
        let folder = (pageOutput as NSString).deletingLastPathComponent
        let joined = path.hasPrefix("/") || folder.isEmpty ? path : folder + "/" + path
        // `.` and `..` resolved; climbing above the site's root leaves it.
        var parts: [Substring] = []
        for part in joined.split(separator: "/") where part != "." {
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        var output = parts.joined(separator: "/")
        guard !output.isEmpty else { return nil }
        if path.hasSuffix("/") || (output as NSString).pathExtension.isEmpty { output += "/index.html" }
        return SiteFolder.isSafe(output) ? output : nil
    }

    static func redirectPage(to url: String, escapedTitle title: String) -> String {
        let href = HTMLText.escape(url)
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(title)</title>
            <link rel="canonical" href="\(href)">
            <meta name="robots" content="noindex">
            <meta http-equiv="refresh" content="0; url=\(href)">
            </head>
            <body>
            <p>This page has moved to <a href="\(href)">\(title)</a>.</p>
            </body>
            </html>

            """
    }
}
