import Foundation
import Testing

/// The built `rowmotion` binary, run as a user runs it.
enum CLI {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary next to this test bundle (the test target depends on it).
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["ROWMOTION_BINARY"] { return URL(fileURLWithPath: path) }
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("rowmotion")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/rowmotion")
    }()

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `rowmotion` with `arguments` in the repository's root.
    static func run(_ arguments: String...) throws -> Output {
        try run(arguments, in: root)
    }

    /// Runs `rowmotion` in `folder`, with extra environment variables.
    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var variables = ProcessInfo.processInfo.environment
        variables["GITHUB_ACTIONS"] = nil
        variables.merge(environment) { $1 }
        process.environment = variables
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a large output cannot block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

@Suite("rowmotion command line")
struct CLITests {
    /// DESIGN.md's JSON example, byte for byte in meaning.
    @Test func diffJSON_messengerFirstStep_isDesignExample() throws {
        let output = try CLI.run("diff", "examples/messenger.yml", "--format", "json", "--step", "1")
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
        let expected = """
            {"file": "examples/messenger.yml",
             "steps": [{"from": 0, "to": 1, "label": "Carol writes; Alice edits her last message",
               "batches": [
                 {"sections": {"delete": [], "insert": [], "move": [], "reload": []},
                  "rows": {"delete": [[0, 1]], "insert": [[0, 3]], "move": [[[0, 2], [0, 0]]], "reload": []},
                  "after": [{"id": "chats", "items": ["carol", "alice", "dave", "erin"]}]},
                 {"sections": {"delete": [], "insert": [], "move": [], "reload": []},
                  "rows": {"delete": [], "insert": [], "move": [], "reload": [[0, 1]]},
                  "after": [{"id": "chats", "items": ["carol", "alice", "dave", "erin"]}]}],
               "diagnostics": []}]}
            """
        let actual = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? NSDictionary
        let wanted = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? NSDictionary
        #expect(actual != nil && actual == wanted)
    }

    /// Issue 12's reproduction, end to end: `b` moves past `c` while b2
    /// changes. Two batches: the section move, then b2's reload at section 2
    /// — never `reloadRows` at section 1, where UIKit would put c's row count
    /// out (radar 27041784).
    @Test func diffJSON_sectionMovedPastAnotherWhoseRowChanged_reloadsInASecondBatchAtSection2() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            title: a section moves past another whose row changed
            steps:
              - sections:
                  - {id: a, items: [{id: a1, t: x}]}
                  - {id: b, items: [{id: b1, t: x}, {id: b2, t: x}]}
                  - {id: c, items: [{id: c1, t: x}]}
              - sections:
                  - {id: a, items: [{id: a1, t: x}]}
                  - {id: c, items: [{id: c1, t: x}]}
                  - {id: b, items: [{id: b1, t: x}, {id: b2, t: CHANGED}]}
            """.write(to: folder.appendingPathComponent("displaced.yml"), atomically: true, encoding: .utf8)
        let output = try CLI.run(["diff", "displaced.yml", "--format", "json"], in: folder)
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let step = try #require((report["steps"] as? [[String: Any]])?.first)
        let batches = try #require(step["batches"] as? [[String: Any]])
        #expect(batches.count == 2)
        let first = try #require(batches.first), second = try #require(batches.last)
        #expect((first["sections"] as? [String: [Any]])?["move"] as? [[Int]] == [[2, 1]])
        #expect((first["rows"] as? [String: [Any]])?["reload"]?.isEmpty == true)
        #expect((second["rows"] as? [String: [Any]])?["reload"] as? [[Int]] == [[2, 1]])
        #expect((step["diagnostics"] as? [Any])?.isEmpty == true)
    }

    @Test func diffJSON_allSteps_keysAlwaysPresent() throws {
        let output = try CLI.run("diff", "examples/profile.yml", "--format", "json")
        #expect(output.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.count == 2)
        for step in steps {
            for batch in step["batches"] as? [[String: Any]] ?? [] {
                let sections = batch["sections"] as? [String: Any], rows = batch["rows"] as? [String: Any]
                #expect(Set(sections?.keys.map { $0 } ?? []) == ["delete", "insert", "move", "reload"])
                #expect(Set(rows?.keys.map { $0 } ?? []) == ["delete", "insert", "move", "reload"])
                #expect(batch["after"] is [[String: Any]])
            }
            #expect(step["diagnostics"] as? [Any] != nil)
        }
    }

    /// The default output is what a developer pastes into performBatchUpdates.
    @Test func diffText_isSwiftCalls() throws {
        let output = try CLI.run("diff", "examples/messenger.yml")
        #expect(output.status == 0)
        #expect(output.stdout.contains("""
            self.tableView.performBatchUpdates({
                // Update the data source to snapshot 1 here (batch 2 only reloads; its rows show their new content then), then:
                self.tableView.deleteRows(at: [IndexPath(row: 1, section: 0)], with: .fade)
                self.tableView.insertRows(at: [IndexPath(row: 3, section: 0)], with: .fade)
                self.tableView.moveRow(at: IndexPath(row: 2, section: 0), to: IndexPath(row: 0, section: 0))
            }, completion: { _ in
            """), "\(output.stdout)")
        #expect(output.stdout.contains("self.tableView.reloadRows(at: [IndexPath(row: 1, section: 0)], with: .fade)"))
    }

    @Test func diffSVG_isTheFilmstrip_andStepNarrowsItToTwoFrames() throws {
        let all = try CLI.run("diff", "examples/messenger.yml", "--format", "svg")
        #expect(all.status == 0)
        #expect(all.stdout.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(all.stdout.components(separatedBy: "<g class=\"frame\"").count - 1 == 4)
        let one = try CLI.run("diff", "examples/messenger.yml", "--format", "svg", "--step", "2")
        #expect(one.stdout.contains("<g class=\"frame\" data-step=\"1\">") && one.stdout.contains("<g class=\"frame\" data-step=\"2\">"))
        #expect(one.stdout.components(separatedBy: "<g class=\"frame\"").count - 1 == 2)
    }

    @Test func diffText_usesPerKindAnimations() throws {
        let output = try CLI.run("diff", "examples/original-revised.yml")
        #expect(output.stdout.contains("with: .right)"))
        #expect(output.stdout.contains("with: .left)"))
    }

    @Test func check_examples_passesStrict() throws {
        let output = try CLI.run("check", "--strict", "examples")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        #expect(output.stdout.hasSuffix("0 errors, 0 warnings\n"))
    }

    /// One located diagnostic per problem, exit 1.
    @Test func check_malformedCorpus_reportsEveryFileAndExits1() throws {
        let folder = "Tests/SnapshotFormatTests/Fixtures/malformed"
        let output = try CLI.run("check", folder)
        #expect(output.status == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent(folder).path)
            .filter { !$0.hasSuffix(".expected") }
        let errors = output.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        let located = #/^Tests/SnapshotFormatTests/Fixtures/malformed/[^:]+:\d+:\d+: error: .+$/#
        #expect(errors.allSatisfy { $0.wholeMatch(of: located) != nil })
        #expect(Set(errors.map { $0.split(separator: ":")[0] }).count == files.count)
        // Each file's diagnostics match its golden file exactly.
        for file in files {
            let expected = try String(contentsOfFile: CLI.root.appendingPathComponent("\(folder)/\(file).expected").path, encoding: .utf8)
            for line in expected.split(separator: "\n") {
                #expect(output.stderr.contains("\(folder)/\(line)"), "missing: \(line)")
            }
        }
    }

    @Test func check_warning_failsOnlyUnderStrict() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("same.yml")
        try "steps:\n  - items: [a]\n  - items: [a]\n".write(to: file, atomically: true, encoding: .utf8)
        let lenient = try CLI.run("check", file.path)
        #expect(lenient.status == 0)
        #expect(lenient.stderr.contains("same.yml:3:5: warning: step 'Step 1' changes nothing"))
        #expect(try CLI.run("check", "--strict", file.path).status == 1)
    }

    @Test func diff_brokenFile_exits1WithLocatedError() throws {
        let output = try CLI.run("diff", "Tests/SnapshotFormatTests/Fixtures/malformed/duplicate-row-id.yml")
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.hasPrefix("Tests/SnapshotFormatTests/Fixtures/malformed/duplicate-row-id.yml:7:9: error: duplicate row id '3'"))
    }

    @Test func missingFile_isALocatedError() throws {
        let output = try CLI.run("check", "no/such/file.yml")
        #expect(output.status == 1)
        #expect(output.stderr == "no/such/file.yml:1:1: error: no such file or folder\n")
    }

    @Test func usageErrors_exit2() throws {
        #expect(try CLI.run("diff").status == 2)
        #expect(try CLI.run("diff", "examples/messenger.yml", "--format", "xml").status == 2)
        #expect(try CLI.run("diff", "examples/messenger.yml", "--step", "9").status == 2)
        #expect(try CLI.run("frobnicate").status == 2)
    }

    @Test func githubActions_annotatesEachDiagnostic() throws {
        let file = "Tests/SnapshotFormatTests/Fixtures/malformed/duplicate-row-id.yml"
        let output = try CLI.run(["check", file], in: CLI.root, environment: ["GITHUB_ACTIONS": "true"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("\(file):7:9: error: duplicate row id '3' in this snapshot\n"))
        #expect(output.stderr.contains("::error file=\(file),line=7,col=9::duplicate row id '3' in this snapshot%0A\(file):6:9: note: row '3' first appears here\n"))
        // Without the variable, only swiftc's form.
        #expect(!(try CLI.run("check", file)).stderr.contains("::error"))
    }

    /// `init` starts a site that builds, and never overwrites.
    @Test func init_startsASiteThatBuilds_andRefusesToOverwrite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-init-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try CLI.run(["init"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try String(contentsOf: folder.appendingPathComponent(".gitignore"), encoding: .utf8) == "_site/\n.build/\n")
        #expect(first.stdout.hasSuffix("next: rowmotion build, then open _site/index.html\n"), "\(first.stdout)")
        let build = try CLI.run(["build", "--strict"], in: folder)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("_site/examples/inbox.html").path))
        // Into a new folder: the paths and the next step are the ones to type from here.
        let named = try CLI.run(["init", "docs"], in: folder)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout == "created docs/site/index.md\ncreated docs/examples/inbox.yml\ncreated docs/.gitignore\n"
                + "next: cd docs, then rowmotion build, then open _site/index.html\n", "\(named.stdout)")
        let again = try CLI.run(["init"], in: folder)
        #expect(again.status == 1)
        #expect(again.stderr.contains("site/index.md:1:1: error: already exists; rowmotion init does not overwrite files"))
    }

    /// `init --layout grid` and `--layout table` start a collection view's
    /// site that builds strictly, and `diff` speaks for its view.
    @Test(arguments: [("grid", "photos"), ("table", "tasks")])
    func initWithALayout_startsACollectionViewsSiteThatBuilds(layout: String, name: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-init-\(layout)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let created = try CLI.run(["init", "--layout", layout], in: folder)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.hasPrefix("created site/index.md\ncreated examples/\(name).yml\n"), "\(created.stdout)")
        let build = try CLI.run(["build", "--strict"], in: folder)
        #expect(build.status == 0, "\(build.stderr)")
        let page = try String(contentsOf: folder.appendingPathComponent("_site/examples/\(name).html"), encoding: .utf8)
        #expect(page.contains("data-layout=\"\(layout)\""))
        let diff = try CLI.run(["diff", "examples/\(name).yml"], in: folder)
        #expect(diff.stdout.contains("collectionView.performBatchUpdates"), "\(diff.stdout)")
        #expect(try CLI.run(["init", "--layout", "carousel"], in: folder).status == 2, "wrong usage")
        // The JSON keeps its documented keys for every sequence; a collection view's words when asked.
        let json = try CLI.run(["diff", "examples/\(name).yml", "--format", "json"], in: folder)
        #expect(json.stdout.contains("\"rows\": {") && !json.stdout.contains("\"view\""), "\(json.stdout)")
        let words = try CLI.run(["diff", "examples/\(name).yml", "--format", "json", "--flavor", "collection"], in: folder)
        #expect(words.stdout.contains("\"view\": \"collectionView\"") && words.stdout.contains("\"items\": {") && !words.stdout.contains("\"rows\""))
    }

    /// A page's block that sets what its example's view has no use for is
    /// told so at the block's key, as the example's own file would be: a
    /// data table draws no cells, a collection view has no row animations.
    @Test func aBlocksCellOrAnimation_onACollectionViewsExample_isToldAtItsKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-block-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("site"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("examples"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "layout: table\nsteps:\n  - items: [{id: a, t: 1}]\n  - items: [{id: a, t: 2}]\n"
            .write(to: folder.appendingPathComponent("examples/t.yml"), atomically: true, encoding: .utf8)
        try "# B\n\n```rowmotion\nexample: t.yml\ncell: {title: t}\n```\n\n```rowmotion\nexample: t.yml\nanimation: fade\n```\n"
            .write(to: folder.appendingPathComponent("site/index.md"), atomically: true, encoding: .utf8)
        let check = try CLI.run(["check"], in: folder)
        #expect(check.status == 1)
        #expect(check.stderr.contains("site/index.md:5:1: error: 'cell' draws a table view's cells; 't.yml' is a data table ('layout: table'), which draws a column per field"), "\(check.stderr)")
        #expect(check.stderr.contains("site/index.md:10:1: warning: 'animation' has no effect on 't.yml', a collection view"), "\(check.stderr)")
    }

    @Test func buildReport_summarisesPagesExamplesAndDiagnostics() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try CLI.run(["init"], in: folder)
        try "# Extra\n\n[gone](gone.md)\n".write(to: folder.appendingPathComponent("site/extra.md"), atomically: true, encoding: .utf8)
        let output = try CLI.run(["build", "--report", "report.json"], in: folder)
        #expect(output.status == 0, "\(output.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report.json"))) as? [String: Any])
        let pages = try #require(report["pages"] as? [[String: Any]])
        #expect(pages.compactMap { $0["output"] as? String } == ["extra.html", "index.html"])
        let example = try #require((report["examples"] as? [[String: Any]])?.first)
        #expect(example["example"] as? String == "inbox.yml")
        #expect(example["stepCount"] as? Int == 2)
        let step = try #require((example["steps"] as? [[String: Any]])?.first)
        #expect(step["inserted"] as? Int == 1 && step["deleted"] as? Int == 1 && step["batches"] as? Int == 1)
        let diagnostic = try #require((report["diagnostics"] as? [[String: Any]])?.first)
        #expect(diagnostic["id"] as? String == "broken-link")
        #expect(diagnostic["line"] as? Int == 3)
    }

    @Test func version_andHelp_exit0() throws {
        #expect(try CLI.run("--version").stdout == "0.1.0\n")
        #expect(try CLI.run("--help").status == 0)
    }
}
