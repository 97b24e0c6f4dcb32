import Foundation
import ListDiff
import SeededRandom
import Testing

/// Issue 32: between the rows kept at a section's ends, rows that keep
/// their order in a long run pair by comparing ids (Myers' algorithm, at
/// most 8 rows inserted or deleted), not by hashing: a row taken from the
/// end to the front of 10,000 hashes two ids, not 20,000. With unique ids
/// the pairs are the same as hashing finds, so the changeset is the same
/// as `.pairByOccurrence` gives, which hashes every row.
@Suite("Ordered runs")
struct OrderedRunsTests {
    /// 1–4 sections of 32–400 rows, and 1–6 edits: a row moved (within or
    /// across sections), inserted or deleted; sometimes a repeat on one side.
    static func smallEdit(seed: UInt64, repeatOnOneSide: Bool = false) -> (old: Sections, new: Sections, description: String) {
        var random = SeededGenerator(seed: seed)
        var serial = 0
        func fresh() -> Row { serial += 1; return row("r\(serial)", [("text", .string("v"))]) }
        let old: [Section<String, Row>] = (0..<Int.random(in: 1...4, using: &random)).map { index in
            Section(id: "s\(index)", rows: (0..<Int.random(in: 32...400, using: &random)).map { _ in fresh() })
        }
        var new = old
        var done: [String] = []
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let s = Int.random(in: 0..<new.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where !new[s].rows.isEmpty:
                let moved = new[s].rows.remove(at: Int.random(in: 0..<new[s].rows.count, using: &random))
                let to = Int.random(in: 0..<new.count, using: &random)
                // Often to an end, where the trimmed ends cannot reach.
                let place = [0, new[to].rows.count, Int.random(in: 0...new[to].rows.count, using: &random)][Int.random(in: 0...2, using: &random)]
                new[to].rows.insert(moved, at: place)
                done.append("move \(moved.id) to \(to):\(place)")
            case 1:
                let inserted = fresh()
                let place = Int.random(in: 0...new[s].rows.count, using: &random)
                new[s].rows.insert(inserted, at: place)
                done.append("insert \(inserted.id) at \(s):\(place)")
            case 2 where !new[s].rows.isEmpty:
                let place = Int.random(in: 0..<new[s].rows.count, using: &random)
                done.append("delete \(new[s].rows.remove(at: place).id)")
            default:
                let first = new[s].rows.count > 1 ? Int.random(in: 0..<new[s].rows.count, using: &random) : 0
                if new[s].rows.count > 1 {
                    let second = Int.random(in: 0..<new[s].rows.count, using: &random)
                    new[s].rows.swapAt(first, second)
                    done.append("swap \(s):\(first) and \(s):\(second)")
                }
            }
        }
        var oldSide = old
        if repeatOnOneSide {
            let onNew = Bool.random(using: &random)
            var side = onNew ? new : oldSide
            let all = side.flatMap(\.rows)
            if let copied = all.randomElement(using: &random) {
                let to = Int.random(in: 0..<side.count, using: &random)
                side[to].rows.insert(copied, at: Int.random(in: 0...side[to].rows.count, using: &random))
                done.append("repeat \(copied.id) on the \(onNew ? "new" : "old") side")
            }
            if onNew { new = side } else { oldSide = side }
        }
        return (Snapshot(sections: oldSide), Snapshot(sections: new), done.joined(separator: ", "))
    }

    @Test func smallEditsInLongSections_giveTheChangesetHashingEveryRowGives() throws {
        let base = UInt64(ProcessInfo.processInfo.environment["LISTDIFF_SEED"] ?? "") ?? 20_261_125
        let count = UInt64(ProcessInfo.processInfo.environment["LISTDIFF_CASES"] ?? "") ?? 2_000
        var failures = 0
        for seed in base..<(base + count) where failures < 5 {
            let (old, new, done) = Self.smallEdit(seed: seed)
            let compared = try Changeset(from: old, to: new)
            let hashed = try Changeset(from: old, to: new, options: DiffOptions(duplicates: .pairByOccurrence))
            if "\(compared.batches)" != "\(hashed.batches)" || "\(compared.rows)" != "\(hashed.rows)" {
                failures += 1
                Issue.record("seed \(seed) (\(done)): the changeset differs from hashing every row (replay: LISTDIFF_SEED=\(seed) LISTDIFF_CASES=1)")
            }
        }
    }

    @Test func aRepeatOnOneSide_amongSmallEdits_isStillAnError() {
        let base = UInt64(ProcessInfo.processInfo.environment["LISTDIFF_SEED"] ?? "") ?? 20_261_126
        let count = UInt64(ProcessInfo.processInfo.environment["LISTDIFF_CASES"] ?? "") ?? 2_000
        var failures = 0
        for seed in base..<(base + count) where failures < 5 {
            let (old, new, done) = Self.smallEdit(seed: seed, repeatOnOneSide: true)
            do {
                _ = try Changeset(from: old, to: new)
                failures += 1
                Issue.record("seed \(seed) (\(done)): the repeat was not reported (replay: LISTDIFF_SEED=\(seed) LISTDIFF_CASES=1)")
            } catch {
                guard case .duplicateRowID = error else {
                    failures += 1
                    Issue.record("seed \(seed) (\(done)): \(error)")
                    continue
                }
            }
        }
    }

    /// The shapes of issue 32's cases E, F and S, 10,000 rows: one or two moves.
    @Test func lastToFront_firstToEnd_andASwap_moveOneRowOrTwo() throws {
        let ten = (0..<10_000).map { row("r\($0)", [("text", .string("v"))]) }
        var lastToFront = ten
        lastToFront.insert(lastToFront.removeLast(), at: 0)
        var firstToEnd = ten
        firstToEnd.append(firstToEnd.removeFirst())
        var swapped = ten
        swapped.swapAt(100, 9_000)
        for (new, moves) in [(lastToFront, 1), (firstToEnd, 1), (swapped, 2)] {
            let changeset = try Changeset(from: Snapshot(sections: [Section(id: "s", rows: ten)]),
                                          to: Snapshot(sections: [Section(id: "s", rows: new)]))
            #expect(changeset.moveCount == moves)
        }
    }
}
