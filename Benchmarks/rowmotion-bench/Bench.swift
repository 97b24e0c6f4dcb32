// rowmotion-bench: ListDiff against the standard library's
// `difference(from:).inferringMoves()` on the cases of issue 2, and the
// site build against libcmark's floor and Hugo, each measured in the same
// run. Prints tables (or `--json`); it asserts nothing about time.
import ArgumentParser
import ListDiff

@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rowmotion-bench",
        abstract: "Measures ListDiff and the site build against baselines timed in the same run.",
        subcommands: [DiffBench.self, SiteBenchCommand.self, ScaleBenchCommand.self],
        defaultSubcommand: DiffBench.self
    )
}

struct DiffBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "ListDiff against the standard library's diff with inferred moves (the default)."
    )

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: "Runs per case; the median is reported.")
    var runs = 7

    @Option(name: .customLong("case"), help: "Only this case (repeatable).")
    var only: [String] = []

    @Flag(name: .customLong("listdiff-only"), help: "Skip the baseline (to profile the engine alone).")
    var listDiffOnly = false

    func run() {
        var results: [Result] = []
        for kind in [IDKind.int, .uuid] {
            for benchCase in makeCases(kind: kind) where only.isEmpty || only.contains(benchCase.name) {
                let result = benchCase.measure(runs: runs, baseline: !listDiffOnly)
                results.append(result)
                if !json { printRow(result) }
            }
        }
        if json {
            print("[" + results.map(\.json).joined(separator: ",\n ") + "]")
        } else {
            let worst = results.map(\.ratio).min() ?? 0
            print("\nmoves equal the minimum in every case: \(results.allSatisfy { $0.moves == $0.minMoves } ? "yes" : "NO")")
            print("smallest ratio stdlib / ListDiff: \(format(worst))×")
            let floors = results.map(\.floorMultiple)
            print("ListDiff ÷ hash floor: \(format(floors.min() ?? 0, digits: 2))× to \(format(floors.max() ?? 0, digits: 2))×")
        }
    }
}

/// What both site benchmarks take besides their runs.
struct SiteBenchOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(name: .customLong("in"), help: "The folder the generated site and the outputs go in (/dev/shm takes the disk out).")
    var parent = ".build"

    @Flag(help: "Keep the generated site for profiling; its folder is printed.")
    var keep = false
}

struct SiteBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "site",
        abstract: "A clean build of 1,000 generated pages and 100 sequences, beside libcmark's floor and Hugo."
    )

    @OptionGroup var site: SiteBenchOptions

    @Option(help: "Runs per measurement; the median is reported.")
    var runs = 5

    @Flag(help: "Ten flat folders of 100 pages (the corpus before issue 17) instead of folders nested four deep.")
    var flat = false

    func run() {
        SiteBench.run(runs: runs, json: site.json, parent: site.parent, keep: site.keep, flat: flat)
    }
}

struct ScaleBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale",
        abstract: "10,000 generated pages built by the rowmotion binary: clean, no-change and one-edit builds, serve's save → event, peak memory; Hugo beside."
    )

    @OptionGroup var site: SiteBenchOptions

    @Option(help: "Builds per measurement; the median is reported.")
    var runs = 3

    @Option(help: "Saves timed during serve; the median is reported.")
    var edits = 9

    @Option(help: "How many pages to generate.")
    var pages = 10_000

    @Flag(name: .customLong("serve-only"), help: "Measure serve's save → event alone.")
    var serveOnly = false

    func run() {
        ScaleBench.run(pages: pages, runs: runs, edits: edits, json: site.json, parent: site.parent, keep: site.keep, serveOnly: serveOnly)
    }
}
