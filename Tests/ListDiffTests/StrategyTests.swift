import Foundation
import ListDiff
import Testing

@Suite("Comparison strategies")
struct StrategyTests {
    /// One row taken from the top of a hundred to the bottom.
    static func topToBottom() -> (Sections, Sections) {
        let rows = (0..<100).map { row("r\($0)") }
        return (Snapshot(sectionID: "s", rows: rows), Snapshot(sectionID: "s", rows: Array(rows.dropFirst()) + [rows[0]]))
    }

    @Test func oneRowToTheBottom_minimalMovesOne_offsetsMoveEveryRowItPasses_deletesAndInsertsMoveNone() throws {
        let (old, new) = Self.topToBottom()
        let minimal = try Changeset(from: old, to: new)
        let offsets = try Changeset(from: old, to: new, options: DiffOptions(strategy: .offsets))
        let plain = try Changeset(from: old, to: new, options: DiffOptions(strategy: .deletesAndInserts))
        #expect(minimal.moveCount == 1)
        #expect(offsets.moveCount == 100, "the row and the 99 it passes")
        #expect(plain.moveCount == 0)
        #expect(plain.batches.map(\.rowDeletes) == [[RowPath(section: 0, row: 0)]])
        #expect(plain.batches.map(\.rowInserts) == [[RowPath(section: 0, row: 99)]])
        #expect(plain.rows.map(\.kind) == [[.deleted, .inserted]])
    }

    /// 2,000 seeded random pairs per strategy: every batch passes the
    /// validator and replays to the target; offsets never move fewer rows
    /// than the minimum, deletes-and-inserts never move a row.
    @Test(arguments: [DiffStrategy.offsets, .deletesAndInserts])
    func randomPairs_everyStrategyReplaysToTarget_andPassesTheValidator(_ strategy: DiffStrategy) {
        let base = UInt64(ProcessInfo.processInfo.environment["LISTDIFF_SEED"] ?? "") ?? 20_261_122
        var failures = 0
        for seed in base..<(base + 2_000) {
            var (old, new, options) = randomPair(seed: seed)
            options.strategy = strategy
            var (changeset, problems) = reproducibilityProblems(old, new, options: options)
            if let changeset {
                let rowMoves = changeset.batches.map(\.rowMoves.count).reduce(0, +)
                switch strategy {
                case .offsets:
                    let minimal = (try? Changeset(from: old, to: new, options: DiffOptions(prefer: options.prefer, duplicates: options.duplicates)))?.moveCount ?? 0
                    if changeset.moveCount < minimal { problems.append("offsets moved \(changeset.moveCount) rows, fewer than the minimum \(minimal)") }
                case .deletesAndInserts where rowMoves > 0:
                    problems.append("\(rowMoves) row moves without moves")
                default: break
                }
            }
            guard !problems.isEmpty else { continue }
            Issue.record("seed \(seed), \(strategy) (replay: LISTDIFF_SEED=\(seed)): \(problems.joined(separator: "; "))")
            failures += 1
            if failures == 5 { break }
        }
    }
}
