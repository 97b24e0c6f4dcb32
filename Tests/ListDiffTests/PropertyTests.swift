import Foundation
import ListDiff
import SeededRandom
import Testing

/// Random sectioned pairs: up to 8 sections of up to ~200 rows in all;
/// rows inserted, deleted, moved within and across sections; sections
/// inserted, deleted and moved; content, headers and move hints changed.
func randomPair(seed: UInt64) -> (old: Sections, new: Sections, options: DiffOptions) {
    var random = SeededGenerator(seed: seed)
    var nextID = 0
    // Some ids hold an "é", after or within their first eight bytes: the
    // engine's first-bytes shortcut must not tell equal texts apart.
    func freshID() -> String {
        nextID += 1
        switch nextID % 8 {
        case 3: return "row-\(nextID)-caf\u{E9}"
        case 6: return "caf\u{E9}-\(nextID)"
        default: return "r\(nextID)"
        }
    }
    let sectionCount = Int.random(in: 0...8, using: &random)
    let rowBudget = Int.random(in: 0...200, using: &random)
    var old: [Section<String, Row>] = (0..<sectionCount).map { index in
        let count = sectionCount == 0 ? 0 : Int.random(in: 0...max(1, 2 * rowBudget / max(sectionCount, 1)), using: &random)
        return Section(id: "s\(index)", header: Bool.random(using: &random) ? "Header \(index)" : nil,
                       rows: (0..<count).map { _ in
                           row(freshID(), [("text", .string("v0"))], hint: .int(0))
                       })
    }
    var new = old
    let intensity = Double.random(in: 0...0.5, using: &random)
    func happens() -> Bool { Double.random(in: 0..<1, using: &random) < intensity }

    // Section deletes, inserts and moves.
    new = new.filter { _ in !happens() }
    for index in 0..<Int.random(in: 0...2, using: &random) where happens() || new.isEmpty {
        let rows = (0..<Int.random(in: 0...10, using: &random)).map { _ in row(freshID(), [("text", .string("v0"))], hint: .int(0)) }
        new.insert(Section(id: "n\(index)", rows: rows), at: Int.random(in: 0...new.count, using: &random))
    }
    if new.count > 1 {
        for _ in 0..<Int.random(in: 0...2, using: &random) where happens() {
            let section = new.remove(at: Int.random(in: 0..<new.count, using: &random))
            new.insert(section, at: Int.random(in: 0...new.count, using: &random))
        }
    }
    // Headers.
    for index in new.indices where happens() { new[index].header = "Changed \(index)" }
    // On purpose, in about a third of the pairs: one section jumps over
    // others whose rows change, so their reloads are displaced by its move
    // (radar 27041784) although neither they nor their sections move.
    if new.count > 1 && Int.random(in: 0..<3, using: &random) == 0 {
        let from = Int.random(in: 0..<new.count, using: &random)
        var to = Int.random(in: 0..<(new.count - 1), using: &random)
        if to >= from { to += 1 }
        let jumper = new.remove(at: from)
        new.insert(jumper, at: to)
        for index in min(from, to)...max(from, to) where index != to {
            for r in new[index].rows.indices where Bool.random(using: &random) {
                new[index].rows[r].fields = [Field("text", .string("v2"))]
            }
        }
    }
    guard !new.isEmpty else { return (Snapshot(sections: old), Snapshot(sections: new), DiffOptions()) }
    // Row deletes, content changes and hint changes.
    for index in new.indices {
        new[index].rows = new[index].rows.filter { _ in !happens() }
        for r in new[index].rows.indices {
            if happens() { new[index].rows[r].fields = [Field("text", .string("v1"))] }
            if happens() { new[index].rows[r].moveHint = .int(1) }
        }
    }
    // Row moves within and across sections, including rows of deleted sections.
    let deletedRows = old.filter { section in !new.contains { $0.id == section.id } }.flatMap(\.rows)
    var movers = deletedRows.filter { _ in happens() }
    for index in new.indices {
        var kept: [Row] = []
        for row in new[index].rows {
            if happens() { movers.append(row) } else { kept.append(row) }
        }
        new[index].rows = kept
    }
    for mover in movers {
        let target = Int.random(in: 0..<new.count, using: &random)
        new[target].rows.insert(mover, at: Int.random(in: 0...new[target].rows.count, using: &random))
    }
    // Row inserts.
    for index in new.indices {
        for _ in 0..<Int.random(in: 0...3, using: &random) where happens() {
            new[index].rows.insert(row(freshID(), [("text", .string("v0"))], hint: .int(0)),
                                   at: Int.random(in: 0...new[index].rows.count, using: &random))
        }
    }
    if Bool.random(using: &random) { old.shuffle(using: &random) }
    let prefer: MoveDirection? = [nil, .up, .down][Int.random(in: 0...2, using: &random)]
    return (Snapshot(sections: old), Snapshot(sections: new), DiffOptions(prefer: prefer))
}

@Suite("Random sectioned pairs")
struct PropertyTests {
    /// What one run of consecutive seeds found.
    struct Findings: Sendable {
        var cases = 0
        var failures: [String] = []
        var failureCount = 0
        var seen: [String: Int] = [:]

        mutating func merge(_ other: Findings) {
            cases += other.cases
            failures += other.failures.prefix(max(0, 5 - failures.count))
            failureCount += other.failureCount
            seen.merge(other.seen, uniquingKeysWith: +)
        }
    }

    /// 10,000 pairs per run from a fixed base seed (`make fuzz` runs
    /// 1,000,000 in release mode); `LISTDIFF_SEED` and `LISTDIFF_CASES`
    /// replay a failure. Large runs are split across the cores.
    @Test func randomPairs_replayToTarget_passValidator_moveMinimally() async {
        let environment = ProcessInfo.processInfo.environment
        let base = UInt64(environment["LISTDIFF_SEED"] ?? "") ?? 20_261_122
        let count = UInt64(environment["LISTDIFF_CASES"] ?? "") ?? 10_000
        let clock = ContinuousClock()
        let started = clock.now
        let chunks = UInt64(count >= 20_000 ? ProcessInfo.processInfo.activeProcessorCount * 8 : 1)
        let findings = await withTaskGroup(of: Findings.self) { group in
            for chunk in 0..<chunks {
                let first = base + count * chunk / chunks, end = base + count * (chunk + 1) / chunks
                group.addTask { PropertyTests.check(seeds: first..<end) }
            }
            var all = Findings()
            for await part in group { all.merge(part) }
            return all
        }
        for failure in findings.failures { Issue.record(Comment(rawValue: failure)) }
        let elapsed = started.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("random sectioned pairs: \(findings.cases) cases from seed \(base) in \(String(format: "%.1f", seconds)) s "
              + "(\(Int(Double(findings.cases) / max(seconds, 1e-9))) cases/s), \(findings.failureCount) failing")
        // The generator must keep producing every situation the engine
        // handles, or this test proves less than it claims.
        if count >= 10_000 {
            for situation in ["structure", "sections", "rows", "reloads", "section moves", "section reloads",
                              "move and reload", "re-inserted", "cross-section move", "reload displaced by a section move"] {
                #expect(findings.seen[situation, default: 0] >= 100, "only \(findings.seen[situation, default: 0]) cases with \(situation)")
            }
            print("situations: " + findings.seen.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
    }

    /// Diffs, replays, validates and counts the moves of the pairs of
    /// `seeds`; stops recording after five failures.
    static func check(seeds: Range<UInt64>) -> Findings {
        var findings = Findings()
        for seed in seeds {
            findings.cases += 1
            let (old, new, options) = randomPair(seed: seed)
            var (changeset, problems) = reproducibilityProblems(old, new, options: options)
            if let changeset {
                var seen = findings.seen
                for stage in changeset.stages { seen[stage.role.rawValue, default: 0] += 1 }
                let batches = changeset.batches
                if batches.contains(where: { !$0.sectionMoves.isEmpty }) { seen["section moves", default: 0] += 1 }
                if batches.contains(where: { !$0.sectionReloads.isEmpty }) { seen["section reloads", default: 0] += 1 }
                if changeset.rows.contains(where: { $0.kind.contains([.moved, .reloaded]) }) { seen["move and reload", default: 0] += 1 }
                if changeset.rows.contains(where: { $0.kind == [.deleted, .inserted] }) { seen["re-inserted", default: 0] += 1 }
                if changeset.rows.contains(where: { $0.kind == .moved && $0.old?.section != $0.new?.section }) {
                    seen["cross-section move", default: 0] += 1
                }
                if displacesAReload(changeset) { seen["reload displaced by a section move", default: 0] += 1 }
                findings.seen = seen
                let minimum = minimumMoves(old, new)
                if changeset.moveCount != minimum { problems.append("moves \(changeset.moveCount), minimum \(minimum)") }
            }
            guard !problems.isEmpty else { continue }
            findings.failureCount += 1
            if findings.failures.count < 5 {
                findings.failures.append("seed \(seed) (replay: LISTDIFF_SEED=\(seed) LISTDIFF_CASES=1 swift test --filter PropertyTests): "
                                         + problems.joined(separator: "; "))
            }
        }
        return findings
    }
}

/// Whether a row that only changed content (its section not moving itself)
/// sits in a section that another section's move displaces: the case UIKit
/// rejects when the reload shares the move's batch (radar 27041784).
func displacesAReload(_ changeset: Changeset<String, Row>) -> Bool {
    guard let structural = changeset.batches.first(where: { !$0.sectionMoves.isEmpty }) else { return false }
    let moving = Set(structural.sectionMoves.map(\.from))
    return changeset.rows.contains { change in
        guard change.kind == .reloaded, let old = change.old, let new = change.new else { return false }
        guard !moving.contains(old.section) else { return false }
        // Where section deletes and inserts alone would put its section.
        var section = old.section - structural.sectionDeletes.filter { $0 < old.section }.count
        for insert in structural.sectionInserts.sorted() where insert <= section { section += 1 }
        return section != new.section
    }
}

/// `text` with each "é" written as "e" and U+0301 COMBINING ACUTE ACCENT.
func decomposed(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        if scalar == "\u{E9}" { scalars.append(contentsOf: ["e", "\u{301}"]) } else { scalars.append(scalar) }
    }
    return String(scalars)
}

/// Random pairs with one id repeated on one side, wherever it lands: the
/// engine names the id and two places that hold it on that side. Rows that
/// keep their place at both ends of a section are compared, not hashed
/// (issue 32), and a copy on one side only can never be one of them on
/// both: the other side has one copy fewer. (An id repeated in the same
/// places on both sides, among rows no call names, is the one repeat that
/// is not looked for; `BatchingTests` shows it.)
@Suite("Random repeated ids")
struct RepeatedIDPropertyTests {
    static func check(seed: UInt64) -> String? {
        var random = SeededGenerator(seed: seed ^ 0x5eed_d0b1e)
        var (old, new, options) = randomPair(seed: seed)
        let onNew = Bool.random(using: &random)
        var side = onNew ? new : old
        guard var copied = side.sections.flatMap(\.rows).randomElement(using: &random) else { return nil }
        // The copy spells an "é" as "e" and a combining accent: the same id to
        // Swift (canonically equivalent), other bytes.
        if Bool.random(using: &random) { copied.id = decomposed(copied.id) }
        let section = Int.random(in: 0..<side.sections.count, using: &random)
        side.sections[section].rows.insert(copied, at: Int.random(in: 0...side.sections[section].rows.count, using: &random))
        if onNew { new = side } else { old = side }
        let held = side.sections.enumerated().flatMap { s, section in
            section.rows.enumerated().compactMap { $0.element.id == copied.id ? RowPath(section: s, row: $0.offset) : nil }
        }
        do {
            _ = try Changeset(from: old, to: new, options: options)
            return "seed \(seed): '\(copied.id)' repeated at \(held) on the \(onNew ? "new" : "old") side, not reported"
        } catch let error {
            guard case let .duplicateRowID(id, reported, first, second) = error, id == copied.id, reported == (onNew ? .new : .old),
                  held.contains(first), held.contains(second),
                  first.section < second.section || (first.section == second.section && first.row < second.row) else {
                return "seed \(seed): reported \(error), the copy of '\(copied.id)' is on the \(onNew ? "new" : "old") side at \(held)"
            }
            return nil
        }
    }

    @Test func anIDRepeatedOnOneSide_isNamedWithTwoOfItsPlaces_wherever_itLands() {
        let environment = ProcessInfo.processInfo.environment
        let base = UInt64(environment["LISTDIFF_SEED"] ?? "") ?? 20_261_125
        let count = UInt64(environment["LISTDIFF_CASES"] ?? "") ?? 5_000
        var failures: [String] = []
        for seed in base..<(base + count) {
            if let failure = Self.check(seed: seed) { failures.append(failure) }
            if failures.count == 5 { break }
        }
        for failure in failures {
            Issue.record(Comment(rawValue: failure + " (replay: LISTDIFF_SEED=<seed> LISTDIFF_CASES=1 swift test --filter RepeatedIDPropertyTests)"))
        }
    }
}
