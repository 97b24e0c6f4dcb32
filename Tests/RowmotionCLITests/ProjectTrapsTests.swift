import Foundation
import Testing

/// Projects laid out to trick a build: colliding names, an output inside an
/// input, folders that are not there, links out of the project, leftovers of
/// killed builds (issue 13, items 9, 10, 11 and 12). Each is refused with a
/// located error, or cleaned up, and never replaces a site by mistake.
@Suite struct ProjectTrapsTests {
    /// A project with one page showing `a.yml`, in a fresh folder.
    static func project() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-traps-\(UUID().uuidString)")
        try write(root, "site/index.md", "---\ntitle: Home\n---\n# Home\n\n```rowmotion\nexample: a.yml\n```\n")
        try write(root, "examples/a.yml", "steps:\n  - items: [a]\n  - items: [b, a]\n")
        return root
    }

    static func write(_ root: URL, _ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static func exists(_ root: URL, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    @Test func examplesThatBecomeTheSamePage_areAnError_notOneSilentlyWinning() throws {
        let root = try Self.project()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write(root, "examples/a.json", #"{"steps": [{"items": ["a"]}]}"#)
        try Self.write(root, "examples/A.yaml", "steps:\n  - items: [a]\n")
        let output = try CLI.run(["build", "--strict"], in: root)
        #expect(output.status == 1)
        #expect(output.stderr.contains("examples/a.yml:1:1: error: this example and 'examples/A.yaml' both become the page examples/a.html; rename one"))
        #expect(output.stderr.contains("examples/a.json:1:1: error: this example and 'examples/A.yaml' both become"))
        #expect(!Self.exists(root, "_site"))
    }

    /// Issue 42, item 13: `site/examples/a.md` was dropped for the example
    /// page of `examples/a.yml`, without a word.
    @Test func aPageWhereAnExamplesPageGoes_isAnError_notDropped() throws {
        let root = try Self.project()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write(root, "site/examples/a.md", "# A page of mine\n")
        let output = try CLI.run(["build"], in: root)
        #expect(output.status == 1)
        #expect(output.stderr.contains("site/examples/a.md:1:1: error: this page and the example 'examples/a.yml' both become examples/a.html; rename one"),
                "\(output.stderr)")
        #expect(output.stderr.contains("examples/a.yml:1:1: note: the example"))
        #expect(!Self.exists(root, "_site"))
    }

    /// An alias is a file the build writes into the site: `/.rowmotion-site`
    /// made the marker's place a folder, and the build failed with an
    /// unlocated "cannot write the site's marker file"; `/.git/config` and
    /// `a/.b/` were written as hidden folders (issue 42, item 13). No alias
    /// names a hidden path, each an error at the alias.
    @Test func anAliasNamingTheMarkerOrAHiddenPath_isAnErrorAtTheAlias() throws {
        let root = try Self.project()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write(root, "site/index.md", """
            ---
            title: Home
            aliases:
              - /.rowmotion-site
              - /.git/config
              - a/.b/
              - moved/here/
            ---
            # Home

            ```rowmotion
            example: a.yml
            ```

            """)
        let output = try CLI.run(["build"], in: root)
        #expect(output.status == 1)
        #expect(output.stderr == """
            site/index.md:4:5: error: the alias '/.rowmotion-site' names .rowmotion-site, the site's marker file; an alias may not name it
            site/index.md:5:5: error: the alias '/.git/config' names the hidden path .git/config/index.html; an alias may not start a name with '.'
            site/index.md:6:5: error: the alias 'a/.b/' names the hidden path a/.b/index.html; an alias may not start a name with '.'
            rowmotion: build failed: 3 errors, 0 warnings

            """)
        #expect(!Self.exists(root, "_site"))
    }

    @Test func outputInsideAnInput_orContainingOne_isRefused() throws {
        let root = try Self.project()
        defer { try? FileManager.default.removeItem(at: root) }
        // Before: site/out/out/out/… as each build published the last.
        let inside = try CLI.run(["build", "--out", "site/out"], in: root)
        #expect(inside.status == 1)
        #expect(inside.stderr.contains("site/out:1:1: error: --out 'site/out' is inside --site 'site': the build would read its own output"))
        #expect(!Self.exists(root, "site/out"))
        let examples = try CLI.run(["build", "--out", "examples"], in: root)
        #expect(examples.stderr.contains("error: --out 'examples' is inside --examples 'examples'"))
        let around = try CLI.run(["build", "--out", "."], in: root)
        #expect(around.status == 1)
        #expect(around.stderr.contains("error: --out '.' contains --site 'site'"))
        #expect(Self.exists(root, "site/index.md"))
    }

    @Test func namedFoldersThatDoNotExist_areErrors_andTheSiteStays() throws {
        let root = try Self.project()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try CLI.run(["build"], in: root).status == 0)
        let before = try String(contentsOf: root.appendingPathComponent("_site/index.html"), encoding: .utf8)
        // Before: an empty site replaced the real one.
        let site = try CLI.run(["build", "--site", "typo"], in: root)
        #expect(site.status == 1)
        #expect(site.stderr == "typo:1:1: error: there is no folder 'typo' (given as --site)\nrowmotion: build failed: 1 error, 0 warnings\n")
        #expect(try String(contentsOf: root.appendingPathComponent("_site/index.html"), encoding: .utf8) == before)
        let templates = try CLI.run(["build", "--templates", "typo"], in: root)
        #expect(templates.stderr == "typo:1:1: error: there is no folder 'typo' (given as --templates)\nrowmotion: build failed: 1 error, 0 warnings\n")
        let check = try CLI.run(["check", "--examples", "nowhere"], in: root)
        #expect(check.status == 1)
        #expect(check.stderr.contains("nowhere:1:1: error: there is no folder 'nowhere' (given as --examples)"))
        // Unnamed and absent is fine: a project without templates/.
        #expect(!Self.exists(root, "templates"))
    }

    @Test func unreadableOverrideTemplate_isAnError_notTheBuiltInTheme() throws {
        let root = try Self.project()
        defer { try? FileManager.default.removeItem(at: root) }
        // A folder of files where the template should be: there, but not
        // readable as a file, whoever runs the test (root reads files of any mode).
        try Self.write(root, "templates/page.mustache/inner.txt", "x")
        let output = try CLI.run(["build"], in: root)
        #expect(output.status == 1)
        #expect(output.stderr.contains("templates/page.mustache:1:1: error: cannot read the file: it is a folder"))
        #expect(!Self.exists(root, "_site"))
        // A named pipe there: refused by what it is, never waited on.
        try FileManager.default.removeItem(at: root.appendingPathComponent("templates/page.mustache"))
        #expect(mkfifo(root.appendingPathComponent("templates/page.mustache").path, 0o644) == 0)
        let pipe = try CLI.run(["build"], in: root)
        #expect(pipe.status == 1)
        #expect(pipe.stderr.contains("templates/page.mustache:1:1: error: cannot read the file: it is a named pipe (FIFO), not a regular file"))
    }

    @Test func examplesAndPagesLinkedFromOutside_areRefused_likeStaticFiles() throws {
        let root = try Self.project()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-outside-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: outside)
        }
        try Self.write(outside, "secret.yml", "title: secret\nsteps:\n  - items: [password]\n")
        try Self.write(outside, "secret.md", "# Secret\n")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("examples/secret.yml").path,
                                                   withDestinationPath: outside.appendingPathComponent("secret.yml").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("site/secret.md").path,
                                                   withDestinationPath: outside.appendingPathComponent("secret.md").path)
        let output = try CLI.run(["build"], in: root)
        #expect(output.status == 1)
        #expect(output.stderr.contains("examples/secret.yml:1:1: error: this file is a symbolic link; a build reads only regular files"))
        #expect(output.stderr.contains("site/secret.md:1:1: error: this file is a symbolic link; a build reads only regular files"))
        #expect(!Self.exists(root, "_site"))
    }

    @Test func leftoversOfAKilledBuild_areRemoved_andALiveBuildsAreKept() throws {
        let root = try Self.project()
        defer { try? FileManager.default.removeItem(at: root) }
        // A process id no process has (past Linux's and macOS's maximums).
        try Self.write(root, "._site.rowmotion-new-99999999-1/index.html", "half")
        try Self.write(root, "._site.rowmotion-old-99999999-2/index.html", "old")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: root.appendingPathComponent("._site.rowmotion-old-99999999-2").path)
        let live = "._site.rowmotion-new-\(ProcessInfo.processInfo.processIdentifier)-3"
        try Self.write(root, "\(live)/index.html", "mine")
        #expect(try CLI.run(["build"], in: root).status == 0)
        #expect(!Self.exists(root, "._site.rowmotion-new-99999999-1"))
        #expect(!Self.exists(root, "._site.rowmotion-old-99999999-2"))
        #expect(Self.exists(root, live))
    }

    @Test func aReadOnlyPreviousSite_leavesNothingBehind() throws {
        let root = try Self.project()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try CLI.run(["build"], in: root).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: root.appendingPathComponent("_site").path)
        try Self.write(root, "examples/a.yml", "steps:\n  - items: [a]\n  - items: [c, a]\n")
        #expect(try CLI.run(["build"], in: root).status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.contains("rowmotion-") }
        #expect(leftovers == [])
    }

    /// Inside the project, the output is never written through a link (a
    /// pull request can commit `_site -> ~/.ssh`); a link the user names
    /// outside it is followed: the folder it leads to is replaced, the link stays.
    @Test func symlinkedOutput_insideTheProject_isRefused_outsideItIsFollowed() throws {
        let root = try Self.project()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-out-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: outside)
        }
        #expect(try CLI.run(["build", "--out", "real-site"], in: root).status == 0)
        let before = try String(contentsOf: root.appendingPathComponent("real-site/examples/a.html"), encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("_site").path, withDestinationPath: "real-site")
        try Self.write(root, "examples/a.yml", "steps:\n  - items: [a]\n  - items: [zq-new-row, a]\n")
        let refused = try CLI.run(["build"], in: root)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("_site:1:1: error: '_site' is a symbolic link; inside the project Rowmotion writes only through folders"))
        #expect(try String(contentsOf: root.appendingPathComponent("real-site/examples/a.html"), encoding: .utf8) == before)

        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        #expect(try CLI.run(["build", "--out", outside.appendingPathComponent("real").path], in: root).status == 0)
        try FileManager.default.createSymbolicLink(atPath: outside.appendingPathComponent("link").path, withDestinationPath: "real")
        try Self.write(root, "examples/a.yml", "steps:\n  - items: [a]\n  - items: [zq-newer-row, a]\n")
        #expect(try CLI.run(["build", "--out", outside.appendingPathComponent("link").path], in: root).status == 0)
        let type = try FileManager.default.attributesOfItem(atPath: outside.appendingPathComponent("link").path)[.type] as? FileAttributeType
        #expect(type == .typeSymbolicLink)
        #expect(try String(contentsOf: outside.appendingPathComponent("real/examples/a.html"), encoding: .utf8).contains("zq-newer-row"))
    }

    @Test func initRefusesToWriteThroughALink_evenADanglingOne() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-init-\(UUID().uuidString)")
        let victim = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-victim-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: victim)
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("examples"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("examples/inbox.yml").path, withDestinationPath: victim.path)
        let output = try CLI.run(["init"], in: root)
        #expect(output.status == 1)
        #expect(output.stderr.contains("examples/inbox.yml:1:1: error: is a symbolic link; rowmotion init does not write through links"))
        #expect(!FileManager.default.fileExists(atPath: victim.path))
        #expect(!Self.exists(root, "site/index.md"))
    }

    @Test func plainErrors_notFoundationsWrappers() throws {
        let root = try Self.project()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write(root, "FILE", "x")
        let initFile = try CLI.run(["init", "FILE"], in: root)
        #expect(initFile.status == 1)
        #expect(initFile.stderr == "FILE:1:1: error: is a file, not a folder to start a site in\n")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("reports"), withIntermediateDirectories: true)
        let report = try CLI.run(["build", "--report", "reports"], in: root)
        #expect(report.stderr.contains("reports:1:1: error: cannot write the report: it is a folder"))
        #expect(!report.stderr.contains("NSCocoaErrorDomain"))
        let step = try CLI.run(["diff", "examples/a.yml", "--step", "0"], in: root)
        #expect(step.status == 2)
        #expect(step.stderr == "Error: --step must be between 1 and 1: 'examples/a.yml' has 2 snapshots\nSee 'rowmotion diff --help' for its options.\n")
    }
}
