/// Checks a batch against UIKit's batch-update rules, whether it came from
/// the engine or was written by hand.
public struct Validator: Sendable {
    /// Whose wording the messages use.
    public enum Flavor: String, Hashable, Sendable {
        case tableView
        case collectionView
    }

    /// A breach of the rules, with its message in the validator's flavor.
    public struct Violation: Hashable, Sendable {
        public var breach: UIKitRuleBreach
        public var message: String
        public var rule: Int { breach.rule }
        public var isException: Bool { breach.isException }
    }

    public var flavor: Flavor

    public init(flavor: Flavor = .tableView) {
        self.flavor = flavor
    }

    /// The rules `batch` breaks, given the row counts of each section before
    /// and after it: exceptions UIKit would raise (with its own text), and
    /// silent misbehaviours. Empty when UIKit takes and animates the batch
    /// correctly, as far as counts can tell.
    ///
    /// - Complexity: O(S + n + k log k): S sections, n rows, k operations.
    public func validate(_ batch: Batch, before: [Int], after: [Int]) -> [Violation] {
        var check = Check(batch: batch, before: before, after: after)
        check.run()
        return check.breaches.map { Violation(breach: $0, message: $0.message(for: flavor)) }
    }

    /// The rules `batch` breaks, given what the data source holds before and
    /// after it: everything the counts-only check finds, plus whether the
    /// replayed batch shows exactly the rows the data source holds (rule 22)
    /// and whether identities are unique (rule 23).
    public func validate<SectionID: Hashable, RowID: Hashable>(
        _ batch: Batch, before: [SectionLayout<SectionID, RowID>], after: [SectionLayout<SectionID, RowID>]
    ) -> [Violation] {
        // Closures, not key paths: in generic code a key path is made anew
        // on every call (a third of the validator's time on small batches).
        var check = Check(batch: batch, before: before.map { $0.rows.count }, after: after.map { $0.rows.count })
        check.run()
        check.checkDuplicates(after)
        if !check.breaches.contains(where: { $0.isException }) {
            check.checkIdentities(before: before, after: after)
        }
        return check.breaches.map { Violation(breach: $0, message: $0.message(for: flavor)) }
    }
}

// MARK: - UIKit's reading of a batch
//
// Everything below is the validator's own, written from uikit-rules.md and
// `private` to this file: the planner (Batching.swift), `apply`
// (Replay.swift) and the player (rowmotion.js) each place reloads with code
// of their own, so a mistake in one of them shows up as a disagreement here
// instead of being agreed with.

/// Where old indexes go when only deletes (old space) and inserts (new
/// space) are counted — moves are not, as UIKit does for the new half of a
/// reload (rule 19, both coordinates).
///
/// - Parameters:
///   - indexes: old indexes, sorted ascending.
///   - deletes: old indexes removed, sorted ascending, without repeats.
///   - inserts: new indexes added, sorted ascending, without repeats.
/// - Returns: the new index of each of `indexes`, in the same order.
/// - Complexity: O(x + d + i): one sweep, since the landing never goes back.
private func uikitLandings(_ indexes: [Int], deletes: [Int], inserts: [Int]) -> [Int] {
    var deletesBelow = 0, insertsAtOrAbove = 0
    return indexes.map { index in
        while deletesBelow < deletes.count && deletes[deletesBelow] < index { deletesBelow += 1 }
        // Each insert at or above the slot reached so far pushes it down one.
        while insertsAtOrAbove < inserts.count && inserts[insertsAtOrAbove] <= index - deletesBelow + insertsAtOrAbove {
            insertsAtOrAbove += 1
        }
        return index - deletesBelow + insertsAtOrAbove
    }
}

/// What UIKit makes of one batch before it checks counts: reloads split
/// into a delete at their old place and an insert at the place deletes and
/// inserts alone give, and which old section each new slot carries.
private struct UIKitReading {
    /// New index of each reloaded section's new half, by old index.
    let sectionReloadLanding: [Int: Int]
    /// New path of each reloaded row's new cell, by old path.
    let rowReloadLanding: [RowPath: RowPath]
    /// For each new section slot, the old section it carries (untouched or
    /// moved), or nil for a fresh one (inserted, or a reload's new half);
    /// nil as a whole when the slots cannot be filled (rule 1).
    let carried: [Int?]?
    /// The new index of each carried old section.
    let landing: [Int: Int]
    /// The batch's row operations by section: what arrives in each new
    /// section (inserts, move targets, reloads' new halves) and what leaves
    /// each old one (deletes, move origins, reloads' old halves).
    private var inserted: [Int: [Int]] = [:]
    private var movedIn: [Int: [(row: Int, from: RowPath)]] = [:]
    private var reloadedIn: [Int: [(row: Int, from: RowPath)]] = [:]
    private var leaving: [Int: Set<Int>] = [:]
    private var reloadLeaving: [Int: Set<Int>] = [:]

    init(batch: Batch, sectionsBefore: Int, sectionsAfter: Int) {
        let sectionDeletes = Array(Set(batch.sectionDeletes)).sorted()
        let sectionInserts = Array(Set(batch.sectionInserts)).sorted()
        let reloadedSections = Array(Set(batch.sectionReloads)).sorted()
        sectionReloadLanding = Dictionary(uniqueKeysWithValues: zip(reloadedSections,
            uikitLandings(reloadedSections, deletes: sectionDeletes, inserts: sectionInserts)))

        // Rows: the section ignores section moves, the row ignores row moves.
        let reloads = Array(Set(batch.rowReloads)).sorted()
        let reloadSections = uikitLandings(reloads.map(\.section), deletes: sectionDeletes, inserts: sectionInserts)
        var rowDeletes: [Int: [Int]] = [:], rowInserts: [Int: [Int]] = [:]
        for path in Set(batch.rowDeletes).sorted() { rowDeletes[path.section, default: []].append(path.row) }
        for path in Set(batch.rowInserts).sorted() { rowInserts[path.section, default: []].append(path.row) }
        var rowReloadLanding: [RowPath: RowPath] = [:]
        var first = 0
        while first < reloads.count {
            // Reloads of one old section land in one new section, in one sweep.
            var end = first
            while end < reloads.count && reloads[end].section == reloads[first].section { end += 1 }
            let section = reloadSections[first]
            let rows = uikitLandings(reloads[first..<end].map(\.row), deletes: rowDeletes[reloads[first].section] ?? [],
                                     inserts: rowInserts[section] ?? [])
            for (path, row) in zip(reloads[first..<end], rows) { rowReloadLanding[path] = RowPath(section: section, row: row) }
            first = end
        }
        self.rowReloadLanding = rowReloadLanding

        // Sections: the listed ones take their slots, untouched ones fill the rest in order.
        var leavingSections = Set(sectionDeletes).union(reloadedSections)
        var taken: [Int: Int?] = [:]
        for slot in sectionInserts { taken[slot] = .some(nil) }
        for slot in sectionReloadLanding.values { taken[slot] = .some(nil) }
        for move in batch.sectionMoves {
            leavingSections.insert(move.from)
            taken[move.to] = move.from
        }
        var staying = (0..<sectionsBefore).lazy.filter { !leavingSections.contains($0) }.makeIterator()
        var carried: [Int?] = []
        var landing: [Int: Int] = [:]
        var fits = true
        for slot in 0..<sectionsAfter {
            let source: Int?
            if let listed = taken[slot] {
                source = listed
            } else if let next = staying.next() {
                source = next
            } else {
                fits = false
                break
            }
            carried.append(source)
            if let source { landing[source] = slot }
        }
        if staying.next() != nil { fits = false }
        self.carried = fits ? carried : nil
        self.landing = landing

        for path in batch.rowInserts { inserted[path.section, default: []].append(path.row) }
        for path in batch.rowDeletes { leaving[path.section, default: []].insert(path.row) }
        for move in batch.rowMoves {
            movedIn[move.to.section, default: []].append((move.to.row, move.from))
            leaving[move.from.section, default: []].insert(move.from.row)
        }
        for (path, target) in rowReloadLanding {
            reloadedIn[target.section, default: []].append((target.row, path))
            reloadLeaving[path.section, default: []].insert(path.row)
        }
    }

    /// Whether a new slot holds a fresh section (inserted or reloaded).
    func isFresh(_ slot: Int) -> Bool {
        guard let carried, carried.indices.contains(slot) else { return false }
        return carried[slot] == nil
    }

    /// The rows a carried section shows after the batch, slot by slot: cells
    /// placed by inserts, moves and (if `withReloads`) reloads' new halves,
    /// the untouched rows of its old section filling the other slots in
    /// order. Nil when they do not fill exactly `count` slots.
    ///
    /// - Complexity: O(r + k) for the section's r rows and k operations.
    func rows(ofOld old: Int, at slot: Int, rowsBefore: Int, count: Int, withReloads: Bool) -> [Shown]? {
        var placed: [Int: Shown] = [:]
        for row in inserted[slot] ?? [] { placed[row] = .inserted }
        for move in movedIn[slot] ?? [] { placed[move.row] = .kept(move.from) }
        var gone = leaving[old] ?? []
        if withReloads {
            gone.formUnion(reloadLeaving[old] ?? [])
            for reload in reloadedIn[slot] ?? [] { placed[reload.row] = .reloaded(reload.from) }
        }
        var staying = (0..<rowsBefore).lazy.filter { !gone.contains($0) }.makeIterator()
        var shown: [Shown] = []
        shown.reserveCapacity(count)
        for row in 0..<count {
            if let cell = placed[row] {
                shown.append(cell)
            } else if let next = staying.next() {
                shown.append(.kept(RowPath(section: old, row: next)))
            } else {
                return nil
            }
        }
        return staying.next() == nil ? shown : nil
    }

    /// What one slot of a section shows after the batch.
    enum Shown: Equatable {
        /// The cell that was at this old path (untouched or moved).
        case kept(RowPath)
        /// The new cell of the row reloaded at this old path.
        case reloaded(RowPath)
        /// A new cell for an inserted row.
        case inserted
    }
}

/// The checks of one validation, in the order UIKit makes them: bounds and
/// conflicts, then counts, then what the animation would show.
private struct Check {
    let batch: Batch
    let before: [Int]
    let after: [Int]
    var breaches: [UIKitRuleBreach] = []
    private(set) var reading: UIKitReading?

    init(batch: Batch, before: [Int], after: [Int]) {
        self.batch = batch
        self.before = before
        self.after = after
    }

    mutating func run() {
        checkSectionBounds()
        checkRowBounds()
        guard breaches.isEmpty else { return }
        let reading = UIKitReading(batch: batch, sectionsBefore: before.count, sectionsAfter: after.count)
        self.reading = reading
        checkDuplicatesInLists()
        checkSectionConflicts(reading)
        checkRowConflicts(reading)
        guard !breaches.contains(where: \.isException) else { return }
        checkCounts(reading)
        guard !breaches.contains(where: \.isException) else { return }
        checkReloadSlots(reading)
    }

    // MARK: Bounds (rules 4–9)

    mutating func checkSectionBounds() {
        for section in batch.sectionDeletes + batch.sectionReloads where !(0..<before.count).contains(section) {
            breaches.append(.deleteSectionOutOfBounds(section: section, sections: before.count))
        }
        for section in batch.sectionInserts where !(0..<after.count).contains(section) {
            breaches.append(.insertSectionOutOfBounds(section: section, sections: after.count))
        }
        for move in batch.sectionMoves {
            if !(0..<before.count).contains(move.from) {
                breaches.append(.moveSectionFromOutOfBounds(section: move.from, sections: before.count))
            } else if !(0..<after.count).contains(move.to) {
                breaches.append(.moveSectionToOutOfBounds(from: move.from, to: move.to, sections: after.count))
            }
        }
    }

    mutating func checkRowBounds() {
        for path in batch.rowDeletes + batch.rowReloads {
            if !(0..<before.count).contains(path.section) {
                breaches.append(.deleteRowSectionOutOfBounds(path, sections: before.count))
            } else if !(0..<before[path.section]).contains(path.row) {
                breaches.append(.deleteRowOutOfBounds(path, rows: before[path.section]))
            }
        }
        for path in batch.rowInserts { checkInsertBounds(path) }
        for move in batch.rowMoves {
            if !(0..<before.count).contains(move.from.section) {
                breaches.append(.moveRowFromMissingSection(move.from, sections: before.count))
            } else if !(0..<before[move.from.section]).contains(move.from.row) {
                breaches.append(.moveRowFromMissingRow(move.from, rows: before[move.from.section]))
            } else if !(0..<after.count).contains(move.to.section) {
                breaches.append(.moveRowToMissingSection(from: move.from, to: move.to, sections: after.count))
            } else if !(0..<after[move.to.section]).contains(move.to.row) {
                breaches.append(.moveRowToMissingRow(from: move.from, to: move.to, rows: after[move.to.section]))
            }
        }
    }

    mutating func checkInsertBounds(_ path: RowPath) {
        if !(0..<after.count).contains(path.section) {
            breaches.append(.insertRowSectionOutOfBounds(path, sections: after.count))
        } else if !(0..<after[path.section]).contains(path.row) {
            breaches.append(.insertRowOutOfBounds(path, rows: after[path.section]))
        }
    }

    // MARK: Conflicts (rules 10–18, 20, 21)

    mutating func checkDuplicatesInLists() {
        func repeated<T: Hashable>(_ items: [T]) -> [T] {
            var seen = Set<T>(minimumCapacity: items.count), result: [T] = []
            for item in items where !seen.insert(item).inserted { result.append(item) }
            return result
        }
        for (name, list) in [("section deletes", batch.sectionDeletes), ("section inserts", batch.sectionInserts),
                             ("section reloads", batch.sectionReloads)] {
            for section in repeated(list) { breaches.append(.duplicateInList(operation: name, index: "section \(section)")) }
        }
        for (name, list) in [("row deletes", batch.rowDeletes), ("row inserts", batch.rowInserts),
                             ("row reloads", batch.rowReloads)] {
            for path in repeated(list) { breaches.append(.duplicateInList(operation: name, index: "index path \(path)")) }
        }
        for move in repeated(batch.rowMoves) {
            breaches.append(.duplicateInList(operation: "row moves", index: "the move \(move.from) to \(move.to)"))
        }
        for move in repeated(batch.sectionMoves) {
            breaches.append(.duplicateInList(operation: "section moves", index: "the move of section \(move.from) to \(move.to)"))
        }
    }

    /// Old space: delete ∪ reload ∪ move-from without repeats; new space:
    /// insert ∪ reload's new half ∪ move-to without repeats (IGListKit 690:
    /// a reload displaced onto a move's target).
    mutating func checkSectionConflicts(_ reading: UIKitReading) {
        let deleted = Set(batch.sectionDeletes)
        let reloaded = Set(batch.sectionReloads)
        for section in batch.sectionReloads.sorted() where deleted.contains(section) {
            breaches.append(.deleteAndReloadSection(section))
        }
        let inserted = Set(batch.sectionInserts).union(reading.sectionReloadLanding.values)
        var movedFrom: [Int: Int] = [:]
        var movedTo: [Int: Int] = [:]
        for move in Set(batch.sectionMoves).sorted(by: { ($0.from, $0.to) < ($1.from, $1.to) }) {
            if deleted.contains(move.from) || reloaded.contains(move.from) {
                breaches.append(.deleteAndMoveSection(move.from))
            }
            if inserted.contains(move.to) { breaches.append(.insertAndMoveSection(move.to)) }
            if let first = movedFrom.updateValue(move.to, forKey: move.from) {
                breaches.append(.sectionMovedTwice(move.from, to: first, and: move.to))
            }
            if let first = movedTo.updateValue(move.from, forKey: move.to) {
                breaches.append(.sectionsMovedToSameSlot(first, and: move.from, to: move.to))
            }
        }
    }

    mutating func checkRowConflicts(_ reading: UIKitReading) {
        let deletedSections = Set(batch.sectionDeletes)
        let goneSections = deletedSections.union(batch.sectionReloads)
        let insertedSections = Set(batch.sectionInserts)
        let deleted = Set(batch.rowDeletes)
        let reloaded = Set(batch.rowReloads)
        let reloadsNewHalves = Set(reading.rowReloadLanding.values)
        let arriving = Set(batch.rowInserts).union(reloadsNewHalves)

        for path in batch.rowReloads.sorted() where deleted.contains(path) {
            breaches.append(.deleteAndReloadRow(path))
        }
        var movedFrom: [RowPath: RowPath] = [:], movedTo: [RowPath: RowPath] = [:]
        movedFrom.reserveCapacity(batch.rowMoves.count)
        movedTo.reserveCapacity(batch.rowMoves.count)
        for move in Set(batch.rowMoves).sorted(by: { ($0.from, $0.to) < ($1.from, $1.to) }) {
            if deleted.contains(move.from) || reloaded.contains(move.from) { breaches.append(.deleteAndMoveRow(move.from)) }
            if arriving.contains(move.to) { breaches.append(.insertAndMoveRow(move.to)) }
            if goneSections.contains(move.from.section) { breaches.append(.moveFromDeletedSection(move.from.section)) }
            if reading.isFresh(move.to.section) { breaches.append(.moveIntoInsertedSection(move.to.section)) }
            if let first = movedFrom.updateValue(move.to, forKey: move.from) {
                breaches.append(.rowMovedTwice(move.from, to: first, and: move.to))
            }
            if let first = movedTo.updateValue(move.from, forKey: move.to) {
                breaches.append(.rowsMovedToSameSlot(first, and: move.from, to: move.to))
            }
        }

        // Silent ones: changes UIKit drops or mis-animates.
        for path in deleted.sorted() where deletedSections.contains(path.section) {
            breaches.append(.rowChangeInsideDeletedSection(path))
        }
        for path in Set(batch.rowInserts).sorted() where insertedSections.contains(path.section) {
            breaches.append(.rowInsertInsideInsertedSection(path))
        }
        for path in reloaded.sorted() where goneSections.contains(path.section) {
            breaches.append(.reloadInsideDeletedOrReloadedSection(path))
        }
        // Row changes in a section that moves (rule 20), named by old index.
        let movingFrom = Set(batch.sectionMoves.map(\.from))
        var oldOfMovedTo: [Int: Int] = [:]
        for move in batch.sectionMoves { oldOfMovedTo[move.to] = move.from }
        var affected = Set<Int>()
        for path in batch.rowDeletes + batch.rowReloads + batch.rowMoves.map(\.from) where movingFrom.contains(path.section) {
            affected.insert(path.section)
        }
        for path in batch.rowInserts + batch.rowMoves.map(\.to) {
            if let old = oldOfMovedTo[path.section] { affected.insert(old) }
        }
        for section in affected.sorted() { breaches.append(.rowChangeInsideMovedSection(section: section)) }
    }

    // MARK: Counts (rules 1–3)

    /// UIKit's arithmetic with every reload as a delete and an insert: a
    /// reload whose new half lands in another section than its old one
    /// unbalances both (radar 27041784: "(0 inserted, 1 deleted)").
    mutating func checkCounts(_ reading: UIKitReading) {
        let sectionsInserted = Set(batch.sectionInserts).count + Set(batch.sectionReloads).count
        let sectionsDeleted = Set(batch.sectionDeletes).count + Set(batch.sectionReloads).count
        guard before.count + sectionsInserted - sectionsDeleted == after.count, let carried = reading.carried else {
            breaches.append(.sectionCount(after: after.count, before: before.count,
                                          inserted: sectionsInserted, deleted: sectionsDeleted))
            return
        }
        var deleted = [Int: Int](), movedOut = [Int: Int](), movedIn = [Int: Int]()
        var arriving = [Int: Set<Int>]()
        for path in Set(batch.rowDeletes).union(batch.rowReloads) { deleted[path.section, default: 0] += 1 }
        for path in batch.rowInserts { arriving[path.section, default: []].insert(path.row) }
        // A reload's new cell counts where it lands, unless that section is
        // fresh (its rows come from the data source, rule 18).
        for target in reading.rowReloadLanding.values where !reading.isFresh(target.section) {
            arriving[target.section, default: []].insert(target.row)
        }
        // A move crosses sections when it does not land where its old
        // section goes (section moves count here, unlike for reloads).
        for move in Set(batch.rowMoves) where reading.landing[move.from.section] != move.to.section {
            movedOut[move.from.section, default: 0] += 1
            movedIn[move.to.section, default: 0] += 1
        }
        // UIKit counts its lists as given: repeated entries can remove more
        // rows than the section has (rule 3).
        var removedAsListed = [Int: Int]()
        for path in batch.rowDeletes { removedAsListed[path.section, default: 0] += 1 }
        for move in batch.rowMoves { removedAsListed[move.from.section, default: 0] += 1 }
        for (slot, source) in carried.enumerated() {
            guard let old = source else { continue }
            if removedAsListed[old, default: 0] > before[old] {
                breaches.append(.deletesExceedRows(section: old))
                continue
            }
            let inserted = arriving[slot]?.count ?? 0
            let expected = before[old] + inserted - deleted[old, default: 0] + movedIn[slot, default: 0] - movedOut[old, default: 0]
            if expected != after[slot] {
                // UIKit names the section by its index after the update (radar 27041784).
                breaches.append(.rowCount(section: slot, after: after[slot], before: before[old],
                                          inserted: inserted, deleted: deleted[old, default: 0],
                                          movedIn: movedIn[slot, default: 0], movedOut: movedOut[old, default: 0]))
            }
        }
    }

    // MARK: What the animation shows (rules 19, 22, 23)

    /// A reloaded row's new cell must land, by deletes and inserts alone,
    /// where the row would be had it simply stayed (rule 19).
    mutating func checkReloadSlots(_ reading: UIKitReading) {
        guard !batch.rowReloads.isEmpty, let carried = reading.carried else { return }
        var belongs: [RowPath: RowPath] = [:]
        for (slot, source) in carried.enumerated() {
            guard let old = source,
                  let rows = reading.rows(ofOld: old, at: slot, rowsBefore: before[old], count: after[slot], withReloads: false)
            else { continue }
            for (row, shown) in rows.enumerated() {
                if case .kept(let path) = shown { belongs[path] = RowPath(section: slot, row: row) }
            }
        }
        for path in Set(batch.rowReloads).sorted() {
            guard let target = belongs[path], let lands = reading.rowReloadLanding[path] else { continue }
            if lands != target { breaches.append(.reloadLandsElsewhere(path, lands: lands, belongs: target)) }
        }
    }

    mutating func checkDuplicates<SectionID: Hashable, RowID: Hashable>(_ sections: [SectionLayout<SectionID, RowID>]) {
        var seen = Set<RowID>(minimumCapacity: sections.reduce(0) { $0 + $1.rows.count }), repeated: [String] = []
        for section in sections {
            for id in section.rows where !seen.insert(id).inserted { repeated.append(String(describing: id)) }
        }
        if !repeated.isEmpty { breaches.append(.duplicateIdentifiers(repeated)) }
    }

    /// The batch, as UIKit reads it, must show exactly what the data source
    /// holds (rule 22): every carried section and cell at its slot, every
    /// reloaded row's new cell where that row is.
    mutating func checkIdentities<SectionID: Hashable, RowID: Hashable>(
        before: [SectionLayout<SectionID, RowID>], after: [SectionLayout<SectionID, RowID>]
    ) {
        guard let reading, let carried = reading.carried else { return }
        for (slot, source) in carried.enumerated() {
            guard let old = source else { continue }
            if before[old].id != after[slot].id {
                breaches.append(.sectionIdentityMismatch(section: slot, expected: String(describing: after[slot].id),
                                                         found: String(describing: before[old].id)))
                continue
            }
            guard let rows = reading.rows(ofOld: old, at: slot, rowsBefore: before[old].rows.count,
                                          count: after[slot].rows.count, withReloads: true) else { continue }
            for (row, shownCell) in rows.enumerated() {
                let shown: RowID
                switch shownCell {
                case .kept(let path), .reloaded(let path): shown = before[path.section].rows[path.row]
                case .inserted: continue
                }
                let held = after[slot].rows[row]
                if shown != held {
                    breaches.append(.identityMismatch(RowPath(section: slot, row: row), expected: String(describing: held),
                                                      found: String(describing: shown)))
                }
            }
        }
    }
}
