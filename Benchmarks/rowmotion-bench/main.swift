// rowmotion-bench: ListDiff against the standard library's
// `difference(from:).inferringMoves()` on the cases of issue 2, measured in
// the same run. Prints a table (or `--json`); it asserts nothing about time.
import ListDiff
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Options {
    var json = false
    var runs = 7
    var only: Set<String> = []
    /// Skip the baseline (for profiling the engine alone).
    var listDiffOnly = false

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": json = true
            case "--runs": runs = Int(rest.popFirst() ?? "") ?? runs
            case "--case": only.insert(rest.popFirst() ?? "")
            case "--listdiff-only": listDiffOnly = true
            case "-h", "--help":
                print("usage: rowmotion-bench [--json] [--runs N] [--case NAME]... [--listdiff-only]\n       rowmotion-bench site [--json] [--runs N] [--in FOLDER]")
                exit(0)
            default:
                printError("rowmotion-bench: error: unknown argument '\(argument)'")
                exit(2)
            }
        }
    }
}

if CommandLine.arguments.dropFirst().first == "site" {
    let rest = Array(CommandLine.arguments.dropFirst(2))
    let runs = rest.firstIndex(of: "--runs").flatMap { rest.indices.contains($0 + 1) ? Int(rest[$0 + 1]) : nil } ?? 5
    let parent = rest.firstIndex(of: "--in").flatMap { rest.indices.contains($0 + 1) ? rest[$0 + 1] : nil } ?? ".build"
    SiteBench.run(runs: runs, json: rest.contains("--json"), parent: parent)
    exit(0)
}

let options = Options(CommandLine.arguments)
var results: [Result] = []
for kind in [IDKind.int, .uuid] {
    for benchCase in makeCases(kind: kind) where options.only.isEmpty || options.only.contains(benchCase.name) {
        let result = benchCase.measure(runs: options.runs, baseline: !options.listDiffOnly)
        results.append(result)
        if !options.json { printRow(result) }
    }
}
if options.json {
    print("[" + results.map(\.json).joined(separator: ",\n ") + "]")
} else {
    let worst = results.map(\.ratio).min() ?? 0
    print("\nmoves equal the minimum in every case: \(results.allSatisfy { $0.moves == $0.minMoves } ? "yes" : "NO")")
    print("smallest ratio stdlib / ListDiff: \(format(worst))×")
}
