import Diagnostics
import Foundation
import ProjectFiles
import SeededRandom
@testable import SiteGenerator
import Testing

@Suite("Site writer")
struct SiteWriterTests {
    /// A fresh folder for one test, removed afterwards by the caller.
    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func read(_ url: URL) -> String? { (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } }

    @Test func writesTheFiles_andTheMarker() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let site = root.appendingPathComponent("_site")
        try SiteWriter.write(["index.html": Array("home".utf8), "assets/a.css": Array("css".utf8)], to: site.path)
        #expect(read(site.appendingPathComponent("index.html")) == "home")
        #expect(read(site.appendingPathComponent("assets/a.css")) == "css")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(SiteWriter.marker).path))
        // Nothing is left beside the site.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["_site"])
    }

    /// Files are written whole (large, empty, any bytes), a file that
    /// cannot be created is a failure, not a silent gap, and a name already
    /// there is never written through (the staging folder may share it
    /// with the live site by a hard link).
    @Test func writeNewFile_writesEveryByte_andReportsWhatItCannotWrite() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let large = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for (name, bytes) in [("large.bin", large), ("empty.html", []), ("text.html", Array("é\u{0}<\n".utf8))] {
            let path = root.appendingPathComponent(name).path
            #expect(WritePath.writeNewFile(bytes, to: path))
            #expect(FileManager.default.contents(atPath: path).map { [UInt8]($0) } == bytes, "\(name)")
        }
        #expect(!WritePath.writeNewFile([1], to: root.appendingPathComponent("missing/x.html").path))
        #expect(!WritePath.writeNewFile([1], to: root.path))
        let existing = root.appendingPathComponent("text.html").path
        #expect(!WritePath.writeNewFile([1], to: existing))
        #expect(FileManager.default.contents(atPath: existing).map { [UInt8]($0) } == Array("é\u{0}<\n".utf8))
    }

    @Test func rebuild_replacesTheSite_andReusesUnchangedFiles() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let site = root.appendingPathComponent("_site")
        try SiteWriter.write(["same.html": Array("same".utf8), "gone.html": Array("old".utf8), "edit.html": Array("v1".utf8)], to: site.path)
        let counts = try SiteWriter.write(["same.html": Array("same".utf8), "edit.html": Array("v2".utf8)], to: site.path)
        #expect(counts.written == 1 && counts.reused == 1)
        #expect(read(site.appendingPathComponent("edit.html")) == "v2")
        #expect(read(site.appendingPathComponent("same.html")) == "same")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("gone.html").path))
    }

    /// A folder Rowmotion did not create is never replaced or deleted.
    @Test func foreignFolder_isRefused_andLeftAlone() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let foreign = root.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: foreign.appendingPathComponent("notes.txt"))
        #expect(throws: Diagnostic.self) { try SiteWriter.write(["index.html": []], to: foreign.path) }
        #expect(read(foreign.appendingPathComponent("notes.txt")) == "mine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: foreign.path) == ["notes.txt"])
    }

    /// A build that fails halfway (here: a file that cannot be written)
    /// leaves the previous site exactly as it was, and no debris.
    @Test func failedBuild_leavesThePreviousSiteIntact() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let site = root.appendingPathComponent("_site")
        try SiteWriter.write(["index.html": Array("good".utf8)], to: site.path)
        // "page" is both a file and a folder: the second write cannot succeed.
        #expect(throws: Diagnostic.self) {
            try SiteWriter.write(["index.html": Array("bad".utf8), "page": Array("x".utf8), "page/inner.html": []], to: site.path)
        }
        #expect(read(site.appendingPathComponent("index.html")) == "good")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["_site"])
    }

    @Test func pathsOutsideTheSite_areRefused() {
        for path in ["../escape.html", "/etc/passwd", "a/../../b", "", SiteWriter.marker] {
            #expect(!SiteFolder.isSafe(path), "\(path)")
        }
        #expect(SiteFolder.isSafe("examples/messenger.html"))
        // Judged by the paths' parts split as text, on random paths.
        let seed: UInt64 = 20_261_127
        var random = SeededGenerator(seed: seed)
        for _ in 0..<20_000 {
            let path = String((0..<Int.random(in: 0...7, using: &random)).map { _ in ["a", ".", "/", "é", "..", "."].randomElement(using: &random)! }.joined())
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            let reference = !path.isEmpty && !parts.contains { $0.isEmpty || $0 == "." || $0 == ".." } && path != SiteWriter.marker
            #expect(SiteFolder.isSafe(path) == reference, "seed \(seed): '\(path)'")
        }
    }
}
