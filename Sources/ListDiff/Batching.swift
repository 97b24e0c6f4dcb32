/// What the data source holds at one point between batches, as keys: a
/// section key is an old section index, or `oldSectionCount + new index` for
/// a section the new snapshot inserts; a row key is an old flat row index for
/// a row that keeps its cell, or `oldRowCount + new flat index` for a row that
/// gets a new cell (inserted, or re-inserted because UIKit cannot move it).
@usableFromInline
struct Layout {
    @usableFromInline var sectionKeys: [Int]
    @usableFromInline var rowStarts: [Int]
    @usableFromInline var rowKeys: [Int32]

    var sectionCount: Int { sectionKeys.count }
}

/// One row of the classification, by flat indexes (-1 where absent).
@usableFromInline
struct PlannedRow {
    @usableFromInline var old: Int32
    @usableFromInline var new: Int32
    @usableFromInline var kind: RowChangeKind
}

/// The batches that take one snapshot to another, worked out on integers.
@usableFromInline
struct Plan {
    @usableFromInline
    struct Stage {
        @usableFromInline var batch: Batch
        /// What the data source holds after the batch; nil for the new snapshot.
        @usableFromInline var layout: Layout?
        @usableFromInline var role: BatchRole
    }

    @usableFromInline var stages: [Stage]
    @usableFromInline var rows: [PlannedRow]
    /// For each old flat row, whether it keeps its cell into the new snapshot.
    @usableFromInline var continues: [Bool]
}

/// Plans the batches for an identity map.
///
/// - Complexity: O((n + m) + b log b) where b is the number of blocks of
///   rows that keep their relative order (see `movers(ranks:tieWeight:)`);
///   O(n + m) when nothing is reordered.
@usableFromInline
func makePlan(_ map: IdentityMap, prefer: MoveDirection?, strategy: DiffStrategy = .minimalMoves) -> Plan {
    var planner = Planner(map: map, prefer: prefer, strategy: strategy)
    planner.classifySections()
    planner.classifyRows()
    return planner.makePlan()
}

struct Planner {
    let map: IdentityMap
    let prefer: MoveDirection?
    let strategy: DiffStrategy
    /// By old section: moved explicitly.
    var sectionMoved: [Bool]
    /// By old section (kept): some row is deleted from, inserted into or
    /// moved within, into or out of it.
    var sectionHasRowOps: [Bool]
    /// By old flat row: moved explicitly.
    var rowMoved: [Bool]
    /// By old flat row: kept by identity but deleted and inserted, because
    /// its old section is deleted or its new one inserted (rules 13, 14).
    var reinserted: [Bool]
    /// Whether any row moves or is re-inserted: when none does, a row's
    /// part in the batch is read off the identity map alone.
    var rowsOnlyInsertedOrDeleted = true

    init(map: IdentityMap, prefer: MoveDirection?, strategy: DiffStrategy = .minimalMoves) {
        self.map = map
        self.prefer = prefer
        self.strategy = strategy
        sectionMoved = [Bool](repeating: false, count: map.oldSectionCount)
        sectionHasRowOps = [Bool](repeating: false, count: map.oldSectionCount)
        rowMoved = [Bool](repeating: false, count: map.oldRowCount)
        reinserted = [Bool](repeating: false, count: map.oldRowCount)
    }

    // MARK: Classification

    /// Kept sections outside one longest increasing run of new indexes move.
    mutating func classifySections() {
        var newRank = [Int32](repeating: -1, count: map.newSectionCount)
        var rank: Int32 = 0
        for section in 0..<map.newSectionCount where map.newSectionToOld[section] >= 0 {
            newRank[section] = rank
            rank += 1
        }
        var ranks: [Int32] = []
        var kept: [Int] = []
        for section in 0..<map.oldSectionCount where map.oldSectionToNew[section] >= 0 {
            ranks.append(newRank[map.oldSectionToNew[section]])
            kept.append(section)
        }
        let moving = movers(ranks: ranks, tieWeight: tieWeights(ranks: ranks, hintChanged: [], prefer: prefer))
        for t in kept.indices where moving[t] { sectionMoved[kept[t]] = true }
    }

    /// Within each kept section, rows outside one longest increasing run
    /// move; rows that change between surviving sections move; rows that
    /// leave a deleted section or enter an inserted one are re-inserted.
    mutating func classifyRows() {
        var hintChanged: [Bool] = []
        if !map.hintChangedRows.isEmpty {
            hintChanged = [Bool](repeating: false, count: map.oldRowCount)
            for flat in map.hintChangedRows { hintChanged[Int(flat)] = true }
        }
        // New sections whose inserted rows the walk below need not look for.
        var insertsCounted = [Bool](repeating: false, count: map.newSectionCount)
        for section in 0..<map.oldSectionCount {
            let target = map.oldSectionToNew[section]
            if target >= 0, let inOrder = keptInPlace(section: section, target: target) {
                // Only inserts and deletes, or a reorder within the section.
                if !inOrder.rowsStay { sectionHasRowOps[section] = true }
                insertsCounted[target] = true
                if !inOrder.ordered { moveMinimally(inSection: section, hintChanged: hintChanged) }
                continue
            }
            var previous = -1
            var inOrder = true
            for old in map.oldSectionStarts[section]..<map.oldSectionStarts[section + 1] {
                let new = Int(map.oldToNew[old])
                guard new >= 0 else {
                    if target >= 0 { sectionHasRowOps[section] = true }
                    continue
                }
                let newSection = Int(map.newSectionOf[new])
                let newSectionsOld = map.newSectionToOld[newSection]
                if target < 0 || newSectionsOld < 0 {
                    // UIKit cannot move a row out of a deleted section or into
                    // an inserted one (rules 13, 14): delete and insert it.
                    reinserted[old] = true
                    rowsOnlyInsertedOrDeleted = false
                    if target >= 0 { sectionHasRowOps[section] = true }
                    if newSectionsOld >= 0 { sectionHasRowOps[newSectionsOld] = true }
                } else if newSection != target {
                    if strategy == .deletesAndInserts { reinserted[old] = true } else { rowMoved[old] = true }
                    rowsOnlyInsertedOrDeleted = false
                    sectionHasRowOps[section] = true
                    sectionHasRowOps[newSectionsOld] = true
                } else {
                    if new < previous { inOrder = false }
                    previous = new
                }
            }
            // Rows that stayed in order need no subsequence at all.
            if !inOrder { moveMinimally(inSection: section, hintChanged: hintChanged) }
        }
        for section in 0..<map.newSectionCount where !insertsCounted[section] {
            let oldSection = map.newSectionToOld[section]
            guard oldSection >= 0 else { continue }
            for new in map.newSectionStarts[section]..<map.newSectionStarts[section + 1] where map.newToOld[new] < 0 {
                sectionHasRowOps[oldSection] = true
                break
            }
        }
    }

    /// For a kept section whose rows all stay in it or are deleted, and
    /// whose new section takes rows from no other (the usual case, one
    /// section or sections that keep their rows): whether its kept rows
    /// keep their order, and whether every row stays (nothing deleted or
    /// inserted). Nil when a row comes or goes elsewhere; read off the
    /// map's two arrays without the section lookups of the general walk.
    func keptInPlace(section: Int, target: Int) -> (ordered: Bool, rowsStay: Bool)? {
        let newStart = map.newSectionStarts[target], newEnd = map.newSectionStarts[target + 1]
        let oldStart = map.oldSectionStarts[section], oldEnd = map.oldSectionStarts[section + 1]
        return map.oldToNew.withUnsafeBufferPointer { oldToNew in
            map.newToOld.withUnsafeBufferPointer { newToOld in
                var previous = -1, kept = 0
                var ordered = true
                for old in oldStart..<oldEnd {
                    let new = Int(oldToNew[old])
                    guard new >= 0 else { continue }
                    if new < newStart || new >= newEnd { return nil }
                    if new < previous { ordered = false }
                    previous = new
                    kept += 1
                }
                // Every kept row of the new section must come from this one.
                var arriving = 0
                for new in newStart..<newEnd where newToOld[new] >= 0 { arriving += 1 }
                guard arriving == kept else { return nil }
                return (ordered, kept == oldEnd - oldStart && kept == newEnd - newStart && ordered)
            }
        }
    }

    /// Marks as moved the rows of an old section that stay in the same
    /// section but outside one longest increasing subsequence of new ranks.
    mutating func moveMinimally(inSection section: Int, hintChanged: [Bool]) {
        let target = map.oldSectionToNew[section]
        let start = map.newSectionStarts[target]
        // The rank of each new row among the rows that stay in this section.
        var rankOfNew = [Int32](repeating: -1, count: map.newSectionStarts[target + 1] - start)
        var rank: Int32 = 0
        for new in start..<map.newSectionStarts[target + 1] {
            let old = Int(map.newToOld[new])
            if old >= 0 && Int(map.oldSectionOf[old]) == section {
                rankOfNew[new - start] = rank
                rank += 1
            }
        }
        var ranks: [Int32] = []
        var members: [Int] = []
        var memberHints: [Bool] = []
        ranks.reserveCapacity(Int(rank))
        members.reserveCapacity(Int(rank))
        for old in map.oldSectionStarts[section]..<map.oldSectionStarts[section + 1] {
            let new = Int(map.oldToNew[old])
            guard new >= 0 && !reinserted[old] && !rowMoved[old] else { continue }
            ranks.append(rankOfNew[new - start])
            members.append(old)
            if !hintChanged.isEmpty { memberHints.append(hintChanged[old]) }
        }
        let moving: [Bool]
        if strategy == .offsets {
            // Old rank against new rank: every row a move passes over moves too.
            moving = ranks.indices.map { ranks[$0] != Int32($0) }
        } else {
            moving = movers(ranks: ranks, tieWeight: tieWeights(ranks: ranks, hintChanged: memberHints, prefer: prefer))
        }
        for t in members.indices where moving[t] {
            if strategy == .deletesAndInserts { reinserted[members[t]] = true } else { rowMoved[members[t]] = true }
            rowsOnlyInsertedOrDeleted = false
            sectionHasRowOps[section] = true
        }
    }

    // MARK: Layouts

    func oldLayout() -> Layout {
        Layout(sectionKeys: Array(0..<map.oldSectionCount), rowStarts: map.oldSectionStarts,
               rowKeys: (0..<Int32(map.oldRowCount)).map { $0 })
    }

    func newLayout() -> Layout {
        let sectionKeys = (0..<map.newSectionCount).map { section in
            map.newSectionToOld[section] >= 0 ? map.newSectionToOld[section] : map.oldSectionCount + section
        }
        var rowKeys = [Int32](repeating: 0, count: map.newRowCount)
        let oldRowCount = Int32(map.oldRowCount)
        for new in 0..<map.newRowCount {
            let old = map.newToOld[new]
            rowKeys[new] = old >= 0 && !reinserted[Int(old)] ? old : oldRowCount + Int32(new)
        }
        return Layout(sectionKeys: sectionKeys, rowStarts: map.newSectionStarts, rowKeys: rowKeys)
    }

    /// After the section batch of a staged step: the new sections in new
    /// order; kept sections still hold their old rows in old order; inserted
    /// sections hold only the rows that do not come from a surviving section.
    func sectionsOnlyLayout() -> Layout {
        var sectionKeys: [Int] = []
        var rowStarts: [Int] = [0]
        var rowKeys: [Int32] = []
        for section in 0..<map.newSectionCount {
            let oldSection = map.newSectionToOld[section]
            if oldSection >= 0 {
                sectionKeys.append(oldSection)
                for old in map.oldSectionStarts[oldSection]..<map.oldSectionStarts[oldSection + 1] {
                    rowKeys.append(Int32(old))
                }
            } else {
                sectionKeys.append(map.oldSectionCount + section)
                for new in map.newSectionStarts[section]..<map.newSectionStarts[section + 1] {
                    let old = Int(map.newToOld[new])
                    if old < 0 || map.oldSectionToNew[Int(map.oldSectionOf[old])] < 0 {
                        rowKeys.append(Int32(map.oldRowCount + new))
                    }
                }
            }
            rowStarts.append(rowKeys.count)
        }
        return Layout(sectionKeys: sectionKeys, rowStarts: rowStarts, rowKeys: rowKeys)
    }

    // MARK: Stages

    func makePlan() -> Plan {
        let staged = (0..<map.oldSectionCount).contains { sectionMoved[$0] && sectionHasRowOps[$0] }
        var stages: [Plan.Stage] = []
        var structural: any StructuralBatch
        var continues: [Bool] = []
        if staged {
            continues = (0..<map.oldRowCount).map { map.oldToNew[$0] >= 0 && !reinserted[$0] }
            let middle = sectionsOnlyLayout()
            let newLayout = newLayout()
            let sections = BatchBuilder(planner: self, before: oldLayout(), after: middle,
                                        movesSections: true, movesRows: false)
            stages.append(Plan.Stage(batch: sections.batch, layout: middle, role: .sections))
            structural = BatchBuilder(planner: self, before: middle, after: newLayout,
                                      movesSections: false, movesRows: true)
        } else {
            structural = DirectBatch(planner: self)
        }

        // Content changes: a reload shares the structural batch when UIKit
        // would put the new cell where the row really goes; otherwise it waits.
        var changedSection = [Bool](repeating: false, count: map.oldSectionCount)
        for section in map.changedSections { changedSection[section] = true }
        var deferred: [RowPath] = []
        for changed in map.changedRows {
            let old = Int(changed)
            // A re-inserted row gets a new cell anyway; a reloaded section
            // brings the new content of every row it ends up holding.
            if reinserted[old] { continue }
            let new = Int(map.oldToNew[old])
            if changedSection[map.newSectionToOld[Int(map.newSectionOf[new])]] { continue }
            if rowMoved[old] || !structural.reloadInPlaceIfSafe(old: old) {
                deferred.append(map.newPath(ofFlat: new))
            }
        }
        let sectionReloads = map.changedSections.map { map.oldSectionToNew[$0] }.sorted()
        var batch = structural.batch
        batch.rowReloads.sort()

        let reloadOnly = !staged && batch.rowReloads.count == batch.operationCount
        if reloadOnly {
            // Nothing moves, so nothing can collide: one batch does it all.
            precondition(deferred.isEmpty, "a reload was deferred in a step without moves")
            batch.sectionReloads = sectionReloads
        }
        if !batch.isEmpty {
            stages.append(Plan.Stage(batch: batch, layout: nil, role: staged ? .rows : .structure))
        }
        if !reloadOnly && !(deferred.isEmpty && sectionReloads.isEmpty) {
            stages.append(Plan.Stage(batch: Batch(sectionReloads: sectionReloads, rowReloads: deferred.sorted()),
                                     layout: nil, role: .reloads))
        }
        return Plan(stages: stages, rows: classification(changedSection: changedSection), continues: continues)
    }

    /// Every row that does not simply stay: new rows in new order, then
    /// deleted rows in old order.
    func classification(changedSection: [Bool]) -> [PlannedRow] {
        if rowsOnlyInsertedOrDeleted { return insertsDeletesAndReloads() }
        var rows: [PlannedRow] = []
        // Kept rows come in new order, so changes are looked up by old index.
        let isChanged = Set(map.changedRows)
        for new in 0..<map.newRowCount {
            let old = Int(map.newToOld[new])
            var kind: RowChangeKind = []
            if old < 0 {
                kind = .inserted
            } else {
                if reinserted[old] {
                    kind = [.deleted, .inserted]
                } else if !isChanged.isEmpty && isChanged.contains(Int32(old)) {
                    kind = .reloaded
                }
                if rowMoved[old] { kind.insert(.moved) }
            }
            if !kind.isEmpty { rows.append(PlannedRow(old: Int32(old), new: Int32(new), kind: kind)) }
        }
        for old in 0..<map.oldRowCount where map.oldToNew[old] < 0 {
            rows.append(PlannedRow(old: Int32(old), new: -1, kind: .deleted))
        }
        return rows
    }
}

extension Planner {
    /// `classification` when no row moves or is re-inserted: inserted rows
    /// and reloaded ones in new order, then deleted rows in old order, read
    /// off the identity map's arrays.
    func insertsDeletesAndReloads() -> [PlannedRow] {
        var rows: [PlannedRow] = []
        // Changed rows come in old order; kept rows keep their order within
        // a section, but sections may move: sorted by new index.
        var reloads = map.changedRows.map { PlannedRow(old: $0, new: map.oldToNew[Int($0)], kind: .reloaded) }
        if map.oldSectionToNew.indices.contains(where: { sectionMoved[$0] }) { reloads.sort { $0.new < $1.new } }
        var nextReload = 0
        map.newToOld.withUnsafeBufferPointer { newToOld in
            for new in 0..<newToOld.count where newToOld[new] < 0 {
                while nextReload < reloads.count && Int(reloads[nextReload].new) < new {
                    rows.append(reloads[nextReload])
                    nextReload += 1
                }
                rows.append(PlannedRow(old: -1, new: Int32(new), kind: .inserted))
            }
        }
        rows += reloads[nextReload...]
        map.oldToNew.withUnsafeBufferPointer { oldToNew in
            for old in 0..<oldToNew.count where oldToNew[old] < 0 {
                rows.append(PlannedRow(old: Int32(old), new: -1, kind: .deleted))
            }
        }
        return rows
    }
}

/// The batch that carries a step's structural changes, which can also take
/// the reloads UIKit would place correctly.
protocol StructuralBatch {
    var batch: Batch { get }
    /// Adds a reload of the kept row with old flat index `old` to the batch
    /// if UIKit would put the new cell where the row really goes: its slot
    /// computed from the batch's deletes and inserts alone (UIKit ignores
    /// moves, rule 19) must be its true slot, and its section must not move
    /// in the batch (rule 20), nor be displaced by the batch's section moves
    /// (rule 19 for the section index).
    mutating func reloadInPlaceIfSafe(old: Int) -> Bool
}

extension StructuralBatch {
    /// The reload test, given the row's place before and after the batch:
    /// UIKit puts the new cell in the section that section deletes and
    /// inserts alone give (section moves ignored: radar 27041784), at the
    /// row that row deletes and inserts alone give (row moves ignored).
    func reloadFits(from: RowPath, to: RowPath) -> Bool {
        if !batch.sectionMoves.isEmpty
            && reloadTarget(from.section, deletes: batch.sectionDeletes, inserts: batch.sectionInserts) != to.section {
            // Another section's move displaces this one: the new cell would
            // land in a different section, and UIKit raises rule 2.
            return false
        }
        return reloadTarget(row: from.row, deletes: batch.rowDeletes, inSection: from.section,
                            inserts: batch.rowInserts, inTargetSection: to.section) == to.row
    }
}

/// The one structural batch of an unstaged step, read straight off the
/// identity map: before it is the old snapshot, after it the new one.
struct DirectBatch: StructuralBatch {
    var batch = Batch()
    let planner: Planner

    init(planner: Planner) {
        self.planner = planner
        let map = planner.map
        for section in 0..<map.oldSectionCount {
            let target = map.oldSectionToNew[section]
            if target < 0 {
                batch.sectionDeletes.append(section)
            } else if planner.sectionMoved[section] {
                batch.sectionMoves.append(SectionMove(from: section, to: target))
            }
        }
        for section in 0..<map.newSectionCount where map.newSectionToOld[section] < 0 {
            batch.sectionInserts.append(section)
        }
        // Rows of a deleted section go with it, rows of an inserted section
        // come with it (listing them would break rule 18).
        for section in 0..<map.oldSectionCount where planner.sectionHasRowOps[section] {
            let start = map.oldSectionStarts[section]
            if planner.rowsOnlyInsertedOrDeleted {
                // Nothing moves: the deleted rows are the ones with no new row.
                map.oldToNew.withUnsafeBufferPointer { oldToNew in
                    for old in start..<map.oldSectionStarts[section + 1] where oldToNew[old] < 0 {
                        batch.rowDeletes.append(RowPath(section: section, row: old - start))
                    }
                }
                continue
            }
            for old in start..<map.oldSectionStarts[section + 1] {
                let new = Int(map.oldToNew[old])
                if new < 0 || planner.reinserted[old] {
                    batch.rowDeletes.append(RowPath(section: section, row: old - start))
                } else if planner.rowMoved[old] {
                    batch.rowMoves.append(RowMove(from: RowPath(section: section, row: old - start), to: map.newPath(ofFlat: new)))
                }
            }
        }
        for section in 0..<map.newSectionCount {
            let oldSection = map.newSectionToOld[section]
            guard oldSection >= 0 && planner.sectionHasRowOps[oldSection] else { continue }
            let start = map.newSectionStarts[section]
            if planner.rowsOnlyInsertedOrDeleted {
                map.newToOld.withUnsafeBufferPointer { newToOld in
                    for new in start..<map.newSectionStarts[section + 1] where newToOld[new] < 0 {
                        batch.rowInserts.append(RowPath(section: section, row: new - start))
                    }
                }
                continue
            }
            for new in start..<map.newSectionStarts[section + 1] {
                let old = Int(map.newToOld[new])
                if old < 0 || planner.reinserted[old] {
                    batch.rowInserts.append(RowPath(section: section, row: new - start))
                }
            }
        }
    }

    mutating func reloadInPlaceIfSafe(old: Int) -> Bool {
        let map = planner.map
        if planner.sectionMoved[Int(map.oldSectionOf[old])] { return false }
        let from = map.oldPath(ofFlat: old)
        guard reloadFits(from: from, to: map.newPath(ofFlat: Int(map.oldToNew[old]))) else { return false }
        batch.rowReloads.append(from)
        return true
    }
}

/// Turns two layouts into the batch between them, in UIKit coordinates.
struct BatchBuilder: StructuralBatch {
    var batch = Batch()
    let planner: Planner
    let movesSections: Bool
    /// Where each row key sits before and after the batch (-1: absent).
    var beforeSection: [Int32]
    var beforeRow: [Int32]
    var afterSection: [Int32]
    var afterRow: [Int32]

    init(planner: Planner, before: Layout, after: Layout, movesSections: Bool, movesRows: Bool) {
        self.planner = planner
        self.movesSections = movesSections
        let map = planner.map
        let sectionKeySpace = map.oldSectionCount + map.newSectionCount
        let rowKeySpace = map.oldRowCount + map.newRowCount

        var beforeIndex = [Int](repeating: -1, count: sectionKeySpace)
        for (index, key) in before.sectionKeys.enumerated() { beforeIndex[key] = index }
        var afterIndex = [Int](repeating: -1, count: sectionKeySpace)
        for (index, key) in after.sectionKeys.enumerated() { afterIndex[key] = index }
        (beforeSection, beforeRow) = BatchBuilder.positions(of: before, keySpace: rowKeySpace)
        (afterSection, afterRow) = BatchBuilder.positions(of: after, keySpace: rowKeySpace)

        for (index, key) in before.sectionKeys.enumerated() {
            let target = afterIndex[key]
            if target < 0 {
                batch.sectionDeletes.append(index)
            } else if movesSections && key < map.oldSectionCount && planner.sectionMoved[key] {
                batch.sectionMoves.append(SectionMove(from: index, to: target))
            }
        }
        for (index, key) in after.sectionKeys.enumerated() where beforeIndex[key] < 0 {
            batch.sectionInserts.append(index)
        }

        // Rows leaving: deleted, or moved explicitly. Rows of a deleted
        // section go with it (listing them would break rule 18).
        for section in 0..<before.sectionCount where afterIndex[before.sectionKeys[section]] >= 0 {
            for index in before.rowStarts[section]..<before.rowStarts[section + 1] {
                let key = Int(before.rowKeys[index])
                let from = RowPath(section: section, row: index - before.rowStarts[section])
                let targetSection = Int(afterSection[key])
                if targetSection < 0 || beforeIndex[after.sectionKeys[targetSection]] < 0 {
                    batch.rowDeletes.append(from)
                } else if movesRows && key < map.oldRowCount && planner.rowMoved[key] {
                    batch.rowMoves.append(RowMove(from: from, to: RowPath(section: targetSection, row: Int(afterRow[key]))))
                }
            }
        }
        // Rows arriving in a section that already existed; an inserted
        // section brings its rows along.
        for section in 0..<after.sectionCount where beforeIndex[after.sectionKeys[section]] >= 0 {
            for index in after.rowStarts[section]..<after.rowStarts[section + 1] {
                let key = Int(after.rowKeys[index])
                let origin = Int(beforeSection[key])
                if origin < 0 || afterIndex[before.sectionKeys[origin]] < 0 {
                    batch.rowInserts.append(RowPath(section: section, row: index - after.rowStarts[section]))
                }
            }
        }
    }

    static func positions(of layout: Layout, keySpace: Int) -> (section: [Int32], row: [Int32]) {
        var sections = [Int32](repeating: -1, count: keySpace)
        var rows = [Int32](repeating: -1, count: keySpace)
        for section in 0..<layout.sectionCount {
            let start = layout.rowStarts[section]
            for index in start..<layout.rowStarts[section + 1] {
                let key = Int(layout.rowKeys[index])
                sections[key] = Int32(section)
                rows[key] = Int32(index - start)
            }
        }
        return (sections, rows)
    }

    mutating func reloadInPlaceIfSafe(old: Int) -> Bool {
        if movesSections && planner.sectionMoved[Int(planner.map.oldSectionOf[old])] { return false }
        let from = RowPath(section: Int(beforeSection[old]), row: Int(beforeRow[old]))
        guard reloadFits(from: from, to: RowPath(section: Int(afterSection[old]), row: Int(afterRow[old]))) else {
            return false
        }
        batch.rowReloads.append(from)
        return true
    }
}

/// Where UIKit puts the new cell of a row reloaded at `row` of `section`:
/// the row's index once `deletes` below it are gone and `inserts` are made
/// in `targetSection`; moves are not taken into account (rule 19).
///
/// - Parameters:
///   - deletes: row deletes of the batch, sorted ascending, old space.
///   - inserts: row inserts of the batch, sorted ascending, new space.
/// - Complexity: O(log d + log i) for sorted inputs of d deletes and i inserts.
func reloadTarget(row: Int, deletes: [RowPath], inSection section: Int,
                  inserts: [RowPath], inTargetSection targetSection: Int) -> Int {
    let below = lowerBound(deletes, RowPath(section: section, row: row))
        - lowerBound(deletes, RowPath(section: section, row: 0))
    let shifted = row - below
    // Inserts in the target section at x_0 < x_1 < ... push the row down by
    // the number p of them with x_p - p <= shifted (x_p - p never decreases).
    let first = lowerBound(inserts, RowPath(section: targetSection, row: 0))
    let end = lowerBound(inserts, RowPath(section: targetSection + 1, row: 0))
    var low = first, high = end
    while low < high {
        let mid = (low + high) / 2
        if inserts[mid].row - (mid - first) <= shifted { low = mid + 1 } else { high = mid }
    }
    return shifted + (low - first)
}

/// The index of the first element not less than `value` in sorted `array`.
func lowerBound(_ array: [RowPath], _ value: RowPath) -> Int {
    var low = 0, high = array.count
    while low < high {
        let mid = (low + high) / 2
        if array[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
}
