import Foundation

/// Where things go in the site, and path arithmetic on the site's own
/// (always relative, `/`-separated) paths: what every stage agrees on.
enum OutputPaths {
    /// The site's search index, at its root beside `index.html`.
    static let searchIndex = "search-index.js"
    /// The review page `--baseline` adds.
    static let changes = "changes.html"

    static func htmlName(_ exampleName: String) -> String {
        withoutExtension(exampleName) + ".html"
    }

    /// The example's filmstrip, beside its page.
    static func filmstripName(_ exampleName: String) -> String {
        withoutExtension(exampleName) + ".svg"
    }

    /// `path` without the extension of its last part, as `NSString`'s
    /// `deletingPathExtension` gives it for a path without `//` or a
    /// trailing `/` (which an example's name never has): by the bytes, as
    /// an example's name is asked for its page ten times a build (and
    /// Foundation's, on Linux, stops the process on `a//é`).
    static func withoutExtension(_ path: String) -> String {
        let utf8 = path.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")) else { return path }
        let start = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        guard dot > start, !utf8[start...].elementsEqual("..".utf8) else { return path }
        return String(path[..<dot])
    }

    /// Where an example's page and filmstrip go in the site.
    static func examplePath(_ exampleName: String) -> String { "examples/" + OutputPaths.htmlName(exampleName) }
    static func filmstripPath(_ exampleName: String) -> String { "examples/" + OutputPaths.filmstripName(exampleName) }

    /// Where a baseline filmstrip goes in the site.
    /// The folder of the baseline's filmstrips the review shows.
    static let reviewFolder = "changes"

    static func baselineFilmstripPath(_ exampleName: String) -> String {
        reviewFolder + "/" + String(OutputPaths.filmstripName(exampleName).dropLast(".svg".count)) + ".before.svg"
    }

    /// `a/b/c.html` → `a/b`; `c.html` → "".
    static func parent(of path: String) -> String {
        guard let slash = lastSlash(in: path) else { return "" }
        return String(path[..<slash])
    }

    /// The last `/` of `path`, as the file system reads it: the byte. (As
    /// text, a combining mark after a slash, or a prepended mark before
    /// it, joins it into another character, which a search for the
    /// character `/` passes over: a page was placed a folder up.)
    static func lastSlash(in path: String) -> String.Index? {
        path.utf8.lastIndex(of: UInt8(ascii: "/"))
    }

    /// How many folders down `path` is: its non-empty parts but the last
    /// (`a/b/c.html` → 2, `c.html` → 0), as `split(separator: "/").count - 1`
    /// counts them, without making the parts.
    static func depth(of path: String) -> Int {
        var parts = 0, inPart = false
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                inPart = false
            } else if !inPart {
                inPart = true
                parts += 1
            }
        }
        return parts - 1
    }

    /// The cache file name for an output folder.
    static func cacheName(for output: String) -> String { "site-" + ContentHash.key([output]) + ".cache" }

    /// `a/./b/../c` to `a/c`. Byte-level: every link of every page goes
    /// through here.
    static func normalize(_ path: String) -> String {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        // Already normal: no empty, `.` or `..` segment (the common case).
        var previous = slash, clean = true
        for byte in path.utf8 {
            if previous == slash, byte == slash || byte == dot { clean = false; break }
            previous = byte
        }
        if clean, previous != slash { return path }
        // One pass: each segment written out, `..` taking back the last one
        // written (where each starts is kept), `.` and empty ones skipped.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        var starts: [Int] = []
        var path = path
        path.withUTF8 { utf8 in
            var start = 0
            while start <= utf8.count {
                var end = start
                while end < utf8.count, utf8[end] != slash { end += 1 }
                let length = end - start
                if length == 0 || (length == 1 && utf8[start] == dot) {
                    // Nothing to write.
                } else if length == 2, utf8[start] == dot, utf8[start + 1] == dot, let last = starts.popLast() {
                    bytes.removeSubrange(max(0, last - 1)...)
                } else {
                    if !bytes.isEmpty { bytes.append(slash) }
                    starts.append(bytes.count)
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<end]))
                }
                start = end + 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A path as a file system that ignores case sees it: lowercased (an
    /// ASCII path, as most are, byte by byte).
    static func folded(_ path: String) -> String {
        if path.utf8.allSatisfy({ $0 < 0x80 }) {
            guard path.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return path }
            return String(decoding: path.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return path.lowercased()
    }
}
