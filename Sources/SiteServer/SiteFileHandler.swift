import ProjectFiles
import Foundation
import SiteGenerator
import SnapshotFormat

/// Serves the files of the built site, read from disk on every request (a
/// rebuild swaps the folder), with the live-reload script added to HTML.
public struct SiteFileHandler: Sendable {
    /// Where a request's path leads inside the site.
    public enum Target: Equatable, Sendable {
        /// A file, by its path under the site's folder.
        case file(String)
        /// A folder asked for without its trailing slash: redirect there.
        case redirect(String)
        /// Outside the site, hidden, or absent.
        case notFound
    }

    let root: URL
    let build: @Sendable () -> Int

    /// - Parameters:
    ///   - root: the site's folder.
    ///   - build: the number of the build being served, for the live script.
    public init(root: URL, build: @escaping @Sendable () -> Int) {
        self.root = root
        self.build = build
    }

    func handle(_ request: RequestHead) -> HTTPAnswer {
        guard request.method == "GET" || request.method == "HEAD" else {
            return HTTPAnswer(status: 405, headers: [("Allow", "GET, HEAD")] + Self.commonHeaders(type: "text/plain; charset=utf-8"),
                              body: Array("only GET and HEAD are served\n".utf8))
        }
        switch Self.resolve(request.path, in: root) {
        case let .redirect(location):
            return HTTPAnswer(status: 301, headers: [("Location", location)] + Self.commonHeaders(type: "text/plain; charset=utf-8"))
        case .notFound:
            let page = "<!doctype html><meta charset=\"utf-8\"><title>Not found</title>"
                + "<body><h1>Not found</h1><p>The site has no page at this address (yet).</p></body>"
            return HTTPAnswer(status: 404, headers: Self.commonHeaders(type: "text/html; charset=utf-8"),
                              body: Array(LiveScript.inject(into: page, build: build()).utf8))
        case let .file(path):
            let url = root.appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                return HTTPAnswer(status: 404, headers: Self.commonHeaders(type: "text/plain; charset=utf-8"), body: Array("not found\n".utf8))
            }
            let type = Self.contentType(of: path)
            guard type.hasPrefix("text/html") else {
                return HTTPAnswer(status: 200, headers: Self.commonHeaders(type: type), body: [UInt8](data))
            }
            let html = String(decoding: data, as: UTF8.self)
            return HTTPAnswer(status: 200, headers: Self.commonHeaders(type: type), body: Array(LiveScript.inject(into: html, build: build()).utf8))
        }
    }

    /// What every answer carries: its type, never cached (the next build
    /// replaces it), never sniffed as another type.
    static func commonHeaders(type: String) -> [(name: String, value: String)] {
        [("Content-Type", type), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")]
    }

    /// Where `path` (a request's decoded path) leads in the site at `root`:
    /// a folder means its `index.html`; `..`, hidden names (the site's
    /// marker file among them) and anything that leaves the folder through a
    /// link are not found.
    public static func resolve(_ path: String, in root: URL) -> Target {
        guard path.hasPrefix("/") else { return .notFound }
        // The site's folder itself: a folder, never a link (one made since
        // the server started is not the site).
        var status = stat()
        guard lstat(root.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return .notFound }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !parts.contains(where: { $0.hasPrefix(".") || $0.contains("\0") || $0.contains("\\") }) else { return .notFound }
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        let relative = parts.joined(separator: "/")
        let url = root.appendingPathComponent(relative)
        guard manager.fileExists(atPath: url.path, isDirectory: &isFolder) else { return .notFound }
        // Links are not followed, in or out of the site: the writer never
        // makes one, so a link there is not the site's.
        guard !FolderWalk.passesThroughLink(relative, under: root.path),
              Paths.isInside(url.path, folder: root.path, orIsIt: true) else { return .notFound }
        guard isFolder.boolValue else { return .file(relative) }
        // Rebuilt from the parts (never `//host/`, which a browser reads as
        // another site), each part %-encoded again.
        guard path.hasSuffix("/") else { return .redirect("/" + parts.map(encoded).joined(separator: "/") + "/") }
        let index = relative.isEmpty ? "index.html" : relative + "/index.html"
        return FolderWalk.isPlainFile(root.appendingPathComponent(index).path) ? .file(index) : .notFound
    }

    /// A path segment %-encoded for a `Location` header.
    static func encoded(_ segment: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#;")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }

    /// The `Content-Type` for a file of the site, by its extension.
    public static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "ico": "image/x-icon"
        case "txt", "md", "yml", "yaml": "text/plain; charset=utf-8"
        case "woff2": "font/woff2"
        default: "application/octet-stream"
        }
    }
}
