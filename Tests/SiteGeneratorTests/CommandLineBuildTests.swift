import Diagnostics
import Foundation
import ProjectFiles
import SeededRandom
@testable import SiteGenerator
import Testing

/// What an independent attack on the command line's build found (pages
/// kept on disk unread, the cache's records and keys, the swap), each held
/// to a clean build of the same files: the site on disk and the warnings
/// are what `--no-cache` gives, whatever came before.
@Suite("Command-line builds")
struct CommandLineBuildTests {
    /// A project built as `rowmotion build` builds it, its file stamps
    /// trusted (as they are a while after a build).
    final class Project {
        let session: EditSession
        var options: BuildOptions

        init(_ files: [(String, String)]) throws {
            session = try EditSession(files)
            options = session.options
            options.cache = session.path(".build/site.cache")
            options.keepsUnchangedPages = true
        }

        /// Builds as `rowmotion build` does, `trustingStamps` as a while
        /// after the last build (no file within the racy window: the
        /// cache it saves is sealed, and "nothing changed" is known from
        /// its header), and holds the site to a clean build's.
        @discardableResult
        func build(_ context: String, trustingStamps: Bool = true) throws -> BuiltSite {
            options.racyWindow = trustingStamps ? -10 : 2
            var site = SiteBuilder.build(options)
            let clean = SiteBuilder.build(cleanOptions)
            #expect(EditSession.report(site) == EditSession.report(clean), "\(context)")
            guard !site.hasErrors else { return site }
            #expect(SiteBuilder.write(&site, options) != nil, "\(context): \(site.diagnostics)")
            #expect(try IncrementalBuildTests.siteOnDisk(options.out) == clean.files, "\(context)")
            return site
        }

        var cleanOptions: BuildOptions {
            var clean = session.options
            clean.siteByteLimit = options.siteByteLimit
            clean.urls = options.urls
            clean.allowEmpty = options.allowEmpty
            (clean.baseURL, clean.drafts) = (options.baseURL, options.drafts)
            return clean
        }
    }

    /// A page kept unread counts against the site's limit as if it were
    /// read: pages grown one at a time past the limit fail as a clean
    /// build of them fails.
    @Test func keptPages_countAgainstTheSitesLimit() throws {
        let body = String(repeating: "Text of some length. ", count: 200)
        let project = try Project(editFiles + [("site/big1.md", pageText("Big 1", body: body)), ("site/big2.md", pageText("Big 2", body: body))])
        let first = try project.build("first")
        // What the limit counts: pages, example pages and filmstrips.
        let total = try IncrementalBuildTests.siteOnDisk(project.options.out).filter { $0.key != "index.html" && ($0.key.hasSuffix(".html") || $0.key.hasSuffix(".svg")) }
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
        #expect(!moved.kept.contains("b/index.html"))
    }

    /// The navigation's key reads each page's fields apart: a `|` in a
    /// title cannot stand for the next field.
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
    /// the site is not trusted: a link planted there is not published.
    @Test func aFolderWithABadName_inTheSite_makesItUntrusted() throws {
        let project = try Project(editFiles)
        try project.build("first")
        // A name of one byte 0xFF, made through the C API (a Swift string cannot hold it).
        var name = Array(project.options.out.utf8) + [UInt8(ascii: "/"), 0xFF, 0]
        #expect(name.withUnsafeMutableBufferPointer { mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755) } == 0)
        var link = Array(project.options.out.utf8) + [UInt8(ascii: "/"), 0xFF] + Array("/p.html".utf8) + [0]
        #expect(link.withUnsafeMutableBufferPointer { symlink("/etc/passwd", UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) } == 0)
        let again = try project.build("a link planted in a folder with a bad name")
        #expect(!again.unchanged && again.kept.isEmpty)
        #expect(!FolderWalk.entries(under: project.options.out).contains { $0.isBadName || $0.isLink })
    }

    /// A file of the site changed or added after the build that wrote it
    /// (a checkout onto a kept workspace, a hand edit) is not that build's:
    /// the next build, nothing changed or one page edited, writes the site
    /// a clean build writes, the changed file's bytes replaced and the
    /// added file gone.
    @Test func aSiteFileChangedOrAddedSinceItsBuild_isNeverReused() throws {
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
        let edited = try project.build("a page overwritten in place, another edited")
        #expect(!edited.kept.contains("guide/a.html"))
    }

    /// A cache that cannot be saved (its folder is a link) fails the build
    /// before the new site takes the old one's place.
    @Test func aCacheThatCannotBeSaved_leavesTheOldSite() throws {
        let project = try Project(editFiles)
        project.options.project = ProjectFiles.Project(root: project.session.project.root.path, isGitWorkTree: false)
        try project.build("first")
        let before = try IncrementalBuildTests.siteOnDisk(project.options.out)
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-outside-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.removeItem(atPath: project.session.path(".build"))
        try FileManager.default.createSymbolicLink(atPath: project.session.path(".build"), withDestinationPath: outside)
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited.\n"))
        var site = SiteBuilder.build(project.options)
        #expect(SiteBuilder.write(&site, project.options) == nil)
        #expect(site.diagnostics.contains { $0.id == "symbolic-link" })
        #expect(try IncrementalBuildTests.siteOnDisk(project.options.out) == before, "the old site stays")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    /// A site killed between its swap's two renames (the old one moved
    /// aside, the new one not yet in place) is put back by the next build,
    /// even one that fails.
    @Test func aSiteKilledMidSwap_isPutBack() throws {
        let project = try Project(editFiles)
        try project.build("first")
        let before = try IncrementalBuildTests.siteOnDisk(project.options.out)
        let parent = (project.options.out as NSString).deletingLastPathComponent
        let retired = parent + "/._site.rowmotion-old-999999-1"
        #expect(rename(project.options.out, retired) == 0)
        try project.session.write("site/guide/a.md", pageText("Alpha", body: "```rowmotion\nexample: missing.yml\n```\n"))
        var failed = SiteBuilder.build(project.options)
        #expect(failed.hasErrors)
        #expect(SiteBuilder.write(&failed, project.options) == nil)
        _ = try SiteWriter.Staging.open(project.options.out, in: ProjectFiles.Project(root: parent, isGitWorkTree: false)).discard()
        #expect(try IncrementalBuildTests.siteOnDisk(project.options.out) == before)
        #expect(!FileManager.default.fileExists(atPath: retired))
    }
}

extension CommandLineBuildTests {
    /// A cache read for its outputs alone (what a build with nothing to
    /// do needs) lists every entry's output, and reading the rest gives
    /// the cache a full read gives.
    @Test func aCacheReadForItsOutputs_thenTheRest_isTheWholeCache() throws {
        let project = try Project(editFiles)
        try project.build("first")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: project.options.cache!)))
        let full = BuildCache.parse(bytes)
        var light = BuildCache.parse(bytes, outputsOnly: true)
        #expect(!full.entries.isEmpty && !full.pages.isEmpty && !full.examples.isEmpty)
        #expect(light.entries.isEmpty && light.pages.isEmpty && light.examples.isEmpty)
        #expect(Set(light.entryOutputs) == Set(full.entries.keys) && light.entryOutputs.count == full.entries.count)
        #expect(light.files == full.files && light.inputKey == full.inputKey && light.diagnostics == full.diagnostics)
        light.readRest()
        #expect(light.entries == full.entries && light.pages == full.pages && light.examples == full.examples && light.unread == nil)
        #expect(light.records.map(\.line) == full.records.map(\.line) && light.records.map(\.key) == full.records.map(\.key), "each record once, in file order")
        let (a, b) = (String(decoding: light.bytes(), as: UTF8.self).split(separator: "\n"), String(decoding: full.bytes(), as: UTF8.self).split(separator: "\n"))
        let difference = Set(a).symmetricDifference(Set(b))
        #expect(difference.isEmpty, "\(difference)")
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
    typealias Project = CommandLineBuildTests.Project

    static func spare(of project: Project) -> String { Paths.spare(forCache: project.options.cache!) }

    /// A project built, one page edited and built again as a whole (an
    /// edit of a page's text alone is written in place, with no swap): the
    /// first site is now the spare. Returns the project and the spare's path.
    static func builtTwice(_ files: [(String, String)] = editFiles) throws -> (Project, String) {
        let project = try Project(files)
        project.options.editsInPlace = false
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
        #expect(try IncrementalBuildTests.siteOnDisk(project.options.out)["guide/a.html"].map { String(decoding: $0, as: UTF8.self) } != "<p>planted</p>")
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

    /// The stamps a build records of its site without walking it (kept
    /// files' from the old site's walk, the others asked) are the ones a
    /// walk of the site finds.
    @Test(arguments: [false, true]) func theStampsRecordedWithoutAWalk_areTheWalks(inPlace: Bool) throws {
        let project = try Project(editFiles)
        project.options.editsInPlace = inPlace
        try project.build("first")
        for round in 1...3 {
            try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edit \(round).\n"))
            let site = try project.build("edit \(round)")
            // Built as a whole, the other pages linked in from the old site; else written in place.
            #expect(inPlace ? site.edit?.files.keys.sorted() == ["guide/c.html", "search-index.js"] : !site.kept.isEmpty)
            let recorded = BuildCache.load(from: project.options.cache).written
            let walked = SiteFolder.files(of: project.options.out) ?? [:]
            #expect(Set(recorded.keys) == Set(walked.keys), "edit \(round)")
            for (path, stamp) in walked {
                #expect(recorded[path].map { $0.sameContent(as: stamp) } == true, "\(path) after edit \(round)")
            }
        }
    }

    /// A cache written over the one its build started from (runs of
    /// unchanged lines copied, changed records encoded, removed ones left
    /// out, new ones added) reads back as the cache written from its values
    /// alone: after an edit, and after pages and files added and removed.
    @Test func aCacheWrittenOverAnEarlierOne_readsAsTheCacheWrittenAfresh() throws {
        let project = try Project(editFiles)
        // (The whole build's writer: an edit of a heading alone is written in place.)
        project.options.editsInPlace = false
        try project.build("first")
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited.\n"))
        try project.build("one page edited")
        let changes: [(String, () throws -> Void)] = [
            ("a heading edited", { try project.session.write("site/guide/a.md", pageText("Alpha", body: "## Setup\n\nOther text.\n")) }),
            ("pages added, one removed", {
                try project.session.write("site/guide/new.md", pageText("New", body: "Links to [c](c.md).\n"))
                try project.session.write("site/aaa.md", pageText("First by name", body: "Text.\n"))
                try project.session.remove("site/other/d.md")
            }),
            ("an example removed", { try project.session.remove("examples/other.yml") }),
        ]
        for (change, apply) in changes {
            try apply()
            var site = SiteBuilder.build(project.options)
            #expect(site.cache.earlier != nil, "\(change)")
            var fresh = site.cache
            fresh.earlier = nil
            let (over, afresh) = (BuildCache.parse(site.cache.bytes()), BuildCache.parse(fresh.bytes()))
            #expect(!afresh.entries.isEmpty && !afresh.pages.isEmpty && !afresh.files.isEmpty, "\(change)")
            #expect(over.entries == afresh.entries, "\(change)")
            #expect(over.pages == afresh.pages, "\(change)")
            #expect(over.written == afresh.written, "\(change)")
            #expect(over.files == afresh.files, "\(change)")
            #expect(over.diagnostics == afresh.diagnostics && over.inputKey == afresh.inputKey && over.siteStamp == afresh.siteStamp, "\(change)")
            #expect(over.records.count == afresh.records.count, "\(change): each record once")
            #expect(SiteBuilder.write(&site, project.options) != nil, "\(change)")
        }
    }

    /// Random caches of entries, site files and input files, each written
    /// over an earlier one after random changes (values changed, records
    /// removed and added), read back as the values written.
    @Test func randomCachesWrittenOverEarlierOnes_readBackAsTheirValues() {
        let seed: UInt64 = 20_261_127
        var random = SeededGenerator(seed: seed)
        // A new stamp, or one field of the old one moved (each field must count).
        func stamp(_ old: FileStamp?, fields: Int) -> FileStamp {
            guard var stamp = old else {
                return FileStamp(size: .random(in: 0...9, using: &random), modified: .random(in: 0...9, using: &random), changed: 0,
                                 inode: .random(in: 0...9, using: &random), digest: fields == 5 ? "d" : "")
            }
            switch Int.random(in: 0..<fields, using: &random) {
            case 0: stamp.size += 1
            case 1: stamp.modified += 1
            case 2: stamp.inode += 1
            case 3: stamp.changed += 1
            default: stamp.digest += "e"
            }
            return stamp
        }
        var cache = BuildCache()
        for round in 0..<100 {
            let earlier = BuildCache.parse(cache.bytes())
            cache = earlier
            cache.earlier = .init(earlier)
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                let name = "p\(Int.random(in: 0..<20, using: &random))"
                switch Int.random(in: 0..<6, using: &random) {
                case 0: cache.entries[name + ".html"] = BuildCache.Entry(key: "k\(Int.random(in: 0...3, using: &random))", examples: [])
                case 1: cache.entries[name + ".html"] = nil
                case 2: cache.written[name + ".html"] = stamp(cache.written[name + ".html"], fields: 3)
                case 3: cache.written[name + ".html"] = nil
                case 4: cache.files["site/\(name).md"] = stamp(cache.files["site/\(name).md"], fields: 5)
                default: cache.files["site/\(name).md"] = nil
                }
            }
            let read = BuildCache.parse(cache.bytes())
            #expect(read.entries == cache.entries, "seed \(seed), round \(round)")
            #expect(read.written == cache.written, "seed \(seed), round \(round)")
            #expect(read.files == cache.files, "seed \(seed), round \(round)")
            #expect(read.records.count == cache.entries.count + cache.written.count + cache.files.count, "seed \(seed), round \(round)")
            if read.entries != cache.entries || read.written != cache.written || read.files != cache.files { return }
        }
    }

    /// An example whose file did not change comes from the cache's record,
    /// and its file is read only when something made again shows it: a
    /// page edited that shows none reads no example, one that shows
    /// `list.yml` reads that one; an edited example is read (and parsed) again.
    @Test func anUnchangedExample_isReadOnlyWhereSomethingMadeAgainShowsIt() throws {
        let project = try Project(editFiles)
        // (The whole build's model is what says which it read.)
        project.options.editsInPlace = false
        try project.build("first")
        let edits: [(String, String, String, read: Set<String>)] = [
            ("a page that shows no example", "site/guide/c.md", pageText("Gamma", body: "Edited.\n"), []),
            ("a page that shows list.yml", "site/other/d.md", pageText("Delta", body: "Edited.\n\n```rowmotion\nexample: list.yml\n```\n"), ["list.yml"]),
            ("an example", "examples/other.yml", "title: Other\ndescription: Edited.\nsteps:\n  - items: [x]\n  - items: [y, x]\n", ["other.yml"]),
        ]
        for (change, file, text, read) in edits {
            try project.session.write(file, text)
            var cache = BuildCache.load(from: project.options.cache)
            cache.filesSeenAt += 10
            cache.save(to: project.options.cache!)
            var memo: BuildMemo?
            var site = SiteBuilder.build(project.options, memo: &memo)
            let examples = try #require(memo?.state?.inputs.examples, "\(change)")
            #expect(Set(examples.filter(\.isRead).map(\.name)) == read, "\(change)")
            #expect(EditSession.report(site) == EditSession.report(SiteBuilder.build(project.cleanOptions)), "\(change)")
            #expect(SiteBuilder.write(&site, project.options) != nil, "\(change)")
        }
    }

    /// An example taken from its record whose file no longer has the
    /// record's bytes when it is first read fails the build, located at
    /// the file; what asked for it meanwhile gets two empty steps.
    @Test func anExampleChangedBeforeItIsRead_failsTheBuild() throws {
        let session = try EditSession(editFiles)
        let examples = session.path("examples")
        let folder = InputTree.onDisk([examples], in: ProjectFiles.Project(root: session.project.root.path, isGitWorkTree: false))[examples]
        let (loaded, _) = SiteInputs.loadExample("list.yml", in: folder)
        var record = ExampleRecord(try #require(loaded), diagnostics: [])
        let fromRecord = LoadedExample(name: "list.yml", record: record, in: folder)
        #expect(!fromRecord.isRead && fromRecord.title == "A list" && fromRecord.summaries.count == 1)
        #expect(fromRecord.sequence.steps.count == 2 && fromRecord.failure == nil)
        record.sourceKey = "not the file's"
        let stale = LoadedExample(name: "list.yml", record: record, in: folder)
        #expect(stale.sequence.title == "A list" && stale.sequence.steps.allSatisfy { $0.snapshot.sections.allSatisfy(\.rows.isEmpty) })
        #expect(stale.failure?.id == "changed-during-build" && stale.failure?.location.file.hasSuffix("examples/list.yml") == true)
    }

    /// An attack found: a page and the example it shows renamed from the
    /// composed spelling of their name to the decomposed one (which a copy
    /// between macOS and Linux can do) left the cache's records under the
    /// old bytes (a `String` takes both for one key), and every later
    /// cached build failed opening the old name. The cache keeps the bytes
    /// its build saw.
    @Test func namesRespelledInOtherNormalForms_keepTheirNewBytesInTheCache() throws {
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
        let cache = String(decoding: try Data(contentsOf: URL(fileURLWithPath: project.options.cache!)), as: UTF8.self)
        // Each record's key (a record kind's second field, an entry's first)
        // as the files are spelled now; the page's text still names the
        // example composed, which its entry keeps as written.
        let keys = cache.split(separator: "\n").dropFirst(2).map { line -> Substring in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return ["page", "example", "out", "file"].contains(fields[0]) ? fields[1] : fields[0]
        }
        // The page's and the example's entries (page, example page, filmstrip),
        // the site's three files, the page and example records, the two inputs.
        #expect(keys.filter { $0.unicodeScalars.contains("\u{301}") }.count == 10, "\(keys)")
        #expect(!keys.contains { $0.unicodeScalars.contains("\u{E9}") }, "no record under the old bytes: \(keys)")
    }

    /// An attack found: a build that stopped at "nothing changed" gave the
    /// empty site an `--allow-empty` build had made to a build without it.
    @Test func anEmptySite_failsWithoutAllowEmpty_afterOneThatAllowedIt() throws {
        let project = try Project([("site/.keep", ""), ("examples/.keep", "")])
        project.options.allowEmpty = true
        try project.build("allowed empty")
        project.options.allowEmpty = false
        let site = SiteBuilder.build(project.options)
        #expect(site.diagnostics.contains { $0.id == "empty-site" }, "\(site.diagnostics)")
    }

    /// The header of the project's cache, when it is sealed.
    static func header(_ project: Project) -> BuildCache.Header? {
        BuildCache.header(from: project.options.cache, forSite: project.options.out, in: project.options.project ?? .ofWorkingFolder())
    }

    /// A build with nothing to do knows it from the cache's first lines and
    /// a walk of the inputs and of the site: with every record after the
    /// header cut off, it still reports what the build before it reported
    /// (a warning here) and writes nothing; an edit after that builds as a
    /// clean build does (the cut cache holds no page to keep).
    @Test func nothingChanged_isKnownFromTheCachesHeader_withItsRecordsUnread() throws {
        let project = try Project(editFiles + [("site/warn.md", pageText("Warn", body: "See [gone](nowhere.md).\n"))])
        try project.build("first")
        let header = try #require(Self.header(project), "a cache saved with every input settled is sealed")
        #expect(header.cache.inputsSeal != nil && header.siteSeal != nil && !header.cache.diagnostics.isEmpty && header.outputCount > 0)
        let path = try #require(project.options.cache)
        let lines = try Data(contentsOf: URL(fileURLWithPath: path)).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        #expect(lines.count > 5)
        try Data(lines.prefix(4).joined(separator: [UInt8(ascii: "\n")]) + [UInt8(ascii: "\n")]).write(to: URL(fileURLWithPath: path))
        let again = try project.build("nothing changed, the cache cut after its header")
        #expect(again.unchanged && again.cachedCount == header.outputCount && again.pageCount == 6 && again.exampleCount == 2)
        #expect(again.diagnostics == header.cache.diagnostics)
        try project.session.write("site/guide/c.md", pageText("Gamma", body: "Edited.\n"))
        let edited = try project.build("an edit after it")
        #expect(!edited.unchanged && edited.kept.isEmpty)
    }

    /// A sealed cache is never taken for inputs, options or a site that
    /// changed, however little: a page rewritten at its size with its
    /// modification time put back (its change time moved), a page renamed,
    /// another base URL or `--drafts`, a site file rewritten at its size,
    /// a site file added. Each build is held to a clean one's, and the one
    /// after it, with nothing changed, is known from the header again.
    @Test func aSealedCache_isNeverTakenForAnythingThatChanged() throws {
        let project = try Project(editFiles)
        try project.build("first")
        func expectRebuilt(_ context: String) throws {
            let site = try project.build(context)
            #expect(!site.unchanged, "\(context)")
            #expect(Self.header(project) != nil, "\(context): sealed again")
            let again = try project.build("nothing changed after: \(context)")
            #expect(again.unchanged, "\(context)")
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
    }

    /// A cache saved while an input was within the racy window of its
    /// stamp (just written) has no seal: the next build reads the cache's
    /// records and that file again.
    @Test func aCacheSavedWithAFreshInput_isNotSealed() throws {
        let project = try Project(editFiles)
        try project.build("first", trustingStamps: false)
        #expect(Self.header(project).map { $0.cache.inputsSeal == nil && $0.siteSeal != nil } == true, "the site's seal alone")
        #expect(BuildCache.load(from: project.options.cache).inputsSeal == nil && !BuildCache.load(from: project.options.cache).files.isEmpty)
        try project.build("again, a while after")
        #expect(Self.header(project)?.cache.inputsSeal != nil)
    }

    /// Found by the attack on the sealed build (each held to a clean build
    /// by `Project.build`): a cache cut after its `sealed` line (no
    /// diagnostics line) was taken as "no warnings"; a file and an empty
    /// folder added to the site were adopted (stamped as the build's); a
    /// page renamed to its decomposed spelling was taken for the page; a
    /// cache of gigabytes was read whole.
    @Test func whatTheAttackOnTheSealFound_isRefused() throws {
        let project = try Project(editFiles + [("site/café.md", pageText("Café", body: "See [gone](nowhere.md).\n"))])
        try project.build("first")
        let path = try #require(project.options.cache)
        let lines = try Data(contentsOf: URL(fileURLWithPath: path)).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        try Data(lines.prefix(3).joined(separator: [UInt8(ascii: "\n")]) + [UInt8(ascii: "\n")]).write(to: URL(fileURLWithPath: path))
        #expect(Self.header(project) == nil, "a header without its diagnostics line says nothing")
        let cut = try project.build("the cache cut after its sealed line")
        #expect(cut.diagnostics.contains { $0.id == "broken-link" })
        try project.build("sealed again")
        let out = project.options.out
        try Data("planted".utf8).write(to: URL(fileURLWithPath: out + "/extra.txt"))
        try FileManager.default.createDirectory(atPath: out + "/empty", withIntermediateDirectories: false)
        try project.build("a file and an empty folder added to the site")
        #expect(!FileManager.default.fileExists(atPath: out + "/extra.txt") && !FileManager.default.fileExists(atPath: out + "/empty"))
        try project.build("sealed again")
        let composed = out + "/caf\u{E9}.html", decomposed = out + "/cafe\u{301}.html"
        #expect(rename(composed, decomposed) == 0)
        try project.build("a page renamed to its decomposed spelling")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.unicodeScalars.first == "c" && $0.hasSuffix(".html") }
        #expect(names.map { Array($0.unicodeScalars) } == [Array("caf\u{E9}.html".unicodeScalars)], "\(names)")
        // A cache past its limit (sparse: nothing is read) is a miss, not 3 GB of memory.
        try project.build("sealed again")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(BuildCache.fileBytes) + 1)
        try handle.close()
        #expect(BuildCache.load(from: path, forSite: out, in: project.options.project ?? .ofWorkingFolder()).entries.isEmpty)
        try project.build("the cache grown past its limit")
    }

    /// A site folder replaced by a link is no site the build wrote: with
    /// nothing changed, the build refuses it as a clean build does.
    @Test func aSiteFolderReplacedByALink_isRefusedWithNothingChanged() throws {
        let project = try Project(editFiles)
        // Inside the project, as `rowmotion build` runs (outside it, a link is the user's own).
        project.options.project = ProjectFiles.Project(root: project.session.project.root.path, isGitWorkTree: false)
        try project.build("first")
        try project.build("sealed")
        let out = project.options.out
        try FileManager.default.moveItem(atPath: out, toPath: out + "-moved")
        try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: out + "-moved")
        let site = SiteBuilder.build(project.options)
        #expect(site.diagnostics.contains { $0.id == "symbolic-link" }, "\(site.diagnostics)")
        var written = site
        #expect(SiteBuilder.write(&written, project.options) == nil, "nothing is written through the link")
    }

    /// A cache file that holds a record twice is not one this tool wrote:
    /// it is read as no cache (its copied lines could say either value).
    @Test func aCacheWithARecordTwice_isNoCache() throws {
        var cache = BuildCache()
        cache.entries["page.html"] = BuildCache.Entry(key: "k", examples: [])
        cache.files["site/page.md"] = FileStamp(size: 1, modified: 2, changed: 3, inode: 4, digest: "d")
        let bytes = cache.bytes()
        #expect(BuildCache.parse(bytes).entries.count == 1)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for duplicated in ["page.html\t", "file\t"] {
            let line = try #require(lines.first { $0.hasPrefix(duplicated) })
            let twice = BuildCache.parse(Array((lines.joined(separator: "\n") + line + "\n").utf8))
            #expect(twice.entries.isEmpty && twice.files.isEmpty, "\(duplicated)")
        }
    }
}
