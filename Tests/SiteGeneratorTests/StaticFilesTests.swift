import Foundation
import SeededRandom
@testable import SiteGenerator
import Testing

@Suite("Static files of site/")
struct StaticFilesTests {
    @Test func filesOtherThanPages_arePublishedByteForByte_andLinksToThemResolve() throws {
        let project = try FixtureProject(files: sampleFiles + [
            ("site/guide.md", "# Guide\n\n![Flow](images/flow.svg) and [the schema](schema/format.json).\n"),
            ("site/images/flow.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n"),
            ("site/schema/format.json", "{\"type\": \"object\"}\n"),
            ("site/.DS_Store", "junk"),
            ("site/.drafts/secret.txt", "not for publishing"),
        ])
        defer { project.remove() }
        let binary: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x0A]
        try Data(binary).write(to: project.root.appendingPathComponent("site/images/logo.png"))
        let site = SiteBuilder.build(project.options)
        #expect(site.diagnostics.filter { $0.id == "broken-link" }.isEmpty)
        #expect(site.files["images/flow.svg"] == Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n".utf8))
        #expect(site.files["schema/format.json"] == Array("{\"type\": \"object\"}\n".utf8))
        #expect(site.files["images/logo.png"] == binary)
        #expect(site.files.keys.filter { $0.contains(".DS_Store") || $0.contains("secret") }.isEmpty)
        #expect(site.files["guide.md"] == nil)
    }

    @Test func aFileTakingAGeneratedPagesPath_isAnError() throws {
        let project = try FixtureProject(files: sampleFiles + [
            ("site/zeta.html", "<p>hand-written</p>\n"),
            ("site/assets/rowmotion.css", "body {}\n"),
            ("site/search-index.js", "var mine = 1;\n"),
        ])
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let page = project.root.appendingPathComponent("site/zeta.html").path
        let asset = project.root.appendingPathComponent("site/assets/rowmotion.css").path
        let index = project.root.appendingPathComponent("site/search-index.js").path
        let errors = site.diagnostics.filter { $0.id == "static-file" }.map(\.description)
        #expect(errors == ["\(asset):1:1: error: 'assets/rowmotion.css' is also a page the site generates; rename the file",
                           "\(index):1:1: error: 'search-index.js' is also a page the site generates; rename the file",
                           "\(page):1:1: error: 'zeta.html' is also a page the site generates; rename the file"])
        #expect(String(decoding: site.files["zeta.html"] ?? [], as: UTF8.self).contains("Zeta"))
    }

    @Test func aSymbolicLinkLeadingOutOfSite_isAnError_notPublished() throws {
        let project = try FixtureProject(files: sampleFiles + [("secret/key.txt", "do not publish")])
        defer { project.remove() }
        try FileManager.default.createSymbolicLink(atPath: project.root.appendingPathComponent("site/key.txt").path,
                                                   withDestinationPath: project.root.appendingPathComponent("secret/key.txt").path)
        let site = SiteBuilder.build(project.options)
        #expect(site.files["key.txt"] == nil)
        #expect(site.diagnostics.map(\.description) == ["\(project.root.path)/site/key.txt:1:1: error: this file is a symbolic link; "
                                                         + "a build reads only regular files (commit the file itself, not a link to it)"])
    }

    /// Outputs alike but for case: the first in byte order keeps its name,
    /// each other one is an error at its source naming that first one;
    /// outputs of one source (an example's page and filmstrip) never are.
    /// An output inside a folder that is another output's file is an error
    /// naming what that file is, found by the folders' prefixes, case folded.
    @Test func outputsInsideAnotherOutputsFile_areErrorsNamingIt() {
        let problems = SiteInputs.filesInsideFiles([
            (output: "b.html", source: "site/b.md"),
            (output: "B.html/y.txt", source: "site/B.html/y.txt"),
            (output: "search-index.js/p.txt", source: "site/search-index.js/p.txt"),
            (output: "fine/deep/page.html", source: "site/fine/deep/page.md"),
        ], made: ["search-index.js": "the site's search index"])
        #expect(problems.map(\.message) == [
            "this file becomes 'B.html/y.txt', inside 'B.html', which 'site/b.md' becomes; a path cannot be both a file and a folder: rename one",
            "this file becomes 'search-index.js/p.txt', inside 'search-index.js', which is the site's search index; a path cannot be both a file and a folder: rename one",
        ])
    }

    /// An example's page and filmstrip are its name without its extension,
    /// as Foundation's `deletingPathExtension` gives it, on random names.
    @Test func anExamplesOutputName_isItsNameWithoutExtension_asFoundationSays() {
        let seed: UInt64 = 20_261_127
        var random = SeededGenerator(seed: seed)
        for _ in 0..<20_000 {
            let name = (0..<Int.random(in: 0...7, using: &random)).map { _ in ["a", ".", "/", "é", "yml", ".."].randomElement(using: &random)! }.joined()
            // (Foundation's own stops the process on `a//é` on Linux; no example's name has `//` or ends in `/`.)
            guard !name.contains("//"), !name.hasSuffix("/") else { continue }
            #expect(OutputPaths.withoutExtension(name) == (name as NSString).deletingPathExtension, "seed \(seed): '\(name)'")
        }
        #expect(OutputPaths.examplePath("lists/inbox.yml") == "examples/lists/inbox.html")
    }

    @Test func outputsAlikeButForCase_areErrorsAgainstTheFirstInByteOrder() {
        let problems = SiteInputs.caseCollisions([
            (output: "guide.html", source: "site/guide.md"),
            (output: "Guide.html", source: "site/Guide.md"),
            (output: "other.html", source: "site/other.md"),
            (output: "GUIDE.html", source: "site/GUIDE.md"),
            (output: "examples/a.html", source: "examples/a.yml"),
            (output: "examples/A.html", source: "examples/a.yml"),
        ])
        #expect(problems.map(\.location.file) == ["site/Guide.md", "site/guide.md"])
        #expect(problems.allSatisfy { $0.notes.first?.location.file == "site/GUIDE.md" })
        #expect(problems.first?.message.hasPrefix("this file becomes 'Guide.html' and 'site/GUIDE.md' becomes 'GUIDE.html'") == true)
    }
}
