/// Where a row of the state after a batch comes from.
public enum ReplayedRow: Hashable, Sendable {
    /// The cell at this old path, carried over (untouched or moved).
    case carried(RowPath)
    /// A new cell for the row reloaded at this old path.
    case reloaded(RowPath)
    /// A new cell for an inserted row.
    case inserted
}

/// Where a section of the state after a batch comes from.
public enum ReplayedSection: Hashable, Sendable {
    /// The old section at this index with its rows, carried over (untouched
    /// or moved), after the batch's row changes.
    case carried(Int, rows: [ReplayedRow])
    /// A new section (inserted, or reloaded from this old index): all its
    /// rows come from the data source.
    case fresh(reloadedFrom: Int?)
}

/// Replays one batch the way UIKit does (uikit-rules.md, "Reference replay"):
/// removals in the old space, placements in the new space, untouched sections
/// and rows filling the other slots in order. A reloaded section or row lands
/// where deletes and inserts alone put it (rule 19).
///
/// Assumes the batch is in bounds and free of conflicts (the `Validator`
/// checks that first).
///
/// - Returns: the sections after the batch, or nil when the counts do not
///   add up (rules 1 and 2).
/// - Complexity: O(S + n + k log k), S sections, n rows, k operations.
func replay(_ batch: Batch, before: [Int], after: [Int]) -> [ReplayedSection]? {
    guard let sections = replaySections(batch, before: before.count, after: after.count) else { return nil }
    var rowsRemoved: [Int: Set<Int>] = [:]
    for path in batch.rowDeletes { rowsRemoved[path.section, default: []].insert(path.row) }
    for path in batch.rowReloads { rowsRemoved[path.section, default: []].insert(path.row) }
    for move in batch.rowMoves { rowsRemoved[move.from.section, default: []].insert(move.from.row) }
    let deletes = batch.rowDeletes.sorted()
    let inserts = batch.rowInserts.sorted()
    var placed: [Int: [Int: ReplayedRow]] = [:]
    for path in batch.rowInserts { placed[path.section, default: [:]][path.row] = .inserted }
    for move in batch.rowMoves { placed[move.to.section, default: [:]][move.to.row] = .carried(move.from) }
    // A reloaded row's new cell goes to the section that section deletes and
    // inserts alone give: section moves are ignored (rule 19).
    var reloadsBySection: [Int: [RowPath]] = [:]
    if !batch.rowReloads.isEmpty {
        let sectionDeletes = batch.sectionDeletes.sorted(), sectionInserts = batch.sectionInserts.sorted()
        for path in batch.rowReloads {
            reloadsBySection[reloadTarget(path.section, deletes: sectionDeletes, inserts: sectionInserts), default: []].append(path)
        }
    }
    var result: [ReplayedSection] = []
    result.reserveCapacity(sections.count)
    for (index, section) in sections.enumerated() {
        guard case .carried(let old, _) = section else {
            result.append(section)
            continue
        }
        var here = placed[index] ?? [:]
        for path in reloadsBySection[index] ?? [] {
            let slot = reloadTarget(row: path.row, deletes: deletes, inSection: path.section, inserts: inserts, inTargetSection: index)
            here[slot] = .reloaded(path)
        }
        let removed = rowsRemoved[old] ?? []
        var untouched = (0..<before[old]).lazy.filter { !removed.contains($0) }.makeIterator()
        var rows: [ReplayedRow] = []
        rows.reserveCapacity(after[index])
        for slot in 0..<after[index] {
            if let source = here[slot] {
                rows.append(source)
            } else if let row = untouched.next() {
                rows.append(.carried(RowPath(section: old, row: row)))
            } else {
                return nil
            }
        }
        if untouched.next() != nil { return nil }
        result.append(.carried(old, rows: rows))
    }
    return result
}

/// The section half of `replay`: where each section after the batch comes
/// from, rows not yet filled in.
func replaySections(_ batch: Batch, before: Int, after: Int) -> [ReplayedSection]? {
    let removed = Set(batch.sectionDeletes).union(batch.sectionReloads).union(batch.sectionMoves.map(\.from))
    var placed: [Int: ReplayedSection] = [:]
    for index in batch.sectionInserts { placed[index] = .fresh(reloadedFrom: nil) }
    for move in batch.sectionMoves { placed[move.to] = .carried(move.from, rows: []) }
    let deletes = batch.sectionDeletes.sorted()
    let inserts = batch.sectionInserts.sorted()
    for index in batch.sectionReloads {
        placed[reloadTarget(index, deletes: deletes, inserts: inserts)] = .fresh(reloadedFrom: index)
    }
    var untouched = (0..<before).lazy.filter { !removed.contains($0) }.makeIterator()
    var result: [ReplayedSection] = []
    for slot in 0..<after {
        if let source = placed[slot] {
            result.append(source)
        } else if let old = untouched.next() {
            result.append(.carried(old, rows: []))
        } else {
            return nil
        }
    }
    return untouched.next() == nil ? result : nil
}

/// The new index UIKit gives a section reloaded at `index`, or the section
/// of a row reloaded in it: shifted by the deletes below it and the inserts
/// at or above its shifted slot; section moves are ignored (rule 19).
///
/// - Parameters:
///   - deletes: section deletes, sorted ascending, old space.
///   - inserts: section inserts, sorted ascending, new space.
/// - Complexity: O(log d + i) for d deletes and i inserts.
func reloadTarget(_ index: Int, deletes: [Int], inserts: [Int]) -> Int {
    var low = 0, high = deletes.count
    while low < high {
        let mid = (low + high) / 2
        if deletes[mid] < index { low = mid + 1 } else { high = mid }
    }
    var shifted = index - low
    for insert in inserts {
        guard insert <= shifted else { break }
        shifted += 1
    }
    return shifted
}

extension Changeset {
    /// Replays every batch on `old`, as UIKit would show it: carried cells
    /// keep the content they had, inserted and reloaded cells take the
    /// content of the stage's `after`.
    ///
    /// For a changeset computed from `old` to `new`, the result has `new`'s
    /// identities in `new`'s order, and no row has changes compared with its
    /// counterpart in `new`.
    ///
    /// - Throws: `ListDiffError.batchDoesNotFit` when a batch does not fit
    ///   the state it is applied to.
    public func apply(to old: Snapshot<SectionID, Row>) throws(ListDiffError) -> Snapshot<SectionID, Row> {
        var current = old
        for (index, stage) in stages.enumerated() {
            let before = current.sections.map(\.rows.count)
            let after = stage.after.sections.map(\.rows.count)
            let problems = Validator().validate(stage.batch, before: before, after: after).filter(\.isException)
            guard problems.isEmpty, let replayed = replay(stage.batch, before: before, after: after) else {
                throw .batchDoesNotFit(batch: index, reason: problems.first?.message ?? "counts do not add up")
            }
            var sections: [Section<SectionID, Row>] = []
            sections.reserveCapacity(replayed.count)
            for (position, source) in replayed.enumerated() {
                let target = stage.after.sections[position]
                guard case .carried(let from, let rows) = source else {
                    sections.append(target)
                    continue
                }
                var section = current.sections[from]
                section.rows = rows.enumerated().map { slot, row in
                    switch row {
                    case .carried(let path): return current.sections[path.section].rows[path.row]
                    case .reloaded, .inserted: return target.rows[slot]
                    }
                }
                sections.append(section)
            }
            current = Snapshot(sections: sections)
        }
        return current
    }
}

extension Batch {
    /// Where UIKit puts each reloaded section (in `sectionReloads` order):
    /// shifted by the section deletes and inserts alone.
    public var sectionReloadTargets: [Int] {
        let deletes = sectionDeletes.sorted(), inserts = sectionInserts.sorted()
        return sectionReloads.map { reloadTarget($0, deletes: deletes, inserts: inserts) }
    }
}
