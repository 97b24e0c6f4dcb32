import Foundation
import Testing

/// What a CI job gets wrong without noticing (issue 18, item 2): a build in
/// the wrong folder, a `step:` past the end, a failure whose reason scrolled
/// by. Each now fails the job with a located error and one closing line.
@Suite struct SafeDefaultsTests {
    @Test func aBuildThatFindsNothing_failsUnlessAllowEmpty() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        // Before: "built 0 pages and 0 examples", exit 0, an empty site published.
        let empty = try CLI.run(["build", "--strict"], in: root)
        #expect(empty.status == 1)
        #expect(empty.stderr.hasPrefix("site:1:1: error: found no pages in 'site' and no examples in 'examples' (from "), "\(empty.stderr)")
        #expect(empty.stderr.hasSuffix("\nrowmotion: build failed: 1 error, 0 warnings\n"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("_site").path))
        let allowed = try CLI.run(["build", "--allow-empty"], in: root)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.hasPrefix("built 0 pages and 0 examples"))
    }

    /// A report (or summary) that cannot be written where it is named (a
    /// folder there) fails the build before the site is replaced: the old
    /// site stays, and the error names the report.
    @Test func aReportThatCannotBeWritten_leavesTheOldSite() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("site"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("---\ntitle: Home\n---\nFirst.\n".utf8).write(to: root.appendingPathComponent("site/index.md"))
        let first = try CLI.run(["build", "--allow-empty"], in: root)
        #expect(first.status == 0, "\(first.stderr)")
        let home = root.appendingPathComponent("_site/index.html").path
        let before = try Data(contentsOf: URL(fileURLWithPath: home))
        try Data("---\ntitle: Home\n---\nSecond.\n".utf8).write(to: root.appendingPathComponent("site/index.md"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("report.json"), withIntermediateDirectories: true)
        let failed = try CLI.run(["build", "--report", "report.json"], in: root)
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("report.json:1:1: error: cannot write the report: it is a folder"), "\(failed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: home)) == before, "the old site stays")
    }

    /// Issue 30, item 2: `check` in a wrong folder said "checked 0 files"
    /// and exited 0, while its help says finding nothing is an error.
    @Test func aCheckThatFindsNothing_failsUnlessAllowEmpty() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-empty-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("notes"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let empty = try CLI.run(["check"], in: root)
        #expect(empty.status == 1)
        #expect(empty.stderr.hasPrefix("site:1:1: error: found no pages in 'site' and no examples in 'examples' (from "), "\(empty.stderr)")
        #expect(empty.stderr.contains("--allow-empty checks nothing on purpose"))
        // A folder named that holds no sequence file: the same rule.
        let folder = try CLI.run(["check", "notes"], in: root)
        #expect(folder.status == 1)
        #expect(folder.stderr.hasPrefix("notes:1:1: error: found no snapshot sequence files (.json, .yaml, .yml) in 'notes'"), "\(folder.stderr)")
        let allowed = try CLI.run(["check", "--allow-empty"], in: root)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout == "checked 0 sequence files: 0 errors, 0 warnings\n")
        // An empty site folder: the site's build says it, once.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("site"), withIntermediateDirectories: true)
        let site = try CLI.run(["check"], in: root)
        #expect(site.status == 1)
        #expect(site.stderr.components(separatedBy: "error: found no pages").count == 2, "\(site.stderr)")
    }

    @Test func aStepPastTheLastSnapshot_isAnErrorAtItsLine() throws {
        let root = try ProjectTrapsTests.project()
        defer { try? FileManager.default.removeItem(at: root) }
        try ProjectTrapsTests.write(root, "site/index.md", "# Home\n\n```rowmotion\nexample: a.yml\nstep: 12\n```\n\n```rowmotion\nexample: a.yml\nstep: 1\n```\n")
        let result = try CLI.run(["build"], in: root)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("site/index.md:5:7: error: 'step: 12' is past the last snapshot of 'a.yml': it has 2 (steps 0 to 1)\n"),
                "\(result.stderr)")
    }

    @Test func aFailingBuild_endsWithOneLineSayingWhy() throws {
        let root = try ProjectTrapsTests.project()
        defer { try? FileManager.default.removeItem(at: root) }
        try ProjectTrapsTests.write(root, "site/other.md", "# Other\n\n[gone](gone.md) and [also](missing.md)\n")
        let strict = try CLI.run(["build", "--strict"], in: root)
        #expect(strict.status == 1)
        let lines = strict.stderr.split(separator: "\n")
        #expect(lines.count == 3 && lines.last == "rowmotion: build failed: 0 errors, 2 warnings (--strict)", "\(strict.stderr)")
        let lenient = try CLI.run(["build"], in: root)
        #expect(lenient.status == 0)
        #expect(!lenient.stderr.contains("build failed"))
    }
}

extension SafeDefaultsTests {
    /// Images, links to files and raw HTML's `src`/`href` that lead nowhere
    /// are warnings at their address (errors under --strict); the ones that
    /// exist pass, and raw HTML linking a `.md` page is told it is not rewritten.
    @Test func missingImagesFilesAndRawHTMLTargets_areWarningsAtTheirColumn() throws {
        let root = try ProjectTrapsTests.project()
        defer { try? FileManager.default.removeItem(at: root) }
        try ProjectTrapsTests.write(root, "site/img/here.png", "png")
        try ProjectTrapsTests.write(root, "site/files.md", """
            # Files

            ![ok](img/here.png) ![gone](img/a.png) [pdf](docs/manual.pdf)

            <img src="img/b.png" alt=""> <a href="index.md">home</a> <a href="#files">top</a>
            <p>Inline <img src='/img/here.png'> and <img data-src="x.png" src="https://example.com/x.png"></p>
            <p><img src="img/a&amp;b.png" alt=""> <img src="img/here&#46;png" alt=""> <img src="img/here&#x2E;png" alt=""></p>
            """)
        try ProjectTrapsTests.write(root, "site/img/a&b.png", "png")
        let result = try CLI.run(["build", "--strict"], in: root)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines == [
            "site/files.md:3:29: warning: image 'img/a.png', which is not a file of the site",
            "site/files.md:3:46: warning: link to 'docs/manual.pdf', which is not a file of the site",
            "site/files.md:5:11: warning: raw HTML points to 'img/b.png', which is not a file of the site",
            "site/files.md:5:39: warning: raw HTML links to 'index.md', which the site publishes as 'index.html'; raw HTML is not rewritten: write 'index.html' or a Markdown link",
            "rowmotion: build failed: 0 errors, 4 warnings (--strict)",
        ], "\(result.stderr)")
    }
}

extension SafeDefaultsTests {
    /// Batch captions say what the batch holds: a header that changed with
    /// nothing else is a reload alone, not "after the moves"; reloads after
    /// inserts only wait for the inserts (issue 18, item 6).
    @Test func batchCaptions_describeWhatTheBatchHolds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-captions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try ProjectTrapsTests.write(folder, "header.yml", """
            steps:
              - sections: [{id: a, header: Old, items: [x, y]}]
              - sections: [{id: a, header: New, items: [x, y]}]
            """)
        let header = try CLI.run(["diff", "header.yml"], in: folder)
        #expect(header.stdout.contains("// Batch 1 of 1: reloads only: section (header, footer and rows) whose content changed; nothing moves"),
                "\(header.stdout)")
        #expect(!header.stdout.contains("moves have finished"))
    }
}
