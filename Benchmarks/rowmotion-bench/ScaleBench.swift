import Dispatch
import Foundation
import SeededRandom
import SiteGenerator
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rowmotion-bench scale`: a documentation site of 10,000 generated pages
/// (its own corpus, not `site`'s: folders four deep, a section page per
/// folder of the top two levels; on every page a GFM table, a Swift block,
/// two relative links and a list; one example per ten pages), built by
/// the `rowmotion` binary as users run it: a clean build with its peak
/// memory, one with nothing changed, and after each kind of edit a build
/// from the command line and `serve`'s save → live-reload event (issue
/// 58's rows); and Hugo's figures for the same pages where Hugo has them.
enum ScaleBench {
    /// One kind of edit: two states of the corpus, each build after a
    /// switch from one to the other an edit of this kind (`forth` is timed
    /// as `name`, `back` as `backName` when it is a kind of its own).
    struct EditKind {
        var name: String
        var backName: String?
        var forth: (Corpus) -> Void
        var back: (Corpus) -> Void
    }

    struct Row {
        var name: String
        var commandLineMs: Double
        var serveMs: Double?
    }

    struct Figures {
        var pages: Int
        var examples: Int
        var cleanMs: Double
        var cleanPeakMB: Double
        var noChangeMs: Double
        var rows: [Row]
        var hugo: Hugo?

        struct Hugo {
            var cleanMs: Double
            var oneEditMs: Double
            var peakMB: Double
            var serveMs: Double?
        }

        var json: String {
            var fields = ["\"pages\": \(pages)", "\"examples\": \(examples)", "\"clean_ms\": \(format(cleanMs, digits: 1))",
                          "\"clean_peak_mb\": \(format(cleanPeakMB, digits: 1))", "\"no_change_ms\": \(format(noChangeMs, digits: 1))"]
            fields.append("\"edits\": [" + rows.map { row in
                "{\"edit\": \"\(row.name)\", \"command_line_ms\": \(format(row.commandLineMs, digits: 1)), "
                    + "\"serve_event_ms\": \(row.serveMs.map { format($0, digits: 1) } ?? "null")}"
            }.joined(separator: ", ") + "]")
            if let hugo {
                fields += ["\"hugo_clean_ms\": \(format(hugo.cleanMs, digits: 1))", "\"hugo_one_edit_ms\": \(format(hugo.oneEditMs, digits: 1))",
                           "\"hugo_peak_mb\": \(format(hugo.peakMB, digits: 1))",
                           "\"hugo_serve_event_ms\": \(hugo.serveMs.map { format($0, digits: 1) } ?? "null")"]
            }
            return "{" + fields.joined(separator: ", ") + "}"
        }
    }

    /// Every kind of edit issue 58 names, on the corpus's own files.
    static func editKinds() -> [EditKind] {
        func text(_ corpus: Corpus, _ version: Int) { corpus.edit(page: corpus.editedPage, version: version) }
        return [
            EditKind(name: "a page's text", forth: { text($0, 1) }, back: { text($0, 2) }),
            EditKind(name: "an example's rows", forth: { $0.editExample(rows: 1) }, back: { $0.editExample(rows: 2) }),
            EditKind(name: "an example's options", forth: { $0.editExample(animation: "fade") }, back: { $0.editExample(animation: "left") }),
            EditKind(name: "a page's title", forth: { $0.retitle(version: 1) }, back: { $0.retitle(version: 2) }),
            EditKind(name: "a page's order", forth: { $0.reorder(weight: 1) }, back: { $0.reorder(weight: 2) }),
            EditKind(name: "a page added", backName: "a page removed", forth: { $0.addPage() }, back: { $0.removeAddedPage() }),
            EditKind(name: "a page renamed", forth: { $0.renamePage(forth: true) }, back: { $0.renamePage(forth: false) }),
            EditKind(name: "a heading a link names, lost", backName: "a heading a link names, gained",
                     forth: { $0.renameLinkedHeading(to: "Summary") }, back: { $0.renameLinkedHeading(to: "Overview") }),
            EditKind(name: "a static file", forth: { $0.editStaticFile(version: 1) }, back: { $0.editStaticFile(version: 2) }),
            EditKind(name: "the home page's template", forth: { $0.editTemplate("index.mustache", version: 1) },
                     back: { $0.editTemplate("index.mustache", version: 2) }),
            EditKind(name: "the example pages' template", forth: { $0.editTemplate("example.mustache", version: 1) },
                     back: { $0.editTemplate("example.mustache", version: 2) }),
        ]
    }

    static func run(pages count: Int, runs: Int, edits: Int, json: Bool, parent: String, keep: Bool, serveOnly: Bool = false) {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rowmotion").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            printError("rowmotion-bench scale: no rowmotion binary next to the benchmark; swift build -c release --product rowmotion")
            exit(1)
        }
        let root = URL(fileURLWithPath: parent).appendingPathComponent("bench-scale-\(getpid())")
        defer {
            if keep { printError("kept the generated site in \(root.path)") } else { try? FileManager.default.removeItem(at: root) }
        }
        let corpus = generate(into: root, pages: count)
        let out = root.appendingPathComponent("_site").path
        let kinds = editKinds()
        if serveOnly {
            let serve = serveLatencies(binary: binary, root: root, corpus: corpus, kinds: kinds, edits: edits)
            for (name, milliseconds) in serve { print("serve: \(name): save → reload event \(format(milliseconds, digits: 1)) ms (median of \(edits))") }
            return
        }
        let arguments = ["build", "--out", out]

        // A clean build: no site, no store.
        var cleanPeaks: [Double] = []
        let clean = medianMilliseconds(runs: runs, prepare: {
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(at: root.appendingPathComponent(".build"))
        }) {
            cleanPeaks.append(Spawned.run(binary, arguments, in: root).peakMB)
        }
        // Nothing changed since the last build.
        _ = Spawned.run(binary, arguments, in: root)
        let noChange = medianMilliseconds(runs: runs) { _ = Spawned.run(binary, arguments, in: root) }
        // Each kind of edit, back and forth, a build after each.
        var rows: [Row] = []
        for kind in kinds {
            var forth: [Double] = [], back: [Double] = []
            kind.forth(corpus)
            _ = Spawned.run(binary, arguments, in: root)
            for _ in 0..<max(runs, 1) {
                kind.back(corpus)
                back.append(milliseconds { _ = Spawned.run(binary, arguments, in: root) })
                kind.forth(corpus)
                forth.append(milliseconds { _ = Spawned.run(binary, arguments, in: root) })
            }
            // (Left as it started: each kind's edits are their own.)
            kind.back(corpus)
            _ = Spawned.run(binary, arguments, in: root)
            rows.append(Row(name: kind.name, commandLineMs: median(forth + (kind.backName == nil ? back : []))))
            if let backName = kind.backName { rows.append(Row(name: backName, commandLineMs: median(back))) }
        }
        // serve: each kind of edit saved, until the live event that follows.
        let serve = serveLatencies(binary: binary, root: root, corpus: corpus, kinds: kinds, edits: edits)
        for index in rows.indices { rows[index].serveMs = serve.first { $0.name == rows[index].name }?.milliseconds }

        var hugoFigures: Figures.Hugo?
        if let hugo = SiteBench.findHugo() {
            let project = root.appendingPathComponent("hugo"), hugoOut = root.appendingPathComponent("_hugo")
            SiteBench.writeHugoProject(at: project, pages: corpus.pages, from: root.appendingPathComponent("site"))
            let hugoArguments = ["--quiet", "--source", project.path, "--destination", hugoOut.path]
            var peaks: [Double] = []
            let hugoClean = medianMilliseconds(runs: runs, prepare: { try? FileManager.default.removeItem(at: hugoOut) }) {
                peaks.append(Spawned.run(hugo, hugoArguments, in: root).peakMB)
            }
            var hugoEdit = 0
            let hugoOneEdit = medianMilliseconds(runs: runs, prepare: {
                hugoEdit += 1
                corpus.edit(page: corpus.editedPage, version: hugoEdit, in: project.appendingPathComponent("content"))
            }) { _ = Spawned.run(hugo, hugoArguments, in: root) }
            let hugoServe = hugoServeLatency(hugo: hugo, project: project, corpus: corpus, edits: edits)
            hugoFigures = Figures.Hugo(cleanMs: hugoClean, oneEditMs: hugoOneEdit, peakMB: peaks.sorted()[peaks.count / 2], serveMs: hugoServe)
        }
        let figures = Figures(pages: corpus.pages.count, examples: corpus.examples, cleanMs: clean, cleanPeakMB: cleanPeaks.max() ?? 0,
                              noChangeMs: noChange, rows: rows, hugo: hugoFigures)
        if json {
            print(figures.json)
            return
        }
        print("site at scale: \(figures.pages) pages + \(figures.examples) examples (site/ four folders deep; on every page a table, "
              + "a Swift block, two links, a list), rowmotion as a process, in \(parent)")
        print("median of \(runs) builds, of \(edits) saves during serve; peak memory is the largest of the runs'")
        print("                                      command line   % of clean   goal       serve: save → event   goal       hugo")
        func row(_ name: String, _ ms: Double, goal: String, serve: Double?, serveGoal: String, hugo: Double?) {
            print("  \(SiteBench.pad(name, 36)) \(SiteBench.pad(format(ms, digits: 1) + " ms", 13))  \(SiteBench.pad(format(100 * ms / clean, digits: 1) + " %", 11))  "
                  + "\(SiteBench.pad(goal, 9))  \(SiteBench.pad(serve.map { format($0, digits: 1) + " ms" } ?? "—", 20))  \(SiteBench.pad(serveGoal, 9))  "
                  + "\(hugo.map { format($0, digits: 1) + " ms" } ?? "—")")
        }
        row("clean build", clean, goal: "≤ 1.5 s", serve: nil, serveGoal: "", hugo: hugoFigures?.cleanMs)
        row("no-change build", noChange, goal: "≤ 5 %", serve: nil, serveGoal: "", hugo: nil)
        for entry in rows {
            let isText = entry.name == "a page's text"
            row(entry.name, entry.commandLineMs, goal: "≤ 10 %", serve: entry.serveMs, serveGoal: isText ? "≤ 20 ms" : "≤ 100 ms",
                hugo: isText ? hugoFigures?.oneEditMs : nil)
        }
        print("  \(SiteBench.pad("peak memory, clean build", 36)) \(SiteBench.pad("\(Int(figures.cleanPeakMB.rounded())) MB", 13))  \(SiteBench.pad("", 11))  "
              + "\(SiteBench.pad("≤ 250 MB", 9))  \(SiteBench.pad("", 20))  \(SiteBench.pad("", 9))  \(hugoFigures.map { "\(Int($0.peakMB.rounded())) MB" } ?? "—")")
        if let hugo = hugoFigures {
            print("  clean build: Hugo ÷ rowmotion = \(format(hugo.cleanMs / clean, digits: 2))×; Hugo's serve: save → reload "
                  + "\(hugo.serveMs.map { format($0, digits: 1) + " ms" } ?? "—") (a page's text)")
        } else {
            print("  hugo: not measured (no hugo on PATH; apt-get install hugo)")
        }
    }

    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func milliseconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    // MARK: The corpus

    struct Corpus {
        var root: URL
        var pages: [String]
        var examples: Int
        /// The page the edit builds change (a leaf page showing no example).
        var editedPage: String
        /// A page that shows an example (its example is the one edited).
        var examplePage: String
        var example: String
        /// A page whose `## Overview` heading other pages link to.
        var linkedPage: String

        var site: URL { root.appendingPathComponent("site") }

        /// Rewrites `page`'s last paragraph: version `n` says `n`, so every
        /// edit changes the page's bytes (and, in its text, nothing else).
        func edit(page: String, version: Int, in folder: URL? = nil) {
            let url = (folder ?? site).appendingPathComponent(page)
            var text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            if let marker = text.range(of: "\nEdited ", options: .backwards) { text = String(text[..<marker.lowerBound]) + "\n" }
            text += "\nEdited \(version) times.\n"
            save(text, to: url)
        }

        /// As editors save: a new file renamed over the old one.
        func save(_ text: String, to url: URL) {
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).saving")
            precondition(FileManager.default.createFile(atPath: temporary.path, contents: Data(text.utf8)), "cannot write \(temporary.path)")
            precondition(rename(temporary.path, url.path) == 0, "cannot save \(url.path)")
        }

        func replace(in page: String, _ pattern: String, with replacement: String) {
            let url = site.appendingPathComponent(page)
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            let lines = text.components(separatedBy: "\n").map { $0.hasPrefix(pattern) ? replacement : $0 }
            save(lines.joined(separator: "\n"), to: url)
        }

        func retitle(version: Int) {
            replace(in: editedPage, "title: ", with: "title: \"Page retitled \(version)\"")
        }

        func reorder(weight: Int) {
            replace(in: editedPage, "weight: ", with: "weight: \(weight)")
        }

        var addedPage: String { (editedPage as NSString).deletingLastPathComponent + "/added-page.md" }

        func addPage() {
            save("---\ntitle: \"An added page\"\n---\n\nA page added, linking to [the edited one](\((editedPage as NSString).lastPathComponent)).\n",
                 to: site.appendingPathComponent(addedPage))
        }

        func removeAddedPage() {
            try? FileManager.default.removeItem(at: site.appendingPathComponent(addedPage))
        }

        func renamePage(forth: Bool) {
            let renamed = (editedPage as NSString).deletingPathExtension + "-renamed.md"
            let (from, to) = forth ? (editedPage, renamed) : (renamed, editedPage)
            precondition(rename(site.appendingPathComponent(from).path, site.appendingPathComponent(to).path) == 0, "cannot rename \(from)")
        }

        func renameLinkedHeading(to heading: String) {
            let url = site.appendingPathComponent(linkedPage)
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            save(text.replacingOccurrences(of: heading == "Summary" ? "## Overview\n" : "## Summary\n", with: "## \(heading)\n"), to: url)
        }

        func editStaticFile(version: Int) {
            save("<svg xmlns=\"http://www.w3.org/2000/svg\"><title>\(version)</title></svg>\n", to: site.appendingPathComponent("images/logo.svg"))
        }

        func editExample(rows version: Int) {
            let url = root.appendingPathComponent("examples").appendingPathComponent(example)
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            save(text.replacingOccurrences(of: version == 1 ? "r0, " : "r0-edited, ", with: version == 1 ? "r0-edited, " : "r0, "), to: url)
        }

        func editExample(animation: String) {
            let url = root.appendingPathComponent("examples").appendingPathComponent(example)
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            let lines = text.components(separatedBy: "\n").filter { !$0.hasPrefix("animation: ") }
            save("animation: \(animation)\n" + lines.joined(separator: "\n"), to: url)
        }

        func editTemplate(_ name: String, version: Int) {
            save((DefaultTheme.builtIn(name) ?? "") + "<!-- version \(version) -->\n", to: root.appendingPathComponent("templates").appendingPathComponent(name))
        }
    }

    /// `pages` pages under `site/` at `sN/tN/uN/vN/page-N.md`, a section page
    /// (`_index.md`) for each folder of the top two levels, a home page,
    /// and an example for every tenth page, which that page shows.
    static func generate(into root: URL, pages count: Int) -> Corpus {
        var random = SeededGenerator(seed: 44)
        let manager = FileManager.default
        try? manager.removeItem(at: root)
        let words = ["list", "row", "section", "batch", "animation", "update", "snapshot", "identity", "move", "insert",
                     "delete", "reload", "table", "cell", "index", "path", "diff", "engine", "page", "theme", "layout", "grid"]
        func sentence(_ length: Int) -> String {
            (0..<length).map { _ in words.randomElement(using: &random)! }.joined(separator: " ").capitalizedFirst + "."
        }
        func write(_ path: String, _ text: String) {
            let url = root.appendingPathComponent(path)
            try? manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            precondition(manager.createFile(atPath: url.path, contents: Data(text.utf8)), "cannot write \(url.path)")
        }
        func folder(_ number: Int) -> String { "s\(number % 8)/t\((number / 8) % 5)/u\((number / 40) % 5)/v\((number / 200) % 5)" }
        func path(_ number: Int) -> String { folder(number) + "/page-\(number).md" }
        let examples = count / 10
        for number in 0..<examples {
            var current = (0..<12).map { "r\($0)" }
            var steps: [String] = []
            for step in 0..<4 {
                if step > 0 {
                    current.shuffle(using: &random)
                    current.removeLast()
                    current.append("n\(step)")
                }
                steps.append("  - items: [" + current.joined(separator: ", ") + "]")
            }
            write("examples/example-\(number).yml", "title: Example \(number)\ndescription: Generated.\nsteps:\n" + steps.joined(separator: "\n") + "\n")
        }
        var pages: [String] = []
        for number in 0..<count {
            let other = (number * 7 + 13) % count, previous = (number + count - 1) % count
            var text = "---\ntitle: \"Page \(number): \(sentence(3).dropLast())\"\nweight: \(number)\n---\n\n"
            text += "\(sentence(18)) Read [the overview of page \(other)](/\(path(other))#overview) first.\n\n"
            text += "## Overview\n\n\(sentence(30)) Back to [page \(previous)](/\(path(previous))).\n\n"
            text += "| Call | Rows | Sections |\n|---|---|---|\n"
            for row in 0..<4 { text += "| `\(words[(number + row) % words.count])` | \(row * 3) | \(row) |\n" }
            text += "\n## Details\n\n- \(sentence(8))\n- \(sentence(6)) See [Details](#details).\n- `code` and **bold** \(sentence(5))\n\n"
            text += "```swift\nlet rows = \(number) // \(sentence(4))\ntableView.performBatchUpdates { }\n```\n\n"
            text += "### Notes\n\n\(sentence(40))\n"
            if number % 10 == 0 { text += "\n```rowmotion\nexample: example-\(number / 10).yml\n```\n" }
            write("site/" + path(number), text)
            pages.append(path(number))
        }
        for top in 0..<8 {
            write("site/s\(top)/_index.md", "---\ntitle: Part \(top)\nweight: \(top)\n---\n\n\(sentence(30))\n")
            pages.append("s\(top)/_index.md")
            for second in 0..<5 {
                write("site/s\(top)/t\(second)/_index.md", "---\ntitle: Chapter \(top).\(second)\nweight: \(second)\n---\n\n\(sentence(30))\n")
                pages.append("s\(top)/t\(second)/_index.md")
            }
        }
        write("site/index.md", "---\ntitle: Scale\n---\n\n# Scale\n\n\(sentence(40))\n")
        pages.append("index.md")
        write("site/images/logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"><title>0</title></svg>\n")
        // Edited: a page that shows no example, deep in the tree; an example
        // and the page that shows it; a page whose overview others link to.
        let shown = (count / 2 / 10) * 10
        return Corpus(root: root, pages: pages, examples: examples, editedPage: path(count / 2 + 1), examplePage: path(shown),
                      example: "example-\(shown / 10).yml", linkedPage: path(((count / 2 + 3) * 7 + 13) % count))
    }

    // MARK: serve

    /// The milliseconds from each save to the live-reload event of the
    /// build that follows it, for each kind of edit (the median of
    /// `edits`, the edit made back and forth).
    static func serveLatencies(binary: String, root: URL, corpus: Corpus, kinds: [EditKind], edits: Int) -> [(name: String, milliseconds: Double)] {
        let out = root.appendingPathComponent("_serve").path
        let server = Spawned(binary, ["serve", "--port", "0", "--out", out], in: root)
        defer { server.stop() }
        guard let line = server.readLine(until: { $0.hasPrefix("serving ") }),
              let address = line.split(separator: " ").first(where: { $0.hasPrefix("http://") }),
              let port = address.split(separator: ":").last.flatMap({ UInt16($0.trimmingCharacters(in: CharacterSet(charactersIn: "/"))) }) else {
            printError("rowmotion-bench scale: serve did not start")
            exit(1)
        }
        let stream = LineSocket(port: port)
        stream.send("GET /_rowmotion/live HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n")
        func nextBuild(after build: Int) -> Int {
            while let line = stream.readLine() {
                guard line.hasPrefix("data:"), let data = line.dropFirst(5).data(using: .utf8),
                      let message = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
                // A build that changed nothing sends its status with the same number; errors too.
                let number = message["build"] as? Int ?? build
                if number > build || message["errors"] != nil { return number }
            }
            printError("rowmotion-bench scale: the live stream closed")
            exit(1)
        }
        var build = nextBuild(after: -1)
        func timed(_ edit: (Corpus) -> Void) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            edit(corpus)
            build = nextBuild(after: build)
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        }
        var results: [(name: String, milliseconds: Double)] = []
        for kind in kinds {
            var forth: [Double] = [], back: [Double] = []
            for _ in 0..<max(edits, 1) {
                forth.append(timed(kind.forth))
                back.append(timed(kind.back))
            }
            results.append((kind.name, median(forth + (kind.backName == nil ? back : []))))
            if let backName = kind.backName { results.append((backName, median(back))) }
        }
        return results
    }

    /// `hugo server`'s save → reload message on its LiveReload websocket
    /// (the median of `edits`), or nil when it cannot be measured.
    static func hugoServeLatency(hugo: String, project: URL, corpus: Corpus, edits: Int) -> Double? {
        let port = UInt16.random(in: 20_000...40_000)
        let server = Spawned(hugo, ["server", "--source", project.path, "--port", "\(port)", "--bind", "127.0.0.1",
                                    "--renderToDisk", "--destination", project.appendingPathComponent("_served").path], in: project)
        defer { server.stop() }
        guard server.readLine(until: { $0.contains("Web Server is available") }) != nil else { return nil }
        let socket = LineSocket(port: port)
        socket.send("GET /livereload HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        while let line = socket.readLine(), !line.isEmpty {}
        // The LiveReload handshake, as a browser's script sends it (masked, as a client must).
        socket.sendWebSocketText("{\"command\":\"hello\",\"protocols\":[\"http://livereload.com/protocols/official-7\"]}")
        guard socket.readWebSocketText() != nil else { return nil }
        var samples: [Double] = []
        for edit in 1...max(edits, 1) {
            let start = DispatchTime.now().uptimeNanoseconds
            corpus.edit(page: corpus.editedPage, version: 2_000 + edit, in: project.appendingPathComponent("content"))
            while let message = socket.readWebSocketText() {
                if message.contains("\"reload\"") { break }
            }
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        return samples[samples.count / 2]
    }
}

/// A process of the benchmark's, its output read line by line, its peak
/// memory taken from `wait4` when it ends.
final class Spawned {
    /// Where a process's standard error goes.
    static let errors = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-bench-\(getpid()).stderr").path
    let pid: pid_t
    private let output: FileHandle
    private var buffer: [UInt8] = []

    init(_ path: String, _ arguments: [String], in folder: URL) {
        var pipe: [Int32] = [0, 0]
        precondition(Glibc_or_Darwin_pipe(&pipe) == 0, "cannot make a pipe")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        // Its errors, for a failed run's message.
        posix_spawn_file_actions_addopen(&actions, 2, Spawned.errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let here = FileManager.default.currentDirectoryPath
        precondition(FileManager.default.changeCurrentDirectoryPath(folder.path), "cannot enter \(folder.path)")
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        precondition(FileManager.default.changeCurrentDirectoryPath(here), "cannot go back to \(here)")
        precondition(spawned == 0, "cannot run \(path)")
        close(pipe[1])
        self.pid = pid
        output = FileHandle(fileDescriptor: pipe[0], closeOnDealloc: true)
    }

    /// Runs a tool to its end, its output discarded: its peak memory.
    @discardableResult
    static func run(_ path: String, _ arguments: [String], in folder: URL) -> (status: Int32, peakMB: Double) {
        let process = Spawned(path, arguments, in: folder)
        while !process.output.availableData.isEmpty {}
        let (status, peak) = process.wait()
        if status != 0 {
            let errors = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            printError("\(path) \(arguments.joined(separator: " ")) failed on the benchmark site (status \(status)):\n\(errors.suffix(2_000))")
            exit(1)
        }
        return (status, peak)
    }

    /// Lines of the process's output until one `matches` (nil at its end).
    func readLine(until matches: (String) -> Bool) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                if matches(line) { return line }
                continue
            }
            let data = output.availableData
            if data.isEmpty { return nil }
            buffer += data
        }
    }

    func wait() -> (status: Int32, peakMB: Double) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        #if os(Linux)
        let peak = Double(usage.ru_maxrss) / 1024   // kilobytes
        #else
        let peak = Double(usage.ru_maxrss) / 1_048_576   // bytes
        #endif
        return ((status >> 8) & 0xff, peak)
    }

    func stop() {
        kill(pid, SIGTERM)
        // Drained so a process writing as it stops never blocks on a full pipe.
        DispatchQueue.global().async { [output] in while !output.availableData.isEmpty {} }
        _ = wait()
    }
}

private func socketSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.send(descriptor, bytes, count, 0)
    #else
    Darwin.send(descriptor, bytes, count, 0)
    #endif
}

private func Glibc_or_Darwin_pipe(_ ends: inout [Int32]) -> Int32 {
    ends.withUnsafeMutableBufferPointer { pipe($0.baseAddress!) }
}

/// A loopback TCP connection read line by line (and, for Hugo's
/// LiveReload, by WebSocket frames).
final class LineSocket {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16) {
        #if os(Linux)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(connected == 0, "cannot connect to port \(port)")
    }

    deinit { close(descriptor) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { socketSend(descriptor, $0.baseAddress, $0.count) }
            precondition(count > 0, "cannot send")
            sent += count
        }
    }

    /// More bytes into the buffer; false at the end of the stream.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    /// The next line, without its `\r\n`.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                buffer.removeSubrange(...newline)
                return String(decoding: line, as: UTF8.self)
            }
            guard fill() else { return nil }
        }
    }

    private func take(_ count: Int) -> [UInt8]? {
        while buffer.count < count { guard fill() else { return nil } }
        defer { buffer.removeSubrange(..<count) }
        return Array(buffer[..<count])
    }

    /// A masked text frame (RFC 6455 §5.3: a client masks every frame).
    func sendWebSocketText(_ text: String) {
        let payload = Array(text.utf8), mask: [UInt8] = [1, 2, 3, 4]
        var frame: [UInt8] = [0x81]
        if payload.count < 126 { frame.append(0x80 | UInt8(payload.count)) } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        send(frame)
    }

    /// The next text frame's payload (other frames skipped), nil at the end.
    func readWebSocketText() -> String? {
        while true {
            guard let head = take(2) else { return nil }
            var length = Int(head[1] & 0x7f)
            if length == 126 { guard let more = take(2) else { return nil }; length = Int(more[0]) << 8 | Int(more[1]) }
            if length == 127 { guard let more = take(8) else { return nil }; length = more.reduce(0) { $0 << 8 | Int($1) } }
            guard let payload = take(length) else { return nil }
            if head[0] & 0x0f == 1 { return String(decoding: payload, as: UTF8.self) }
        }
    }
}
