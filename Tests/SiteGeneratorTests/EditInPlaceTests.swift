import Diagnostics
import Foundation
import ProjectFiles
import SeededRandom
@testable import SiteGenerator
import Testing

/// The command line's build after an edit of some pages' text alone
/// (`FullBuild.edit`): those pages and the search index written in place,
/// the cache patched. Every build here is held to a clean build of the same
/// files (`CommandLineBuildTests.Project.build`: the site on disk and the
/// warnings), and the edits that reach beyond a page are built whole.
@Suite("Edits written in place")
struct EditInPlaceTests {
    typealias Project = CommandLineBuildTests.Project

    /// Builds once as a whole, then applies `edit` and builds again: whether
    /// the second build was written in place.
    static func editedInPlace(_ context: String, files: [(String, String)] = editFiles,
                              _ edit: (EditSession) throws -> Void) throws -> (Project, BuiltSite) {
        let project = try Project(files)
        try project.build("first (\(context))")
        try edit(project.session)
        let site = try Self.build(project, context)
        return (project, site)
    }

    /// `project.build`, with why it was built whole (what `--verbose` says) in the failure's context.
    static func build(_ project: Project, _ context: String, trustingStamps: Bool = true) throws -> BuiltSite {
        let notes = Locked<[String]>([])
        project.options.progress = { event in if case .note(let text) = event { notes.withLock { $0.append(text) } } }
        defer { project.options.progress = nil }
        let site = try project.build("\(context) \(notes.withLock { $0 })", trustingStamps: trustingStamps)
        if !notes.withLock({ $0.isEmpty }) { print("\(context): \(notes.withLock { $0 })") }
        return site
    }

    @Test func anEditOfAPagesText_writesThatPageAndTheSearchIndexInPlace() throws {
        let (project, site) = try Self.editedInPlace("a body edited") { session in
            try session.write("site/guide/c.md", pageText("Gamma", body: "Plain page, edited in place.\n"))
        }
        let edit = try #require(site.edit, "written in place")
        #expect(edit.files.keys.sorted() == ["guide/c.html", "search-index.js"])
        #expect(site.renderedCount == 1 && site.staged.isEmpty && site.kept.isEmpty)
        // No swap: the site is the same folder (its marker's stamp), and no spare was made.
        #expect(SiteFolder.stamp(of: project.options.out) == edit.siteStamp)
        #expect(!FileManager.default.fileExists(atPath: SpareSiteTests.spare(of: project)))
        // The cache describes the site as it now is: its seal is the walk's,
        // and with nothing changed the next build knows it from the header.
        let header = try #require(SpareSiteTests.header(project))
        #expect(header.siteSeal == SiteFolder.seal(of: project.options.out))
        let again = try project.build("nothing changed since")
        #expect(again.unchanged && again.edit == nil)
    }

    /// The cache an edit patches in place reads as the one the whole build
    /// of the same edit writes: every entry (key, Document, search entry,
    /// link targets, warnings, size), page and example record, input
    /// digest, the outputs' shared key, what the build reported.
    @Test(arguments: [
        ("a body edited", "site/guide/c.md", pageText("Gamma", body: "Plain page, edited.\n")),
        ("a heading renamed, linked into", "site/guide/a.md", pageText("Alpha", body: "## Setup\n\nText.\n\n## Use\n\nMore.\n")),
        ("an example shown again", "site/guide/c.md", pageText("Gamma", body: "Now a player.\n\n```rowmotion\nexample: list.yml\n```\n")),
    ])
    func theCacheAnEditPatches_isTheOneTheWholeBuildWrites(context: String, path: String, text: String) throws {
        let (project, site) = try Self.editedInPlace(context) { try $0.write(path, text) }
        #expect(site.edit != nil, "\(context)")
        let patched = BuildCache.load(from: project.options.cache)
        // The same inputs built whole, from nothing (the site and the cache removed).
        try FileManager.default.removeItem(atPath: project.options.out)
        try FileManager.default.removeItem(atPath: project.options.cache!)
        try project.build("\(context), built whole")
        let whole = BuildCache.load(from: project.options.cache)
        #expect(!patched.entries.isEmpty && patched.entries == whole.entries, "\(context)")
        #expect(patched.pages == whole.pages && patched.examples == whole.examples, "\(context)")
        #expect(patched.files.mapValues(\.digest) == whole.files.mapValues(\.digest), "\(context)")
        #expect(Set(patched.written.keys) == Set(whole.written.keys), "\(context)")
        #expect(patched.inputKey == whole.inputKey && patched.globalKey == whole.globalKey && patched.globalKey != nil, "\(context)")
        #expect(patched.diagnostics == whole.diagnostics && patched.pageCount == whole.pageCount && patched.exampleCount == whole.exampleCount)
    }

    /// Which edits are written in place, and which reach beyond their page
    /// and are built whole; either way the site is a clean build's.
    @Test(arguments: [
        // (What is edited, the file, its new text, whether in place.)
        ("a body", "site/guide/c.md", pageText("Gamma", body: "Edited.\n"), true),
        ("a heading linked into, the link still good", "site/guide/a.md", pageText("Alpha", body: "## Setup\n\nText.\n\n## Using it\n\nMore.\n"), true),
        ("an example another page shows, shown here too", "site/guide/c.md", pageText("Gamma", body: "```rowmotion\nexample: list.yml\n```\n"), true),
        ("a link to a page's heading", "site/guide/c.md", pageText("Gamma", body: "See [usage](a.md#usage).\n"), true),
        ("a title", "site/guide/c.md", pageText("Gamma, renamed", body: "Plain page.\n"), false),
        ("an order", "site/guide/c.md", "---\ntitle: Gamma\norder: 1\n---\nPlain page.\n", false),
        ("an alias", "site/guide/c.md", "---\ntitle: Gamma\naliases: [/old-gamma/]\n---\nPlain page.\n", false),
        ("a draft", "site/guide/c.md", "---\ntitle: Gamma\ndraft: true\n---\nPlain page.\n", false),
        ("a heading linked into, removed", "site/guide/a.md", pageText("Alpha", body: "## Install\n\nText.\n"), false),
        ("a broken link", "site/guide/c.md", pageText("Gamma", body: "See [nothing](nowhere.md).\n"), false),
        ("a broken fragment", "site/guide/c.md", pageText("Gamma", body: "See [nothing](a.md#nowhere).\n"), false),
        ("an example no page showed", "site/guide/c.md", pageText("Gamma", body: "```rowmotion\nexample: other.yml\n```\n"), false),
        ("the home page", "site/index.md", pageText("Home", body: "# Home\n\nSee [a](guide/a.md), edited.\n"), false),
        ("an example", "examples/other.yml", "title: Other\ndescription: Edited.\nsteps:\n  - items: [x]\n  - items: [y, x]\n", false),
        ("a static file", "site/notes.txt", "Other notes.\n", false),
        ("a missing example shown", "site/guide/c.md", pageText("Gamma", body: "```rowmotion\nexample: gone.yml\n```\n"), false),
    ])
    func editsThatReachBeyondThePage_areBuiltWhole(what: String, path: String, text: String, inPlace: Bool) throws {
        let (_, site) = try Self.editedInPlace(what, files: editFiles + [("site/notes.txt", "Notes.\n")]) { session in
            try session.write(path, text)
        }
        #expect((site.edit != nil) == inPlace, "\(what)")
    }

    /// A page, or the home page, whose link into another page warned (no
    /// such heading): the edit that adds the heading mends the warning (the
    /// site is a clean build's, warnings included), whether written in place or not.
    @Test(arguments: ["site/index.md", "site/guide/c.md"])
    func anEditThatMendsALinkIntoIt_dropsTheWarning(from linking: String) throws {
        let files = editFiles.map { $0.0 == linking ? ($0.0, pageText($0.0 == "site/index.md" ? "Home" : "Gamma",
                                                                       body: "See [later](/guide/a.md#later).\n")) : $0 }
        let (project, site) = try Self.editedInPlace("a heading added where \(linking) links", files: files) { session in
            try session.write("site/guide/a.md", pageText("Alpha", body: "## Setup\n\nText.\n\n## Later\n\nMore.\n"))
        }
        #expect(!EditSession.report(site).contains { $0.contains("later") }, "\(linking)")
        _ = project
    }

    /// Found by the attack on the edit path: an example named with a comma
    /// (`list.yml,other.yml`) passed, in the cache's list of the examples a
    /// page shows, for the two examples it names, and an edit that left
    /// `list.yml` with no page showing it kept no warning (with a home page
    /// without the gallery, every example needs a page).
    @Test func anExampleNamedWithAComma_isOneExample() throws {
        let index = try #require(DefaultTheme.files["index.mustache"])
        let start = try #require(index.range(of: "<section class=\"gallery\"")), end = try #require(index.range(of: "</section>", range: start.upperBound..<index.endIndex))
        let list = try #require(editFiles.first { $0.0 == "examples/list.yml" }).1
        let files = editFiles + [("examples/list.yml,other.yml", list), ("templates/index.mustache", index.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")),
                                 ("site/guide/c.md", pageText("Gamma", body: "```rowmotion\nexample: \"list.yml,other.yml\"\n```\n\n```rowmotion\nexample: other.yml\n```\n"))]
        let (_, site) = try Self.editedInPlace("the last pages showing list.yml show other.yml", files: files) { session in
            try session.write("site/guide/b.md", pageText("Beta", body: "Read [Alpha's setup](a.md#setup).\n\n```rowmotion\nexample: other.yml\n```\n"))
            try session.write("site/other/d.md", pageText("Delta", body: "Also shows it.\n\n```rowmotion\nexample: other.yml\n```\n"))
        }
        #expect(EditSession.report(site).contains { $0.contains("list.yml:1:1: warning") && $0.contains("no page shows this example") })
    }

    /// Found by the attack: the same files read with the folders' roles
    /// changed (a folder both the site and the theme's, say) passed for the
    /// cache's build, and an edit wrote half a site of each. Which folder is
    /// which is part of what the cache's key says the build read.
    @Test func theSameFilesInOtherRoles_areAnotherSite() throws {
        let project = try Project(editFiles)
        try project.build("first")
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited as the theme's folder changes.\n"))
        project.options.templates = project.options.site
        let site = try Self.build(project, "the site's folder is the theme's too")
        #expect(site.edit == nil)
    }

    /// Found by the attack: an empty folder added to the site by hand was
    /// kept (the site's seal listed its files alone). Its folders are sealed
    /// too: the edit after it is built whole, and the folder goes.
    @Test func anEmptyFolderAddedToTheSite_isNotTheBuildsAndGoes() throws {
        let project = try Project(editFiles)
        try project.build("first")
        try FileManager.default.createDirectory(atPath: project.options.out + "/junk", withIntermediateDirectories: false)
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited after a folder was added.\n"))
        let site = try Self.build(project, "an edit after an empty folder was added to the site")
        #expect(site.edit == nil && !FileManager.default.fileExists(atPath: project.options.out + "/junk"))
        let again = try project.build("nothing changed since")
        #expect(again.unchanged)
    }

    /// Found by the second attack: a build killed while saving its cache
    /// left the cache's temporary copy (20 MB on 10,000 pages) for good.
    /// The next save removes a copy whose process is gone, never one of a
    /// process still running.
    @Test func aCacheCopyLeftByAKilledBuild_isRemovedByTheNextSave() throws {
        let project = try Project(editFiles)
        try project.build("first")
        let cache = URL(fileURLWithPath: project.options.cache!)
        func copy(of pid: Int32) -> String { cache.deletingLastPathComponent().appendingPathComponent(".\(cache.lastPathComponent).rowmotion-\(pid)-7").path }
        // A process id no process has (the highest the kernel hands out is far below it).
        var gone: Int32 = 4_000_000
        while kill(gone, 0) == 0 || errno != ESRCH { gone += 1 }
        for pid in [gone, getppid()] { try Data("a copy".utf8).write(to: URL(fileURLWithPath: copy(of: pid))) }
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited after a killed save.\n"))
        try project.build("an edit after a build was killed saving its cache")
        #expect(!FileManager.default.fileExists(atPath: copy(of: gone)), "a dead build's copy stays")
        #expect(FileManager.default.fileExists(atPath: copy(of: getppid())), "a running process's copy was removed")
    }

    /// Two pages edited at once, one linking into the other's new heading.
    @Test func twoPagesEditedAtOnce_areBothWrittenInPlace() throws {
        let (_, site) = try Self.editedInPlace("two pages") { session in
            try session.write("site/guide/a.md", pageText("Alpha", body: "## Setup\n\nText.\n\n## Next steps\n\nMore.\n"))
            try session.write("site/guide/c.md", pageText("Gamma", body: "See [next](a.md#next-steps).\n"))
        }
        #expect(site.edit?.files.keys.sorted() == ["guide/a.html", "guide/c.html", "search-index.js"])
    }

    /// What the site on disk holds is trusted only while it is the cache's
    /// build's, file for file: a page rewritten by hand, a file added, a
    /// link planted in place of a page, the search index changed: each
    /// edit after that is built whole, and nothing is written through the link.
    @Test(arguments: ["a page rewritten", "a file added", "a link planted", "the search index changed"])
    func aSiteChangedSinceItsBuild_isNeverWrittenInPlace(change: String) throws {
        let project = try Project(editFiles)
        try project.build("first")
        let out = project.options.out
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-outside-\(UUID().uuidString).html").path
        try Data("outside".utf8).write(to: URL(fileURLWithPath: outside))
        defer { try? FileManager.default.removeItem(atPath: outside) }
        switch change {
        case "a page rewritten": try Data("<p>by hand</p>".utf8).write(to: URL(fileURLWithPath: out + "/guide/a.html"))
        case "a file added": try Data("added".utf8).write(to: URL(fileURLWithPath: out + "/guide/added.html"))
        case "a link planted":
            try FileManager.default.removeItem(atPath: out + "/guide/c.html")
            try FileManager.default.createSymbolicLink(atPath: out + "/guide/c.html", withDestinationPath: outside)
        default: try Data("window.RowmotionSearchIndex = [];\n".utf8).write(to: URL(fileURLWithPath: out + "/search-index.js"))
        }
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited after the site changed.\n"))
        let site = try project.build("an edit after \(change)")
        #expect(site.edit == nil, "\(change)")
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "outside")
    }

    /// Edits as a writer makes them, in any order, each built as the
    /// command line builds (in place where it can) and held to a clean
    /// build; most of them are written in place. `ROWMOTION_FUZZ_SEED` and
    /// `ROWMOTION_EDIT_CASES` replay and widen it (`make fuzz`).
    @Test func randomEdits_fromTheCommandLine_alwaysBuildWhatACleanBuildBuilds() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["ROWMOTION_FUZZ_SEED"] ?? "") ?? 1
        let edits = ProcessInfo.processInfo.environment["ROWMOTION_EDIT_CASES"].flatMap(Int.init) ?? 60
        print("randomEdits_fromTheCommandLine_alwaysBuildWhatACleanBuildBuilds: seed \(seed), \(edits) edits (ROWMOTION_FUZZ_SEED, ROWMOTION_EDIT_CASES)")
        let project = try Project(editFiles)
        try project.build("first")
        var writer = RandomEdits(seed: seed)
        var inPlace = 0
        for step in 0..<edits {
            guard let (what, _) = try writer.apply(step: step, to: project.session) else { continue }
            // Half of the builds a while after the edit (every stamp settled), half right after it.
            let site = try Self.build(project, "after edit \(step) (\(what)), seed \(seed)", trustingStamps: Bool.random(using: &writer.random))
            if site.edit != nil { inPlace += 1 }
        }
        print("randomEdits_fromTheCommandLine_alwaysBuildWhatACleanBuildBuilds: \(inPlace) of \(edits) written in place")
        #expect(inPlace >= edits / 10, "too few edits took the in-place path to prove it (seed \(seed))")
    }
}
