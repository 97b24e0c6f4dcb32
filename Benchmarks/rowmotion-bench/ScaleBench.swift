import Dispatch
import Foundation
import SeededRandom
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rowmotion-bench scale`: a documentation site of 10,000 generated pages
/// (its own corpus, not `site`'s: folders four deep, a section page per
/// folder of the top two levels, links between pages with fragments, code,
/// tables, and one example per ten pages), built by the `rowmotion` binary
/// as users run it: a clean build, one with nothing changed, one after a
/// single page's edit, `serve`'s save → live-reload event, and each build's
/// peak memory; and Hugo's figures for the same pages where Hugo has them
/// (its clean build, a rebuild, and `hugo server`'s save → reload message).
enum ScaleBench {
    struct Figures {
        var pages: Int
        var examples: Int
        var cleanMs: Double
        var noChangeMs: Double
        var oneEditMs: Double
        var serveMs: Double
        var serveMaxMs: Double
        /// How many files the one-edit events named (their median).
        var serveChanged: Int
        var cleanPeakMB: Double
        var oneEditPeakMB: Double
        var hugo: Hugo?

        struct Hugo {
            var cleanMs: Double
            var oneEditMs: Double
            var peakMB: Double
            var serveMs: Double?
        }

        var json: String {
            var fields = ["\"pages\": \(pages)", "\"examples\": \(examples)", "\"clean_ms\": \(format(cleanMs, digits: 1))",
                          "\"no_change_ms\": \(format(noChangeMs, digits: 1))", "\"one_edit_ms\": \(format(oneEditMs, digits: 1))",
                          "\"serve_event_ms\": \(format(serveMs, digits: 1))", "\"serve_event_max_ms\": \(format(serveMaxMs, digits: 1))",
                          "\"serve_changed\": \(serveChanged)",
                          "\"clean_peak_mb\": \(format(cleanPeakMB, digits: 1))", "\"one_edit_peak_mb\": \(format(oneEditPeakMB, digits: 1))"]
            if let hugo {
                fields += ["\"hugo_clean_ms\": \(format(hugo.cleanMs, digits: 1))", "\"hugo_one_edit_ms\": \(format(hugo.oneEditMs, digits: 1))",
                           "\"hugo_peak_mb\": \(format(hugo.peakMB, digits: 1))",
                           "\"hugo_serve_event_ms\": \(hugo.serveMs.map { format($0, digits: 1) } ?? "null")"]
            }
            return "{" + fields.joined(separator: ", ") + "}"
        }
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
        if serveOnly {
            let serve = serveLatencies(binary: binary, root: root, corpus: corpus, edits: edits)
            print("serve: save → reload event \(format(serve.median, digits: 1)) ms (median of \(edits)), slowest \(format(serve.max, digits: 1)) ms; "
                  + "the event named \(serve.changed) file\(serve.changed == 1 ? "" : "s")")
            return
        }
        let arguments = ["build", "--out", out]

        // A clean build: no site, no cache.
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
        // One page's body edited between builds (another sentence, then not).
        var editPeaks: [Double] = []
        var edit = 0
        let oneEdit = medianMilliseconds(runs: runs, prepare: {
            edit += 1
            corpus.edit(page: corpus.editedPage, version: edit)
        }) {
            editPeaks.append(Spawned.run(binary, arguments, in: root).peakMB)
        }
        // serve: a save, until the event that names the page.
        let serve = serveLatencies(binary: binary, root: root, corpus: corpus, edits: edits)

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
        let figures = Figures(pages: corpus.pages.count, examples: corpus.examples, cleanMs: clean, noChangeMs: noChange, oneEditMs: oneEdit,
                              serveMs: serve.median, serveMaxMs: serve.max, serveChanged: serve.changed,
                              cleanPeakMB: cleanPeaks.max() ?? 0, oneEditPeakMB: editPeaks.max() ?? 0, hugo: hugoFigures)
        if json {
            print(figures.json)
            return
        }
        print("site at scale: \(figures.pages) pages + \(figures.examples) examples (site/ four folders deep), rowmotion as a process, in \(parent)")
        print("median of \(runs) builds, of \(edits) saves during serve; peak memory is the largest of the runs'")
        print("                                   rowmotion      % of clean   goal          hugo")
        func row(_ name: String, _ ms: Double, goal: String, hugo: Double?) {
            print("  \(SiteBench.pad(name, 32)) \(SiteBench.pad(format(ms, digits: 1) + " ms", 13))  \(SiteBench.pad(format(100 * ms / clean, digits: 1) + " %", 11))  "
                  + "\(SiteBench.pad(goal, 12))  \(hugo.map { format($0, digits: 1) + " ms" } ?? "—")")
        }
        // (The clean build's goal, 5× Hugo, is `rowmotion-bench site`'s: Hugo here makes the pages alone.)
        row("clean build", clean, goal: "—", hugo: hugoFigures?.cleanMs)
        row("no-change build", noChange, goal: "≤ 5 %", hugo: hugoFigures?.cleanMs)
        row("one page edited, then build", oneEdit, goal: "≤ 10 %", hugo: hugoFigures?.oneEditMs)
        row("serve: save → reload event", serve.median, goal: "≤ 100 ms", hugo: hugoFigures?.serveMs)
        print("  \(SiteBench.pad("serve: slowest of the saves", 32)) \(format(serve.max, digits: 1)) ms; the event named \(serve.changed) file\(serve.changed == 1 ? "" : "s")")
        print("  \(SiteBench.pad("peak memory, clean build", 32)) \(SiteBench.pad("\(Int(figures.cleanPeakMB.rounded())) MB", 13))  \(SiteBench.pad("", 11))  "
              + "\(SiteBench.pad("≤ 250 MB", 12))  \(hugoFigures.map { "\(Int($0.peakMB.rounded())) MB" } ?? "—")")
        print("  \(SiteBench.pad("peak memory, one-edit build", 32)) \(Int(figures.oneEditPeakMB.rounded())) MB")
        if let hugo = hugoFigures {
            print("  clean build: Hugo ÷ rowmotion = \(format(hugo.cleanMs / clean, digits: 2))× (Hugo has no no-change build: it renders every page again;")
            print("  it makes the pages alone, no example pages, players, filmstrips or search index: the 5× goal is `rowmotion-bench site`'s)")
        } else {
            print("  hugo: not measured (no hugo on PATH; apt-get install hugo)")
        }
    }

    // MARK: The corpus

    struct Corpus {
        var root: URL
        var pages: [String]
        var examples: Int
        /// The page the edit builds change (a leaf page showing no example).
        var editedPage: String

        /// Rewrites `page`'s last paragraph: version `n` says `n`, so every
        /// edit changes the page's bytes (and, in its text, nothing else).
        func edit(page: String, version: Int, in folder: URL? = nil) {
            let url = (folder ?? root.appendingPathComponent("site")).appendingPathComponent(page)
            var text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            if let marker = text.range(of: "\nEdited ", options: .backwards) { text = String(text[..<marker.lowerBound]) + "\n" }
            text += "\nEdited \(version) times.\n"
            // As editors save: a new file renamed over the old one.
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).saving")
            precondition(FileManager.default.createFile(atPath: temporary.path, contents: Data(text.utf8)), "cannot write \(temporary.path)")
            precondition(rename(temporary.path, url.path) == 0, "cannot save \(url.path)")
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
        // Edited: a page that shows no example, deep in the tree.
        return Corpus(root: root, pages: pages, examples: examples, editedPage: path(count / 2 + 1))
    }

    // MARK: serve

    /// The milliseconds from each save to the live-reload event naming the
    /// edited page's output: their median, the slowest, and the median
    /// number of files the events named.
    static func serveLatencies(binary: String, root: URL, corpus: Corpus, edits: Int) -> (median: Double, max: Double, changed: Int) {
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
        let output = String(corpus.editedPage.dropLast(3)) + ".html"
        func nextBuild(after build: Int) -> (build: Int, changed: [String]) {
            while let line = stream.readLine() {
                guard line.hasPrefix("data:"), let data = line.dropFirst(5).data(using: .utf8),
                      let message = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                      let number = message["build"] as? Int, number > build else { continue }
                return (number, message["changed"] as? [String] ?? [])
            }
            printError("rowmotion-bench scale: the live stream closed")
            exit(1)
        }
        var build = nextBuild(after: -1).build
        var samples: [Double] = [], counts: [Int] = []
        for edit in 1...max(edits, 1) {
            let start = DispatchTime.now().uptimeNanoseconds
            corpus.edit(page: corpus.editedPage, version: 1_000 + edit)
            let event = nextBuild(after: build)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            precondition(event.changed.contains(output), "the event after a save did not name \(output): \(event.changed.prefix(5))")
            counts.append(event.changed.count)
            build = event.build
        }
        samples.sort()
        counts.sort()
        return (samples[samples.count / 2], samples.last!, counts[counts.count / 2])
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
