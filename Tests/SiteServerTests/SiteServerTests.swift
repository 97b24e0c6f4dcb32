import Foundation
@testable import SiteServer
import ProjectFiles
import SiteGenerator
import Testing

@Suite("serve: files, live reload, watching")
struct SiteServerTests {
    /// A built-looking site in a fresh folder, with a link pointing out of it.
    static func makeSite() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-serve-\(UUID().uuidString)")
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("examples"), withIntermediateDirectories: true)
        try Data("<html><body><p>home</p></body></html>".utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("<p>chat</p>".utf8).write(to: root.appendingPathComponent("examples/messenger.html"))
        try Data("<p>list</p>".utf8).write(to: root.appendingPathComponent("examples/index.html"))
        try Data("marker".utf8).write(to: root.appendingPathComponent(".rowmotion-site"))
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("escape").path, withDestinationPath: "/etc")
        return root
    }

    @Test func requestPaths_resolveToFilesInsideTheSiteOnly() throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(SiteFileHandler.resolve("/", in: root) == .file("index.html"))
        #expect(SiteFileHandler.resolve("/examples/messenger.html", in: root) == .file("examples/messenger.html"))
        #expect(SiteFileHandler.resolve("/examples/", in: root) == .file("examples/index.html"))
        #expect(SiteFileHandler.resolve("/examples", in: root) == .redirect("/examples/"))
        #expect(SiteFileHandler.resolve("/../../etc/passwd", in: root) == .notFound)
        #expect(SiteFileHandler.resolve("/escape/passwd", in: root) == .notFound)
        #expect(SiteFileHandler.resolve("/.rowmotion-site", in: root) == .notFound)
        #expect(SiteFileHandler.resolve("/missing.html", in: root) == .notFound)
    }

    static func get(_ path: String, method: String = "GET") -> RequestHead {
        RequestHead(method: method, target: path, path: path, version: "HTTP/1.1", headers: [("host", "127.0.0.1:8000")])
    }

    /// A folder's index that is a link (out of the site, or to another file
    /// of it) and a folder that is a link are not served: the writer never
    /// makes links, so one in the site was put there (issue 28, item 11).
    @Test func linksInTheSite_areNeverFollowed_notEvenAFoldersIndex() throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("secret"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("secret/index.html").path, withDestinationPath: "/etc/passwd")
        try manager.createDirectory(at: root.appendingPathComponent("inside"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("inside/index.html").path,
                                       withDestinationPath: root.appendingPathComponent("index.html").path)
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("alias").path, withDestinationPath: "examples")
        #expect(SiteFileHandler.resolve("/secret/", in: root) == .notFound)
        #expect(SiteFileHandler.resolve("/secret/index.html", in: root) == .notFound)
        #expect(SiteFileHandler.resolve("/inside/", in: root) == .notFound)
        #expect(SiteFileHandler.resolve("/alias/messenger.html", in: root) == .notFound)
        #expect(SiteFileHandler.resolve("/alias/", in: root) == .notFound)
        #expect(SiteFileHandler.resolve("/examples/", in: root) == .file("examples/index.html"))
    }

    @Test func servedHTML_getsTheLiveScript_otherFilesAsWritten() throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: root) }
        let handler = SiteFileHandler(root: root, build: { 7 })
        let page = handler.handle(Self.get("/"))
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.status == 200)
        #expect(page.headers.first { $0.name == "Content-Type" }?.value == "text/html; charset=utf-8")
        #expect(page.headers.first { $0.name == "X-Content-Type-Options" }?.value == "nosniff")
        #expect(html.hasPrefix("<html><body><p>home</p><script data-rowmotion-live=\"7\">"))
        #expect(html.hasSuffix("</script></body></html>"))
        // The file on disk stays as the build wrote it.
        #expect(try String(contentsOf: root.appendingPathComponent("index.html"), encoding: .utf8) == "<html><body><p>home</p></body></html>")

        #expect(handler.handle(Self.get("/gone.html")).status == 404)
        #expect(handler.handle(Self.get("/", method: "POST")).status == 405)
    }

    @Test func folderWithoutIndex_isNotFound_andRedirectsNeverLeaveTheSite() throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("evil.example"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("a b"), withIntermediateDirectories: true)
        // Before: a folder without index.html redirected to itself forever.
        #expect(SiteFileHandler.resolve("/empty", in: root) == .redirect("/empty/"))
        #expect(SiteFileHandler.resolve("/empty/", in: root) == .notFound)
        // `//evil.example` would be another site's address in a Location.
        #expect(SiteFileHandler.resolve("//evil.example", in: root) == .redirect("/evil.example/"))
        #expect(SiteFileHandler.resolve("/a b", in: root) == .redirect("/a%20b/"))
    }

    @Test func liveScript_goesBeforeTheLastBodyEnd_orAtTheEnd() {
        #expect(LiveScript.inject(into: "<body>a</body>b</BODY>", build: 1).hasPrefix("<body>a</body>b<script data-rowmotion-live=\"1\">"))
        #expect(LiveScript.inject(into: "<p>fragment</p>", build: 2).hasPrefix("<p>fragment</p><script data-rowmotion-live=\"2\">"))
    }

    @Test func statusMessages_areJSON_withEscapedErrors() throws {
        let status = LiveStatus(build: 3, changed: ["index.html"], errors: ["site/a.md:2:1: error: \"quoted\"\nnext"])
        let json = status.json(type: "build")
        #expect(json == #"{"build":3,"changed":["index.html"],"errors":["site/a.md:2:1: error: \"quoted\"\nnext"],"inputs":null,"type":"build"}"#)
        // Decoded into the contract type, as the live script reads it.
        let message = try JSONDecoder().decode(LiveStatus.Message.self, from: Data(json.utf8))
        #expect(message == LiveStatus.Message(type: "build", build: 3, changed: ["index.html"], errors: ["site/a.md:2:1: error: \"quoted\"\nnext"]))
        // Not known is null, not missing.
        #expect(LiveStatus(build: 0).json(type: "hello") == #"{"build":0,"changed":null,"errors":[],"inputs":null,"type":"hello"}"#)
    }

    @Test func hub_greetsEachPage_thenSendsEveryBuild_andClosesOnStop() {
        let hub = LiveReloadHub(status: LiveStatus(build: 4))
        let received = Received()
        hub.connect(id: 1) { received.append($0) }
        #expect(received.all == [LiveStatus(build: 4).json(type: "hello")])
        #expect(hub.clientCount == 1)
        hub.publish(LiveStatus(build: 5, changed: ["a.html"]))
        #expect(received.all.last == LiveStatus(build: 5, changed: ["a.html"]).json(type: "build"))
        hub.closeAll()
        #expect(received.all.last == .some(nil))
        #expect(hub.clientCount == 0)
    }

    @Test func buildErrorsForPages_nameFilesRelativeToTheProject() {
        let error = "/home/me/docs/site/static/x.png:1:1: error: cannot read the file: permission denied"
        #expect(DevServer.relativeToProject(error, folder: "/home/me/docs") == "site/static/x.png:1:1: error: cannot read the file: permission denied")
    }

    @Test func changedFiles_listChangedAddedAndRemovedPaths() {
        let old: [String: [UInt8]] = ["a.html": [1], "b.html": [2], "c.html": [3]]
        let new: [String: [UInt8]] = ["a.html": [1], "b.html": [9], "d.html": [4]]
        #expect(DevServer.changedFiles(from: old, to: new) == ["b.html", "c.html", "d.html"])
        #expect(DevServer.changedFiles(from: new, to: new).isEmpty)
    }

    /// `serve` judges its first build by a scan taken before that build:
    /// a page saved after it (while the build runs, or before the watch's
    /// thread starts) is built. The watch took its first scan when its
    /// thread started, and such an edit was never built (once under load:
    /// test_serve's fuzz waited 120 s for an event).
    @Test func anEditSavedBeforeTheWatchStarts_isBuilt() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-watch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("site"), withIntermediateDirectories: true)
        try Data("# One\n".utf8).write(to: root.appendingPathComponent("site/index.md"))
        var options = BuildOptions()
        (options.site, options.examples, options.templates, options.out) = (root.appendingPathComponent("site").path,
            root.appendingPathComponent("examples").path, root.appendingPathComponent("templates").path, root.appendingPathComponent("_site").path)
        options.project = Project(root: root.path, isGitWorkTree: false)
        var configuration = DevServer.Configuration(build: options)
        configuration.pollInterval = 0.05
        let server = DevServer(configuration)
        let before = server.scanSources()
        server.rebuild()
        try Data("# Two, saved after the scan\n".utf8).write(to: root.appendingPathComponent("site/index.md"))
        let built = Received()
        server.onBuild = { outcome in built.append(outcome.changed.joined(separator: ",")) }
        let watching = Thread { server.watch(from: before) }
        watching.start()
        defer { server.stop() }
        let deadline = Date().addingTimeInterval(60)
        while built.all.isEmpty && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(built.all.first??.split(separator: ",").contains("index.html") == true, "\(built.all)")
        let page = try String(contentsOf: root.appendingPathComponent("_site/index.html"), encoding: .utf8)
        #expect(page.contains("Two, saved after the scan"))
    }

    /// A project of a few pages and an example, served from `_site`.
    static func makeProject() throws -> (root: URL, server: DevServer) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-edit-\(UUID().uuidString)")
        let files = [
            "site/index.md": "# Home\n",
            "site/guide/a.md": "---\ntitle: Alpha\n---\n## Setup\n\nText.\n",
            "site/guide/b.md": "---\ntitle: Beta\n---\nSee [setup](a.md#setup).\n\n```rowmotion\nexample: list.yml\n```\n",
            "site/guide/c.md": "---\ntitle: Gamma\n---\nPlain.\n",
            "examples/list.yml": "title: A list\ndescription: Rows.\nsteps:\n  - items: [a, b]\n  - items: [b, a]\n",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        var options = BuildOptions()
        (options.site, options.examples, options.templates, options.out) = (root.appendingPathComponent("site").path,
            root.appendingPathComponent("examples").path, root.appendingPathComponent("templates").path, root.appendingPathComponent("_site").path)
        options.project = Project(root: root.path, isGitWorkTree: false)
        options.cache = root.appendingPathComponent(".build/site.cache").path
        return (root, DevServer(DevServer.Configuration(build: options)))
    }

    /// Each file of the site on disk, by path: its inode and modification
    /// time, which a file written again (a new file renamed over it) changes.
    static func fileIdentities(_ folder: URL) -> [String: String] {
        var identities: [String: String] = [:]
        for path in FolderWalk.paths(under: folder.path) {
            var status = stat()
            guard lstat(folder.appendingPathComponent(path).path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            #if os(Linux)
            let modified = status.st_mtim
            #else
            let modified = status.st_mtimespec
            #endif
            identities[path] = "\(status.st_ino):\(modified.tv_sec).\(modified.tv_nsec)"
        }
        return identities
    }

    /// A save during `serve` writes the files that depend on it and no
    /// other (asserted on the files of the site on disk), and the live
    /// event names exactly those.
    @Test func aPageEditedDuringServe_writesOnlyTheOutputsThatDependOnIt() throws {
        let (root, server) = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: root) }
        let events = Received()
        server.hub.connect(id: 1) { events.append($0) }
        #expect(server.rebuild().written)
        let before = Self.fileIdentities(root.appendingPathComponent("_site"))
        try Data("---\ntitle: Gamma\n---\nPlain, edited.\n".utf8).write(to: root.appendingPathComponent("site/guide/c.md"))
        let outcome = server.rebuild(changed: [root.appendingPathComponent("site/guide/c.md").path])
        #expect(outcome.written && outcome.rendered == 1)
        #expect(outcome.changed == ["guide/c.html", "search-index.js"])
        let after = Self.fileIdentities(root.appendingPathComponent("_site"))
        let rewritten = Set(after.keys.filter { after[$0] != before[$0] })
        #expect(rewritten == ["guide/c.html", "search-index.js"])
        #expect(events.all.last??.contains("\"changed\":[\"guide/c.html\",\"search-index.js\"]") == true, "\(events.all.last ?? nil ?? "")")
        // An edited example: its page and filmstrip, and the page that shows it.
        try Data("title: A list\ndescription: Rows.\nsteps:\n  - items: [a, b]\n  - items: [a, b, c]\n".utf8)
            .write(to: root.appendingPathComponent("examples/list.yml"))
        let example = server.rebuild(changed: [root.appendingPathComponent("examples/list.yml").path])
        #expect(Set(example.changed).isSuperset(of: ["examples/list.html", "examples/list.svg", "guide/b.html"]))
        #expect(!example.changed.contains("guide/a.html") && !example.changed.contains("guide/c.html"), "\(example.changed)")
        // A removed anchor: nothing but the page itself is written, and the page linking to it warns.
        try Data("---\ntitle: Alpha\n---\n## Install\n".utf8).write(to: root.appendingPathComponent("site/guide/a.md"))
        let anchor = server.rebuild(changed: [root.appendingPathComponent("site/guide/a.md").path])
        #expect(anchor.changed == ["guide/a.html", "search-index.js"])
        #expect(anchor.diagnostics.contains { $0.location.file.hasSuffix("site/guide/b.md") && $0.message.contains("'#setup'") })
        // A page in a folder of its own, then removed: its folder goes too.
        let lone = root.appendingPathComponent("site/d/x.md")
        try FileManager.default.createDirectory(at: lone.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("# X\n".utf8).write(to: lone)
        #expect(server.rebuild(changed: [lone.path]).changed.contains("d/x.html"))
        try FileManager.default.removeItem(at: lone.deletingLastPathComponent())
        #expect(server.rebuild(changed: [lone.path]).changed.contains("d/x.html"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("_site/d").path))
        // What serve wrote is what a build writes.
        var options = server.configuration.build
        options.out = root.appendingPathComponent("_clean").path
        let clean = SiteBuilder.build(options)
        for (path, bytes) in clean.files {
            let written = FileManager.default.contents(atPath: root.appendingPathComponent("_site").appendingPathComponent(path).path)
            #expect(written.map([UInt8].init) == bytes, "\(path) on disk is not what a clean build makes")
        }
        let onDisk = Set(FolderWalk.paths(under: root.appendingPathComponent("_site").path)).subtracting([SiteWriter.marker])
        let cleanPaths = Set(clean.files.keys.flatMap { path in
            // Each file and the folders on the way to it.
            path.split(separator: "/").indices.map { path.split(separator: "/")[...$0].joined(separator: "/") }
        })
        #expect(onDisk == cleanPaths, "only on disk: \(onDisk.subtracting(cleanPaths).sorted()), only in a clean build: \(cleanPaths.subtracting(onDisk).sorted())")
    }

    /// On Linux the kernel tells of a save (inotify): the build follows it
    /// without a scan of every file, and the event names the page.
    @Test func aSaveHeardFromTheKernel_isBuilt() async throws {
        let (root, server) = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: root) }
        let before = server.scanSources()
        server.rebuild()
        let built = Received()
        server.onBuild = { outcome in built.append(outcome.changed.joined(separator: ",")) }
        let watching = Thread { server.watch(from: before) }
        watching.start()
        defer { server.stop() }
        // As editors save: a new file renamed over the old one.
        let page = root.appendingPathComponent("site/guide/c.md")
        try Data("---\ntitle: Gamma\n---\nSaved.\n".utf8).write(to: root.appendingPathComponent("site/guide/.c.md.swp"))
        #expect(rename(root.appendingPathComponent("site/guide/.c.md.swp").path, page.path) == 0)
        let deadline = Date().addingTimeInterval(60)
        while !built.all.contains(where: { $0?.contains("guide/c.html") == true }) && Date() < deadline {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(built.all.contains { $0 == "guide/c.html,search-index.js" }, "\(built.all)")
    }

    /// An editor's backup (`page.md~`) is a file the build reads (and
    /// publishes, when git would track it): the watcher sees it as well.
    /// A watched folder made after `serve` started (`rowmotion init` makes
    /// no `templates/`), or removed and made again (a checkout), is watched
    /// as it appears: its files' saves are built.
    @Test func aWatchedFolderMadeLater_orMadeAgain_isWatched() async throws {
        let (root, server) = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: root) }
        let before = server.scanSources()
        server.rebuild()
        let built = Received()
        server.onBuild = { outcome in built.append(outcome.changed.joined(separator: ",")) }
        let watching = Thread { server.watch(from: before) }
        watching.start()
        defer { server.stop() }
        func waitForBuild(naming part: String) async throws {
            let deadline = Date().addingTimeInterval(60)
            while !built.all.contains(where: { $0?.contains(part) == true }) && Date() < deadline {
                try await Task.sleep(nanoseconds: 5_000_000)
            }
            #expect(built.all.contains { $0?.contains(part) == true }, "no build named \(part): \(built.all)")
        }
        // A save first: once it is built, the watch is past its first scan.
        try Data("---\ntitle: Gamma\n---\nWatching.\n".utf8).write(to: root.appendingPathComponent("site/guide/c.md"))
        try await waitForBuild(naming: "guide/c.html")
        // templates/ made after the server started: the theme's stylesheet is its own.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("templates"), withIntermediateDirectories: true)
        try Data("body { color: rebeccapurple; }\n".utf8).write(to: root.appendingPathComponent("templates/rowmotion.css"))
        try await waitForBuild(naming: "assets/rowmotion.")
        // examples/ removed and made again: a later save in it is built.
        try FileManager.default.removeItem(at: root.appendingPathComponent("examples"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("examples"), withIntermediateDirectories: true)
        try Data("title: A list\ndescription: Rows.\nsteps:\n  - items: [a, b]\n  - items: [b, a]\n".utf8)
            .write(to: root.appendingPathComponent("examples/list.yml"))
        try await waitForBuild(naming: "examples/list.html")
        let count = built.all.count
        try Data("title: A list\ndescription: Rows.\nsteps:\n  - items: [a, b]\n  - items: [b, c, a]\n".utf8)
            .write(to: root.appendingPathComponent("examples/list.yml"))
        let deadline = Date().addingTimeInterval(60)
        while built.all.count == count && Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(built.all.dropFirst(count).contains { $0?.contains("examples/list.html") == true }, "\(built.all)")
    }

    @Test func watcher_seesEditsAdditionsRemovalsAndBackupFiles_butNotHiddenOnes() throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: root) }
        let watcher = SourceWatcher(folders: [root.appendingPathComponent("examples").path])
        let before = watcher.scan()
        #expect(before.count == 2)
        try Data("<p>chat, longer</p>".utf8).write(to: root.appendingPathComponent("examples/messenger.html"))
        try Data("new".utf8).write(to: root.appendingPathComponent("examples/new.yml"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("examples/index.html"))
        try Data("x".utf8).write(to: root.appendingPathComponent("examples/.new.yml.swp"))
        try Data("x".utf8).write(to: root.appendingPathComponent("examples/new.yml~"))
        let changes = SourceWatcher.changes(from: before, to: watcher.scan()).map { ($0 as NSString).lastPathComponent }
        #expect(changes == ["index.html", "messenger.html", "new.yml", "new.yml~"])
    }
}

/// What a hub sent one page.
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String?] = []
    var all: [String?] { lock.withLock { items } }
    func append(_ item: String?) { lock.withLock { items.append(item) } }
}
