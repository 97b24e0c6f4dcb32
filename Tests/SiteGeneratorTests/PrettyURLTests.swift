import ProjectFiles
import Diagnostics
import Foundation
@testable import SiteGenerator
import Testing

/// A site written as Hugo's docs are: section pages named `_index.md`,
/// links root-absolute in the pretty form (`/configuration/all/`, which
/// Hugo and MkDocs serve for `configuration/all.md`), extensionless, with
/// fragments, and relative `.md` links as GitHub shows them; an alias that
/// names a page that exists.
let hugoLikeFiles: [(String, String)] = [
    ("site/_index.md", "---\ntitle: Docs\n---\n# Docs\n\nStart with [the quick start](/getting-started/quick-start/) or [all settings](/configuration/all/#build).\n"),
    ("site/getting-started/_index.md", "---\ntitle: Getting started\nweight: 1\n---\n# Getting started\n\n- [Quick start](quick-start.md)\n- [Usage](/getting-started/usage)\n"),
    ("site/getting-started/quick-start.md",
     "---\ntitle: Quick start\nweight: 1\naliases: [/quickstart/, /getting-started/usage/]\n---\n# Quick start\n\n"
         + "See [usage](usage.md#flags), [the settings](../configuration/all.md), [home](/) and [the section](/getting-started/).\n\n![diagram](/images/flow.svg)\n"),
    ("site/getting-started/usage.md", "---\ntitle: Usage\nweight: 2\n---\n# Usage\n\n## Flags\n\nBack to [the quick start](/getting-started/quick-start/#quick-start).\n"),
    ("site/configuration/_index.md", "---\ntitle: Configuration\nweight: 2\n---\n# Configuration\n\n[All settings](all.md), [introduction](/configuration/all.html).\n"),
    ("site/configuration/all.md", "---\ntitle: All settings\n---\n# All settings\n\n## Build\n\n[Up](/configuration/), [usage](/getting-started/usage/#flags).\n"),
    ("site/images/flow.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n"),
]

@Suite("Pretty URLs")
struct PrettyURLTests {
    static func build(_ urls: URLStyle, files: [(String, String)] = hugoLikeFiles) throws -> BuiltSite {
        let project = try FixtureProject(files: files)
        defer { project.remove() }
        var options = project.options
        options.urls = urls
        options.strict = true
        return SiteBuilder.build(options)
    }

    static func html(_ site: BuiltSite, _ output: String) -> String { String(decoding: site.files[output] ?? [], as: UTF8.self) }

    /// Every `href` and `src` of a page that is a path, resolved against
    /// the page's folder as a browser opening it from disk does, its query
    /// and fragment dropped.
    static func localAddresses(in html: String, of output: String) -> [(written: String, file: String)] {
        let folder = (output as NSString).deletingLastPathComponent
        var found: [(String, String)] = []
        let pattern = try! NSRegularExpression(pattern: #"\s(?:href|src)="([^"]*)""#)
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let written = String(html[Range(match.range(at: 1), in: html)!])
            guard !written.isEmpty, !written.hasPrefix("#"), !written.contains(":") else { continue }
            let path = String(written.prefix { $0 != "?" && $0 != "#" }).removingPercentEncoding ?? written
            found.append((written, OutputPaths.normalize(folder.isEmpty ? path : folder + "/" + path)))
        }
        return found
    }

    @Test func hugoLikeSite_withPrettyURLs_buildsStrictClean_eachPageInItsOwnFolder() throws {
        let site = try Self.build(.pretty)
        #expect(site.diagnostics.filter { $0.severity == .error }.isEmpty, "\(site.diagnostics.map(\.message))")
        let pages = site.files.keys.filter { $0.hasSuffix(".html") && !$0.hasPrefix("examples/") }.sorted()
        #expect(pages == ["configuration/all/index.html", "configuration/index.html", "getting-started/index.html",
                          "getting-started/quick-start/index.html", "getting-started/usage/index.html", "index.html",
                          "quickstart/index.html"], "\(pages)")
        // The alias naming a page is Hugo's warning, and the page is kept; the other alias redirects.
        let warnings = site.diagnostics.filter { $0.severity == .warning }.map(\.message)
        #expect(warnings == ["the alias '/getting-started/usage/' names getting-started/usage/index.html, which is the page made from '"
                             + site.pages.first { $0.output == "getting-started/usage/index.html" }!.source
                             + "'; the page stays there and no redirect is written"], "\(warnings)")
        #expect(Self.html(site, "getting-started/usage/index.html").contains("<h2 id=\"flags\">Flags</h2>"))
        #expect(Self.html(site, "quickstart/index.html").contains("url=../getting-started/quick-start/index.html"))
    }

    /// What the pages link to is written as files (`…/index.html`), so the
    /// site works opened from disk as well as served.
    @Test func everyLinkOfAPrettySite_namesAFileItHas_relativeToThePage() throws {
        let site = try Self.build(.pretty)
        var checked = 0
        for output in site.files.keys where output.hasSuffix(".html") {
            for (written, file) in Self.localAddresses(in: Self.html(site, output), of: output) {
                #expect(site.files[file] != nil, "\(output) links to \(written), which is not a file of the site (\(file))")
                checked += 1
            }
        }
        #expect(checked > 40, "\(checked)")
        let quickStart = Self.html(site, "getting-started/quick-start/index.html")
        #expect(quickStart.contains("<a href=\"../usage/index.html#flags\">usage</a>"), "\(quickStart)")
        #expect(quickStart.contains("<a href=\"../../configuration/all/index.html\">the settings</a>"))
        #expect(quickStart.contains("<a href=\"../../index.html\">home</a>") && quickStart.contains("<a href=\"../../getting-started/index.html\">the section</a>"))
        #expect(quickStart.contains("<img src=\"../../images/flow.svg\" alt=\"diagram\""))
        let home = Self.html(site, "index.html")
        #expect(home.contains("<a href=\"configuration/all/index.html#build\">all settings</a>"), "\(home)")
        // `/configuration/all.html`, the plain form, finds the page too.
        #expect(Self.html(site, "configuration/index.html").contains("<a href=\"../configuration/all/index.html\">introduction</a>"))
    }

    /// The same sources with plain URLs: the pretty-form links find the
    /// `.html` pages and are rewritten to them.
    @Test func hugoLikeSite_withPlainURLs_resolvesThePrettyFormToTheHTMLFiles() throws {
        let site = try Self.build(.plain)
        #expect(site.diagnostics.filter { $0.severity == .error }.isEmpty, "\(site.diagnostics.map(\.message))")
        #expect(site.files["configuration/all.html"] != nil && site.files["configuration/all/index.html"] == nil)
        for output in site.files.keys where output.hasSuffix(".html") {
            for (written, file) in Self.localAddresses(in: Self.html(site, output), of: output) {
                #expect(site.files[file] != nil, "\(output) links to \(written), which is not a file of the site (\(file))")
            }
        }
        #expect(Self.html(site, "index.html").contains("<a href=\"configuration/all.html#build\">all settings</a>"))
        #expect(Self.html(site, "getting-started/index.html").contains("<a href=\"../getting-started/usage.html\">Usage</a>"))
    }

    /// Checks still find what is broken in either form: a page that does
    /// not exist, a heading a page does not have.
    @Test func brokenLinksInThePrettyForm_areStillFound_atTheirPlace() throws {
        let site = try Self.build(.pretty, files: hugoLikeFiles + [
            ("site/broken.md", "# Broken\n\n[gone](/configuration/none/) and [no heading](/configuration/all/#nowhere) and [neither](/configuration/all)\n"),
        ])
        let found = site.diagnostics.filter { ($0.location.file as NSString).lastPathComponent == "broken.md" }
            .map { "\($0.location.line):\($0.location.column) \($0.message)" }
        #expect(found.contains("3:8 link to '/configuration/none/', which no page of the site produces"), "\(found)")
        #expect(found.contains { $0.hasPrefix("3:47 link to '#nowhere', which is not a heading or element id of ") }, "\(found)")
        #expect(found.count == 2, "\(found)")
        // The extensionless form found its page.
        #expect(Self.html(site, "broken/index.html").contains("<a href=\"../configuration/all/index.html\">neither</a>"))
    }

    /// Hugo lowercases its addresses (`/functions/fmt/errorf/` for
    /// `functions/fmt/Errorf.md`): such a link finds the file and is written
    /// in the file's own case, which a case-sensitive disk or server needs.
    @Test func aLinkInAnotherCase_findsTheFile_andIsWrittenInItsCase() throws {
        let site = try Self.build(.pretty, files: [
            ("site/index.md", "# Home\n\n[errorf](/functions/fmt/errorf/#usage), [raw](/Functions/FMT/Errorf.md)\n\n<a href=\"/functions/fmt/errorf/\">raw</a>\n"),
            ("site/functions/fmt/Errorf.md", "---\naliases: [/assets/]\n---\n# Errorf\n\n## Usage\n"),
        ])
        let messages = site.diagnostics.map(\.message)
        #expect(messages == ["raw HTML links to '/functions/fmt/errorf/', which the site publishes as '/functions/fmt/Errorf/index.html'; "
                             + "raw HTML is not rewritten: write '/functions/fmt/Errorf/index.html' or a Markdown link"], "\(messages)")
        let home = Self.html(site, "index.html")
        #expect(home.contains("<a href=\"functions/fmt/Errorf/index.html#usage\">errorf</a>"), "\(home)")
        #expect(home.contains("<a href=\"functions/fmt/Errorf/index.html\">raw</a>"))
        // An alias under assets/ that is no theme file is a redirect like any other.
        #expect(Self.html(site, "assets/index.html").contains("url=../functions/fmt/Errorf/index.html"))
    }

    /// With pretty URLs, `a.md` and `a/_index.md` would both be `a/index.html`.
    @Test func aPageAndItsFoldersOwnPage_withPrettyURLs_areOneAddress_anError() throws {
        let site = try Self.build(.pretty, files: [("site/index.md", "# Home\n"), ("site/a.md", "# A\n"), ("site/a/_index.md", "# A section\n")])
        let errors = site.diagnostics.filter { $0.severity == .error }.map(\.message)
        #expect(errors.count == 1 && errors[0].contains("are both the page of 'a/' (a/index.html)")
                && errors[0].contains("with pretty URLs, 'a.md' is 'a/index.html'"), "\(errors)")
    }

    /// The navigation lists pages by their files' folders, not by the
    /// folders pretty URLs write them into.
    @Test func navigationOfAPrettySite_isTheSameTreeAsAPlainOnes() throws {
        let pretty = try Self.build(.pretty), plain = try Self.build(.plain)
        /// Each entry as `title` (a section shows as `[title]`), `*` after the current one.
        func outline(_ html: String) -> [String] {
            let nav = html.components(separatedBy: "<ul class=\"site-nav-tree\">").dropFirst().first?.components(separatedBy: "</nav>").first ?? ""
            let entries = try! NSRegularExpression(pattern: #"<li( class="section")?><a href="[^"]*"( aria-current="page")?>([^<]*)</a>"#)
            return entries.matches(in: nav, range: NSRange(nav.startIndex..., in: nav)).map { match in
                let title = String(nav[Range(match.range(at: 3), in: nav)!])
                return (match.range(at: 1).location == NSNotFound ? title : "[\(title)]") + (match.range(at: 2).location == NSNotFound ? "" : "*")
            }
        }
        let prettyOutline = outline(Self.html(pretty, "getting-started/usage/index.html"))
        #expect(prettyOutline == outline(Self.html(plain, "getting-started/usage.html")))
        #expect(prettyOutline == ["[Getting started]", "Quick start", "Usage*", "[Configuration]"], "\(prettyOutline)")
    }
}
