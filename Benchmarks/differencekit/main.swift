// ListDiff and DifferenceKit side by side on the cases of `rowmotion-bench
// diff` (the same rows, the same sections). Not part of Package.swift:
// DifferenceKit is not one of the project's dependencies. Built by
// scripts/bench-differencekit.sh, which puts both libraries' sources in
// one package built with cross-module optimization.
import DifferenceKit
import Foundation
import ListDiff

// Section models are their index (DifferenceKit is a module of this package).
extension Int: Differentiable {}

extension BenchRow: Differentiable {
    var differenceIdentifier: ID { id }
    func isContentEqual(to source: BenchRow<ID>) -> Bool { value == source.value }
}

func differenceKitSections<ID: Hashable>(_ rows: [BenchRow<ID>], sizes: [Int]) -> [ArraySection<Int, BenchRow<ID>>] {
    guard !sizes.isEmpty else { return [ArraySection(model: 0, elements: rows)] }
    var sections: [ArraySection<Int, BenchRow<ID>>] = []
    var start = 0
    for (index, size) in sizes.enumerated() {
        sections.append(ArraySection(model: index, elements: Array(rows[start..<start + size])))
        start += size
    }
    return sections
}

/// Medians of `runs` runs of each library, interleaved (one of each in
/// turn, after one warm-up each), in milliseconds.
func sideBySide<ID: Hashable>(_ bench: Case, runs: Int, id: (Int) -> ID) -> (listDiff: Double, differenceKit: Double) {
    let ids = Dictionary(uniqueKeysWithValues: Set(bench.oldIDs + bench.newIDs).map { ($0, id($0)) })
    let oldRows = bench.oldIDs.map { BenchRow(id: ids[$0]!, value: $0) }
    let newRows = bench.newIDs.map { BenchRow(id: ids[$0]!, value: $0) }
    let old = bench.snapshot(oldRows, sizes: bench.oldSections), new = bench.snapshot(newRows, sizes: bench.newSections)
    let source = differenceKitSections(oldRows, sizes: bench.oldSections)
    let target = differenceKitSections(newRows, sizes: bench.newSections)
    let clock = ContinuousClock()
    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }
    var listDiff: [Double] = [], differenceKit: [Double] = []
    var sink = 0
    for _ in 0...runs {
        listDiff.append(milliseconds(clock.measure { sink &+= (try! ListDiff.Changeset(from: old, to: new)).moveCount }))
        differenceKit.append(milliseconds(clock.measure { sink &+= StagedChangeset(source: source, target: target).count }))
    }
    precondition(sink != .min)
    listDiff = Array(listDiff.dropFirst()).sorted()
    differenceKit = Array(differenceKit.dropFirst()).sorted()
    return (listDiff[listDiff.count / 2], differenceKit[differenceKit.count / 2])
}

let arguments = Array(CommandLine.arguments.dropFirst())
let runs = Int(ProcessInfo.processInfo.environment["RUNS"] ?? "") ?? 15
let wanted = Set(arguments)
print("ListDiff and DifferenceKit, median of \(runs) interleaved runs (ms)")
print("case              ListDiff    DifferenceKit   ListDiff ÷ DifferenceKit")
var worst = 0.0
for kind in [IDKind.int, .uuid] {
    for bench in makeCases(kind: kind) where wanted.isEmpty || wanted.contains(String(bench.name.split(separator: "/")[0])) {
        let (listDiff, differenceKit) = kind == .int
            ? sideBySide(bench, runs: runs, id: { $0 }) : sideBySide(bench, runs: runs, id: uuidString)
        worst = max(worst, listDiff / differenceKit)
        print(bench.name.padding(toLength: 18, withPad: " ", startingAt: 0)
              + format(listDiff, digits: 3).padding(toLength: 12, withPad: " ", startingAt: 0)
              + format(differenceKit, digits: 3).padding(toLength: 16, withPad: " ", startingAt: 0)
              + format(listDiff / differenceKit, digits: 2))
    }
}
print("largest ratio: \(format(worst, digits: 2)) (target ≤ 0.45)")
