import ProjectFiles
import CCMark
import Dispatch
import Foundation
import Reports
import SeededRandom
import SiteGenerator
import SnapshotFormat

/// `rowmotion-bench site`: a full build of 1,000 generated Markdown pages
/// (about 2 KB each: headings, lists, code, links), nested four deep with a
/// section page per top folder, and 100 snapshot
/// sequences, next to two baselines measured in the same run: the floor,
/// the work no generator of this site can skip, on every core — libcmark
/// reads, parses and renders every page, and the bytes the site holds
/// (every page with its chrome and navigation, the example pages, the
/// filmstrips, the assets: this build's own output) are made and, on
/// disk, written as the site writer writes them — compared with the build
/// in memory and on disk; and Hugo (Debian's `hugo`, when it is on PATH) building the same pages
/// with a minimal layout that does the same work: one template per page and
/// a navigation list of the sections and the current section's pages.
/// Side by side as users run them, both as processes: a clean build and a
/// build with nothing changed, each tool's; and what a page weighs.
enum SiteBench {
    struct Figures {
        var pages: Int
        var sequences: Int
        var buildMs: Double
        var floorMs: Double
        var memoryBuildMs: Double
        var memoryFloorMs: Double
        var rebuildMs: Double
        var hugoMs: Double?
        /// The median of the rounds' ratios, build ÷ floor (each round times both).
        var memoryRatio: Double
        var diskRatio: Double
        /// The sequences' own work, which the floor leaves out.
        var sequenceWorkMs: Double

        var json: String {
            "{\"pages\": \(pages), \"sequences\": \(sequences), \"build_ms\": \(format(buildMs, digits: 2)), "
                + "\"floor_ms\": \(format(floorMs, digits: 2)), \"memory_build_ms\": \(format(memoryBuildMs, digits: 2)), "
                + "\"memory_floor_ms\": \(format(memoryFloorMs, digits: 2)), \"rebuild_ms\": \(format(rebuildMs, digits: 2)), "
                + "\"memory_ratio\": \(format(memoryRatio, digits: 3)), \"disk_ratio\": \(format(diskRatio, digits: 3)), "
                + "\"sequence_work_ms\": \(format(sequenceWorkMs, digits: 2)), "
                + "\"hugo_ms\": \(hugoMs.map { format($0, digits: 2) } ?? "null")}"
        }
    }

    /// - Parameter parent: the folder the generated site and both outputs go
    ///   in (`.build`, on this machine's disk; `/dev/shm` takes the disk out).
    static func run(runs: Int, json: Bool, parent: String, keep: Bool = false, flat: Bool = false) {
        let root = URL(fileURLWithPath: parent, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .appendingPathComponent("bench-site-\(getpid())")
        defer {
            if keep {
                printError("kept the generated site in \(root.path)")
            } else {
                try? FileManager.default.removeItem(at: root)
            }
        }
        let (pages, sequences) = generate(into: root, pages: 1_000, sequences: 100, flat: flat)
        var options = BuildOptions()
        options.site = root.appendingPathComponent("site").path
        options.examples = root.appendingPathComponent("examples").path
        options.templates = root.appendingPathComponent("templates").path
        options.out = root.appendingPathComponent("_site").path
        let floorOut = root.appendingPathComponent("_floor")

        // The floor's bytes: what this build's site holds, every file.
        let outputs = SiteBuilder.build(options).files.sorted { $0.key < $1.key }
        let markdown = pages.map { root.appendingPathComponent("site").appendingPathComponent($0).path }
        func floorWork(writingInto folder: URL?) {
            DispatchQueue.concurrentPerform(iterations: markdown.count) { index in
                let bytes = [UInt8](FileManager.default.contents(atPath: markdown[index]) ?? Data())
                if let html = cmark_markdown_to_html(bytes, bytes.count, CMARK_OPT_UNSAFE | CMARK_OPT_SMART) { free(html) }
            }
            if let folder {
                for folderPath in Set(outputs.map { ($0.key as NSString).deletingLastPathComponent }) {
                    try? FileManager.default.createDirectory(at: folder.appendingPathComponent(folderPath), withIntermediateDirectories: true)
                }
            }
            DispatchQueue.concurrentPerform(iterations: outputs.count) { index in
                // Made: the page's bytes exist once more, as a renderer's result would.
                let made = Array(outputs[index].value)
                if let folder {
                    // Written the way the site writer writes (no per-file fsync).
                    _ = WritePath.writeNewFile(made, to: folder.appendingPathComponent(outputs[index].key).path, replacing: true)
                }
            }
            if let folder { SiteWriter.sync(folder: folder.path) }
        }
        // Each build and its floor in turn, round after round. Each run on
        // disk is a clean build: the previous output is removed untimed.
        let onDisk = interleavedMilliseconds(runs: runs, prepareA: { try? FileManager.default.removeItem(atPath: options.out) }, {
            let result = SiteBuilder.buildAndWrite(options)
            precondition(result.written != nil, "the benchmark site failed to build: \(result.site.diagnostics.prefix(3))")
        }, prepareB: { try? FileManager.default.removeItem(at: floorOut) }, { floorWork(writingInto: floorOut) })
        // The in-memory builds also say where their time goes, phase by phase.
        let phases = PhaseLog()
        var logged = options
        logged.progress = { event in if case let .phase(name, milliseconds) = event { phases.add(name, milliseconds) } }
        let inMemory = interleavedMilliseconds(runs: runs, {
            precondition(!SiteBuilder.build(logged).hasErrors, "the benchmark site failed to build")
        }, { floorWork(writingInto: nil) })
        let (build, floor, memoryBuild, memoryFloor) = (onDisk.a, onDisk.b, inMemory.a, inMemory.b)
        // Necessary work the floor leaves out: every sequence read, its
        // steps diffed and checked against UIKit's rules, on every core
        // (the library's calls alone, none of the generator's).
        let sequenceFiles = (0..<sequences).map { root.appendingPathComponent("examples/seq\($0).yml").path }
        let sequenceWork = medianMilliseconds(runs: runs) {
            DispatchQueue.concurrentPerform(iterations: sequenceFiles.count) { index in
                let bytes = [UInt8](FileManager.default.contents(atPath: sequenceFiles[index]) ?? Data())
                guard let sequence = SnapshotReader.read(bytes: bytes, file: sequenceFiles[index]).sequence,
                      let changesets = try? sequence.changesets() else { preconditionFailure("a benchmark sequence failed to load") }
                _ = RuleCheck.violations(in: sequence, changesets: changesets)
            }
        }
        // Hugo on the same Markdown, when installed.
        var hugoMs: Double?
        if let hugo = findHugo() {
            let project = root.appendingPathComponent("hugo")
            writeHugoProject(at: project, pages: pages, from: root.appendingPathComponent("site"))
            let hugoOut = root.appendingPathComponent("_hugo")
            hugoMs = medianMilliseconds(runs: runs, prepare: { try? FileManager.default.removeItem(at: hugoOut) }) {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: hugo)
                process.arguments = ["--quiet", "--source", project.path, "--destination", hugoOut.path]
                process.standardOutput = FileHandle.nullDevice
                try? process.run()
                process.waitUntilExit()
                precondition(process.terminationStatus == 0, "hugo failed on the benchmark site")
            }
        }
        // A rebuild with nothing changed, from a warm content-hash cache.
        var cached = options
        cached.cache = root.appendingPathComponent("build.cache").path
        try? FileManager.default.removeItem(atPath: options.out)
        _ = SiteBuilder.buildAndWrite(cached)
        let rebuild = medianMilliseconds(runs: runs) {
            let result = SiteBuilder.buildAndWrite(cached)
            precondition(result.site.unchanged, "a no-change rebuild rendered or wrote something")
        }
        // Side by side as users run them: each tool as a process, a clean
        // build and one with nothing changed since the last.
        var sideBySide: SideBySide?
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rowmotion")
        if FileManager.default.isExecutableFile(atPath: binary.path) {
            let out = root.appendingPathComponent("_process")
            let arguments = ["build", "--site", "site", "--examples", "examples", "--out", out.path]
            let clean = medianMilliseconds(runs: runs, prepare: { try? FileManager.default.removeItem(at: out) }) {
                runProcess(binary.path, arguments + ["--no-cache"], in: root)
            }
            runProcess(binary.path, arguments, in: root)
            let unchanged = medianMilliseconds(runs: runs) { runProcess(binary.path, arguments, in: root) }
            var figures = SideBySide(cleanMs: clean, noChangeMs: unchanged, pageBytes: medianPageBytes(in: out, navigation: false),
                                     navigationBytes: medianPageBytes(in: out, navigation: true))
            if let hugo = findHugo() {
                let project = root.appendingPathComponent("hugo"), hugoOut = root.appendingPathComponent("_hugo")
                let hugoArguments = ["--quiet", "--source", project.path, "--destination", hugoOut.path]
                runProcess(hugo, hugoArguments, in: root)
                figures.hugoNoChangeMs = medianMilliseconds(runs: runs) { runProcess(hugo, hugoArguments, in: root) }
                figures.hugoPageBytes = medianPageBytes(in: hugoOut, navigation: false)
            }
            sideBySide = figures
        }
        let figures = Figures(pages: pages.count, sequences: sequences, buildMs: build, floorMs: floor, memoryBuildMs: memoryBuild,
                              memoryFloorMs: memoryFloor, rebuildMs: rebuild, hugoMs: hugoMs,
                              memoryRatio: inMemory.ratio, diskRatio: onDisk.ratio, sequenceWorkMs: sequenceWork)
        if json {
            print(figures.json)
        } else {
            print("site build: \(figures.pages) pages + \(figures.sequences) sequences, median of \(runs) clean builds, in \(parent)")
            print("  each build and its floor timed in turn, round after round; the ratio is the median of the rounds' ratios")
            print("  the floor: on every core, libcmark reads, parses and renders every page; the site's bytes (chrome and navigation included) are made")
            print("                    build        floor        ratio    target")
            print("  in memory         \(pad(format(memoryBuild, digits: 1) + " ms", 11))  \(pad(format(memoryFloor, digits: 1) + " ms", 11))  "
                  + "\(pad(format(inMemory.ratio, digits: 2) + "×", 7))  ≤ 2×")
            print("  on disk           \(pad(format(build, digits: 1) + " ms", 11))  \(pad(format(floor, digits: 1) + " ms", 11))  "
                  + "\(pad(format(onDisk.ratio, digits: 2) + "×", 7))  ≤ 1.5×  (the floor writes them as the site writer does)")
            print("  not in the floor  \(format(sequenceWork, digits: 1)) ms  (\(format(sequenceWork / memoryFloor, digits: 2))× the floor in memory: "
                  + "the sequences read, diffed and checked against UIKit's rules, the library's calls alone)")
            if let hugoMs {
                print("  hugo              \(format(hugoMs, digits: 1)) ms  (the same pages, a page template and a navigation list; a process)")
                print("  ratio             \(format(build / hugoMs, digits: 2))× Hugo")
            } else {
                print("  hugo              not measured (no hugo on PATH; apt-get install hugo)")
            }
            print("  no-change rebuild \(format(rebuild, digits: 1)) ms  (\(format(100 * rebuild / build, digits: 1))% of a clean build; warm cache)")
            print("where a build in memory spends its time (each phase's median; × the floor in memory):")
            let medians = phases.medians()
            let nameWidth = max(26, medians.map { $0.name.count }.max() ?? 0)
            for (name, milliseconds) in medians {
                print("  \(pad(name, nameWidth)) \(pad(format(milliseconds, digits: 1) + " ms", 10))  \(format(milliseconds / memoryFloor, digits: 2))×")
            }
            if let side = sideBySide {
                print("side by side, each tool as a process (median of \(runs)):")
                print("                    clean build   nothing changed   median page   its navigation")
                print("  rowmotion         \(pad(format(side.cleanMs, digits: 1) + " ms", 11))   \(pad(format(side.noChangeMs, digits: 1) + " ms", 15))   "
                      + "\(pad("\(side.pageBytes) B", 11))   \(side.navigationBytes) B")
                if let hugoMs, let hugoNoChange = side.hugoNoChangeMs, let hugoBytes = side.hugoPageBytes {
                    print("  hugo              \(pad(format(hugoMs, digits: 1) + " ms", 11))   \(pad(format(hugoNoChange, digits: 1) + " ms", 15))   \(hugoBytes) B")
                    print("  hugo ÷ rowmotion  \(pad(format(hugoMs / side.cleanMs, digits: 2) + "×", 11))   \(format(hugoNoChange / side.noChangeMs, digits: 2))×")
                }
            } else {
                print("side by side: not measured (no rowmotion binary next to the benchmark; swift build -c release --product rowmotion)")
            }
        }
    }

    /// The phases the builds reported (`BuildEvent.phase`), in the order
    /// first reported; each build reports each phase once.
    final class PhaseLog: Sendable {
        private struct Samples {
            var order: [String] = []
            var samples: [String: [Double]] = [:]
        }

        private let log = Locked(Samples())

        func add(_ name: String, _ milliseconds: Double) {
            log.withLock { log in
                if log.samples[name] == nil { log.order.append(name) }
                log.samples[name, default: []].append(milliseconds)
            }
        }

        func medians() -> [(name: String, milliseconds: Double)] {
            log.withLock { log in
                log.order.map { name in
                    let sorted = log.samples[name, default: []].sorted()
                    return (name, sorted[sorted.count / 2])
                }
            }
        }
    }

    struct SideBySide {
        var cleanMs: Double
        var noChangeMs: Double
        var pageBytes: Int
        var navigationBytes: Int
        var hugoNoChangeMs: Double?
        var hugoPageBytes: Int?
    }

    /// Runs a tool in `folder` to its end, its output discarded. Spawned
    /// and waited for directly: Foundation's `Process` on Linux notices the
    /// end by polling its run loop, which added tens of milliseconds to
    /// every run timed.
    static func runProcess(_ path: String, _ arguments: [String], in folder: URL) {
        Spawned.run(path, arguments, in: folder)
    }

    /// The median size of the generated pages (`page*.html`) in `folder`, or
    /// of their `<nav>` element.
    static func medianPageBytes(in folder: URL, navigation: Bool) -> Int {
        var sizes: [Int] = []
        let paths = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? []
        // Ours are page7.html, Hugo's page7/index.html.
        for path in paths where path.hasSuffix(".html") && path.split(separator: "/").contains(where: { $0.hasPrefix("page") }) {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) else { continue }
            if !navigation { sizes.append(data.count); continue }
            let text = String(decoding: data, as: UTF8.self)
            if let start = text.range(of: "<nav"), let end = text.range(of: "</nav>", range: start.upperBound..<text.endIndex) {
                sizes.append(text.utf8.distance(from: start.lowerBound, to: end.upperBound))
            }
        }
        sizes.sort()
        return sizes.isEmpty ? 0 : sizes[sizes.count / 2]
    }

    static func pad(_ text: String, _ width: Int) -> String { text.count >= width ? text : text + String(repeating: " ", count: width - text.count) }

    static func findHugo() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/hugo" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A Hugo project over the same Markdown: the pages under content/, a
    /// single-page layout with the same navigation as ours (the sections, and
    /// the pages of the page's own section), and nothing else Hugo would add
    /// (no taxonomies, feeds or sitemap).
    static func writeHugoProject(at project: URL, pages: [String], from site: URL) {
        let manager = FileManager.default
        func write(_ path: String, _ text: String) {
            let url = project.appendingPathComponent(path)
            try? manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = manager.createFile(atPath: url.path, contents: Data(text.utf8))
        }
        write("config.toml", """
            baseURL = "/"
            title = "Bench"
            disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
            [markup.goldmark.renderer]
            unsafe = true

            """)
        write("layouts/_default/baseof.html", """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
            <body>
            <nav><ul>
            {{ range .Site.Sections }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}
            {{ with .CurrentSection }}{{ range .RegularPages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}{{ end }}
            </ul></nav>
            <main>{{ block "main" . }}{{ end }}</main>
            </body></html>

            """)
        write("layouts/_default/single.html", "{{ define \"main\" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}\n")
        write("layouts/_default/list.html", "{{ define \"main\" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}\n")
        for page in pages {
            let text = (try? String(contentsOf: site.appendingPathComponent(page), encoding: .utf8)) ?? ""
            write("content/" + page, text)
        }
    }

    /// Seeded pages and sequences; a tenth of the pages embed a player.
    static func generate(into root: URL, pages count: Int, sequences: Int, flat: Bool = false) -> (pages: [String], sequences: Int) {
        var random = SeededGenerator(seed: 2026)
        let manager = FileManager.default
        try? manager.removeItem(at: root)
        let words = ["list", "row", "section", "batch", "animation", "update", "snapshot", "identity", "move", "insert",
                     "delete", "reload", "table", "cell", "index", "path", "diff", "engine", "page", "theme"]
        func sentence(_ length: Int) -> String {
            (0..<length).map { _ in words.randomElement(using: &random)! }.joined(separator: " ").capitalizedFirst + "."
        }
        for number in 0..<sequences {
            let rows = (0..<20).map { "r\($0)" }
            var steps: [String] = []
            var current = rows
            for step in 0..<5 {
                if step > 0 {
                    current.shuffle(using: &random)
                    current.removeLast()
                    current.append("n\(number)-\(step)")
                }
                steps.append("  - items: [" + current.joined(separator: ", ") + "]")
            }
            let text = "title: Sequence \(number)\ndescription: Generated.\nsteps:\n" + steps.joined(separator: "\n") + "\n"
            let url = root.appendingPathComponent("examples/seq\(number).yml")
            try? manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = manager.createFile(atPath: url.path, contents: Data(text.utf8))
        }
        // Nested four deep (s0/p1/c2/page7.md), each top section with its
        // own page (_index.md, which both tools read as the section's page).
        func path(_ number: Int) -> String {
            flat ? "s\(number % 10)/page\(number)" : "s\(number % 10)/p\((number / 10) % 5)/c\((number / 50) % 4)/page\(number)"
        }
        let up = flat ? "../" : "../../../"
        var names: [String] = []
        for number in 0..<count {
            let name = path(number) + ".md"
            let next = (number + 1) % count
            // From s/p/c/ to the next page: up three folders, then down.
            var text = "---\ntitle: Page \(number)\norder: \(number)\n---\n# Page \(number)\n\n"
            while text.utf8.count < 1_900 {
                text += "## \(sentence(3))\n\n\(sentence(25)) See [page \(next)](\(up)\(path(next)).md).\n\n"
                text += "- \(sentence(6))\n- \(sentence(5))\n- `code` and **bold** \(sentence(4))\n\n"
                text += "```swift\nlet value = \(number) // \(sentence(4))\n```\n\n"
            }
            if number < sequences { text += "```rowmotion\nexample: seq\(number).yml\n```\n" }
            let url = root.appendingPathComponent("site/\(name)")
            try? manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = manager.createFile(atPath: url.path, contents: Data(text.utf8))
            names.append(name)
        }
        for section in 0..<10 where !flat {
            let name = "s\(section)/_index.md"
            _ = manager.createFile(atPath: root.appendingPathComponent("site/\(name)").path,
                                   contents: Data("---\ntitle: Section \(section)\norder: \(section)\n---\n\(sentence(40))\n".utf8))
            names.append(name)
        }
        return (names, sequences)
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
