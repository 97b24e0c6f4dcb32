import FlyingFox
import Foundation
@testable import SiteServer
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

    @Test func servedHTML_getsTheLiveScript_otherFilesAsWritten() async throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: root) }
        let handler = SiteFileHandler(root: root, build: { 7 })
        let page = try await handler.handleRequest(HTTPRequest(method: .GET, version: .http11, path: "/", query: [], headers: [:], body: Data()))
        let html = String(decoding: try await page.bodyData, as: UTF8.self)
        #expect(page.statusCode == .ok)
        #expect(page.headers[.contentType] == "text/html; charset=utf-8")
        #expect(html.hasPrefix("<html><body><p>home</p><script data-rowmotion-live=\"7\">"))
        #expect(html.hasSuffix("</script></body></html>"))
        // The file on disk stays as the build wrote it.
        #expect(try String(contentsOf: root.appendingPathComponent("index.html"), encoding: .utf8) == "<html><body><p>home</p></body></html>")

        let missing = try await handler.handleRequest(HTTPRequest(method: .GET, version: .http11, path: "/gone.html", query: [], headers: [:], body: Data()))
        #expect(missing.statusCode == .notFound)
        let post = try await handler.handleRequest(HTTPRequest(method: .POST, version: .http11, path: "/", query: [], headers: [:], body: Data()))
        #expect(post.statusCode == .methodNotAllowed)
    }

    @Test func liveScript_goesBeforeTheLastBodyEnd_orAtTheEnd() {
        #expect(LiveScript.inject(into: "<body>a</body>b</BODY>", build: 1).hasPrefix("<body>a</body>b<script data-rowmotion-live=\"1\">"))
        #expect(LiveScript.inject(into: "<p>fragment</p>", build: 2).hasPrefix("<p>fragment</p><script data-rowmotion-live=\"2\">"))
    }

    @Test func statusMessages_areJSON_withEscapedErrors() throws {
        let status = LiveStatus(build: 3, changed: ["index.html"], errors: ["site/a.md:2:1: error: \"quoted\"\nnext"])
        let json = status.json(type: "build")
        #expect(json == #"{"type":"build","build":3,"changed":["index.html"],"errors":["site/a.md:2:1: error: \"quoted\"\nnext"]}"#)
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(object?["build"] as? Int == 3)
        #expect(LiveStatus(build: 0).json(type: "hello") == #"{"type":"hello","build":0,"changed":null,"errors":[]}"#)
    }

    @Test func hub_greetsEachPage_thenSendsEveryBuild_andClosesOnStop() async throws {
        let hub = LiveReloadHub(status: LiveStatus(build: 4))
        let (client, _) = AsyncStream<WSMessage>.makeStream()
        var messages = try await hub.makeMessages(for: client).makeAsyncIterator()
        #expect(await messages.next() == .text(LiveStatus(build: 4).json(type: "hello")))
        #expect(hub.clientCount == 1)
        hub.publish(LiveStatus(build: 5, changed: ["a.html"]))
        #expect(await messages.next() == .text(LiveStatus(build: 5, changed: ["a.html"]).json(type: "build")))
        hub.closeAll()
        #expect(await messages.next() == .close(.goingAway))
        #expect(await messages.next() == nil)
        #expect(hub.clientCount == 0)
    }

    @Test func changedFiles_listChangedAddedAndRemovedPaths() {
        let old: [String: [UInt8]] = ["a.html": [1], "b.html": [2], "c.html": [3]]
        let new: [String: [UInt8]] = ["a.html": [1], "b.html": [9], "d.html": [4]]
        #expect(DevServer.changedFiles(from: old, to: new) == ["b.html", "c.html", "d.html"])
        #expect(DevServer.changedFiles(from: new, to: new).isEmpty)
    }

    @Test func watcher_seesEditsAdditionsAndRemovals_butNotHiddenOrBackupFiles() throws {
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
        #expect(changes == ["index.html", "messenger.html", "new.yml"])
    }
}
