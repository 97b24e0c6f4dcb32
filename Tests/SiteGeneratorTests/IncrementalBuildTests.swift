import Diagnostics
import Foundation
import ProjectFiles
import SeededRandom
@testable import SiteGenerator
import Testing

/// A project built again and again as `serve` builds it: from the last
/// build's model, told which files changed. Each build is held against a
/// clean build of the same files (no model, nothing reused), which it
/// must equal byte for byte and diagnostic for diagnostic.
final class EditSession {
    let project: FixtureProject
    var memo: BuildMemo?

    init(_ files: [(String, String)]) throws {
        project = try FixtureProject(files: files)
    }

    deinit { project.remove() }

    var options: BuildOptions { project.options }

    func path(_ relative: String) -> String { project.root.appendingPathComponent(relative).path }

    func write(_ relative: String, _ text: String) throws {
        try FileManager.default.createDirectory(at: project.root.appendingPathComponent(relative).deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: project.root.appendingPathComponent(relative))
    }

    func read(_ relative: String) throws -> String { try String(contentsOfFile: path(relative), encoding: .utf8) }

    func remove(_ relative: String) throws { try FileManager.default.removeItem(atPath: path(relative)) }

    /// A build from the model, told that `changed` (project-relative) changed.
    func build(changed: [String]) -> BuiltSite {
        memo?.changed = Set(changed.map(path))
        return SiteBuilder.build(options, memo: &memo)
    }

    func clean() -> BuiltSite { SiteBuilder.build(options) }

    /// Each diagnostic's text, in the order a report prints them.
    static func report(_ site: BuiltSite) -> [String] { DiagnosticReport(site.diagnostics).sorted.map(\.description) }
}

func pageText(_ title: String, body: String) -> String { "---\ntitle: \(title)\n---\n\(body)\n" }

let editFiles: [(String, String)] = [
    ("site/index.md", pageText("Home", body: "# Home\n\nSee [a](guide/a.md).\n")),
    ("site/guide/a.md", pageText("Alpha", body: "## Setup\n\nText.\n\n## Usage\n\nMore.\n")),
    ("site/guide/b.md", pageText("Beta", body: "Read [Alpha's setup](a.md#setup).\n\n```rowmotion\nexample: list.yml\n```\n")),
    ("site/guide/c.md", pageText("Gamma", body: "Plain page.\n")),
    ("site/other/d.md", pageText("Delta", body: "Also shows it.\n\n```rowmotion\nexample: list.yml\n```\n")),
    ("examples/list.yml", "title: A list\ndescription: Rows move.\nsteps:\n  - items: [a, b, c]\n  - items: [c, a, b]\n"),
    ("examples/other.yml", "title: Other\ndescription: Not shown.\nsteps:\n  - items: [x]\n  - items: [x, y]\n"),
]

/// Edits as a writer makes them, in any order, to `editFiles`' project:
/// mostly of a page's text (appended to, or written anew with other
/// headings, which mends what it warned of), links to a heading a page has
/// (sometimes to one it has not), examples shown (one now and then that is
/// missing), titles, examples' steps (now and then broken), pages added
/// and removed, two pages at once.
struct RandomEdits {
    var random: SeededGenerator
    var pages = ["site/index.md", "site/guide/a.md", "site/guide/b.md", "site/guide/c.md", "site/other/d.md"]
    let anchors = ["setup", "usage", "install"]

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    /// Makes edit number `step`: what it was, and the files it wrote or
    /// removed (as `session` names them); nil when it made none.
    mutating func apply(step: Int, to session: EditSession) throws -> (what: String, changed: [String])? {
        let page = pages.randomElement(using: &random)!
        switch Int.random(in: 0..<20, using: &random) {
        case 0...5:
            try session.write(page, try session.read(page) + "\nMore text \(step).\n")
            return ("body of \(page)", [page])
        case 6...7:
            let headings = Array(anchors.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
            let frontMatter = try session.read(page).components(separatedBy: "\n---\n").first ?? ""
            try session.write(page, frontMatter + "\n---\n" + headings.map { "## \($0.capitalized)\n\nText \(step).\n\n" }.joined())
            return ("\(page) written anew with headings \(headings)", [page])
        case 8...10:
            let target = pages.randomElement(using: &random)!
            let headings = try session.read(target).components(separatedBy: "\n").filter { $0.hasPrefix("## ") }.map { $0.dropFirst(3).lowercased() }
            let fragment = Int.random(in: 0..<6, using: &random) == 0 ? anchors.randomElement(using: &random)! : headings.randomElement(using: &random)
            let relative = String(target.dropFirst("site/".count))
            try session.write(page, try session.read(page) + "\nSee [it](/\(relative)\(fragment.map { "#" + $0 } ?? "")).\n")
            return ("link from \(page) to \(target)#\(fragment ?? "")", [page])
        case 11:
            let example = ["list.yml", "list.yml", "other.yml", "gone.yml"].randomElement(using: &random)!
            try session.write(page, try session.read(page) + "\n```rowmotion\nexample: \(example)\n```\n")
            return ("\(page) shows \(example)", [page])
        case 12:
            try session.write(page, try session.read(page).replacingOccurrences(of: "title: ", with: "title: T\(step) "))
            return ("title of \(page)", [page])
        case 13:
            let example = ["examples/list.yml", "examples/other.yml"].randomElement(using: &random)!
            let broken = Bool.random(using: &random) && step % 3 == 0
            try session.write(example, broken ? "title: [oops\n" : "title: E\(step)\ndescription: D.\nsteps:\n  - items: [a, b]\n  - items: [b, a\(step)]\n")
            return ("steps of \(example)\(broken ? ", broken" : "")", [example])
        case 14:
            let added = "site/new/p\(step).md"
            try session.write(added, pageText("New \(step)", body: "## Setup\n\nNew page.\n"))
            pages.append(added)
            return ("added \(added)", [added])
        case 15...16:
            let both = Array(Set([page, pages.randomElement(using: &random)!])).sorted()
            for page in both { try session.write(page, try session.read(page) + "\nBoth \(step).\n") }
            return ("bodies of \(both)", both)
        default:
            // The home page stays (its removal is a file removed like any other).
            guard pages.count > 2, page != "site/index.md" else { return nil }
            try session.remove(page)
            pages.removeAll { $0 == page }
            return ("removed \(page)", [page])
        }
    }
}

@Suite("Incremental builds")
struct IncrementalBuildTests {
    /// The build after an edit equals a clean build of the same files.
    static func expectSameAsClean(_ session: EditSession, _ site: BuiltSite, _ context: String = "") {
        let clean = session.clean()
        #expect(EditSession.report(site) == EditSession.report(clean), "\(context)")
        #expect(site.hasErrors == clean.hasErrors, "\(context)")
        guard !clean.hasErrors else { return }
        #expect(Set(site.files.keys) == Set(clean.files.keys), "\(context)")
        for (path, bytes) in clean.files where site.files[path] != bytes {
            Issue.record("\(path) differs from a clean build's \(context)")
        }
    }

    @Test func aPageEdit_rendersThatPageAlone_andWritesOnlyItAndTheSearchIndex() throws {
        let session = try EditSession(editFiles)
        _ = session.build(changed: [])
        try session.write("site/guide/c.md", pageText("Gamma", body: "Plain page, edited.\n"))
        let site = session.build(changed: ["site/guide/c.md"])
        #expect(site.changedOutputs == ["guide/c.html", "search-index.js"])
        #expect(site.renderedCount == 1)
        Self.expectSameAsClean(session, site)
    }

    /// The home page's search entry is the index's: an edit of its body
    /// changes the search index (it stayed stale, and the cache kept it).
    @Test func anEditOfTheHomePage_updatesTheIndexAndItsSearchEntry() throws {
        let session = try EditSession(editFiles)
        _ = session.build(changed: [])
        try session.write("site/index.md", pageText("Home", body: "# Home\n\nSee [a](guide/a.md). Searchable words.\n"))
        let site = session.build(changed: ["site/index.md"])
        #expect(site.changedOutputs == ["index.html", "search-index.js"])
        #expect(String(decoding: site.files["search-index.js"] ?? [], as: UTF8.self).contains("Searchable words."))
        Self.expectSameAsClean(session, site)
    }

    @Test func aTitleChange_updatesEveryPagesNavigation() throws {
        let session = try EditSession(editFiles)
        let before = session.build(changed: [])
        try session.write("site/guide/c.md", pageText("Gamma, renamed", body: "Plain page.\n"))
        let site = session.build(changed: ["site/guide/c.md"])
        // The pages of its folder list it by title; every page's navigation
        // is a clean build's (the others show the folder, not its pages).
        for output in ["guide/a.html", "guide/b.html", "guide/c.html"] {
            let html = String(decoding: site.files[output] ?? [], as: UTF8.self)
            #expect(html.contains("Gamma, renamed"), "\(output) still shows the old title")
            #expect(site.files[output] != before.files[output], "\(output) was not made again")
            #expect(site.changedOutputs?.contains(output) == true)
        }
        Self.expectSameAsClean(session, site)
    }

    @Test func aRemovedAnchor_makesThePagesLinkingToItWarn_andItsReturnClearsThem() throws {
        let session = try EditSession(editFiles)
        #expect(!EditSession.report(session.build(changed: [])).contains { $0.contains("broken-link") || $0.contains("#setup") })
        try session.write("site/guide/a.md", pageText("Alpha", body: "## Install\n\nText.\n\n## Usage\n\nMore.\n"))
        let broken = session.build(changed: ["site/guide/a.md"])
        let warnings = EditSession.report(broken).filter { $0.contains("'#setup'") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("site/guide/b.md:4:") == true, "\(warnings)")
        // b.md itself did not change: its page is not written again.
        #expect(broken.changedOutputs?.contains("guide/b.html") == false)
        Self.expectSameAsClean(session, broken)
        try session.write("site/guide/a.md", pageText("Alpha", body: "## Setup\n\nText.\n"))
        let fixed = session.build(changed: ["site/guide/a.md"])
        #expect(!EditSession.report(fixed).contains { $0.contains("'#setup'") })
        Self.expectSameAsClean(session, fixed)
    }

    @Test func anEditedExample_rerendersThePagesShowingIt() throws {
        let session = try EditSession(editFiles)
        _ = session.build(changed: [])
        try session.write("examples/list.yml", "title: A list\ndescription: Rows move.\nsteps:\n  - items: [a, b, c]\n  - items: [b, c, a]\n")
        let site = session.build(changed: ["examples/list.yml"])
        let changed = Set(site.changedOutputs ?? [])
        #expect(changed.isSuperset(of: ["guide/b.html", "other/d.html", "examples/list.html", "examples/list.svg"]), "\(changed)")
        #expect(!changed.contains("guide/a.html") && !changed.contains("guide/c.html") && !changed.contains("examples/other.html"))
        Self.expectSameAsClean(session, site)
    }

    @Test func anEditThatBreaksAPage_failsAsACleanBuildFails_andTheFixBuildsAgain() throws {
        let session = try EditSession(editFiles)
        _ = session.build(changed: [])
        try session.write("site/guide/b.md", pageText("Beta", body: "```rowmotion\nexample: missing.yml\n```\n"))
        let failed = session.build(changed: ["site/guide/b.md"])
        #expect(failed.hasErrors)
        Self.expectSameAsClean(session, failed)
        try session.write("site/guide/b.md", pageText("Beta", body: "Fixed.\n"))
        let fixed = session.build(changed: ["site/guide/b.md"])
        #expect(!fixed.hasErrors)
        Self.expectSameAsClean(session, fixed)
    }

    /// A build that reads only the files whose stamp moved still knows
    /// what every input weighs (what the site may make is a multiple of
    /// it): a one-page edit of a 64 MiB site was refused as 64 times that page.
    @Test func aBuildFromTheCache_weighsEveryInput_notOnlyTheFilesItRead() throws {
        let session = try EditSession(editFiles)
        var options = session.options
        options.cache = session.path(".build/site.cache")
        var first: BuildMemo?
        var built = SiteBuilder.build(options, memo: &first)
        #expect(SiteBuilder.write(&built, options) != nil)
        let all = first?.sizes.values.reduce(0, +) ?? 0
        // Every file older than the cache's racy window (as it is a while
        // after a build): its stamp alone says whether it changed.
        var cache = BuildCache.load(from: options.cache)
        #expect(cache.files.count == first?.digests.count)
        cache.filesSeenAt += 10
        cache.save(to: options.cache!)
        try session.write("site/guide/c.md", pageText("Gamma", body: "Plain page, edited.\n"))
        var second: BuildMemo?
        let site = SiteBuilder.build(options, memo: &second)
        #expect(!site.hasErrors)
        #expect(site.changedOutputs == nil && site.renderedCount == 1, "only the edited page is rendered")
        #expect(second?.sizes.count == second?.digests.count)
        #expect(second?.sizes.values.reduce(0, +) == all + "Plain page, edited.\n".utf8.count - "Plain page.\n".utf8.count)
    }

    /// A build from the cache alone (the command line's) renders the
    /// navigation only for the outputs it renders again, and makes what a
    /// clean build makes: the edited page, the home page, every other page
    /// as the cache left it.
    @Test func aBuildFromTheCache_rendersTheNavigationOnlyForWhatItRenders() throws {
        let session = try EditSession(editFiles)
        var options = session.options
        options.cache = session.path(".build/site.cache")
        var built = SiteBuilder.build(options)
        #expect(SiteBuilder.write(&built, options) != nil)
        try session.write("site/guide/c.md", pageText("Gamma", body: "Plain page, edited.\n"))
        var memo: BuildMemo?
        let site = SiteBuilder.build(options, memo: &memo)
        #expect(!site.hasErrors && site.renderedCount == 1)
        let inputs = try #require(memo?.state?.inputs)
        let shown = try #require(memo?.state?.chromes.memo?.html.keys)
        #expect(Set(shown) == ["guide/c.html", "index.html"], "the navigation was rendered for \(shown.sorted())")
        #expect(memo?.navigation == nil, "a navigation of some outputs is not kept for the next build")
        #expect(inputs.pages.count == 5)
        Self.expectSameAsClean(session, site)
    }

    /// What the site folder on disk holds, by path (its marker aside).
    static func siteOnDisk(_ folder: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for entry in FolderWalk.entries(under: folder) where !entry.isFolder && entry.path != SiteWriter.marker {
            #expect(entry.isFile, "\(entry.path) is not a plain file")
            // Two names a String takes for one (`K`, U+212A) are two files: a twin would hide here.
            #expect(files[entry.path] == nil, "\(Array(entry.path.utf8)) has a twin in the site")
            files[entry.path] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(entry.path)))
        }
        return files
    }

    /// The command line's build (`keepsUnchangedPages`): pages, example
    /// pages and filmstrips go into the staging folder as they are
    /// rendered and are not held; after an edit,
    /// every page the site already holds stays there unread (linked into
    /// the new site) and only the edited one is written. Each time the site
    /// on disk is byte for byte what a clean build makes; a failed build
    /// leaves it as it was, with no staging folder beside it; a link in the
    /// old site means nothing is kept unread, and is not carried over.
    @Test func theCommandLinesBuild_writesPagesAsItRenders_andKeepsUnchangedPagesUnread() throws {
        let session = try EditSession(editFiles)
        var options = session.options
        options.cache = session.path(".build/site.cache")
        options.keepsUnchangedPages = true
        // (The whole build's path: an edit of a page's text alone is otherwise written in place.)
        options.editsInPlace = false
        let pages: Set = ["guide/a.html", "guide/b.html", "guide/c.html", "other/d.html",
                          "examples/list.html", "examples/list.svg", "examples/other.html", "examples/other.svg"]
        func expectOnDiskAsClean(_ context: String) throws {
            let clean = session.clean()
            #expect(try Self.siteOnDisk(options.out) == clean.files, "\(context)")
        }

        var first = SiteBuilder.build(options)
        #expect(first.staged == pages && first.kept.isEmpty)
        #expect(pages.allSatisfy { first.files[$0] == nil }, "a staged page is not held")
        #expect(first.files["index.html"] != nil && first.files["search-index.js"] != nil)
        #expect(SiteBuilder.write(&first, options) != nil)
        try expectOnDiskAsClean("first build")

        try session.write("site/guide/c.md", pageText("Gamma", body: "Plain page, edited.\n"))
        var second = SiteBuilder.build(options)
        #expect(second.kept == pages.subtracting(["guide/c.html"]))
        #expect(second.staged == ["guide/c.html"] && second.renderedCount == 1)
        #expect(SiteBuilder.write(&second, options) != nil)
        try expectOnDiskAsClean("after an edit")

        // Links into a kept example page are checked against the ids its
        // render found, which the cache kept: one step is there, one not.
        try session.write("site/guide/c.md", pageText("Gamma", body: "[one](../examples/list.html#step-1), [nine](../examples/list.html#step-9)\n"))
        var linking = SiteBuilder.build(options)
        #expect(linking.kept.contains("examples/list.html"))
        #expect(EditSession.report(linking) == EditSession.report(session.clean()))
        #expect(EditSession.report(linking).filter { $0.contains("step-9") }.count == 1)
        #expect(!EditSession.report(linking).contains { $0.contains("'#step-1'") })
        #expect(SiteBuilder.write(&linking, options) != nil)
        try expectOnDiskAsClean("after a link into an example")
        let before = try Self.siteOnDisk(options.out)

        try session.write("site/guide/a.md", pageText("Alpha", body: "```rowmotion\nexample: missing.yml\n```\n"))
        var failed = SiteBuilder.build(options)
        #expect(failed.hasErrors)
        #expect(SiteBuilder.write(&failed, options) == nil)
        #expect(try Self.siteOnDisk(options.out) == before, "a failed build leaves the site as it was")
        let beside = try FileManager.default.contentsOfDirectory(atPath: (options.out as NSString).deletingLastPathComponent)
        #expect(!beside.contains { $0.contains("rowmotion-new") }, "left \(beside)")

        try session.write("site/guide/a.md", pageText("Alpha", body: "## Setup\n\nText.\n\n## Usage\n\nMore.\n"))
        try FileManager.default.createSymbolicLink(atPath: (options.out as NSString).appendingPathComponent("planted.html"),
                                                   withDestinationPath: session.path("site/guide/a.md"))
        var third = SiteBuilder.build(options)
        #expect(third.kept.isEmpty, "a site with a link in it is read, not trusted")
        #expect(SiteBuilder.write(&third, options) != nil)
        try expectOnDiskAsClean("after a link was planted")
    }

    /// The command line's build takes a page whose stamp did not move
    /// from the cache's record of it, unread (`PageRecord`): after an
    /// edit of one page's body the others are records; a title changed
    /// elsewhere renders them all again, each read then; what it writes is
    /// what a clean build writes. A record whose file is no longer the one
    /// it was made from is refused when read; a title with a tab is not
    /// recorded (its page is read every time).
    @Test func theCommandLinesBuild_takesUnchangedPagesFromTheirRecords_andReadsThemWhenItRendersThem() throws {
        let session = try EditSession(editFiles)
        var options = session.options
        options.cache = session.path(".build/site.cache")
        options.keepsUnchangedPages = true
        // (The whole build's path: an edit of a page's text alone is otherwise written in place.)
        options.editsInPlace = false
        // Every file older than the cache's racy window, as it is a while
        // after a build: its stamp alone says whether it changed.
        func buildTrustingStamps(_ context: String) throws -> BuildMemo? {
            var cache = BuildCache.load(from: options.cache)
            cache.filesSeenAt += 10
            cache.save(to: options.cache!)
            var memo: BuildMemo?
            var site = SiteBuilder.build(options, memo: &memo)
            #expect(!site.hasErrors, "\(context): \(EditSession.report(site))")
            #expect(SiteBuilder.write(&site, options) != nil)
            #expect(try Self.siteOnDisk(options.out) == session.clean().files, "\(context)")
            #expect(EditSession.report(site) == EditSession.report(session.clean()), "\(context)")
            return memo
        }
        func records(_ memo: BuildMemo?) -> Set<String> {
            Set((memo?.loaded.pages ?? [:]).filter { $0.value.value?.isRecord == true }.keys)
        }
        var first = SiteBuilder.build(options)
        #expect(SiteBuilder.write(&first, options) != nil)

        try session.write("site/guide/c.md", pageText("Gamma", body: "Plain page, edited.\n"))
        let edited = try buildTrustingStamps("a body edited")
        #expect(records(edited) == ["guide/a.md", "guide/b.md", "other/d.md"], "the home page and the edited one are read")

        try session.write("site/guide/c.md", pageText("Gamma, renamed", body: "Plain page, edited.\n"))
        let renamed = try buildTrustingStamps("a title changed")
        #expect(records(renamed) == ["guide/a.md", "guide/b.md", "other/d.md"])

        // b.md links to a.md#setup: a kept page whose target lost the
        // anchor warns (its links checked again), and stops when it is back;
        // a kept page whose targets were not made again keeps its warnings.
        try session.write("site/guide/a.md", pageText("Alpha", body: "## Install\n\nText.\n"))
        var memo = try buildTrustingStamps("an anchor removed")
        #expect(records(memo).contains("guide/b.md"))
        var warned = EditSession.report(session.clean()).filter { $0.contains("#setup") }
        #expect(warned.count == 1 && warned[0].contains("guide/b.md"), "\(warned)")
        try session.write("site/guide/c.md", pageText("Gamma, renamed", body: "Edited again.\n"))
        memo = try buildTrustingStamps("another page edited, the anchor still missing")
        warned = EditSession.report(session.clean()).filter { $0.contains("#setup") }
        #expect(warned.count == 1)
        try session.write("site/guide/a.md", pageText("Alpha", body: "## Setup\n\nText.\n"))
        _ = try buildTrustingStamps("the anchor back")

        try session.write("site/guide/a.md", pageText("Alpha\twith a tab", body: "## Setup\n\nText.\n"))
        _ = try buildTrustingStamps("a title with a tab")
        try session.write("site/other/d.md", pageText("Delta", body: "Also shows it, edited.\n\n```rowmotion\nexample: list.yml\n```\n"))
        let untabbed = try buildTrustingStamps("another page edited since")
        #expect(!records(untabbed).contains("guide/a.md"), "a record with a tab is not kept")
        #expect(records(untabbed).contains("guide/b.md"))

        let cache = BuildCache.load(from: options.cache)
        let record = try #require(cache.pages["guide/b.md"])
        var stale = record.page(source: session.path("site/guide/b.md"), path: "guide/b.md")
        stale.sourceKey = String(repeating: "0", count: 64)
        let tree = InputTree.onDisk([options.site], in: Project(root: session.project.root.path, isGitWorkTree: false))
        guard case .failure(let error) = SiteLoading.read(stale, in: tree[options.site], urls: .plain) else {
            Issue.record("a record of other bytes was read as the page")
            return
        }
        #expect(error.id == "changed-during-build")
        guard case .success(let read) = SiteLoading.read(record.page(source: session.path("site/guide/b.md"), path: "guide/b.md"),
                                                         in: tree[options.site], urls: .plain) else {
            Issue.record("the record's own page was refused")
            return
        }
        #expect(!read.isRecord && read.markdown.source.contains("Read [Alpha's setup]"))
    }

    /// Edits as a writer makes them, in any order: bodies, titles, anchors,
    /// examples shown or not, pages added and removed, files broken and
    /// fixed. After each, the build from the model equals a clean build.
    @Test func randomEdits_alwaysBuildWhatACleanBuildBuilds() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["ROWMOTION_FUZZ_SEED"] ?? "") ?? 1
        let edits = ProcessInfo.processInfo.environment["ROWMOTION_EDIT_CASES"].flatMap(Int.init) ?? 100
        print("randomEdits_alwaysBuildWhatACleanBuildBuilds: seed \(seed), \(edits) edits (ROWMOTION_FUZZ_SEED, ROWMOTION_EDIT_CASES)")
        let session = try EditSession(editFiles)
        _ = session.build(changed: [])
        var writer = RandomEdits(seed: seed)
        for step in 0..<edits {
            guard let (what, changed) = try writer.apply(step: step, to: session) else { continue }
            let site = session.build(changed: changed)
            Self.expectSameAsClean(session, site, "after edit \(step) (\(what)), seed \(seed)")
        }
    }
}
