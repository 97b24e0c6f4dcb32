import BuildGraph
import Diagnostics
import Foundation
import ProjectFiles
import SeededRandom
@testable import SiteGenerator
import Testing

/// Edits as a writer makes them, in any order, to `editFiles`' project, of
/// every kind a build must cost what it changes for: a page's text (added
/// to, or written anew with other headings, which mends what it warned
/// of), a link to a heading a page has (sometimes one it has not), an
/// example shown (now and then one that is missing), a title, an order,
/// a page added, removed or renamed, two pages at once, an example's rows
/// (now and then broken) or its options, a template, a static file.
struct RandomEdits {
    var random: SeededGenerator
    var pages = ["site/index.md", "site/guide/a.md", "site/guide/b.md", "site/guide/c.md", "site/other/d.md"]
    var statics: [String] = []
    let anchors = ["setup", "usage", "install"]

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    /// Makes edit number `step` in the project at `root`: what it was, and
    /// the files it wrote or removed (project-relative); nil when it made none.
    mutating func apply(step: Int, to session: EditSession) throws -> (what: String, changed: [String])? {
        let page = pages.randomElement(using: &random)!
        switch Int.random(in: 0..<26, using: &random) {
        case 0...4:
            try session.write(page, try session.read(page) + "\nMore text \(step).\n")
            return ("body of \(page)", [page])
        case 5...6:
            let headings = Array(anchors.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
            let frontMatter = try session.read(page).components(separatedBy: "\n---\n").first ?? ""
            try session.write(page, frontMatter + "\n---\n" + headings.map { "## \($0.capitalized)\n\nText \(step).\n\n" }.joined())
            return ("\(page) written anew with headings \(headings)", [page])
        case 7...8:
            let target = pages.randomElement(using: &random)!
            let headings = try session.read(target).components(separatedBy: "\n").filter { $0.hasPrefix("## ") }.map { $0.dropFirst(3).lowercased() }
            let fragment = Int.random(in: 0..<6, using: &random) == 0 ? anchors.randomElement(using: &random)! : headings.randomElement(using: &random)
            let relative = String(target.dropFirst("site/".count))
            try session.write(page, try session.read(page) + "\nSee [it](/\(relative)\(fragment.map { "#" + $0 } ?? "")).\n")
            return ("link from \(page) to \(target)#\(fragment ?? "")", [page])
        case 9:
            let example = ["list.yml", "list.yml", "other.yml", "gone.yml"].randomElement(using: &random)!
            try session.write(page, try session.read(page) + "\n```rowmotion\nexample: \(example)\n```\n")
            return ("\(page) shows \(example)", [page])
        case 10:
            try session.write(page, try session.read(page).replacingOccurrences(of: "title: ", with: "title: T\(step) "))
            return ("title of \(page)", [page])
        case 11:
            let text = try session.read(page)
            let lines = text.components(separatedBy: "\n").filter { !$0.hasPrefix("order: ") }
            try session.write(page, ([lines[0], "order: \(Int.random(in: 1...5, using: &random))"] + lines.dropFirst()).joined(separator: "\n"))
            return ("order of \(page)", [page])
        case 12:
            let example = ["examples/list.yml", "examples/other.yml"].randomElement(using: &random)!
            let broken = Bool.random(using: &random) && step % 3 == 0
            try session.write(example, broken ? "title: [oops\n" : "title: E\(step)\ndescription: D.\nsteps:\n  - items: [a, b]\n  - items: [b, a\(step)]\n")
            return ("steps of \(example)\(broken ? ", broken" : "")", [example])
        case 13:
            let example = ["examples/list.yml", "examples/other.yml"].randomElement(using: &random)!
            let animation = ["fade", "none", "left", "top"].randomElement(using: &random)!
            let text = try session.read(example).components(separatedBy: "\n").filter { !$0.hasPrefix("animation: ") }.joined(separator: "\n")
            try session.write(example, "animation: \(animation)\n" + text)
            return ("animation of \(example): \(animation)", [example])
        case 14...15:
            let added = ["site/new/p\(step).md", "site/guide/n\(step).md", "site/top\(step).md"].randomElement(using: &random)!
            try session.write(added, pageText("New \(step)", body: "## Setup\n\nNew page, see [a](/guide/a.md#usage).\n"))
            pages.append(added)
            return ("added \(added)", [added])
        case 16:
            guard page != "site/index.md" else { return nil }
            let renamed = (page as NSString).deletingPathExtension + "-r\(step).md"
            try FileManager.default.moveItem(atPath: session.path(page), toPath: session.path(renamed))
            pages[pages.firstIndex(of: page)!] = renamed
            return ("renamed \(page) to \(renamed)", [page, renamed])
        case 17...18:
            let both = Array(Set([page, pages.randomElement(using: &random)!])).sorted()
            for page in both { try session.write(page, try session.read(page) + "\nBoth \(step).\n") }
            return ("bodies of \(both)", both)
        case 19:
            let template = ["templates/example.mustache", "templates/page.mustache", "templates/nav.mustache", "templates/index.mustache"]
                .randomElement(using: &random)!
            let name = String(template.dropFirst("templates/".count))
            let builtIn = try #require(DefaultTheme.files[name])
            try session.write(template, builtIn + "<!-- edit \(step) -->\n")
            return ("template \(template)", [template])
        case 20:
            let template = ["templates/example.mustache", "templates/page.mustache", "templates/nav.mustache", "templates/index.mustache"]
                .randomElement(using: &random)!
            guard FileManager.default.fileExists(atPath: session.path(template)) else { return nil }
            try session.remove(template)
            return ("template \(template) removed", [template])
        case 21...22:
            if let old = statics.randomElement(using: &random), Bool.random(using: &random) {
                if Bool.random(using: &random) {
                    try session.remove(old)
                    statics.removeAll { $0 == old }
                    return ("removed \(old)", [old])
                }
                try session.write(old, "<svg>\(step)</svg>")
                return ("static \(old) changed", [old])
            }
            let added = ["site/images/s\(step).svg", "site/guide/f\(step).txt"].randomElement(using: &random)!
            try session.write(added, "<svg>\(step)</svg>")
            statics.append(added)
            return ("static \(added) added", [added])
        case 23:
            // A page broken (an error), mended by a later edit of it.
            try session.write(page, try session.read(page) + "\n```rowmotion\nexample: list.yml\nstep: 99\n```\n")
            return ("\(page) shows a step past the last", [page])
        default:
            // The home page stays (its removal is a file removed like any other).
            guard pages.count > 2, page != "site/index.md" else { return nil }
            try session.remove(page)
            pages.removeAll { $0 == page }
            return ("removed \(page)", [page])
        }
    }
}

/// Every way a build reaches a site, held to a clean build of the same
/// inputs: the graph kept in memory (`serve`'s, and what tests and the
/// review read), the command line's (a new process each time, its graph
/// from the store beside the site, the site written in place or anew), and
/// `serve`'s (the graph in memory, told what changed, the site on disk
/// brought up to date in place). One generator of edits of every kind
/// drives them all; after each, each site (in memory or on disk) and its
/// diagnostics are byte for byte a clean build's.
@Suite("One graph: every path to a site is a clean build's")
struct OneGraphTests {
    enum Path: String, CaseIterable, Sendable {
        case memory, commandLine, serve
    }

    /// A project and a build of it along `path`.
    final class Session: @unchecked Sendable {
        let edits: EditSession
        let path: Path
        var memo: BuildMemo?
        /// Outputs besides the site's own, in every build and in the clean one.
        var extraOutputs: [any OutputRule.Type] = []

        init(_ files: [(String, String)], path: Path) throws {
            edits = try EditSession(files)
            self.path = path
        }

        var options: BuildOptions {
            var options = edits.options
            options.project = ProjectFiles.Project(root: edits.project.root.path, isGitWorkTree: false)
            options.extraOutputs = extraOutputs
            guard path != .memory else { return options }
            options.cache = edits.path(".build/site.cache")
            options.keepsUnchangedPages = true
            return options
        }

        /// Builds after `changed` (project-relative) changed; writes the
        /// site unless the build is in memory.
        @discardableResult
        func build(changed: [String]) -> BuiltSite {
            switch path {
            case .memory:
                return edits.build(changed: changed)
            case .commandLine:
                var site = SiteBuilder.build(options)
                _ = SiteBuilder.write(&site, options)
                return site
            case .serve:
                memo?.changed = Set(changed.map(edits.path))
                var site = SiteBuilder.build(options, memo: &memo)
                _ = SiteBuilder.write(&site, options, memo: &memo)
                return site
            }
        }

        /// Holds `site` to a clean build of the same files: its
        /// diagnostics, and its files (in memory, or the site on disk).
        func expectClean(_ site: BuiltSite, _ context: String) throws {
            var cleanOptions = edits.options
            cleanOptions.out = edits.path("_clean")
            cleanOptions.extraOutputs = extraOutputs
            let clean = SiteBuilder.build(cleanOptions)
            #expect(EditSession.report(site) == EditSession.report(clean).map { $0.replacingOccurrences(of: "_clean", with: "_site") }, "\(context)")
            #expect(site.hasErrors == clean.hasErrors, "\(context)")
            guard !clean.hasErrors else { return }
            let files = path == .memory ? site.files : try siteOnDisk(options.out)
            #expect(Set(files.keys) == Set(clean.files.keys), "\(context): \(Set(files.keys).symmetricDifference(clean.files.keys).sorted())")
            for (output, bytes) in clean.files where files[output] != bytes {
                Issue.record("\(output) differs from a clean build's, \(context)")
            }
        }
    }

    static var seed: UInt64 { UInt64(ProcessInfo.processInfo.environment["ROWMOTION_FUZZ_SEED"] ?? "") ?? 1 }
    static var edits: Int { ProcessInfo.processInfo.environment["ROWMOTION_EDIT_CASES"].flatMap(Int.init) ?? 80 }

    /// Seeded random edits of every kind, through each path: after each,
    /// the site and its diagnostics are a clean build's.
    @Test(arguments: Path.allCases)
    func randomEdits_alwaysBuildWhatACleanBuildBuilds(path: Path) throws {
        let (seed, edits) = (Self.seed, Self.edits)
        print("randomEdits_alwaysBuildWhatACleanBuildBuilds(\(path)): seed \(seed), \(edits) edits (ROWMOTION_FUZZ_SEED, ROWMOTION_EDIT_CASES)")
        let session = try Session(editFiles, path: path)
        try session.expectClean(session.build(changed: []), "the first build")
        var writer = RandomEdits(seed: seed)
        for step in 0..<edits {
            guard let (what, changed) = try writer.apply(step: step, to: session.edits) else { continue }
            let site = session.build(changed: changed)
            try session.expectClean(site, "after edit \(step) (\(what)), \(path), seed \(seed)")
        }
    }
}

/// What each kind of edit costs: the values it derives again are those
/// that depend on what it changed, and the outputs it writes are those
/// whose bytes changed (the command line's path: a store on disk, each
/// build a new start).
@Suite("One graph: an edit costs what it changes")
struct EditCostTests {
    /// A site of three folders: the edits below land in `guide/`.
    static let files: [(String, String)] = [
        ("site/index.md", pageText("Home", body: "# Home\n\nSee [a](guide/a.md).\n")),
        ("site/guide/a.md", pageText("Alpha", body: "## Setup\n\nText.\n")),
        ("site/guide/b.md", pageText("Beta", body: "Read [Alpha's install](a.md#install).\n\n```rowmotion\nexample: list.yml\n```\n")),
        ("site/guide/c.md", pageText("Gamma", body: "Plain page.\n")),
        ("site/other/d.md", pageText("Delta", body: "Elsewhere.\n")),
        ("site/other/e.md", pageText("Epsilon", body: "Elsewhere too.\n")),
        ("site/images/logo.svg", "<svg>one</svg>"),
        ("examples/list.yml", "title: A list\ndescription: Rows move.\nsteps:\n  - items: [a, b, c]\n  - items: [c, a, b]\n"),
    ]

    /// A project built once from the command line; `edit` then builds it again.
    final class Project {
        let session: OneGraphTests.Session

        init(extra: [any OutputRule.Type] = []) throws {
            session = try OneGraphTests.Session(EditCostTests.files, path: .commandLine)
            session.extraOutputs = extra
            try session.expectClean(build(), "the first build")
        }

        func build() -> BuiltSite {
            let options = session.options
            var site = SiteBuilder.build(options)
            #expect(SiteBuilder.write(&site, options) != nil, "\(site.diagnostics)")
            return site
        }

        /// Writes `text` at `path` (nil: removes it) and builds.
        func edit(_ path: String, _ text: String?) throws -> BuiltSite {
            if let text { try session.edits.write(path, text) } else { try session.edits.remove(path) }
            let site = build()
            try session.expectClean(site, "after \(path)")
            return site
        }
    }

    @Test func aPagesText_rendersThatPageAlone_andWritesIt() throws {
        let project = try Project()
        let site = try project.edit("site/guide/c.md", pageText("Gamma", body: "Plain page, edited.\n"))
        // (Its group's navigation, which the store does not keep, is made again for its HTML alone.)
        #expect(site.derived["page-render"] == 1 && site.derived["example-page"] == nil && (site.derived["group-navigation"] ?? 0) <= 1
                    && site.derived["group-navigation-key"] == nil && site.derived["site-shape"] == nil, "\(site.derived)")
        #expect(site.changedOutputs == ["guide/c.html", "search-index.js"])
    }

    @Test func aTitle_rendersThePagesThatShowIt_andNoOther() throws {
        let project = try Project()
        let site = try project.edit("site/guide/c.md", pageText("Gamma renamed", body: "Plain page.\n"))
        // Its folder's pages show it in their navigation; the other folder's and the home page do not.
        let changed = Set(site.changedOutputs ?? [])
        #expect(changed.isSuperset(of: ["guide/a.html", "guide/b.html", "guide/c.html", "search-index.js"]), "\(changed)")
        #expect(changed.isDisjoint(with: ["other/d.html", "other/e.html", "index.html", "examples/list.html"]), "\(changed)")
        #expect(site.derived["page-render"] == 3, "\(site.derived)")
    }

    @Test func aPageAdded_rendersItAndThePagesThatListIt() throws {
        let project = try Project()
        let site = try project.edit("site/guide/f.md", pageText("Phi", body: "New.\n"))
        let changed = Set(site.changedOutputs ?? [])
        #expect(changed.isSuperset(of: ["guide/f.html", "guide/a.html", "guide/c.html", "search-index.js"]), "\(changed)")
        #expect(changed.isDisjoint(with: ["other/d.html", "other/e.html", "examples/list.html"]), "\(changed)")
        let removed = try project.edit("site/guide/f.md", nil)
        #expect(Set(removed.changedOutputs ?? []).isSuperset(of: ["guide/f.html", "guide/a.html"]))
        #expect(Set(removed.changedOutputs ?? []).isDisjoint(with: ["other/d.html", "examples/list.html"]))
    }

    @Test func anExamplesRows_renderItsPageAndThePagesThatShowIt() throws {
        let project = try Project()
        let site = try project.edit("examples/list.yml", "title: A list\ndescription: Rows move.\nsteps:\n  - items: [a, b, c]\n  - items: [b, c, a]\n")
        let changed = Set(site.changedOutputs ?? [])
        #expect(changed.isSuperset(of: ["examples/list.html", "examples/list.svg", "guide/b.html"]), "\(changed)")
        #expect(changed.isDisjoint(with: ["guide/a.html", "guide/c.html", "other/d.html"]), "\(changed)")
        #expect(site.derived["page-render"] == 1 && site.derived["example-page"] == 1, "\(site.derived)")
    }

    @Test func aTemplate_rendersWhatUsesIt() throws {
        let project = try Project()
        let builtIn = try #require(DefaultTheme.files["example.mustache"])
        let site = try project.edit("templates/example.mustache", builtIn + "<!-- the example pages' own -->\n")
        #expect(site.derived["page-render"] == nil && site.derived["example-page"] == 1, "\(site.derived)")
        #expect(site.changedOutputs == ["examples/list.html"])
    }

    @Test func aStaticFile_isCopiedAlone() throws {
        let project = try Project()
        let site = try project.edit("site/images/logo.svg", "<svg>two</svg>")
        #expect(site.derived["page-render"] == nil && site.derived["static-copy"] == 1, "\(site.derived)")
        #expect(site.changedOutputs == ["images/logo.svg"])
    }

    /// A heading added to a page mends a link into it from another page:
    /// that page's links are checked again, and it is not made again.
    @Test func anAnchorGained_checksTheLinksIntoIt_andRendersNothingElse() throws {
        let project = try Project()
        let first = project.build()
        #expect(first.diagnostics.contains { $0.message.contains("'#install'") })
        let site = try project.edit("site/guide/a.md", pageText("Alpha", body: "## Setup\n\nText.\n\n## Install\n\nMore.\n"))
        #expect(!site.diagnostics.contains { $0.message.contains("'#install'") })
        #expect(site.derived["page-render"] == 1 && (site.derived["page-fragments"] ?? 0) >= 1, "\(site.derived)")
        #expect(!(site.changedOutputs ?? []).contains("guide/b.html"))
    }

    /// A kind of output added as one rule in one file (here, this test's
    /// own): built with the site, and again when what it reads changes.
    @Test func aNewOutputRule_inOneFile_isBuilt_andRebuiltOnAnEdit() throws {
        let project = try Project(extra: [PageList.self])
        let first = project.build()
        #expect(try project.session.edits.read("_site/pages.txt").contains("guide/c.html"))
        #expect(first.outputs["pages.txt"] != nil)
        let text = try project.edit("site/guide/c.md", pageText("Gamma", body: "Edited.\n"))
        #expect(text.derived[PageList.name] == nil, "a text edit leaves the list alone")
        let added = try project.edit("site/other/g.md", pageText("Gee", body: "New.\n"))
        #expect(added.derived[PageList.name] == 1 && added.changedOutputs?.contains("pages.txt") == true)
        #expect(try project.session.edits.read("_site/pages.txt").contains("other/g.html"))
    }
}

/// This test's own output: every page's address, a line each.
enum PageList: OutputRule, StoredRule {
    static let name = "test-page-list"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> MadeFiles {
        let outputs = try build.value(PageOutputs.self, "").values.sorted()
        return build.put([("pages.txt", Array((outputs.joined(separator: "\n") + "\n").utf8))])
    }
}
