import Foundation
import Testing

/// `rowmotion build --baseline`, run over a throwaway git repository made
/// from this repository's `site/` and `examples/`, as a pull request's CI
/// job runs it.
@Suite("Review against a baseline")
struct BaselineTests {
    /// A git repository holding a copy of the project's site and examples,
    /// committed once.
    struct Repository {
        let root: URL

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-baseline-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for folder in ["site", "examples"] {
                try FileManager.default.copyItem(at: CLI.root.appendingPathComponent(folder), to: root.appendingPathComponent(folder))
            }
            try git("init", "-q")
            try commit("the project's docs")
        }

        @discardableResult
        func git(_ arguments: String...) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-c", "user.email=test@example.com", "-c", "user.name=Test", "-c", "commit.gpgsign=false"] + arguments
            process.currentDirectoryURL = root
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "git \(arguments)")
            return String(decoding: data, as: UTF8.self)
        }

        func commit(_ message: String) throws {
            try git("add", "-A")
            try git("commit", "-q", "--allow-empty", "-m", message)
        }

        func edit(_ path: String, _ change: (String) -> String) throws {
            let url = root.appendingPathComponent(path)
            let text = try String(contentsOf: url, encoding: .utf8)
            let changed = change(text)
            #expect(changed != text, "the edit of \(path) changed nothing")
            try Data(changed.utf8).write(to: url)
        }

        func read(_ path: String) -> String {
            (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
        }

        func build(_ arguments: String...) throws -> CLI.Output {
            try CLI.run(["build"] + arguments, in: root)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    /// In the messenger example, Dave's reply no longer edits his row: that
    /// step (and the next, where his row changes instead) animate differently.
    static func daveRepliesWithoutAnEdit(_ text: String) -> String {
        text.replacingOccurrences(of: "{id: dave, name: Dave, preview: \"Sounds good\", lastMessageAt: 1012, updatedAt: 2}\n          - {id: carol",
                                  with: "{id: dave, name: Dave, preview: \"Thanks\", lastMessageAt: 1012, updatedAt: 1}\n          - {id: carol")
    }

    @Test func oneChangedStep_isListedWithBothPlayers_theSummaryNamesIt_andTheBuildFails() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try repository.edit("examples/messenger.yml", Self.daveRepliesWithoutAnEdit)
        let result = try repository.build("--baseline", "HEAD", "--summary", "s.md", "--fail-on-changes")
        #expect(result.status == 1)
        #expect(result.stderr.contains("rowmotion: 1 example animates differently since HEAD"), "\(result.stderr)")
        // The site is written all the same, for the job to upload.
        let page = repository.read("_site/changes.html")
        let changed = page.components(separatedBy: "data-rowmotion-change=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(changed == ["messenger.yml"])
        #expect(page.components(separatedBy: "data-rowmotion-player=\"messenger.yml\"").count - 1 == 2, "the baseline's and the current player")
        #expect(page.contains("Before (HEAD)") && page.contains(">Now<"))
        #expect(page.contains("Step 2: Dave replies"))
        #expect(page.contains("“Dave” is no longer reloaded"), "rows are named by their titles, not their ids")
        // A reviewer starts where it changed (issue 30, item 4): both players
        // open at step 2, both filmstrips outline its frame, and the step
        // links to the example's page at #step-2.
        #expect(page.components(separatedBy: "data-rowmotion-player=\"messenger.yml\" data-step=\"2\"").count - 1 == 2, "both players at step 2")
        #expect(page.components(separatedBy: "<span class=\"filmstrip-mark\" data-step=\"2\" style=\"left: 494px; width: 202px\">").count - 1 == 2)
        #expect(page.contains("(step 2 outlined)"))
        #expect(page.contains("<h3><a href=\"examples/messenger.html#step-2\">Step 2: Dave replies</a></h3>"))
        #expect(page.contains("<a href=\"examples/messenger.html#step-2\">the example's page at step 2</a>"))
        #expect(FileManager.default.fileExists(atPath: repository.root.appendingPathComponent("_site/changes/messenger.before.svg").path))
        #expect(repository.read("_site/index.html").contains("href=\"changes.html\""))
        let summary = repository.read("s.md")
        #expect(summary.contains("| `messenger.yml`"), "\(summary)")
        #expect(summary.contains("- step 2 (“Dave replies”): now 1 batch (was 2); “Dave” is no longer reloaded"), "\(summary)")
        #expect(summary.contains("| changed | 4 | 6 → 5 |"), "\(summary)")

        // Committed, nothing changes any more.
        try repository.commit("Dave replies without an edit")
        let again = try repository.build("--baseline", "HEAD", "--summary", "s.md", "--fail-on-changes")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.isEmpty, "\(again.stderr)")
        #expect(repository.read("s.md").contains("No example animates differently; no page's text changed (since `HEAD`)"))
        let calm = repository.read("_site/changes.html")
        #expect(!calm.contains("data-rowmotion-change="))
        #expect(calm.contains("Compared with <code>HEAD</code>: no example animates differently"))
        #expect(!repository.read("_site/index.html").contains("href=\"changes.html\""))
    }

    @Test func addedAndRemovedExamples_andAChangedPage_areReported_withoutFailingUnlessAsked() throws {
        let repository = try Repository()
        defer { repository.remove() }
        // A rename: the example moves, and the pages that show it follow.
        try FileManager.default.moveItem(at: repository.root.appendingPathComponent("examples/profile.yml"),
                                         to: repository.root.appendingPathComponent("examples/profile-renamed.yml"))
        for page in ["site/scenarios/profile.md", "site/uikit-rules.md"] {
            try repository.edit(page) { $0.replacingOccurrences(of: "profile.yml", with: "profile-renamed.yml") }
        }
        try repository.edit("site/getting-started.md") { $0 + "\nOne more sentence.\n" }
        let result = try repository.build("--baseline", "HEAD", "--summary", "s.md")
        #expect(result.status == 0, "changes are reported, not failures, without --fail-on-changes: \(result.stderr)")
        let page = repository.read("_site/changes.html")
        #expect(page.contains("data-rowmotion-change=\"profile.yml\"") && page.contains("data-rowmotion-change=\"profile-renamed.yml\""))
        #expect(page.components(separatedBy: "data-rowmotion-player=\"profile.yml\"").count - 1 == 1, "only the baseline plays a removed example")
        #expect(page.contains("Pages whose text changed") && page.contains("href=\"getting-started.html\""))
        let summary = repository.read("s.md")
        #expect(summary.contains("| `profile.yml`") && summary.contains("| removed |"))
        #expect(summary.contains("| `profile-renamed.yml`") && summary.contains("| added |"))
        #expect(summary.contains("Pages whose text changed: `site/getting-started.md` (changed), `site/scenarios/profile.md` (changed), `site/uikit-rules.md` (changed)"),
                "\(summary)")
        let failing = try repository.build("--baseline", "HEAD", "--fail-on-changes")
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("rowmotion: 2 examples animate differently since HEAD"))
    }

    @Test func onlyAPageChanged_doesNotFail() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try repository.edit("site/getting-started.md") { $0 + "\nOne more sentence.\n" }
        let result = try repository.build("--baseline", "HEAD", "--fail-on-changes", "--summary", "s.md")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(repository.read("s.md").contains("No example animates differently; 1 page's text changed"))
    }

    /// A report baseline whose batches differ from what this engine gives
    /// for the same, unchanged examples (as after an engine upgrade) shows
    /// those batches as changed.
    @Test func aReportBaselineFromAnotherEngine_showsItsBatchesAsChanged() throws {
        let repository = try Repository()
        defer { repository.remove() }
        #expect(try repository.build("--report", "main.json", "--quiet").status == 0)
        // The "old engine" sent messenger's step 1 as one batch: the
        // deferred reload joined the structural batch.
        let url = repository.root.appendingPathComponent("main.json")
        var report = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        var examples = report["examples"] as! [[String: Any]]
        let index = try #require(examples.firstIndex { $0["example"] as? String == "messenger.yml" })
        var animation = examples[index]["animation"] as! [String: Any]
        var player = animation["player"] as! [String: Any]
        var playerSteps = player["steps"] as! [[String: Any]]
        var batches = playerSteps[0]["batches"] as! [[String: Any]]
        #expect(batches.count == 2)
        var structure = batches[0]
        var rows = structure["rows"] as! [String: Any]
        rows["reload"] = (batches[1]["rows"] as! [String: Any])["reload"]
        structure["rows"] = rows
        structure["reloadedRows"] = batches[1]["reloadedRows"]
        batches = [structure]
        playerSteps[0]["batches"] = batches
        player["steps"] = playerSteps
        animation["player"] = player
        var steps = animation["steps"] as! [[String: Any]]
        var reviewBatches = steps[0]["batches"] as! [[String: Any]]
        var first = reviewBatches[0]
        first["calls"] = (first["calls"] as! [String]) + (reviewBatches[1]["calls"] as! [String])
        var touched = first["rows"] as! [String: Any]
        touched["reload"] = (reviewBatches[1]["rows"] as! [String: Any])["reload"]
        first["rows"] = touched
        reviewBatches = [first]
        steps[0]["batches"] = reviewBatches
        animation["steps"] = steps
        examples[index]["animation"] = animation
        report["examples"] = examples
        try JSONSerialization.data(withJSONObject: report).write(to: url)

        let result = try repository.build("--baseline-report", "main.json", "--summary", "s.md", "--fail-on-changes")
        #expect(result.status == 1)
        #expect(result.stderr.contains("rowmotion: 1 example animates differently since main.json"))
        let summary = repository.read("s.md")
        #expect(summary.contains("- step 1 (“Carol writes; Alice edits her last message”): now 2 batches (was 1); the reload of “Alice” now waits for a second batch"),
                "\(summary)")
        #expect(repository.read("_site/changes.html").contains("data-rowmotion-change=\"messenger.yml\""))
    }

    @Test func badBaselines_getOneClearErrorEach_andWriteNothing() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try Data("not json".utf8).write(to: repository.root.appendingPathComponent("broken.json"))
        try Data(#"{"pages": [], "examples": [], "diagnostics": []}"#.utf8).write(to: repository.root.appendingPathComponent("old.json"))
        try Data(#"{"format": 99, "version": "9.0.0"}"#.utf8).write(to: repository.root.appendingPathComponent("future.json"))
        try Data(#"{"format": 3, "version": "0.1.0", "pages": []}"#.utf8).write(to: repository.root.appendingPathComponent("partial.json"))
        let cases: [(flag: String, base: String, message: String)] = [
            ("--baseline", "no-such-revision", "no-such-revision:1:1: error: the git repository has no revision 'no-such-revision'"),
            ("--baseline", "broken.json",
             "broken.json:1:1: error: the git repository has no revision 'broken.json' (a file of that name is not read: use --baseline-report FILE for a report)"),
            ("--baseline-report", "broken.json", "broken.json:1:1: error: this is not a Rowmotion report (not valid JSON)"),
            ("--baseline-report", "old.json", "old.json:1:1: error: this report was written by an earlier Rowmotion"),
            ("--baseline-report", "future.json", "future.json:1:1: error: this report has format 99 (Rowmotion 9.0.0)"),
            ("--baseline-report", "partial.json", "partial.json:1:1: error: this report cannot be read: 'examples' is missing"),
        ]
        for (flag, base, message) in cases {
            let result = try repository.build(flag, base, "--out", "out-\(base)")
            #expect(result.status == 1, "\(base)")
            #expect(result.stderr.hasPrefix(message), "\(base): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").dropFirst() == ["rowmotion: build failed: 1 error, 0 warnings"], "\(base): one error, then the summary")
            #expect(!FileManager.default.fileExists(atPath: repository.root.appendingPathComponent("out-\(base)").path), "\(base) wrote a site")
        }
        // Outside any git repository.
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-nogit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.copyItem(at: repository.root.appendingPathComponent("site"), to: outside.appendingPathComponent("site"))
        let result = try CLI.run(["build", "--baseline", "origin/main"], in: outside)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("origin/main:1:1: error: this folder is not in a git repository, so the revision 'origin/main' cannot be read"),
                "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: outside.appendingPathComponent("_site").path))
        // Flags that need a baseline are wrong usage.
        let usage = try repository.build("--fail-on-changes")
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--fail-on-changes needs --baseline"))
        #expect(try repository.build("--summary", "s.md").status == 2)
    }

    // MARK: - A pull request is untrusted (issue 28)

    /// A pull request that adds a file called `origin/main` (a report of
    /// its own tree, so that nothing seems changed) is still compared with
    /// the revision origin/main.
    @Test func aFileNamedLikeTheBaseRevision_isNotReadInItsPlace() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try repository.git("update-ref", "refs/remotes/origin/main", "HEAD")
        try repository.edit("examples/messenger.yml", Self.daveRepliesWithoutAnEdit)
        try FileManager.default.createDirectory(at: repository.root.appendingPathComponent("origin"), withIntermediateDirectories: true)
        #expect(try repository.build("--report", "origin/main", "--quiet", "--out", "forged").status == 0)
        try repository.commit("the pull request, with a report of its own tree as origin/main")
        let result = try repository.build("--baseline", "origin/main", "--fail-on-changes")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("rowmotion: 1 example animates differently since origin/main"), "\(result.stderr)")
    }

    /// A report is data: a forged filmstrip (script in the SVG a reviewer
    /// opens) or an example name that leads out of the site is refused.
    @Test func aForgedReport_isRefused_notPublished() throws {
        let repository = try Repository()
        defer { repository.remove() }
        #expect(try repository.build("--report", "main.json", "--quiet").status == 0)
        let url = repository.root.appendingPathComponent("main.json")
        let original = try Data(contentsOf: url)
        func forged(_ change: (inout [String: Any]) -> Void) throws {
            var report = try JSONSerialization.jsonObject(with: original) as! [String: Any]
            var examples = report["examples"] as! [[String: Any]]
            change(&examples[0])
            report["examples"] = examples
            try JSONSerialization.data(withJSONObject: report).write(to: url)
        }
        let payloads = [
            "<script>window.__pwned=1</script>", "<rect onload=\"alert(1)\"/>", "<a href=\"javascript:alert(1)\"><text>x</text></a>",
            "<text x=\"1\" y=\"2\">&#x3C;script&#x3E;</text>", "<foreignObject><iframe/></foreignObject>", "<!ENTITY x \"y\">",
        ]
        for payload in payloads {
            try forged { example in
                var animation = example["animation"] as! [String: Any]
                animation["filmstrip"] = (animation["filmstrip"] as! String).replacingOccurrences(of: "</svg>", with: payload + "</svg>")
                example["animation"] = animation
            }
            let result = try repository.build("--baseline-report", "main.json", "--out", "out-forged")
            #expect(result.status == 1, "\(payload)")
            #expect(result.stderr.contains("main.json:1:1: error: the filmstrip this report holds for"), "\(payload): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: repository.root.appendingPathComponent("out-forged").path))
        }
        for name in ["../../../escaped.yml", "/tmp/x.yml", "a//b.yml", "a/./b.yml"] {
            try forged { $0["example"] = name }
            let result = try repository.build("--baseline-report", "main.json", "--out", "out-forged")
            #expect(result.status == 1, "\(name)")
            #expect(result.stderr.contains("which is not a path inside examples/"), "\(name): \(result.stderr)")
        }
        // The report as written is accepted, filmstrips and all.
        try original.write(to: url)
        let clean = try repository.build("--baseline-report", "main.json", "--out", "out-clean")
        #expect(clean.status == 0, "\(clean.stderr)")
    }

    /// `git archive` leaves out what `.gitattributes` marks `export-ignore`:
    /// the baseline read that way had no examples and every example looked
    /// added. The revision's tree is read whole.
    @Test func exportIgnoredFolders_areStillTheBaseline() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try Data("site export-ignore\nexamples export-ignore\n".utf8).write(to: repository.root.appendingPathComponent(".gitattributes"))
        try repository.commit("export-ignore the docs")
        try repository.edit("examples/messenger.yml", Self.daveRepliesWithoutAnEdit)
        let result = try repository.build("--baseline", "HEAD", "--fail-on-changes")
        #expect(result.status == 1)
        #expect(result.stderr.contains("rowmotion: 1 example animates differently since HEAD"), "\(result.stderr)")
    }

    /// A symbolic link in the revision that leads out of the project is
    /// refused there as it is in the checkout: the baseline build does not
    /// read the host's files.
    @Test func aRevisionsLinkOutOfTheProject_isNotFollowed() throws {
        let repository = try Repository()
        defer { repository.remove() }
        let secret = "ROWMOTION-BASELINE-SECRET-5521"
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-secret-\(UUID().uuidString).md")
        try Data("# \(secret)\n".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createSymbolicLink(atPath: repository.root.appendingPathComponent("site/leak.md").path,
                                                   withDestinationPath: outside.path)
        try repository.commit("a link out")
        try FileManager.default.removeItem(at: repository.root.appendingPathComponent("site/leak.md"))
        let result = try repository.build("--baseline", "HEAD", "--report", "r.json")
        #expect(!repository.read("r.json").contains(secret))
        #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
        #expect(!repository.read("_site/changes.html").contains(secret))
    }
}
