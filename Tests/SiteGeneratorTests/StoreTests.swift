import BuildGraph
import Diagnostics
import Foundation
import ProjectFiles
import SeededRandom
@testable import SiteGenerator
import Testing

/// The command line's store, and the site it describes, against what a
/// pull request or a hand can put where they are: each build is held to a
/// clean build of the same files (the site on disk and the warnings are
/// what `--no-cache` gives, whatever came before), and a store is taken
/// only while it and the site are its build's.
@Suite("The command line's store")
struct StoreTests {
    /// A project built as `rowmotion build` builds it, its file stamps
    /// trusted (as they are a while after a build).
    final class Project {
        let session: EditSession
        var options: BuildOptions
        /// Each build from nothing, through the staging folder (its store removed first).
        var wholeBuilds = false

        init(_ files: [(String, String)]) throws {
            session = try EditSession(files)
            options = session.options
            options.project = ProjectFiles.Project(root: session.project.root.path, isGitWorkTree: false)
            options.cache = session.path(".build/site.cache")
            options.keepsUnchangedPages = true
        }

        /// Builds as `rowmotion build` does, `trustingStamps` as a while
        /// after the last build, and holds the site to a clean build's.
        @discardableResult
        func build(_ context: String, trustingStamps: Bool = true) throws -> BuiltSite {
            options.racyWindow = trustingStamps ? -10 : 2
            if wholeBuilds, let cache = options.cache { try? FileManager.default.removeItem(atPath: cache) }
            var site = SiteBuilder.build(options)
            let clean = SiteBuilder.build(cleanOptions)
            #expect(EditSession.report(site) == EditSession.report(clean), "\(context)")
            guard !site.hasErrors else { return site }
            #expect(SiteBuilder.write(&site, options) != nil, "\(context): \(site.diagnostics)")
            let onDisk = try siteOnDisk(options.out)
            let differences = "\(Set(onDisk.keys).symmetricDifference(clean.files.keys).map { Array($0.unicodeScalars) }), "
                + "\(onDisk.filter { clean.files[$0.key] != nil && clean.files[$0.key] != $0.value }.keys.sorted())"
            if onDisk != clean.files { Issue.record("\(context): the site on disk is not a clean build's: \(differences)") }
            return site
        }

        var cleanOptions: BuildOptions {
            var clean = session.options
            clean.siteByteLimit = options.siteByteLimit
            clean.urls = options.urls
            clean.allowEmpty = options.allowEmpty
            (clean.baseURL, clean.drafts) = (options.baseURL, options.drafts)
            clean.out = session.path("_clean")
            return clean
        }

        /// The record of the site in the project's store, when the store is taken.
        var record: SiteStore.Record? {
            SiteStore.load(options.cache!, options: options, project: options.project!, rules: SiteOutputs.rules)?.record
        }
    }

    /// Pages the store holds count against the site's limit as if they
    /// were made again: pages grown one at a time past the limit fail as
    /// a clean build of them fails.
    @Test func storedPages_countAgainstTheSitesLimit() throws {
        let body = String(repeating: "Text of some length. ", count: 200)
        let project = try Project(editFiles + [("site/big1.md", pageText("Big 1", body: body)), ("site/big2.md", pageText("Big 2", body: body))])
        let first = try project.build("first")
        // What the limit counts: pages, example pages and filmstrips.
        let total = try siteOnDisk(project.options.out).filter { $0.key != "index.html" && ($0.key.hasSuffix(".html") || $0.key.hasSuffix(".svg")) }
            .values.reduce(0) { $0 + $1.count }
        #expect(!first.hasErrors)
        project.options.siteByteLimit = total + body.utf8.count / 2
        try project.build("under the limit")
        try project.session.write("site/big1.md", pageText("Big 1", body: body + body + body))
        let past = try project.build("one page grown past the limit")
        #expect(past.diagnostics.contains { $0.id == "site-too-large" }, "\(EditSession.report(past))")
    }

    /// A page moved into its folder's own page with pretty URLs keeps its
    /// address and its bytes, but not its folder or its place in the
    /// navigation: it is made again.
    @Test func aPageMovedIntoItsSectionPage_isMadeAgain() throws {
        let project = try Project([("site/index.md", pageText("Home", body: "Home.\n")),
                                   ("site/a.md", pageText("A", body: "A.\n")),
                                   ("site/b.md", pageText("B", body: "[a](a.md)\n"))])
        project.options.urls = .pretty
        try project.build("first")
        try FileManager.default.createDirectory(atPath: project.session.path("site/b"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: project.session.path("site/b.md"), toPath: project.session.path("site/b/index.md"))
        let moved = try project.build("moved")
        #expect((moved.derived["page-render"] ?? 0) >= 1)
    }

    /// A title's fields are read apart: a `|` in a title cannot stand for the next field.
    @Test func aTitleWithABar_cannotPassForAnotherNavigation() throws {
        let project = try Project([("site/index.md", pageText("Home", body: "Home.\n")),
                                   ("site/a.md", "---\ntitle: \"T|1\"\n---\nA.\n"), ("site/b.md", pageText("B", body: "B.\n"))])
        try project.build("first")
        try project.session.write("site/a.md", "---\ntitle: \"T\"\norder: 1\nlinkTitle: \"-1|\"\n---\nA.\n")
        try project.build("the same fields joined, other fields")
    }

    /// A static file's new bytes are written, even when every page is the
    /// same and the file is an SVG (counted with the filmstrips).
    @Test func aStaticFilesNewBytes_areWritten() throws {
        let project = try Project([("site/index.md", pageText("Home", body: "Home.\n")), ("site/logo.svg", "<svg>one</svg>")])
        try project.build("first")
        try project.build("nothing changed")
        try project.session.write("site/logo.svg", "<svg>two</svg>")
        try project.build("the picture changed")
        #expect(try project.session.read("_site/logo.svg") == "<svg>two</svg>")
    }

    /// A folder of the site whose name is not UTF-8 is not walked into, so
    /// the site is not the store's: a link planted there is not published.
    @Test func aFolderWithABadName_inTheSite_makesItUntrusted() throws {
        let project = try Project(editFiles)
        try project.build("first")
        // A name of one byte 0xFF, made through the C API (a Swift string cannot hold it).
        var name = Array(project.options.out.utf8) + [UInt8(ascii: "/"), 0xFF, 0]
        #expect(name.withUnsafeMutableBufferPointer { mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755) } == 0)
        var link = Array(project.options.out.utf8) + [UInt8(ascii: "/"), 0xFF] + Array("/p.html".utf8) + [0]
        #expect(link.withUnsafeMutableBufferPointer { symlink("/etc/passwd", UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) } == 0)
        #expect(project.record == nil, "the store is not taken")
        let again = try project.build("a link planted in a folder with a bad name")
        #expect(!again.unchanged)
        #expect(!FolderWalk.entries(under: project.options.out).contains { $0.isBadName || $0.isLink })
    }

    /// A file of the site changed or added after the build that wrote it
    /// (a checkout onto a kept workspace, a hand edit) is not that build's:
    /// the next build, nothing changed or one page edited, writes the site
    /// a clean build writes, the changed file's bytes replaced and the
    /// added file gone.
    @Test func aSiteFileChangedOrAddedSinceItsBuild_isNeverKept() throws {
        let project = try Project(editFiles)
        try project.build("first")
        try project.build("nothing changed")
        let page = project.options.out + "/guide/a.html"
        try Data("<p>planted</p>".utf8).write(to: URL(fileURLWithPath: page))
        try Data("<p>phish</p>".utf8).write(to: URL(fileURLWithPath: project.options.out + "/phish.html"))
        let again = try project.build("a page overwritten and a file added, nothing else changed")
        #expect(!again.unchanged)
        #expect(!FileManager.default.fileExists(atPath: project.options.out + "/phish.html"))
        // Overwritten in place (the same inode), then a page elsewhere edited.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: page))
        try handle.write(contentsOf: Data("<p>planted again</p>".utf8))
        try handle.close()
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited.\n"))
        try project.build("a page overwritten in place, another edited")
    }

    /// A store that cannot be saved (its folder is a link) fails the build
    /// before the new site takes the old one's place.
    @Test func aStoreThatCannotBeSaved_leavesTheOldSite() throws {
        let project = try Project(editFiles)
        try project.build("first")
        let before = try siteOnDisk(project.options.out)
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-outside-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.removeItem(atPath: project.session.path(".build"))
        try FileManager.default.createSymbolicLink(atPath: project.session.path(".build"), withDestinationPath: outside)
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited.\n"))
        var site = SiteBuilder.build(project.options)
        #expect(SiteBuilder.write(&site, project.options) == nil)
        #expect(site.diagnostics.contains { $0.id == "symbolic-link" })
        #expect(try siteOnDisk(project.options.out) == before, "the old site stays")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    /// A site killed between its swap's two renames (the old one moved
    /// aside, the new one not yet in place) is put back by the next build,
    /// even one that fails.
    @Test func aSiteKilledMidSwap_isPutBack() throws {
        let project = try Project(editFiles)
        try project.build("first")
        let before = try siteOnDisk(project.options.out)
        let parent = (project.options.out as NSString).deletingLastPathComponent
        let retired = parent + "/._site.rowmotion-old-999999-1"
        #expect(rename(project.options.out, retired) == 0)
        try project.session.write("site/guide/a.md", pageText("Alpha", body: "```rowmotion\nexample: missing.yml\n```\n"))
        var failed = SiteBuilder.build(project.options)
        #expect(failed.hasErrors)
        #expect(SiteBuilder.write(&failed, project.options) == nil)
        _ = try SiteWriter.Staging.open(project.options.out, in: ProjectFiles.Project(root: parent, isGitWorkTree: false)).discard()
        #expect(try siteOnDisk(project.options.out) == before)
        #expect(!FileManager.default.fileExists(atPath: retired))
    }

    /// The stamps a build records of its site (taken in the staging folder
    /// before the swap, or of the files an edit rewrote) are the ones a
    /// walk of the site finds.
    @Test(arguments: [false, true]) func theStampsRecorded_areTheWalks(whole: Bool) throws {
        let project = try Project(editFiles)
        project.wholeBuilds = whole
        try project.build("first")
        for round in 1...3 {
            try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edit \(round).\n"))
            try project.build("edit \(round)")
            project.wholeBuilds = false
            let recorded = try #require(project.record, "edit \(round): the store is taken").written
            project.wholeBuilds = whole
            let walked = SiteFolder.files(of: project.options.out) ?? [:]
            #expect(Set(recorded.keys) == Set(walked.keys), "edit \(round)")
            for (path, stamp) in walked {
                #expect(recorded[path].map { $0.sameContent(as: stamp) } == true, "\(path) after edit \(round)")
            }
        }
    }

    /// An example is read only where something made again shows it: a
    /// page edited that shows none reads no example, one that shows
    /// `list.yml` reads that one; an edited example is read again.
    @Test func anUnchangedExample_isReadOnlyWhereSomethingMadeAgainShowsIt() throws {
        let project = try Project(editFiles)
        try project.build("first")
        let edits: [(String, String, String, read: Int)] = [
            ("a page that shows no example", "site/guide/c.md", pageText("Gamma", body: "Edited.\n"), 0),
            ("a page that shows list.yml", "site/other/d.md", pageText("Delta", body: "Edited.\n\n```rowmotion\nexample: list.yml\n```\n"), 1),
            ("an example", "examples/other.yml", "title: Other\ndescription: Edited.\nsteps:\n  - items: [x]\n  - items: [y, x]\n", 1),
        ]
        for (change, file, text, read) in edits {
            try project.session.write(file, text)
            let site = try project.build(change)
            #expect(site.derived["example"] ?? 0 == read, "\(change): \(site.derived)")
        }
    }

    /// Found by an attack: a page and the example it shows renamed from
    /// the composed spelling of their name to the decomposed one (which a
    /// copy between macOS and Linux can do) left records under the old
    /// bytes (a `String` takes both for one key). The store keys by the
    /// bytes its build saw.
    @Test func namesRespelledInOtherNormalForms_buildAsACleanBuildDoes() throws {
        let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
        let project = try Project([
            ("site/index.md", pageText("Home", body: "Home.\n")),
            ("site/\(composed).md", pageText("Page", body: "```rowmotion\nexample: \(composed).yml\n```\n")),
            ("examples/\(composed).yml", "title: Cafe\nsteps:\n  - items: [a, b]\n  - items: [b, a]\n"),
        ])
        try project.build("first")
        try FileManager.default.moveItem(atPath: project.session.path("examples/\(composed).yml"), toPath: project.session.path("examples/\(decomposed).yml"))
        try project.build("the example respelled")
        try FileManager.default.moveItem(atPath: project.session.path("site/\(composed).md"), toPath: project.session.path("site/\(decomposed).md"))
        try project.build("the page respelled")
        try project.session.write("site/index.md", pageText("Home", body: "Home, edited.\n"))
        let edited = try project.build("the home page edited")
        #expect(!edited.hasErrors, "\(edited.diagnostics)")
    }

    /// An attack found: a build that stopped at "nothing changed" gave the
    /// empty site an `--allow-empty` build had made to a build without it
    /// (the options are in the store's identity).
    @Test func anEmptySite_failsWithoutAllowEmpty_afterOneThatAllowedIt() throws {
        let project = try Project([("site/.keep", ""), ("examples/.keep", "")])
        project.options.allowEmpty = true
        try project.build("allowed empty")
        project.options.allowEmpty = false
        let site = SiteBuilder.build(project.options)
        #expect(site.diagnostics.contains { $0.id == "empty-site" }, "\(site.diagnostics)")
    }

    /// A build with nothing to do derives nothing and writes nothing, and
    /// reports what the build before it reported (a warning here); a store
    /// cut short is no store, and the build after it is a clean one.
    @Test func nothingChanged_derivesNothing_andAStoreCutShortIsNone() throws {
        let project = try Project(editFiles + [("site/warn.md", pageText("Warn", body: "See [gone](nowhere.md).\n"))])
        let first = try project.build("first")
        let again = try project.build("nothing changed")
        #expect(again.unchanged && again.derived.isEmpty && again.pageCount == 6 && again.exampleCount == 2, "\(again.derived)")
        #expect(again.diagnostics == first.diagnostics && !again.diagnostics.isEmpty)
        let path = try #require(project.options.cache)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        #expect(project.record == nil)
        let cut = try project.build("nothing changed, the store cut in half")
        #expect(!cut.unchanged && cut.derived["page-render"] == 6, "\(cut.derived)")
    }

    /// The store is never taken for inputs, options or a site that
    /// changed, however little: a page rewritten at its size with its
    /// modification time put back (its change time moved), a page renamed,
    /// another base URL or `--drafts`, a site file rewritten at its size,
    /// a site file added. Each build is held to a clean one's, and the one
    /// after it, with nothing changed, derives nothing.
    @Test func theStore_isNeverTakenForAnythingThatChanged() throws {
        let project = try Project(editFiles)
        try project.build("first")
        func expectRebuilt(_ context: String) throws {
            let site = try project.build(context)
            #expect(!site.unchanged || !site.derived.isEmpty, "\(context)")
            let again = try project.build("nothing changed after: \(context)")
            #expect(again.unchanged && again.derived.isEmpty, "\(context): \(again.derived)")
        }
        let page = project.session.path("site/guide/c.md")
        var before = stat()
        #expect(lstat(page, &before) == 0)
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Plain pagE.\n"))
        #if os(Linux)
        var times = [before.st_atim, before.st_mtim]
        #else
        var times = [before.st_atimespec, before.st_mtimespec]
        #endif
        #expect(utimensat(AT_FDCWD, page, &times, 0) == 0)
        let new = try #require(FileStamp.of(page))
        #expect(new.size == Int64(before.st_size) && new.modified == times[1].tv_sec * 1_000_000_000 + times[1].tv_nsec, "the modification time is put back")
        try expectRebuilt("a page rewritten at its size, its modification time put back")
        try FileManager.default.moveItem(atPath: page, toPath: project.session.path("site/guide/e.md"))
        try expectRebuilt("a page renamed")
        project.options.baseURL = "/docs/"
        try expectRebuilt("another base URL")
        project.options.drafts = true
        try expectRebuilt("--drafts")
        let built = project.options.out + "/guide/a.html"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: built)))
        bytes[bytes.count - 2] ^= 0x20
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: built))
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        try expectRebuilt("a site file rewritten in place at its size")
        try Data("<p>phish</p>".utf8).write(to: URL(fileURLWithPath: project.options.out + "/phish.html"))
        try expectRebuilt("a file added to the site")
        try FileManager.default.createDirectory(atPath: project.options.out + "/empty", withIntermediateDirectories: false)
        try expectRebuilt("an empty folder added to the site")
        #expect(!FileManager.default.fileExists(atPath: project.options.out + "/empty"))
    }

    /// A file saved within the racy window of its stamp (just written) is
    /// read again by the next build, whatever its stamp says.
    @Test func aFileJustSaved_isReadAgain() throws {
        let project = try Project(editFiles)
        try project.build("first", trustingStamps: false)
        let again = try project.build("again, within the window", trustingStamps: false)
        #expect(again.derived.isEmpty, "the same bytes read again change nothing: \(again.derived)")
    }

    /// Found by the attack on the sealed build: a page renamed to its
    /// decomposed spelling was taken for the page; a store of gigabytes
    /// was read whole.
    @Test func whatTheAttacksFound_isRefused() throws {
        let project = try Project(editFiles + [("site/café.md", pageText("Café", body: "See [gone](nowhere.md).\n"))])
        try project.build("first")
        let out = project.options.out
        let composed = out + "/caf\u{E9}.html", decomposed = out + "/cafe\u{301}.html"
        #expect(rename(composed, decomposed) == 0)
        try project.build("a page renamed to its decomposed spelling")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.unicodeScalars.first == "c" && $0.hasSuffix(".html") }
        #expect(names.map { Array($0.unicodeScalars) } == [Array("caf\u{E9}.html".unicodeScalars)], "\(names)")
        // A store past its limit (sparse: nothing is read) is a miss, not gigabytes of memory.
        let path = try #require(project.options.cache)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(SiteStore.fileBytes) + 1)
        try handle.close()
        #expect(project.record == nil)
        try project.build("the store grown past its limit")
    }

    /// A site folder replaced by a link is no site the build wrote: with
    /// nothing changed, the build refuses it as a clean build does.
    @Test func aSiteFolderReplacedByALink_isRefusedWithNothingChanged() throws {
        let project = try Project(editFiles)
        try project.build("first")
        try project.build("nothing changed")
        let out = project.options.out
        try FileManager.default.moveItem(atPath: out, toPath: out + "-moved")
        try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: out + "-moved")
        var site = SiteBuilder.build(project.options)
        #expect(site.diagnostics.contains { $0.id == "symbolic-link" } || SiteBuilder.write(&site, project.options) == nil, "\(site.diagnostics)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: out) == out + "-moved", "nothing is written through the link")
    }

    /// Every stored value of a site's store reads back as it was written:
    /// each rule's codec is its values' own (a store a build wrote reads
    /// whole, or the build is a clean one).
    @Test func everyStoredValue_readsBackAsWritten() throws {
        let project = try Project(editFiles + [("site/guide/alias.md", "---\ntitle: Aliased\naliases: [/old/]\norder: 3\nlinkTitle: Short\n---\n# A\n"),
                                               ("site/logo.svg", "<svg/>")])
        try project.build("first")
        let graph = try #require(SiteStore.load(project.options.cache!, options: project.options, project: project.options.project!,
                                                rules: SiteOutputs.rules)?.graph)
        let problems = graph.storedValueProblems()
        #expect(problems.isEmpty, "\(problems)")
    }
}

@Suite("Paths")
struct LexicalPathTests {
    /// Judged against the working folder joined by hand: `..` and `.` in a
    /// relative path are resolved against it, never against the root.
    @Test func relativePathsWithDotDot_resolveAgainstTheWorkingFolder() {
        let here = FileManager.default.currentDirectoryPath
        let parent = (here as NSString).deletingLastPathComponent
        for (path, expected) in [("_site/../_site", here + "/_site"), ("./x/../y", here + "/y"), ("../outX", parent + "/outX"),
                                 ("a/./b/../../c", here + "/c"), ("/abs/../x", "/x"), ("a//b/", here + "/a/b")] {
            #expect(Paths.lexical(path) == expected, "\(path)")
        }
    }

    /// A path's parts under a folder are compared part by part: a sibling
    /// whose name starts with the folder's is not inside it.
    @Test func partsUnderAFolder_areWholeParts() {
        #expect(Paths.parts(of: "/a/b/c", under: "/a/b") == ["c"])
        #expect(Paths.parts(of: "/a/b", under: "/a/b") == [])
        #expect(Paths.parts(of: "/a/bc/d", under: "/a/b") == nil)
        #expect(Paths.parts(of: "/x", under: "/") == ["x"])
        #expect(Paths.parts(of: "/a", under: "/a/b") == nil)
    }

    /// Git is asked for the project only where it could find one: a
    /// `.git` (a folder, or a worktree's file) in the folder or above it.
    @Test func gitIsAskedOnlyWhereARepositoryCouldBe() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-nogit-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        let real = Paths.real(root)
        let environment = ProcessInfo.processInfo.environment
        guard environment["GIT_DIR"] == nil, environment["GIT_WORK_TREE"] == nil,
              !ProjectFiles.Project.mayBeInGitWorkTree(Paths.real(FileManager.default.temporaryDirectory.path)) else { return }
        #expect(!ProjectFiles.Project.mayBeInGitWorkTree(real + "/a/b"))
        try Data("gitdir: /elsewhere\n".utf8).write(to: URL(fileURLWithPath: root + "/a/.git"))
        #expect(ProjectFiles.Project.mayBeInGitWorkTree(real + "/a/b"))
        #expect(ProjectFiles.Project.mayBeInGitWorkTree(real + "/a"))
        #expect(!ProjectFiles.Project.mayBeInGitWorkTree(real))
    }
}

/// The site before the last one, kept as the next build's staging folder
/// (`SiteWriter.Staging`'s spare): trusted for nothing but being the old
/// site's own files.
@Suite("The spare site")
struct SpareSiteTests {
    typealias Project = StoreTests.Project

    static func spare(of project: Project) -> String { Paths.spare(forCache: project.options.cache!) }

    /// A project built, one page edited and built again as a whole (its
    /// store removed first: an edit with the store is written in place, with no swap): the
    /// first site is now the spare. Returns the project and the spare's path.
    static func builtTwice(_ files: [(String, String)] = editFiles) throws -> (Project, String) {
        let project = try Project(files)
        project.wholeBuilds = true
        try project.build("first")
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited once.\n"))
        try project.build("one page edited")
        return (project, spare(of: project))
    }

    /// The folders of a site, sorted: a spare's leftovers would show here
    /// as a folder a clean build does not make.
    static func folders(_ site: String) -> [String] {
        FolderWalk.entries(under: site).filter(\.isFolder).map(\.path).sorted()
    }

    /// Builds after edits keep the old site as the spare, and each next
    /// site is the one a clean build writes, folders included, whatever
    /// the spare held: a changed copy of a kept page, a file where a
    /// folder goes, a folder where a page goes, files and folders of
    /// their own.
    @Test func whatTheSpareHolds_neverReachesTheSite() throws {
        let (project, spare) = try Self.builtTwice()
        #expect(FolderWalk.isPlainFile(spare + "/" + SiteWriter.marker), "the old site is kept as the spare")
        // Planted: a kept page's bytes changed in a new file of its own, a
        // page's place taken by a folder, a folder's by a file, extras.
        try FileManager.default.removeItem(atPath: spare + "/guide/a.html")
        try Data("<p>planted</p>".utf8).write(to: URL(fileURLWithPath: spare + "/guide/a.html"))
        try FileManager.default.removeItem(atPath: spare + "/guide/c.html")
        try FileManager.default.createDirectory(atPath: spare + "/guide/c.html/inside", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: spare + "/guide/c.html/inside/f.html"))
        try FileManager.default.removeItem(atPath: spare + "/other")
        try Data("a file where a folder goes".utf8).write(to: URL(fileURLWithPath: spare + "/other"))
        try FileManager.default.createDirectory(atPath: spare + "/extra/deeper", withIntermediateDirectories: true)
        try Data("phish".utf8).write(to: URL(fileURLWithPath: spare + "/extra/deeper/phish.html"))
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited twice.\n"))
        try project.build("another edit, over the planted spare")
        #expect(try siteOnDisk(project.options.out)["guide/a.html"].map { String(decoding: $0, as: UTF8.self) } != "<p>planted</p>")
        let clean = project.session.path("_clean")
        var cleanOptions = project.cleanOptions
        cleanOptions.out = clean
        var built = SiteBuilder.build(cleanOptions)
        #expect(SiteBuilder.write(&built, cleanOptions) != nil)
        #expect(Self.folders(project.options.out) == Self.folders(clean))
    }

    /// A spare that holds a symbolic link (a pull request can commit one
    /// where the spare goes) is not used: nothing is written through it,
    /// and the site is the one a clean build writes.
    @Test func aSpareWithALink_isNotUsed() throws {
        let (project, spare) = try Self.builtTwice()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-outside-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.removeItem(atPath: spare + "/guide")
        try FileManager.default.createSymbolicLink(atPath: spare + "/guide", withDestinationPath: outside)
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited twice.\n"))
        try project.build("another edit, the spare holding a link")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        // The spare itself a link: not followed either.
        try? FileManager.default.removeItem(atPath: spare)
        try FileManager.default.createSymbolicLink(atPath: spare, withDestinationPath: outside)
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited thrice.\n"))
        try project.build("another edit, the spare a link")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    /// A planted file whose name a Swift string takes for a page's (U+212A
    /// KELVIN SIGN for `K`; a decomposed `é` for a composed one) is a
    /// different file to the file system: it is removed, never published
    /// beside the page, and a folder's twin does not stop the build.
    @Test func aSpareFileNamedAsAPageTwin_isNeverPublished() throws {
        let (project, spare) = try Self.builtTwice(editFiles + [("site/Kit.md", pageText("Kit", body: "Kit.\n")),
                                                                ("site/caf\u{E9}.md", pageText("Cafe", body: "Composed.\n")),
                                                                ("site/Kfolder/x.md", pageText("X", body: "In a folder.\n"))])
        let kelvin = "\u{212A}"
        #expect(kelvin == "K", "Swift takes the Kelvin sign for K")
        try Data("<script>alert('planted')</script>".utf8).write(to: URL(fileURLWithPath: spare + "/" + kelvin + "it.html"))
        try Data("<script>alert('planted')</script>".utf8).write(to: URL(fileURLWithPath: spare + "/cafe\u{301}.html"))
        try FileManager.default.createDirectory(atPath: spare + "/" + kelvin + "folder", withIntermediateDirectories: true)
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited twice.\n"))
        try project.build("another edit, over the twins")
        let names = Set(FolderWalk.entries(under: project.options.out).map { Array($0.path.utf8) })
        #expect(!names.contains(Array((kelvin + "it.html").utf8)) && !names.contains(Array("cafe\u{301}.html".utf8)), "a twin was published")
        #expect(!names.contains(Array((kelvin + "folder").utf8)))
        #expect(names.contains(Array("Kit.html".utf8)) && names.contains(Array("caf\u{E9}.html".utf8)))
    }

    /// A spare whose folders or files do not have the modes a new one gets
    /// (a folder made read-only, a file made executable) is not used: the
    /// site's folders and files have a clean build's modes.
    @Test func aSpareWithOtherModes_isNotUsed() throws {
        let (project, spare) = try Self.builtTwice()
        #expect(chmod(spare + "/guide", 0o555) == 0)
        // (A copy of its own: the spare's file is the site's, linked.)
        let copy = try Data(contentsOf: URL(fileURLWithPath: spare + "/other/d.html"))
        try FileManager.default.removeItem(atPath: spare + "/other/d.html")
        try copy.write(to: URL(fileURLWithPath: spare + "/other/d.html"))
        #expect(chmod(spare + "/other/d.html", 0o755) == 0)
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited twice.\n"))
        try project.build("another edit, over a read-only folder")
        var status = stat(), fresh = stat()
        let probe = project.session.path("probe")
        #expect(mkdir(probe, 0o777) == 0 && lstat(probe, &fresh) == 0)
        #expect(lstat(project.options.out + "/guide", &status) == 0 && status.st_mode == fresh.st_mode)
        #expect(lstat(project.options.out + "/other/d.html", &status) == 0 && status.st_mode & 0o111 == 0)
    }

    /// The old site replaced by another build after this one walked it: a
    /// page the spare holds (the same inode as the old site's, as walked)
    /// whose bytes are not this build's is not kept because the site now
    /// on disk has this build's bytes there.
    @Test func theOldSiteReplacedMidBuild_neverLeavesAStalePage() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-race-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let site = root + "/_site", spare = root + "/spare"
        for folder in [site, spare] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try Data(SiteWriter.markerText.utf8).write(to: URL(fileURLWithPath: site + "/" + SiteWriter.marker))
        #expect(WritePath.writeNewFile(Array("old bytes".utf8), to: site + "/page.html"))
        #expect(link(site + "/page.html", spare + "/page.html") == 0)
        let walked = SiteFolder.files(of: site) ?? [:]
        let project = ProjectFiles.Project(root: root, isGitWorkTree: false)
        var staging = try SiteWriter.Staging.open(site, in: project, spare: spare)
        staging.knowOldSite(walked)
        #expect(staging.present[Array("page.html".utf8)] != nil, "the spare was taken")
        // Another build swaps in a site whose page has the new bytes.
        #expect(WritePath.writeNewFile(Array("new bytes".utf8), to: site + "/page.new"))
        #expect(rename(site + "/page.new", site + "/page.html") == 0)
        #expect(staging.put("page.html", Array("new bytes".utf8)) != nil)
        #expect(try String(contentsOfFile: staging.path + "/page.html", encoding: .utf8) == "new bytes")
        staging.discard()
    }

    /// A page kept unread is linked from the old site only while it is the
    /// file the build's walk found there: one another build put in its
    /// place since (other bytes, another inode) is never linked in.
    @Test func aKeptPageReplacedMidBuild_isNeverLinkedIn() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-race-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let site = root + "/_site"
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        try Data(SiteWriter.markerText.utf8).write(to: URL(fileURLWithPath: site + "/" + SiteWriter.marker))
        for page in ["kept.html", "replaced.html"] { #expect(WritePath.writeNewFile(Array("old bytes".utf8), to: site + "/" + page)) }
        let walked = SiteFolder.files(of: site) ?? [:]
        var staging = try SiteWriter.Staging.open(site, in: ProjectFiles.Project(root: root, isGitWorkTree: false))
        staging.knowOldSite(walked)
        // Another build swaps in a site whose page has other bytes.
        #expect(WritePath.writeNewFile(Array("new bytes".utf8), to: site + "/replaced.new"))
        #expect(rename(site + "/replaced.new", site + "/replaced.html") == 0)
        #expect(staging.link("kept.html"))
        #expect(!staging.link("replaced.html"))
        #expect(!FileManager.default.fileExists(atPath: staging.path + "/replaced.html"))
        staging.discard()
    }

}
