import ProjectFiles
import Reports
import Diagnostics
import SnapshotFormat
import Foundation
import SeededRandom
@testable import SiteGenerator
import Testing

/// A small project on disk: pages, examples, written in a given order.
struct FixtureProject {
    let root: URL

    init(files: [(String, String)]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-site-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    var options: BuildOptions {
        var options = BuildOptions()
        options.site = root.appendingPathComponent("site").path
        options.examples = root.appendingPathComponent("examples").path
        options.templates = root.appendingPathComponent("templates").path
        options.out = root.appendingPathComponent("_site").path
        return options
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    /// The error loading the project's theme fails with, its paths from the
    /// project's root (`templates/…`); nil when the theme loads.
    func themeLoadError() -> String? {
        let folder = root.appendingPathComponent("templates").path
        do {
            _ = try Theme.load(projectTemplates: folder)
            return nil
        } catch {
            return error.description.replacingOccurrences(of: folder, with: "templates")
        }
    }
}

let sampleFiles: [(String, String)] = [
    ("site/index.md", "---\ntitle: Home\n---\n# Home\n\n```rowmotion\nexample: list.yml\n```\n"),
    ("site/guide/intro.md", "---\ntitle: Intro\norder: 2\n---\n# Intro\n\nSee [home](../index.md).\n\n```rowmotion\nsteps:\n  - items: [a, b]\n  - items: [b, a]\n```\n"),
    ("site/zeta.md", "---\norder: 1\n---\n# Zeta page\n"),
    ("examples/list.yml", "title: A list\ndescription: Rows move.\nsteps:\n  - items: [a, b, c]\n  - items: [c, a, b]\n"),
    ("examples/more/second.yml", "title: Second\ndescription: Another.\nsteps:\n  - items: [x]\n  - items: [x, y]\n"),
]

@Suite("Site builder")
struct SiteBuilderTests {
    /// The same inputs give the same bytes, whatever order the files were
    /// created in (and so whatever order the disk lists them).
    @Test func build_isDeterministic_acrossFileCreationOrders() throws {
        var random = SeededGenerator(seed: 11)
        var outputs: [[String: [UInt8]]] = []
        for _ in 0..<3 {
            let project = try FixtureProject(files: sampleFiles.shuffled(using: &random))
            defer { project.remove() }
            let site = SiteBuilder.build(project.options)
            #expect(!site.hasErrors, "\(site.diagnostics)")
            outputs.append(site.files)
        }
        #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
        #expect(outputs[0].keys.sorted().filter { !$0.hasPrefix("assets/") }
            == ["examples/list.html", "examples/list.svg", "examples/more/second.html", "examples/more/second.svg",
                "guide/intro.html", "index.html", "search-index.js", "zeta.html"])
    }

    @Test func writtenSite_isByteIdenticalToTheBuild_andRebuildsInPlace() throws {
        let project = try FixtureProject(files: sampleFiles)
        defer { project.remove() }
        let first = SiteBuilder.buildAndWrite(project.options)
        #expect(first.written != nil)
        for (path, bytes) in first.site.files {
            #expect(FileManager.default.contents(atPath: project.root.appendingPathComponent("_site/\(path)").path) == Data(bytes))
        }
        let second = SiteBuilder.buildAndWrite(project.options)
        #expect(second.written?.written == 0)
        #expect(second.written?.reused == first.site.files.count)
    }

    /// Top-level pages and folders everywhere; a folder's pages only inside it.
    @Test func navigation_listsTheCurrentFoldersPages() throws {
        let project = try FixtureProject(files: sampleFiles + [("site/guide/more.md", "---\ntitle: More\norder: 3\n---\n# More\n")])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let inside = String(decoding: site.files["guide/intro.html"] ?? [], as: UTF8.self)
        let outside = String(decoding: site.files["zeta.html"] ?? [], as: UTF8.self)
        #expect(inside.contains("<a href=\"../guide/more.html\">More</a>"))
        #expect(inside.contains("<a href=\"../guide/intro.html\" aria-current=\"page\">Intro</a>"))
        #expect(outside.contains("<a href=\"guide/intro.html\">Guide</a>"))
        #expect(!outside.contains("guide/more.html"))
    }

    @Test func navigation_isOrderedByOrderThenTitle_andLinksAreRelative() throws {
        let project = try FixtureProject(files: sampleFiles)
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let intro = String(decoding: site.files["guide/intro.html"] ?? [], as: UTF8.self)
        let zeta = try #require(intro.range(of: "Zeta page"))
        let introLink = try #require(intro.range(of: ">Guide<"))
        #expect(zeta.lowerBound < introLink.lowerBound)
        #expect(intro.contains("href=\"../assets/rowmotion."))
        #expect(intro.contains("<a href=\"../index.html\">home</a>"))
        #expect(intro.contains("data-rowmotion-player=\"inline\""))
    }

    /// Row text reaches the page as text: inside the JSON data it cannot end
    /// the script, and in the static list it cannot become markup.
    @Test func hostileRowText_staysInert() throws {
        let hostile = "</script><script>alert(1)</script><!-- \"><img src=x onerror=alert(2)> \u{2028}"
        let escapedForYAML = hostile.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\u{2028}", with: "\\u2028")
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n\n```rowmotion\nexample: evil.yml\n```\n"),
            ("examples/evil.yml", "title: \"\(escapedForYAML)\"\ndescription: x\nsteps:\n  - items: [{id: a, title: \"\(escapedForYAML)\"}]\n  - items: [{id: a, title: \"changed \(escapedForYAML)\"}]\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        #expect(!site.hasErrors, "\(site.diagnostics)")
        for path in ["index.html", "examples/evil.html"] {
            let html = String(decoding: site.files[path] ?? [], as: UTF8.self)
            #expect(!html.contains("<script>alert"), "\(path)")
            #expect(!html.contains("<img src=x"), "\(path)")
            #expect(!html.contains("<!-- \""), "\(path)")
            #expect(!html.contains("\u{2028}") || !html.contains("rowmotion-data\">\u{2028}"), "\(path)")
            // Exactly the theme's scripts: the JSON data block and the player script.
            #expect(html.components(separatedBy: "<script").count - 1 == 2, "\(path)")
            #expect(html.contains("\\u003C/script\\u003E"), "\(path)")
        }
    }

    /// A quote followed by a combining mark is one Character; escaping by
    /// characters let it through and it closed the attribute it was in.
    @Test func quoteWithACombiningMark_isEscapedInAttributes() throws {
        #expect(ByteHTMLEscaping.escape("plain text, é") == "plain text, é")
        #expect(ByteHTMLEscaping.escape("a\"\u{301} onmouseover='x' <b>&") == "a&quot;\u{301} onmouseover=&#39;x&#39; &lt;b&gt;&amp;")
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n"),
            ("site/trap.md", "---\ntitle: \"Trap\\\"\u{301} onfocus=alert(1) x=\\\"\"\n---\n# Trap\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        #expect(!site.hasErrors, "\(site.diagnostics)")
        let html = String(decoding: site.files["index.html"] ?? [], as: UTF8.self)
        #expect(html.contains(">Trap&quot;\u{301} onfocus=alert(1) x=&quot;</a>"))
        let unescaped = "\"\u{301} onfocus"
        #expect(!html.contains(unescaped))
    }

    /// Issue 13, item 2: the same trap in a section id, a row id and a field
    /// name, which the player's settled HTML writes into `data-section-id`,
    /// `data-item-id` and `data-field` (`HTMLText.escape` compared whole
    /// characters and let the quote through: `autofocus onfocus` ran).
    @Test func quoteWithACombiningMark_inSectionRowAndFieldNames_staysInItsAttribute() throws {
        let sample = "s\"\u{301} autofocus", escapedSample = "s&quot;\u{301} autofocus"
        #expect(HTMLText.escape(sample) == escapedSample)
        let trap = "\\\"\u{301} autofocus tabindex=0 onfocus=alert(document.domain) x='\u{301}\\\""
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n\n```rowmotion\nexample: trap.yml\n```\n"),
            ("examples/trap.yml", """
                title: Trap
                description: x
                steps:
                  - sections:
                      - id: "s\(trap)"
                        items: [{id: "r\(trap)", "f\(trap)": one}]
                  - sections:
                      - id: "s\(trap)"
                        items: [{id: "r\(trap)", "f\(trap)": two}]
                """),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        #expect(!site.hasErrors, "\(site.diagnostics)")
        for path in ["index.html", "examples/trap.html"] {
            let html = String(decoding: site.files[path] ?? [], as: UTF8.self)
            for attribute in ["data-section-id=\"s", "data-item-id=\"r", "data-field=\"f"] {
                let escaped = attribute + "&quot;\u{301} autofocus"
                #expect(html.contains(escaped), "\(path): \(attribute)")
            }
            // Outside the JSON data, where a quote is written \" and inert.
            var markup = ""
            var rest = Substring(html)
            while let start = rest.range(of: "class=\"rowmotion-data\">"),
                  let end = rest.range(of: "</script>", range: start.upperBound..<rest.endIndex) {
                markup += rest[..<start.upperBound]
                rest = rest[end.lowerBound...]
            }
            markup += rest
            let unescaped = "\"\u{301} autofocus"
            #expect(!markup.contains(unescaped), "\(path)")
        }
    }

    /// Issue 13, item 1, through a build: the example page of a sequence
    /// whose description carries script has no script of the description's.
    @Test func exampleDescription_cannotRunScript() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n\n```rowmotion\nexample: evil.yml\n```\n"),
            ("examples/evil.yml", """
                title: Evil
                description: "<img src=x onerror=alert(1)>\\n\\n<script>alert(2)</script>\\n\\n[c](javascript:alert(3))"
                steps:
                  - items: [a]
                  - items: [a, b]
                """),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        #expect(!site.hasErrors, "\(site.diagnostics)")
        let html = String(decoding: site.files["examples/evil.html"] ?? [], as: UTF8.self)
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("javascript:"))
    }

    /// Issue 13, item 3: an example or a page whose file name starts like a
    /// scheme is linked as a path (`./javascript:…`), never as a scheme.
    @Test func fileNamesThatLookLikeSchemes_areLinkedAsPaths() throws {
        #expect(RelativeURL.safe("javascript:__x.push(1).svg") == "./javascript:__x.push(1).svg")
        #expect(RelativeURL.safe("../javascript:x.html") == "../javascript:x.html")
        #expect(RelativeURL.safe("plain.svg") == "plain.svg")
        // A combining mark on the colon makes it another character for
        // Swift, not for a browser, which still reads the scheme there.
        #expect(RelativeURL.safe("javascript:\u{301}x.html") == "./javascript:\u{301}x.html")
        #expect(RelativeURL.safe("a\u{301}/javascript:x.html") == "a\u{301}/javascript:x.html")
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n\n```rowmotion\nexample: \"javascript:__x.push(1).json\"\n```\n"),
            ("site/javascript:alert(1).md", "# Trap page\n"),
            ("examples/javascript:__x.push(1).json", "{\"title\": \"Trap\", \"description\": \"x\", \"steps\": [{\"items\": [\"a\"]}, {\"items\": [\"b\"]}]}"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        #expect(!site.hasErrors, "\(site.diagnostics)")
        #expect(site.files.keys.contains("examples/javascript:__x.push(1).svg"))
        for (path, bytes) in site.files where path.hasSuffix(".html") {
            let html = String(decoding: bytes, as: UTF8.self)
            #expect(!html.contains("href=\"javascript:"), "\(path)")
        }
        let example = String(decoding: site.files["examples/javascript:__x.push(1).html"] ?? [], as: UTF8.self)
        #expect(example.contains("href=\"./javascript:__x.push(1).svg\""))
    }

    /// A page whose name starts with a combining mark (or a folder after a
    /// prepended mark) is in the folder the file system says: Swift's text
    /// joins the mark to the slash before it into one character, and
    /// splitting by characters put the page one folder up for its links
    /// while the writer put it in its folder.
    @Test func pageNamesThatStartWithAMark_areInTheFolderTheFileSystemSays() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n\n[Accent](guide/\u{301}accent.md)\n"),
            ("site/guide/\u{301}accent.md", "# Accent\n\n[Home](../index.md) and [next](next.md).\n"),
            ("site/guide/next.md", "# Next\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        #expect(site.diagnostics.map(\.description) == [])
        let page = String(decoding: site.files["guide/\u{301}accent.html"] ?? [], as: UTF8.self)
        #expect(page.contains("href=\"../index.html\""), "\(page.prefix(300))")
        #expect(page.contains("href=\"next.html\""))
        // Its chrome is one folder down, as its file is.
        #expect(page.contains("href=\"../assets/"))
    }

    /// References outside examples/ are refused; a link in examples/ is
    /// no input at all (refused where the inputs are listed).
    @Test func demoBlock_referencesOutsideExamples_areErrors() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n\n```rowmotion\nexample: ../../etc/passwd\n```\n\n```rowmotion\nexample: /etc/passwd\n```\n\n"
                + "```rowmotion\nexample: ./real.yml\n```\n\n```rowmotion\nexample: reel.yml\n```\n"),
            ("examples/real.yml", "title: R\ndescription: d\nsteps:\n  - items: [a]\n  - items: [b]\n"),
            ("secret.yml", "title: S\nsteps:\n  - items: [a]\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let messages = site.diagnostics.filter { $0.severity == .error }.map { "\($0.location.line): \($0.message)" }
        #expect(messages == ["4: '../../etc/passwd' must be a path inside examples/, without '..'",
                             "8: '/etc/passwd' must be a path inside examples/, without '..'",
                             "16: no example 'reel.yml' in examples/; did you mean 'real.yml'?"])
        try FileManager.default.createSymbolicLink(atPath: project.root.appendingPathComponent("examples/link.yml").path,
                                                   withDestinationPath: project.root.appendingPathComponent("secret.yml").path)
        let linked = SiteBuilder.build(project.options)
        #expect(linked.diagnostics.map(\.description) == ["\(project.root.path)/examples/link.yml:1:1: error: this file is a symbolic link; "
                                                           + "a build reads only regular files (commit the file itself, not a link to it)"])
    }

    @Test func errorsInPages_areLocatedInTheMarkdownFile() throws {
        let project = try FixtureProject(files: [
            ("site/page.md", "---\ntitle: P\nordr: 1\n---\n# P\n\n```rowmotion\nexample: nope.yml\nspeed: 2\n```\n"),
            ("examples/real.yml", "title: R\ndescription: d\nsteps:\n  - items: [a]\n  - items: [b]\n"),
        ])
        defer { project.remove() }
        let page = project.root.appendingPathComponent("site/page.md").path
        let site = SiteBuilder.build(project.options)
        let errors = site.diagnostics.filter { $0.severity == .error }.map(\.description)
        // A likely typo of a known key is a warning; the key is kept for templates.
        #expect(site.diagnostics.map(\.description).contains(
            "\(page):3:1: warning: unknown front matter key 'ordr' (kept as params.ordr); did you mean 'order'?"))
        #expect(errors.contains("\(page):9:1: error: unknown key 'speed' in a rowmotion block; valid keys: example, step, autoplay, animation, compare, cell, height, width, style"))
        #expect(errors.contains("\(page):8:10: error: no example 'nope.yml' in examples/"))
    }

    @Test func frontMatterSyntaxErrors_nameLinesOfTheMarkdownFile_inTheMessageToo() throws {
        let project = try FixtureProject(files: [("site/page.md", "---\ntitle: [unclosed\n---\n# P\n")])
        defer { project.remove() }
        let page = project.root.appendingPathComponent("site/page.md").path
        let errors = SiteBuilder.build(project.options).diagnostics.map(\.description)
        #expect(errors == ["\(page):3:1: error: did not find expected ',' or ']' (while parsing a flow sequence that starts at 2:8)"])
    }

    /// An example no page embeds is still shown where the theme's home page
    /// lists every example (the default theme's gallery links its page):
    /// recorded examples built under --strict failed on "no page shows this
    /// example" (issue 45, item 11). A theme whose home page has no gallery
    /// still warns.
    @Test func anExampleTheGalleryShows_isShown_andOnlyAThemeWithoutOneWarns() throws {
        let files = [("site/index.md", "# Home\n"),
                     ("examples/recorded.json", #"{"title": "Recorded", "steps": [{"items": ["a"]}, {"items": ["a", "b"]}]}"#)]
        let project = try FixtureProject(files: files)
        defer { project.remove() }
        var options = project.options
        options.strict = true
        let result = SiteBuilder.buildAndWrite(options)
        #expect(result.site.diagnostics.isEmpty, "\(result.site.diagnostics)")
        #expect(result.written != nil)
        let index = try String(contentsOfFile: options.out + "/index.html", encoding: .utf8)
        #expect(index.contains("href=\"examples/recorded.html\""), "the gallery links the example's page")
        let plain = try FixtureProject(files: files + [("templates/index.mustache", "<!doctype html>\n<title>{{title}}</title>\n{{{content}}}\n")])
        defer { plain.remove() }
        let warned = SiteBuilder.build(plain.options).diagnostics
        #expect(warned.map(\.id) == ["unreferenced-example"], "\(warned)")
    }

    @Test func strictBuild_withWarnings_writesNothing() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n\n[gone](gone.md)\n"),
            ("examples/real.yml", "title: R\ndescription: d\nsteps:\n  - items: [a]\n  - items: [b]\n"),
        ])
        defer { project.remove() }
        var options = project.options
        options.strict = true
        let result = SiteBuilder.buildAndWrite(options)
        #expect(result.written == nil)
        #expect(!FileManager.default.fileExists(atPath: options.out))
        #expect(Set(result.site.diagnostics.map(\.id)) == ["broken-link"])
    }

    /// A link's warning points at its address: the same address twice on
    /// a line, in a table cell, after front matter, in a list.
    @Test func linkWarnings_pointAtTheAddressItself() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n"),
            ("site/a.md", "---\ntitle: A\n---\n# A\n\nTwice: [x](gone.md) and [y](gone.md).\n\n| col | link |\n| --- | --- |\n| 1 | see [z](missing.md) |\n\n- item\n  - [deep](nope/) here\n"),
        ])
        defer { project.remove() }
        let file = project.root.appendingPathComponent("site/a.md").path
        let places = SiteBuilder.build(project.options).diagnostics.filter { $0.id == "broken-link" }
            .map { "\($0.location.file == file ? "a.md" : $0.location.file):\($0.location.line):\($0.location.column)" }
        #expect(places == ["a.md:6:12", "a.md:6:29", "a.md:10:15", "a.md:13:12"])
    }

    @Test func linksWithinAPage_mustNameOneOfItsHeadings() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n\n## Move hints\n\nSee [hints](#move-hints) and\n[the rules](#move-hint).\n"),
        ])
        defer { project.remove() }
        let page = project.root.appendingPathComponent("site/index.md").path
        let warnings = SiteBuilder.build(project.options).diagnostics.map(\.description)
        #expect(warnings == ["\(page):6:13: warning: link to '#move-hint', which is not a heading or element id of this page; did you mean 'move-hints'?"])
    }

    /// The site's limit of bytes: a build whose pages, example pages and
    /// filmstrips fit is the same build as without it, one byte less fails
    /// with the one error at the folder whose outputs passed it, and nothing
    /// is written (the error is the same on every run, whatever the threads).
    @Test func siteByteLimit_failsTheBuildExactlyPastIt() throws {
        let project = try FixtureProject(files: sampleFiles)
        defer { project.remove() }
        let free = SiteBuilder.build(project.options)
        #expect(!free.hasErrors)
        let counted = free.files.filter { $0.key.hasSuffix(".html") && $0.key != "index.html" || $0.key.hasSuffix(".svg") }
        let pages = counted.filter { !$0.key.hasPrefix("examples/") }.values.reduce(0) { $0 + $1.count }
        let total = counted.values.reduce(0) { $0 + $1.count }
        var options = project.options
        options.siteByteLimit = total
        let fits = SiteBuilder.build(options)
        #expect(fits.files == free.files && fits.diagnostics == free.diagnostics)
        for (limit, folder) in [(total - 1, options.examples), (pages - 1, options.site)] {
            options.siteByteLimit = limit
            for _ in 0..<3 {
                let result = SiteBuilder.buildAndWrite(options)
                #expect(result.written == nil)
                #expect(result.site.diagnostics.map(\.description)
                            == ["\(folder):1:1: error: the site's pages, example pages, filmstrips and redirects pass \(ByteCount.describe(Int64(limit))); "
                                + "a site is limited to \(ByteCount.describe(Int64(limit)))"])
                #expect(!FileManager.default.fileExists(atPath: options.out))
            }
        }
    }

    /// The review page (`--baseline`) counts against the site's limit as
    /// every page does (an outside attack on issue 43 wrote a review of
    /// empty table cells past it): a site that fits alone fails with the
    /// review, and nothing is written.
    @Test func aReview_countsAgainstTheSitesLimit() throws {
        let project = try FixtureProject(files: sampleFiles)
        defer { project.remove() }
        let changed = try FixtureProject(files: sampleFiles.map { path, text in (path, path == "examples/list.yml" ? text + "duration: 2\n" : text) })
        defer { changed.remove() }
        let baseline = Baseline(name: "main", report: SiteBuilder.build(changed.options).report)
        var options = project.options
        let alone = SiteBuilder.build(options)
        #expect(!alone.hasErrors)
        let counted = alone.files.filter { $0.key.hasSuffix(".html") && $0.key != "index.html" || $0.key.hasSuffix(".svg") }
        options.siteByteLimit = counted.values.reduce(0) { $0 + $1.count }
        #expect(!SiteBuilder.build(options).hasErrors, "the site alone fits")
        options.baseline = baseline
        let result = SiteBuilder.buildAndWrite(options)
        #expect(result.written == nil)
        #expect(result.site.diagnostics.contains { $0.description.contains("error: the site's pages") }, "\(result.site.diagnostics)")
        #expect(!FileManager.default.fileExists(atPath: options.out))
    }

    @Test func siteLimit_is64TimesTheInputAnd64MiB_underTheLimitGiven() {
        #expect(OutputLimits.siteBytes(forInput: 0) == 64 << 20)
        #expect(OutputLimits.siteBytes(forInput: 10_000_000) == 640_000_000 + (64 << 20))
        #expect(OutputLimits.siteBytes(forInput: 20_000_000) == 1 << 30)
        #expect(OutputLimits.siteBytes(forInput: .max) == 1 << 30)
        #expect(OutputLimits.siteBytes(forInput: 1_000, atMost: 5_000) == 5_000)
    }

    /// A site may make 64 times its input and 64 MiB (under 1 GiB): three
    /// 100 KB pages through a template that writes the content 600 times
    /// are 180 MB (before: built and written, every page under its limit).
    @Test func siteOutput_isLimitedToAMultipleOfItsInput() throws {
        let content = String(repeating: "Some words of a page.\n", count: 4_545)
        let project = try FixtureProject(files: (0..<3).map { ("site/p\($0).md", "# P\($0)\n\n" + content) }
            + [("templates/page.mustache", String(repeating: "{{{content}}}\n", count: 600) + "{{title}}\n")])
        defer { project.remove() }
        let input = (0..<3).reduce(0) { $0 + "# P\($1)\n\n".utf8.count + content.utf8.count } + 600 * 14 + 10
        let limit = ByteCount.describe(Int64(64 * input + (64 << 20)))
        let result = SiteBuilder.buildAndWrite(project.options)
        #expect(result.written == nil)
        #expect(result.site.diagnostics.map(\.description) == [
            "\(project.options.site):1:1: error: the site's pages, example pages, filmstrips and redirects pass \(limit); a site is limited to "
                + "64 times its input (\(ByteCount.describe(Int64(input)))) and 64 MiB"])
    }

    /// Every page of a fixture site, byte for byte. `ROWMOTION_RECORD=1
    /// swift test` rewrites the expected pages (review the diff).
    @Test func goldenSite_pagesMatchByteForByte() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/golden-site")
        var options = BuildOptions()
        options.site = fixture.appendingPathComponent("site").path
        options.examples = fixture.appendingPathComponent("examples").path
        options.templates = fixture.appendingPathComponent("no-templates").path
        let site = SiteBuilder.build(options)
        #expect(site.diagnostics.isEmpty, "\(site.diagnostics)")
        // Pages and filmstrips.
        let pages = site.files.filter { $0.key.hasSuffix(".html") || $0.key.hasSuffix(".svg") }
        let expected = fixture.appendingPathComponent("expected")
        if ProcessInfo.processInfo.environment["ROWMOTION_RECORD"] == "1" {
            try? FileManager.default.removeItem(at: expected)
            for (path, bytes) in pages {
                let url = expected.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: url)
            }
            return
        }
        let recorded = (FileManager.default.enumerator(atPath: expected.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".html") || $0.hasSuffix(".svg") }
        #expect(Set(recorded) == Set(pages.keys))
        // Asset names carry the theme's content hash, which every theme edit
        // changes; the golden pages pin everything else.
        func withoutAssetHashes(_ text: String) -> String {
            text.replacing(#/rowmotion\.[0-9a-f]{16}\./#) { _ in "rowmotion.HASH." }
        }
        for (path, bytes) in pages {
            let golden = FileManager.default.contents(atPath: expected.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
            #expect(golden.map(withoutAssetHashes) == withoutAssetHashes(String(decoding: bytes, as: UTF8.self)),
                    "\(path) differs from its golden copy")
        }
    }

    /// Asset names are the FNV-1a hash of their bytes, and pages link them.
    @Test func assetNames_areTheirContentHash() throws {
        let project = try FixtureProject(files: sampleFiles)
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let assets = site.files.keys.filter { $0.hasPrefix("assets/") }.sorted()
        #expect(assets.count == 2)
        for asset in assets {
            let text = String(decoding: site.files[asset] ?? [], as: UTF8.self)
            let name = (asset as NSString).lastPathComponent
            #expect(name == "rowmotion.\(ThemeAssets.contentHash(text)).\((name as NSString).pathExtension)")
            #expect(String(decoding: site.files["zeta.html"] ?? [], as: UTF8.self).contains(asset))
        }
    }

    @Test func baseURL_makesLinksAbsoluteUnderIt() throws {
        let project = try FixtureProject(files: sampleFiles)
        defer { project.remove() }
        var options = project.options
        options.baseURL = "/docs"
        let intro = String(decoding: SiteBuilder.build(options).files["guide/intro.html"] ?? [], as: UTF8.self)
        #expect(intro.contains("href=\"/docs/assets/rowmotion."))
        #expect(intro.contains("href=\"/docs/index.html\""))
    }

    @Test func drafts_areSkipped_unlessAskedFor() throws {
        let project = try FixtureProject(files: sampleFiles + [("site/wip.md", "---\ntitle: WIP\ndraft: true\n---\n# WIP\n")])
        defer { project.remove() }
        #expect(SiteBuilder.build(project.options).files["wip.html"] == nil)
        var options = project.options
        options.drafts = true
        let site = SiteBuilder.build(options)
        #expect(site.files["wip.html"] != nil)
        #expect(String(decoding: site.files["zeta.html"] ?? [], as: UTF8.self).contains(">WIP</a>"))
    }

    // MARK: Incremental builds

    func cachedOptions(_ project: FixtureProject) -> BuildOptions {
        var options = project.options
        options.cache = project.root.appendingPathComponent(".build/site.cache").path
        return options
    }

    func edit(_ project: FixtureProject, _ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: project.root.appendingPathComponent(path))
    }

    @Test func incrementalRebuild_isByteIdenticalToACleanBuild() throws {
        let project = try FixtureProject(files: sampleFiles)
        defer { project.remove() }
        let options = cachedOptions(project)
        #expect(SiteBuilder.buildAndWrite(options).written != nil)
        try edit(project, "site/zeta.md", "---\norder: 1\n---\n# Zeta page\n\nEdited.\n")
        try edit(project, "examples/more/second.yml", "title: Second\ndescription: Edited.\nsteps:\n  - items: [x]\n  - items: [y, x]\n")
        let incremental = SiteBuilder.buildAndWrite(options)
        #expect(incremental.site.cachedCount >= 2, "intro and list.html are unchanged")
        var clean = project.options
        clean.out = project.root.appendingPathComponent("_clean").path
        let fresh = SiteBuilder.buildAndWrite(clean)
        #expect(incremental.site.files == fresh.site.files)
        for (path, bytes) in fresh.site.files {
            #expect(FileManager.default.contents(atPath: project.root.appendingPathComponent("_site/\(path)").path) == Data(bytes), "\(path)")
        }
    }

    /// Page by page (the whole-build shortcut off, as `serve` builds).
    @Test func noChangeRebuild_reusesEverything_andWritesNothing() throws {
        let project = try FixtureProject(files: sampleFiles)
        defer { project.remove() }
        var options = cachedOptions(project)
        options.allowShortcut = false
        let first = SiteBuilder.buildAndWrite(options)
        let second = SiteBuilder.buildAndWrite(options)
        #expect(second.site.unchanged)
        #expect(second.written?.written == 0)
        #expect(second.site.files == first.site.files)
        #expect(second.site.cachedCount == first.site.files.keys.filter { $0.hasSuffix(".html") }.count)
    }

    /// With no diagnostics and no input changed, a rebuild parses nothing;
    /// the next edit still gives exactly a clean build's output.
    @Test func unchangedInputs_skipTheWholeBuild_andEditsStillRebuild() throws {
        let files = sampleFiles.filter { $0.0 != "examples/more/second.yml" }
        let project = try FixtureProject(files: files)
        defer { project.remove() }
        let options = cachedOptions(project)
        let first = SiteBuilder.buildAndWrite(options)
        #expect(first.site.diagnostics.isEmpty, "\(first.site.diagnostics)")
        let second = SiteBuilder.buildAndWrite(options)
        #expect(second.site.unchanged && second.site.files.isEmpty, "the shortcut parses and renders nothing")
        #expect(second.written?.written == 0)
        #expect(second.site.pageCount == first.site.pageCount)
        try edit(project, "site/zeta.md", "---\norder: 1\n---\n# Zeta page\n\nEdited after a shortcut.\n")
        let third = SiteBuilder.buildAndWrite(options)
        #expect(!third.site.unchanged)
        var clean = project.options
        clean.out = project.root.appendingPathComponent("_clean").path
        #expect(third.site.files == SiteBuilder.build(clean).files)
        #expect(String(decoding: FileManager.default.contents(atPath: project.root.appendingPathComponent("_site/zeta.html").path) ?? Data(),
                       as: UTF8.self).contains("Edited after a shortcut."))
    }

    @Test func templateChange_rebuildsEverythingThatUsesIt() throws {
        let project = try FixtureProject(files: sampleFiles)
        defer { project.remove() }
        let options = cachedOptions(project)
        _ = SiteBuilder.buildAndWrite(options)
        try FileManager.default.createDirectory(at: project.root.appendingPathComponent("templates"), withIntermediateDirectories: true)
        try edit(project, "templates/nav.mustache", "<nav>{{#nav}}<a href=\"{{root}}{{href}}\">{{title}}</a>{{/nav}}</nav>\n")
        let rebuilt = SiteBuilder.buildAndWrite(options)
        #expect(rebuilt.site.cachedCount == 0)
        #expect(String(decoding: rebuilt.site.files["zeta.html"] ?? [], as: UTF8.self).contains("<nav><a href="))
    }

    /// Any id counts — raw HTML's in the Markdown, an example page's steps —
    /// and a step the example does not have is reported with its neighbours.
    @Test func linksToElementIDs_ofRawHTMLAndExamplePages_areChecked() throws {
        let project = try FixtureProject(files: sampleFiles + [
            ("site/links.md", "# Links\n\n<a id=\"legacy\"></a>\n\n[here](#legacy), [step 1](examples/list.html#step-1),\n[step 9](examples/list.html#step-9)\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let links = project.root.appendingPathComponent("site/links.md").path
        let example = project.root.appendingPathComponent("examples/list.yml").path
        let warnings = site.diagnostics.filter { $0.id == "broken-link" }.map(\.description)
        #expect(warnings.count == 1)
        // The steps it has, where edit distance would offer 'step-0'.
        #expect(warnings.first == "\(links):6:10: warning: link to '#step-9', which is not a heading or element id of \(example); its steps are step-0 to step-1")
    }

    /// An example page's calls are coloured as every Swift block is, a
    /// line per call, in the spans the player's script marks on hover
    /// (issue 30, item 7: they were plain text beside coloured pages).
    @Test func examplePageCalls_areColouredSwift_aLinePerCall() throws {
        let project = try FixtureProject(files: sampleFiles)
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let html = String(decoding: site.files["examples/list.html"] ?? [], as: UTF8.self)
        let start = try #require(html.range(of: "<pre class=\"swift-calls\"><code data-lines>"))
        let end = try #require(html.range(of: "</code></pre>", range: start.upperBound..<html.endIndex))
        let calls = String(html[start.upperBound..<end.lowerBound])
        #expect(calls.hasPrefix("<span class=\"call-line\">"))
        #expect(calls.contains("<span class=\"hl-type\">IndexPath</span>"))
        #expect(calls.contains("<span class=\"hl-number\">0</span>"))
        // One span per call, and the text is the calls' own text.
        let lines = calls.components(separatedBy: "<span class=\"call-line\">").dropFirst()
        #expect(lines.count == 1, "list.yml's one step moves c to the front: one call")
        let text = calls.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        #expect(text == "tableView.moveRow(at: IndexPath(row: 2, section: 0), to: IndexPath(row: 0, section: 0))")
    }

    /// A theme's page template may read `nav` itself besides including the
    /// memoized partial: the items are there when it asks.
    @Test func aPageTemplateReadingNavItself_getsTheItems_besidesTheMemoizedPartial() throws {
        let project = try FixtureProject(files: sampleFiles + [
            ("templates/page.mustache", "<!doctype html><title>{{title}}</title>{{> nav}}<ol>{{#nav}}<li>{{title}}{{#children}}<li{{#current}} class=\"here\"{{/current}}>{{title}}</li>{{/children}}</li>{{/nav}}</ol>{{{content}}}\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        #expect(!site.hasErrors, "\(site.diagnostics)")
        let html = String(decoding: site.files["guide/intro.html"] ?? [], as: UTF8.self)
        #expect(html.contains("<ol><li>Zeta page</li><li>Guide<li class=\"here\">Intro</li></li></ol>"), "\(html)")
    }

    /// A page's title is its first real `h1` as plain text — setext or
    /// ATX, never a `#` line in code, an HTML comment or a nested block —
    /// and a front matter title becomes the heading when the Markdown has
    /// none, never a second one.
    @Test func titles_comeFromTheFirstRealH1_andTheFrontMatterTitleIsShownWhenThereIsNone() throws {
        let project = try FixtureProject(files: sampleFiles + [
            ("site/code-first.md", "```sh\n# not a title\n```\n\n<!--\n# nor this\n-->\n\n> # nor this\n\nThe `version` *field*\n=====\n\nText.\n"),
            ("site/named.md", "---\ntitle: Named in front matter\n---\nNo heading here.\n"),
            ("site/both.md", "---\ntitle: Front title\n---\n# Markdown title\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        func html(_ output: String) -> String { String(decoding: site.files[output] ?? [], as: UTF8.self) }
        #expect(site.pages.first { $0.output == "code-first.html" }?.title == "The version field")
        #expect(html("code-first.html").contains("<title>The version field"), "\(html("code-first.html"))")
        #expect(html("named.html").contains("<h1>Named in front matter</h1>"))
        #expect(html("both.html").components(separatedBy: "<h1").count - 1 == 1)
        #expect(!html("code-first.html").contains("<h1>The version field</h1>"), "its own h1 is the heading")
    }

    /// Front matter as real sites write it: other keys kept for templates
    /// (a warning only for a near miss of a known key), `weight` ordering
    /// like `order`, `linkTitle` naming the navigation entry, `aliases`
    /// writing redirect pages, comment-only front matter, and a first `---`
    /// that opens no mapping read as Markdown.
    @Test func frontMatter_asRealSitesWriteIt() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n"),
            ("site/b.md", "---\ntitle: Bee\nweight: 1\nlinkTitle: B short\nkeywords: [x, y]\ncategories: docs\nparams: {color: red}\naliases: [/old/b/, b-old.html]\n---\n# Bee\n"),
            ("site/a.md", "---\ntitle: Ay\nweight: 2\ntitel: typo\n---\n# Ay\n"),
            ("site/comments.md", "---\n# only a comment\n---\n# Comments\n"),
            ("site/rule.md", "---\n\nText after a thematic break.\n"),
            ("site/setext.md", "---\nFoo\n---\n\nBar.\n"),
            ("templates/page.mustache", "<title>{{title}}</title>{{> nav}}<i>{{#params.keywords}}{{.}};{{/params.keywords}}{{params.categories}}{{params.params.color}}</i>{{{content}}}\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        #expect(!site.hasErrors, "\(site.diagnostics)")
        #expect(site.diagnostics.map(\.message) == ["unknown front matter key 'titel' (kept as params.titel); did you mean 'title'?"])
        func html(_ output: String) -> String { String(decoding: site.files[output] ?? [], as: UTF8.self) }
        #expect(html("b.html").contains("<i>x;y;docsred</i>"), "\(html("b.html"))")
        // weight orders the navigation, linkTitle names the entry.
        let page = html("a.html")
        let navStart = page.range(of: "<nav")
        #expect(navStart != nil)
        let nav = page[(navStart?.lowerBound ?? page.startIndex)...]
        let (b, a) = (try #require(nav.range(of: ">B short<")), try #require(nav.range(of: ">Ay<")))
        #expect(b.lowerBound < a.lowerBound)
        #expect(html("old/b/index.html").contains("url=../../b.html"), "\(site.files.keys.sorted())")
        #expect(html("b-old.html").contains("<link rel=\"canonical\" href=\"b.html\">"))
        #expect(html("comments.html").contains("<h1 id=\"comments\">Comments</h1>"))
        #expect(html("rule.html").contains("<hr />") && html("rule.html").contains("Text after a thematic break."))
        #expect(html("setext.html").contains("<hr />") && html("setext.html").contains("Foo</h2>"), "\(html("setext.html"))")
    }

    /// Section pages: a folder's `_index.md`, `index.md` or `README.md` is
    /// its `index.html`, its navigation entry (listed once) and where links
    /// to the folder or to that file go; a root `README.md` is the home page.
    /// What `serve` prints after an edit: the pages it rendered again, not
    /// the page count less everything reused (which said 0 before).
    @Test func aRebuildAfterOneEdit_countsTheOnePageItRendered() throws {
        let project = try FixtureProject(files: sampleFiles)
        defer { project.remove() }
        let options = cachedOptions(project)
        let first = SiteBuilder.buildAndWrite(options)
        #expect(first.site.renderedCount == first.site.files.keys.filter { $0.hasSuffix(".html") }.count)
        try edit(project, "site/zeta.md", "---\norder: 1\n---\n# Zeta page\n\nEdited.\n")
        let second = SiteBuilder.buildAndWrite(options)
        #expect(second.site.renderedCount == 1, "\(second.site.renderedCount) rendered, \(second.site.cachedCount) reused")
        #expect(second.site.cachedCount == first.site.renderedCount - 1)
    }

    @Test func sectionPages_areTheirFoldersPage_andTheRootOneIsHome() throws {
        let project = try FixtureProject(files: [
            ("site/README.md", "# Handbook\n\nSee [the guide](guide/) and [its readme](guide/README.md) and [hugo](hugo/_index.md#setup).\n"),
            ("site/guide/README.md", "---\ntitle: The guide\n---\nIntro.\n"),
            ("site/guide/usage.md", "# Usage\n\n[Up](README.md) [Home](../README.md)\n"),
            ("site/hugo/_index.md", "# Hugo section\n\n## Setup\n"),
            ("site/hugo/deep/er/page.md", "# Deep page\n\n[Section](/hugo/) [Home](/)\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        #expect(site.diagnostics.isEmpty, "\(site.diagnostics)")
        let outputs = Set(site.files.keys.filter { $0.hasSuffix(".html") })
        #expect(outputs == ["index.html", "guide/index.html", "guide/usage.html", "hugo/index.html", "hugo/deep/er/page.html"], "\(outputs.sorted())")
        func html(_ output: String) -> String { String(decoding: site.files[output] ?? [], as: UTF8.self) }
        #expect(html("index.html").contains("Handbook"), "the root README is the home page")
        #expect(html("index.html").contains("href=\"guide/index.html\""))
        #expect(html("index.html").contains("href=\"hugo/index.html#setup\""))
        #expect(html("guide/usage.html").contains("href=\"index.html\">Up") && html("guide/usage.html").contains("href=\"../index.html\">Home"))
        #expect(html("guide/index.html").contains("<h1>The guide</h1>"), "the front matter title is the heading")
        // The guide's entry is its page, listed once, current on it.
        let nav = html("guide/index.html")
        #expect(nav.components(separatedBy: "href=\"../guide/index.html\"").count - 1 == 1, "\(nav)")
        #expect(nav.contains("<a href=\"../guide/index.html\" aria-current=\"page\">The guide</a>"))
        // Four deep: every folder on the path open, the page current.
        let deep = html("hugo/deep/er/page.html")
        #expect(deep.contains("<a href=\"../../../hugo/index.html\">Hugo section</a>"), "\(deep)")
        #expect(deep.contains(">Deep</a>") && deep.contains(">Er</a>"))
        #expect(deep.contains("<a href=\"../../../hugo/deep/er/page.html\" aria-current=\"page\">Deep page</a>"))
    }

    @Test func twoSectionPagesInOneFolder_areAnErrorNamingBoth() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n"),
            ("site/guide/README.md", "# Readme\n"),
            ("site/guide/index.md", "# Index\n"),
        ])
        defer { project.remove() }
        let errors = SiteBuilder.build(project.options).diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.message.hasSuffix("are both the page of 'guide/' (guide/index.html); keep one of them") == true, "\(errors)")
        #expect(errors.first?.location.file.hasSuffix("guide/index.md") == true, "the second in path order")
    }

    /// TOML front matter (`+++`, Hugo's other format) reads like YAML's:
    /// known keys, params for templates, problems at the key's line.
    @Test func tomlFrontMatter_readsLikeYAML_withProblemsAtTheirLine() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n"),
            ("site/a.md", "+++\ntitle = \"Ay from TOML\"\nweight = 1\ndate = 2024-05-01\ntags = [\"x\", \"y\"]\n[params]\ncolor = \"red\"\n+++\nBody of A.\n"),
            ("site/b.md", "+++\ntitle = \"B\"\n  order = \"first\"\n+++\n# B\n"),
            ("site/c.md", "+++\ntitle = \"C\"\ntitle = \"again\"\n+++\n# C\n"),
            ("templates/page.mustache", "<title>{{title}}</title><i>{{#params.tags}}{{.}};{{/params.tags}}{{params.date}} {{params.params.color}}</i>{{{content}}}\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let messages = site.diagnostics.map { "\(($0.location.file as NSString).lastPathComponent):\($0.location.line):\($0.location.column) \($0.message)" }
        #expect(messages.contains("b.md:3:3 the page's 'order' must be a whole number, not a string"), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("c.md:3:") && $0.contains("TOML front matter") }, "\(messages)")
        #expect(messages.count == 2, "\(messages)")
        func html(_ output: String) -> String { String(decoding: site.files[output] ?? [], as: UTF8.self) }
        #expect(html("a.html").contains("<title>Ay from TOML</title><i>x;y;2024-05-01 red</i>"), "\(html("a.html"))")
        #expect(html("a.html").contains("<p>Body of A.</p>") && !html("a.html").contains("+++"))
    }

    @Test func aliases_thatLeaveTheSiteOrReplaceItsOwnFiles_areErrors_andOneNamingAPage_aWarningThatKeepsThePage() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n"),
            ("site/a.md", "---\naliases: [../../etc/x, index.html, /shared/, assets/rowmotion.js]\n---\n# A\n"),
            ("site/b.md", "---\naliases:\n  - shared\n---\n# B\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let messages = site.diagnostics.map { "\($0.severity == .error ? "error" : "warning") \($0.location.line):\($0.location.column) \($0.message)" }
        #expect(messages.contains("error 2:11 the alias '../../etc/x' is not an address inside the site"), "\(messages)")
        #expect(messages.contains("error 2:46 the alias 'assets/rowmotion.js' would replace assets/rowmotion.js, which the site already has"), "\(messages)")
        // Two pages declaring one alias (Hugo's own docs do, and Hugo builds
        // them): a warning naming both, the first page by path keeping it.
        #expect(messages.contains { $0.hasPrefix("warning 3:5 the alias 'shared' is also an alias of '") && $0.contains("a.md', which comes first by path and keeps it") },
                "\(messages)")
        #expect(String(decoding: site.files["shared/index.html"] ?? [], as: UTF8.self).contains("a.html"))
        // Hugo's behaviour: the page keeps its address, the alias is dropped with a warning.
        #expect(messages.contains { $0.hasPrefix("warning 2:24 the alias 'index.html' names index.html, which is the page made from '")
                && $0.hasSuffix("index.md'; the page stays there and no redirect is written") }, "\(messages)")
        #expect(String(decoding: site.files["index.html"] ?? [], as: UTF8.self).contains("<h1 id=\"home\">Home</h1>"))
    }

    /// Links as real docs write them: percent-encoded names, a `?query`,
    /// root-absolute paths (rewritten relative to the page, or under
    /// --base-url) and folder addresses (their index page), all checked.
    @Test func links_percentEncodedQueriedRootAbsoluteAndFolders_resolveAndAreChecked() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n"),
            ("site/my page.md", "# My page\n\n## Part\n"),
            ("site/guide/index.md", "# Guide\n"),
            ("site/guide/deep/a.md", """
                # A

                [enc](../../my%20page.md#part) [query](../../my%20page.md?tab=2) [abs](/guide/index.md)
                [root](/) [folder](/guide/) [rel folder](../) [gone](/nope.md) [gone too](../missing/)
                """),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let html = String(decoding: site.files["guide/deep/a.html"] ?? [], as: UTF8.self)
        for href in ["../../my%20page.html#part", "../../my%20page.html?tab=2", "../../guide/index.html", "../../index.html",
                     "../../guide/index.html", "../index.html"] {
            #expect(html.contains("href=\"\(href)\""), "\(href) in \(html)")
        }
        #expect(site.diagnostics.filter { $0.id == "broken-link" }.map(\.message)
                == ["link to '/nope.md', which no page of the site produces", "link to '../missing/', which no page of the site produces"])
        var served = project.options
        served.baseURL = "/docs/"
        let underBase = String(decoding: SiteBuilder.build(served).files["guide/deep/a.html"] ?? [], as: UTF8.self)
        #expect(underBase.contains("href=\"/docs/guide/index.html\""), "\(underBase)")
    }

    /// Only a link's path becomes `.html`: a fragment that spells the same
    /// file name is the id it names.
    @Test func linkRewriting_changesThePath_notAFragmentThatRepeatsIt() throws {
        let project = try FixtureProject(files: sampleFiles + [
            ("site/guide.md", "# Guide\n\n<a id=\"guide.md\"></a>\n"),
            ("site/links.md", "# Links\n\nSee [it](guide.md#guide.md).\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let html = String(decoding: site.files["links.html"] ?? [], as: UTF8.self)
        #expect(html.contains("href=\"guide.html#guide.md\""), "\(html)")
        #expect(!site.diagnostics.contains { $0.id == "broken-link" })
    }

    @Test func elementIDs_areReadFromAttributes_notFromLookalikes() {
        let html = "<h2 id=\"a\">x</h2><div data-id=\"b\" aria-describedby=\"c\"></div><p\nid='d'>id=\"e\"</p>"
        #expect(RawHTML.ids(in: html) == ["a", "d"])
    }

    /// A `>` or a quote inside a quoted value stays inside it (the byte
    /// scanners this replaced ended the tag there), entities are decoded,
    /// and unquoted values and comments are read as a browser reads them.
    @Test func rawHTML_isTokenizedAsABrowserDoes_quotedGreaterThanAndAll() {
        let html = "<a title=\"x > y\" name=\"after-gt\">t</a><div data-x='it\"s' id=\"q&amp;a\"></div><span id=plain>"
            + "<!-- <a id=\"commented\"> --><img src=\"a.png\" alt='1 > 0'><a href=b.html>"
        let scanned = RawHTML.scan(html)
        #expect(RawHTML.ids(of: scanned.attributes) == ["after-gt", "q&a", "plain"])
        #expect(RawHTML.addresses(in: html) == ["a.png", "b.html"])
        #expect(String(decoding: scanned.text, as: UTF8.self).trimmingCharacters(in: .whitespaces) == "t")
    }

    /// `<a name>` anchors are link targets (browsers scroll to them, GitHub
    /// keeps them); other elements' `name` attributes are not.
    @Test func nameAnchors_count_otherNameAttributesDoNot() {
        let html = """
            <meta name="viewport" content="x"><a name="legacy"></a><A class="x"\tname='old-step'>o</A>\
            <input name="q"><a data-name="n" href="#"><p>name="text"</p><a href="#" name="late">
            """
        #expect(RawHTML.ids(in: html) == ["legacy", "old-step", "late"])
    }

    /// A link into another page is checked against that page's headings,
    /// also when the linking page comes from the cache: renaming a heading
    /// breaks links that did not change.
    @Test func linksToAnotherPagesHeading_areCheckedOnEveryBuild_cachedOrNot() throws {
        let project = try FixtureProject(files: sampleFiles + [
            ("site/guide.md", "# Guide\n\n## Move hints\n\nText.\n"),
            ("site/links.md", "# Links\n\nSee [the hints](guide.md#move-hints).\n"),
        ])
        defer { project.remove() }
        let options = cachedOptions(project)
        let first = SiteBuilder.buildAndWrite(options)
        #expect(!first.site.diagnostics.contains { $0.id == "broken-link" })
        try edit(project, "site/guide.md", "# Guide\n\n## Hints for moves\n\nText.\n")
        let second = SiteBuilder.buildAndWrite(options)
        let links = project.root.appendingPathComponent("site/links.md").path
        let guide = project.root.appendingPathComponent("site/guide.md").path
        #expect(second.site.diagnostics.filter { $0.id == "broken-link" }.map(\.description)
                == ["\(links):3:17: warning: link to '#move-hints', which is not a heading or element id of \(guide)"])
        #expect(second.site.cachedCount > 0)
    }

    /// Warnings are reported on every build, and do not cost the fast
    /// rebuilds: nothing changed → nothing is rendered, the previous
    /// build's diagnostics are reported; another page changed → the page
    /// with the warning is reused with its warning.
    @Test func warnings_areReportedOnEveryBuild_fromTheCacheToo() throws {
        let project = try FixtureProject(files: sampleFiles + [("site/links.md", "# Links\n\n[gone](gone.md) and [file](files/notes.txt)\n")])
        defer { project.remove() }
        let options = cachedOptions(project)
        let first = SiteBuilder.buildAndWrite(options)
        let warnings = first.site.diagnostics.filter { $0.id == "broken-link" }
        #expect(warnings.count == 2)
        let again = SiteBuilder.buildAndWrite(options)
        #expect(again.site.unchanged, "a no-change rebuild with warnings takes the shortcut")
        #expect(again.site.diagnostics == first.site.diagnostics)
        // Under --strict the same warnings fail it, from the cache as well.
        var strict = options
        strict.strict = true
        #expect(SiteBuilder.buildAndWrite(strict).written == nil)

        try edit(project, "site/zeta.md", "---\norder: 1\n---\n# Zeta page\n\nEdited.\n")
        let edited = SiteBuilder.buildAndWrite(options)
        #expect(!edited.site.unchanged)
        #expect(edited.site.cachedCount > 0)
        #expect(edited.site.diagnostics.filter { $0.id == "broken-link" } == warnings, "the reused page still reports them")

        // A static file that appears answers the link, reused page or not.
        try FileManager.default.createDirectory(at: project.root.appendingPathComponent("site/files"), withIntermediateDirectories: true)
        try edit(project, "site/files/notes.txt", "notes")
        let withFile = SiteBuilder.buildAndWrite(options)
        #expect(withFile.site.diagnostics.filter { $0.id == "broken-link" }.map(\.message) == [warnings[0].message])
    }

    @Test func templateLookup_isProjectThenBuiltIn() {
        #expect(Theme.lookup("page.mustache", projectTemplates: "templates") == [.project("templates/page.mustache"), .builtIn])
        #expect(Theme.lookup("page.mustache", projectTemplates: nil) == [.builtIn])
    }

    @Test func projectTemplate_overridesOneFile_andUnknownVariablesAreErrors() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n"),
            ("site/other.md", "# Other\n"),
            ("templates/page.mustache", "<p>{{title}}</p>\n<p>{{titel}}</p>\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let template = project.root.appendingPathComponent("templates/page.mustache").path
        #expect(site.diagnostics.map(\.description).contains(
            "\(template):2:4: error: the template uses 'titel', which its context does not have"))
    }

    /// The player reads the first snapshot from the rows the page shows, so
    /// a player template that leaves them out (or escapes them) is refused at
    /// its file, not published as players with nothing to play.
    @Test func playerTemplate_withoutTheFirstRows_isAnError() throws {
        let project = try FixtureProject(files: sampleFiles + [
            ("templates/player.mustache", "<figure data-rowmotion-player=\"{{name}}\"><div class=\"rowmotion-list\">{{initialHTML}}</div></figure>\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let template = project.root.appendingPathComponent("templates/player.mustache").path
        #expect(site.diagnostics.map(\.description) == [
            "\(template):1:1: error: the player template must write {{{initialHTML}}} unescaped inside its '.rowmotion-list': "
                + "the player reads the first snapshot from those rows"])
        #expect(Theme.writesInitialRows("<div>{{{ initialHTML }}}</div>") && Theme.writesInitialRows("{{& initialHTML}}"))
    }

    /// The binary's built-in theme is the repository's templates/ folder, byte
    /// for byte (the EmbedTheme build-tool plugin writes it at build time),
    /// and the player's modules (templates/script/) are its rowmotion.js
    /// (`ScriptBundleTests` holds that one to the bundle).
    @Test func builtInTheme_matchesTemplatesFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("templates")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "script" }.sorted()
        #expect(names + ["rowmotion.js"] == DefaultTheme.files.keys.sorted())
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(DefaultTheme.files[name] == text, "templates/\(name) differs from the embedded copy")
        }
    }
}

@Suite("Front matter")
struct FrontMatterSplitTests {
    @Test func split_findsTheFences_keepsTheBodyAsWritten_andCountsLines() {
        func split(_ text: String) -> [String]? {
            FrontMatter.split(text).map { [$0.yaml ?? "<none>", $0.body, String($0.bodyLineOffset)] }
        }
        #expect(split("# No front matter\n") == ["<none>", "# No front matter\n", "0"])
        #expect(split("") == ["<none>", "", "0"])
        #expect(split("---\ntitle: A\norder: 2\n---\n# A\n\ntext\n") == ["title: A\norder: 2", "# A\n\ntext\n", "4"])
        #expect(split("---\r\ntitle: A\r\n...\r\nbody") == ["title: A\r", "body", "3"])
        #expect(split("---\n---") == ["", "", "2"])
        #expect(split("---\n\n---\n") == ["", "", "3"])
        #expect(split("---\ntitle: A\n") == nil)
        #expect(split("---") == nil)
        #expect(split("--- \ntitle: A\n---\n") == ["<none>", "--- \ntitle: A\n---\n", "0"])
    }
}

@Suite("Player data")
struct PlayerDataTests {
    /// Each batch carries its own reloaded cells, in the order of its reload
    /// calls, not every row the step reloads (which made the player fade rows
    /// of the deferred batch in the structural one, and twice).
    @Test func reloadedRows_areEachBatchsOwn_inTheOrderOfItsReloadCalls() throws {
        let text = """
        title: Two batches
        steps:
          - items:
              - {id: a, v: 1}
              - {id: b, v: 1}
              - {id: c, v: 1}
              - {id: d, v: 1}
          - items:
              - {id: a, v: 2}
              - {id: b, v: 1}
              - {id: d, v: 2}
              - {id: c, v: 1}
        """
        let read = SnapshotReader.read(bytes: Array(text.utf8), file: "two.yml")
        let sequence = try #require(read.sequence, "\(read.diagnostics)")
        // Decoded into the contract types, as the page carries it.
        let json = try PlayerData.json(for: sequence, name: "two.yml")
        let data = try JSONDecoder().decode(PlayerData.self, from: Data(json.utf8))
        let batches = try #require(data.steps.first?.batches)
        var reloads: [[String]] = []
        for batch in batches {
            #expect(batch.rows.reload.count == batch.reloadedRows.count, "one cell per reload call")
            reloads.append(batch.reloadedRows.map(\.id))
        }
        // `a` changes in place (batch 1); `d` moves and changes, so its reload
        // waits for the second batch.
        #expect(reloads == [["a"], ["d"]])
    }

    /// The first snapshot is in the page as rows, which the player adopts:
    /// the data does not repeat it. Values are the text a cell shows, the
    /// same as those rows (JavaScript would print 2.0 as "2").
    @Test func data_leavesTheFirstSnapshotToThePage_andCarriesValuesAsShown() throws {
        let text = """
        title: Values
        steps:
          - items:
              - {id: a, price: 1.5}
          - items:
              - {id: a, price: 1.5}
              - {id: b, price: 2.0, note: null, flag: true}
        """
        let read = SnapshotReader.read(bytes: Array(text.utf8), file: "values.yml")
        let sequence = try #require(read.sequence, "\(read.diagnostics)")
        let json = try PlayerData.json(for: sequence, name: "values.yml")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["initial"] == nil)
        #expect(Set(object.keys) == ["example", "title", "animations", "labels", "steps", "cell"])
        let data = try JSONDecoder().decode(PlayerData.self, from: Data(json.utf8))
        // Without `cell:`, a value1 cell: the first text is the title, a
        // null shows nothing, and neither does a boolean (a checkmark only
        // where `cell:` says so: issue 45, item 7).
        #expect(data.cell == "value1")
        let fields = try #require(data.steps.first?.batches.first?.insertedRows.first?.fields)
        #expect(fields == [["price", "2.0", "title"]])
        let list = SiteRendering.staticList(sequence.steps[1].snapshot, of: sequence)
        #expect(list.contains("<span class=\"field cell-title primary\" data-field=\"price\" data-slot=\"title\">2.0</span>"))
        #expect(!list.contains("cell-accessory") && !list.contains("✓"))
    }

    /// `cell:` reaches the page: the first rows as the cell's parts (the
    /// static list the player adopts), each field of the data as `[name,
    /// text, slot]`, the style on the player; a demo block's `cell:` draws
    /// the same example its own way, and a hostile image address stays an
    /// attribute value.
    @Test func cells_drawTheFirstRowsAsTheirParts_andADemoBlockCanChooseItsOwn() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Home\n\n```rowmotion\nexample: chats.yml\n```\n\n```rowmotion\nexample: chats.yml\ncell: {style: value1, title: name, detail: unread}\n```\n"),
            ("examples/chats.yml", """
            version: rev
            cell: {style: subtitle, title: name, subtitle: preview, image: avatar, badge: unread}
            steps:
              - items:
                  - {id: a, name: Ann, preview: Hi, avatar: "x\\" onerror=\\"alert(1)", unread: 2, rev: 1}
              - items:
                  - {id: b, name: Bob, preview: Yo, avatar: "https://example.com/b.png", unread: 0, rev: 1}
                  - {id: a, name: Ann, preview: Hi, avatar: "x\\" onerror=\\"alert(1)", unread: 2, rev: 1}
            """),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        #expect(!site.hasErrors, "\(site.diagnostics)")
        let page = String(decoding: site.files["examples/chats.html"] ?? [], as: UTF8.self)
        #expect(page.contains("data-cell=\"subtitle\""))
        #expect(page.contains("<div class=\"rowmotion-row rowmotion-cell\" role=\"listitem\" data-item-id=\"a\">"
            + "<span class=\"field cell-image\" data-field=\"avatar\" data-slot=\"image\" data-value=\"x&quot; onerror=&quot;alert(1)\" aria-hidden=\"true\">X</span>"
            + "<span class=\"field cell-title primary\" data-field=\"name\" data-slot=\"title\">Ann</span>"
            + "<span class=\"field cell-subtitle\" data-field=\"preview\" data-slot=\"subtitle\">Hi</span>"
            + "<span class=\"field cell-badge\" data-field=\"unread\" data-slot=\"badge\">2</span></div>"))
        #expect(!page.contains("data-field=\"rev\""))
        let json = try #require(page.components(separatedBy: "class=\"rowmotion-data\">").dropFirst().first?.components(separatedBy: "</script>").first)
        let data = try JSONDecoder().decode(PlayerData.self, from: Data(json.utf8))
        #expect(data.cell == "subtitle")
        #expect(data.steps[0].batches[0].insertedRows == [PlayerData.Row(id: "b", fields: [
            ["avatar", "https://example.com/b.png", "image"], ["name", "Bob", "title"], ["preview", "Yo", "subtitle"]])])

        let home = String(decoding: site.files["index.html"] ?? [], as: UTF8.self)
        #expect(home.contains("data-cell=\"subtitle\""))
        #expect(home.contains("data-cell=\"value1\""))
        #expect(home.contains("<span class=\"field cell-title primary\" data-field=\"name\" data-slot=\"title\">Ann</span><span class=\"field cell-detail\" data-field=\"unread\" data-slot=\"detail\">2</span>"))
    }

    /// The encoder's output is made safe inside `<script>` in one pass, and
    /// a section without a header or footer carries them as null.
    @Test func data_isSafeInsideAScriptElement_andDecodesBackToTheSameValue() throws {
        let text = """
        title: "</script><!-- & \\u2028 end"
        steps:
          - sections:
              - {id: s, items: [{id: a, title: "x"}]}
          - sections:
              - {id: s, items: [{id: a, title: "x"}]}
              - {id: t, items: [{id: "</script>", title: "<!--\\u2028\\u2029&"}]}
        """
        let read = SnapshotReader.read(bytes: Array(text.utf8), file: "safe.yml")
        let sequence = try #require(read.sequence, "\(read.diagnostics)")
        let json = try PlayerData.json(for: sequence, name: "safe.yml")
        for raw in ["<", ">", "&", "\u{2028}", "\u{2029}"] { #expect(!json.contains(raw), "raw \(raw) in \(json)") }
        let data = try JSONDecoder().decode(PlayerData.self, from: Data(json.utf8))
        #expect(data == PlayerData(sequence: sequence, changesets: try sequence.changesets(), name: "safe.yml"))
        let section = try #require(data.steps.first?.batches.first?.newSections.first)
        #expect(section.items.first?.fields == [["title", "<!--\u{2028}\u{2029}&", "title"]])
        #expect(json.contains(#""header":null"#) && json.contains(#""footer":null"#))
    }
}
