/// One way a batch breaks UIKit's batch-update rules (uikit-rules.md),
/// with the numbers UIKit would print.
public enum UIKitRuleBreach: Hashable, Sendable {
    // Counts.
    case sectionCount(after: Int, before: Int, inserted: Int, deleted: Int)
    case rowCount(section: Int, after: Int, before: Int, inserted: Int, deleted: Int, movedIn: Int, movedOut: Int)
    case deletesExceedRows(section: Int)
    // Bounds.
    case deleteSectionOutOfBounds(section: Int, sections: Int)
    case insertSectionOutOfBounds(section: Int, sections: Int)
    case moveSectionFromOutOfBounds(section: Int, sections: Int)
    case moveSectionToOutOfBounds(from: Int, to: Int, sections: Int)
    case deleteRowSectionOutOfBounds(RowPath, sections: Int)
    case deleteRowOutOfBounds(RowPath, rows: Int)
    case insertRowSectionOutOfBounds(RowPath, sections: Int)
    case insertRowOutOfBounds(RowPath, rows: Int)
    case moveRowFromMissingSection(RowPath, sections: Int)
    case moveRowFromMissingRow(RowPath, rows: Int)
    case moveRowToMissingSection(from: RowPath, to: RowPath, sections: Int)
    case moveRowToMissingRow(from: RowPath, to: RowPath, rows: Int)
    // Conflicts.
    case deleteAndReloadRow(RowPath)
    case deleteAndReloadSection(Int)
    case deleteAndMoveRow(RowPath)
    case deleteAndMoveSection(Int)
    case insertAndMoveRow(RowPath)
    case insertAndMoveSection(Int)
    case moveFromDeletedSection(Int)
    case moveIntoInsertedSection(Int)
    case rowMovedTwice(RowPath, to: RowPath, and: RowPath)
    case sectionMovedTwice(Int, to: Int, and: Int)
    case rowsMovedToSameSlot(RowPath, and: RowPath, to: RowPath)
    case sectionsMovedToSameSlot(Int, and: Int, to: Int)
    // Silent misbehaviour.
    case duplicateInList(operation: String, index: String)
    case rowChangeInsideDeletedSection(RowPath)
    case rowInsertInsideInsertedSection(RowPath)
    case reloadLandsElsewhere(RowPath, lands: RowPath, belongs: RowPath)
    case rowChangeInsideMovedSection(section: Int)
    case reloadInsideDeletedOrReloadedSection(RowPath)
    case identityMismatch(RowPath, expected: String, found: String)
    case sectionIdentityMismatch(section: Int, expected: String, found: String)
    case duplicateIdentifiers([String])

    /// The rule's number in uikit-rules.md.
    public var rule: Int {
        switch self {
        case .sectionCount: return 1
        case .rowCount: return 2
        case .deletesExceedRows: return 3
        case .deleteSectionOutOfBounds: return 4
        case .insertSectionOutOfBounds: return 5
        case .moveSectionFromOutOfBounds, .moveSectionToOutOfBounds: return 6
        case .deleteRowSectionOutOfBounds, .deleteRowOutOfBounds: return 7
        case .insertRowSectionOutOfBounds, .insertRowOutOfBounds: return 8
        case .moveRowFromMissingSection, .moveRowFromMissingRow, .moveRowToMissingSection, .moveRowToMissingRow: return 9
        case .deleteAndReloadRow, .deleteAndReloadSection: return 10
        case .deleteAndMoveRow, .deleteAndMoveSection: return 11
        case .insertAndMoveRow, .insertAndMoveSection: return 12
        case .moveFromDeletedSection: return 13
        case .moveIntoInsertedSection: return 14
        case .rowMovedTwice, .sectionMovedTwice: return 15
        case .rowsMovedToSameSlot, .sectionsMovedToSameSlot: return 16
        case .duplicateInList: return 17
        case .rowChangeInsideDeletedSection, .rowInsertInsideInsertedSection: return 18
        case .reloadLandsElsewhere: return 19
        case .rowChangeInsideMovedSection: return 20
        case .reloadInsideDeletedOrReloadedSection: return 21
        case .identityMismatch, .sectionIdentityMismatch: return 22
        case .duplicateIdentifiers: return 23
        }
    }

    /// Whether UIKit raises NSInternalInconsistencyException (or traps), as
    /// opposed to animating the wrong thing without a word.
    public var isException: Bool {
        switch rule {
        case 17...22: return false
        default: return true
        }
    }

    /// The message UIKit prints, in the wording of `flavor`. Silent
    /// misbehaviours, which UIKit does not report, get a description of what
    /// goes wrong.
    public func message(for flavor: Validator.Flavor = .tableView) -> String {
        let row = flavor == .tableView ? "row" : "item"
        let rows = flavor == .tableView ? "rows" : "items"
        let view = flavor == .tableView ? "table view" : "collection view"
        switch self {
        case let .sectionCount(after, before, inserted, deleted):
            return "Invalid update: invalid number of sections.  The number of sections contained in the \(view) after the update (\(after)) must be equal to the number of sections contained in the \(view) before the update (\(before)), plus or minus the number of sections inserted or deleted (\(inserted) inserted, \(deleted) deleted)."
        case let .rowCount(section, after, before, inserted, deleted, movedIn, movedOut):
            return "Invalid update: invalid number of \(rows) in section \(section).  The number of \(rows) contained in an existing section after the update (\(after)) must be equal to the number of \(rows) contained in that section before the update (\(before)), plus or minus the number of \(rows) inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of \(rows) moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out)."
        case let .deletesExceedRows(section):
            return "Invalid update: invalid number of \(rows) in section \(section).  Attempt to delete more \(rows) than exist in section."
        case let .deleteSectionOutOfBounds(section, sections):
            return "attempt to delete section \(section), but there are only \(sections) sections before the update"
        case let .insertSectionOutOfBounds(section, sections):
            return "attempt to insert section \(section) but there are only \(sections) sections after the update"
        case let .moveSectionFromOutOfBounds(section, sections):
            return "attempt to move section \(section), but there are only \(sections) sections before the update"
        case let .moveSectionToOutOfBounds(from, to, sections):
            return "attempt to to move section \(from) to section \(to), but there are only \(sections) sections after the update"
        case let .deleteRowSectionOutOfBounds(path, sections):
            return "attempt to delete \(row) \(path.row) from section \(path.section), but there are only \(sections) sections before the update"
        case let .deleteRowOutOfBounds(path, count):
            return "attempt to delete \(row) \(path.row) from section \(path.section) which only contains \(count) \(rows) before the update"
        case let .insertRowSectionOutOfBounds(path, sections):
            return "attempt to insert \(row) \(path.row) into section \(path.section), but there are only \(sections) sections after the update"
        case let .insertRowOutOfBounds(path, count):
            return "attempt to insert \(row) \(path.row) into section \(path.section), but there are only \(count) \(rows) in section \(path.section) after the update"
        case let .moveRowFromMissingSection(path, sections):
            return "attempt to move index path (\(path)) from a section that does not exist - there are only \(sections) sections before the update"
        case let .moveRowFromMissingRow(path, count):
            return "attempt to move index path (\(path)) that does not exist - there are only \(count) \(rows) in section \(path.section) before the update"
        case let .moveRowToMissingSection(from, to, sections):
            return "attempt to move index path (\(from)) to index path (\(to)) in section that does not exist - there are only \(sections) sections after the update"
        case let .moveRowToMissingRow(from, to, count):
            return "attempt to move index path (\(from)) to index path (\(to)) that does not exist - there are only \(count) \(rows) in section \(to.section) after the update"
        case let .deleteAndReloadRow(path):
            return "attempt to delete and reload the same index path (\(path))"
        case let .deleteAndReloadSection(section):
            return "attempt to delete and reload the same section (\(section))"
        case let .deleteAndMoveRow(path):
            return "attempt to perform a delete and a move from the same index path (\(path))"
        case let .deleteAndMoveSection(section):
            return "attempt to perform a delete and a move from the same section (\(section))"
        case let .insertAndMoveRow(path):
            return "attempt to perform an insert and a move to the same index path (\(path))"
        case let .insertAndMoveSection(section):
            return "attempt to perform an insert and a move to the same section (\(section))"
        case let .moveFromDeletedSection(section):
            return "cannot move a\(flavor == .tableView ? "" : "n") \(row) from a deleted section (\(section))"
        case let .moveIntoInsertedSection(section):
            return "cannot move a\(flavor == .tableView ? "" : "n") \(row) into a newly inserted section (\(section))"
        case let .rowMovedTwice(path, first, second):
            return "attempt to move \(row) at index path \(path) to both \(first) and \(second)"
        case let .sectionMovedTwice(section, first, second):
            return "attempt to move section \(section) to both section \(first) and section \(second)"
        case let .rowsMovedToSameSlot(first, second, target):
            return "attempt to move both \(row) at index path \(first) and \(second) to \(target)"
        case let .sectionsMovedToSameSlot(first, second, target):
            return "attempt to move both section \(first) and section \(second) to section \(target)"
        case let .duplicateInList(operation, index):
            return "\(index) appears twice among the \(operation); UIKit merges or mis-animates repeated index paths"
        case let .rowChangeInsideDeletedSection(path):
            return "\(row) \(path.row) of section \(path.section) is changed inside a section the batch deletes; UIKit drops the change and the counts go wrong"
        case let .rowInsertInsideInsertedSection(path):
            return "\(row) \(path.row) is inserted into section \(path.section), which the batch inserts; UIKit drops the insert and the counts go wrong"
        case let .reloadLandsElsewhere(path, lands, belongs):
            return "the \(row) reloaded at \(path) is placed by deletes and inserts alone at \(lands), but belongs at \(belongs): its new cell lands in the wrong slot (moves in the same batch)"
        case let .rowChangeInsideMovedSection(section):
            return "\(rows) change inside section \(section), which moves in the same batch; \(view == "table view" ? "table views" : "collection views") have corrupted their layout with this: stage the changes"
        case let .reloadInsideDeletedOrReloadedSection(path):
            return "\(row) \(path.row) is reloaded inside section \(path.section), which the batch deletes or reloads"
        case let .identityMismatch(path, expected, found):
            return "after the batch, the \(view) shows '\(found)' at \(path), but the data source holds '\(expected)' there"
        case let .sectionIdentityMismatch(section, expected, found):
            return "after the batch, the \(view) shows section '\(found)' at index \(section), but the data source holds '\(expected)' there"
        case let .duplicateIdentifiers(ids):
            return "Fatal: supplied item identifiers are not unique. Duplicate identifiers: {(\(ids.joined(separator: ", ")))}"
        }
    }
}

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
        var check = Check(batch: batch, before: before.map(\.rows.count), after: after.map(\.rows.count))
        check.run()
        check.checkDuplicates(after.flatMap(\.rows))
        if !check.breaches.contains(where: \.isException) {
            check.checkIdentities(before: before, after: after)
        }
        return check.breaches.map { Violation(breach: $0, message: $0.message(for: flavor)) }
    }
}

/// The checks of one validation, in the order UIKit makes them: bounds and
/// conflicts, then counts, then what the animation would show.
private struct Check {
    let batch: Batch
    let before: [Int]
    let after: [Int]
    var breaches: [UIKitRuleBreach] = []

    init(batch: Batch, before: [Int], after: [Int]) {
        self.batch = batch
        self.before = before
        self.after = after
    }

    mutating func run() {
        checkSectionBounds()
        checkRowBounds()
        guard breaches.isEmpty else { return }
        checkDuplicatesInLists()
        checkSectionConflicts()
        checkRowConflicts()
        guard !breaches.contains(where: \.isException) else { return }
        checkCounts()
        guard !breaches.contains(where: \.isException) else { return }
        checkReloadSlots()
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
        for path in batch.rowInserts {
            if !(0..<after.count).contains(path.section) {
                breaches.append(.insertRowSectionOutOfBounds(path, sections: after.count))
            } else if !(0..<after[path.section]).contains(path.row) {
                breaches.append(.insertRowOutOfBounds(path, rows: after[path.section]))
            }
        }
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

    // MARK: Conflicts (rules 10–18, 20, 21)

    mutating func checkDuplicatesInLists() {
        func repeated<T: Hashable>(_ items: [T]) -> [T] {
            var seen = Set<T>(), result: [T] = []
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

    mutating func checkSectionConflicts() {
        let deleted = Set(batch.sectionDeletes)
        let reloaded = Set(batch.sectionReloads)
        for section in batch.sectionReloads.sorted() where deleted.contains(section) {
            breaches.append(.deleteAndReloadSection(section))
        }
        var movedFrom: [Int: Int] = [:]
        var movedTo: [Int: Int] = [:]
        let inserted = Set(batch.sectionInserts)
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

    mutating func checkRowConflicts() {
        let sectionGone = Set(batch.sectionDeletes).union(batch.sectionReloads)
        let deletedSections = Set(batch.sectionDeletes)
        let insertedSections = Set(batch.sectionInserts)
        let deletes = batch.sectionDeletes.sorted()
        let inserts = batch.sectionInserts.sorted()
        let reloadedSectionsNew = Set(batch.sectionReloads.map { reloadTarget($0, deletes: deletes, inserts: inserts) })
        let freshSections = insertedSections.union(reloadedSectionsNew)
        let deleted = Set(batch.rowDeletes)
        let reloaded = Set(batch.rowReloads)
        let insertedRows = Set(batch.rowInserts)

        for path in batch.rowReloads.sorted() where deleted.contains(path) {
            breaches.append(.deleteAndReloadRow(path))
        }
        var movedFrom: [RowPath: RowPath] = [:]
        var movedTo: [RowPath: RowPath] = [:]
        for move in Set(batch.rowMoves).sorted(by: { ($0.from, $0.to) < ($1.from, $1.to) }) {
            if deleted.contains(move.from) || reloaded.contains(move.from) { breaches.append(.deleteAndMoveRow(move.from)) }
            if insertedRows.contains(move.to) { breaches.append(.insertAndMoveRow(move.to)) }
            if sectionGone.contains(move.from.section) { breaches.append(.moveFromDeletedSection(move.from.section)) }
            if freshSections.contains(move.to.section) { breaches.append(.moveIntoInsertedSection(move.to.section)) }
            if let first = movedFrom.updateValue(move.to, forKey: move.from) {
                breaches.append(.rowMovedTwice(move.from, to: first, and: move.to))
            }
            if let first = movedTo.updateValue(move.from, forKey: move.to) {
                breaches.append(.rowsMovedToSameSlot(first, and: move.from, to: move.to))
            }
        }

        // Silent ones: changes UIKit drops or mis-animates.
        for path in Set(batch.rowDeletes).sorted() where deletedSections.contains(path.section) {
            breaches.append(.rowChangeInsideDeletedSection(path))
        }
        for path in Set(batch.rowInserts).sorted() where insertedSections.contains(path.section) {
            breaches.append(.rowInsertInsideInsertedSection(path))
        }
        for path in Set(batch.rowReloads).sorted() where sectionGone.contains(path.section) {
            breaches.append(.reloadInsideDeletedOrReloadedSection(path))
        }
        let movingOld = Set(batch.sectionMoves.map(\.from))
        let movingNew = Set(batch.sectionMoves.map(\.to))
        var affected = Set<Int>()
        for path in batch.rowDeletes + batch.rowReloads + batch.rowMoves.map(\.from) where movingOld.contains(path.section) {
            affected.insert(path.section)
        }
        for path in batch.rowInserts + batch.rowMoves.map(\.to) where movingNew.contains(path.section) {
            // Report by old index, so a section is named once.
            if let move = batch.sectionMoves.first(where: { $0.to == path.section }) { affected.insert(move.from) }
        }
        for section in affected.sorted() { breaches.append(.rowChangeInsideMovedSection(section: section)) }
    }

    // MARK: Counts (rules 1–3)

    mutating func checkCounts() {
        let sectionsAfter = before.count + Set(batch.sectionInserts).count - Set(batch.sectionDeletes).count
        guard sectionsAfter == after.count, let sections = replaySections(batch, before: before.count, after: after.count) else {
            breaches.append(.sectionCount(after: after.count, before: before.count,
                                          inserted: Set(batch.sectionInserts).count, deleted: Set(batch.sectionDeletes).count))
            return
        }
        var deleted = [Int: Int](), movedOut = [Int: Int](), inserted = [Int: Int](), movedIn = [Int: Int]()
        for path in Set(batch.rowDeletes) { deleted[path.section, default: 0] += 1 }
        for path in Set(batch.rowInserts) { inserted[path.section, default: 0] += 1 }
        // A move crosses sections when it does not land where its old
        // section goes (indexes shift with section deletes and inserts).
        var landing = [Int: Int]()
        for (index, section) in sections.enumerated() {
            if case .carried(let old, _) = section { landing[old] = index }
        }
        for move in Set(batch.rowMoves) where landing[move.from.section] != move.to.section {
            movedOut[move.from.section, default: 0] += 1
            movedIn[move.to.section, default: 0] += 1
        }
        // UIKit counts its lists as given: repeated entries can remove more
        // rows than the section has (rule 3).
        var removedAsListed = [Int: Int]()
        for path in batch.rowDeletes { removedAsListed[path.section, default: 0] += 1 }
        for move in batch.rowMoves { removedAsListed[move.from.section, default: 0] += 1 }
        for (index, section) in sections.enumerated() {
            guard case .carried(let old, _) = section else { continue }
            if removedAsListed[old, default: 0] > before[old] {
                breaches.append(.deletesExceedRows(section: old))
                continue
            }
            let expected = before[old] + inserted[index, default: 0] - deleted[old, default: 0]
                + movedIn[index, default: 0] - movedOut[old, default: 0]
            if expected != after[index] {
                breaches.append(.rowCount(section: old, after: after[index], before: before[old],
                                          inserted: inserted[index, default: 0], deleted: deleted[old, default: 0],
                                          movedIn: movedIn[index, default: 0], movedOut: movedOut[old, default: 0]))
            }
        }
    }

    // MARK: What the animation shows (rules 19, 22, 23)

    /// A reloaded row must land, by deletes and inserts alone, where it
    /// would be had it simply stayed (rule 19).
    mutating func checkReloadSlots() {
        guard !batch.rowReloads.isEmpty,
              let sections = replaySections(batch, before: before.count, after: after.count) else { return }
        // Where each reloaded row truly goes: replay with reloads as untouched rows.
        var stayed = batch
        stayed.rowReloads = []
        guard let truth = replay(stayed, before: before, after: after) else { return }
        var belongs: [RowPath: RowPath] = [:]
        for (index, section) in truth.enumerated() {
            guard case .carried(_, let rows) = section else { continue }
            for (slot, row) in rows.enumerated() {
                if case .carried(let path) = row { belongs[path] = RowPath(section: index, row: slot) }
            }
        }
        var landing: [Int: Int] = [:]
        for (index, section) in sections.enumerated() {
            if case .carried(let old, _) = section { landing[old] = index }
        }
        let deletes = batch.rowDeletes.sorted()
        let inserts = batch.rowInserts.sorted()
        for path in Set(batch.rowReloads).sorted() {
            guard let target = belongs[path], let section = landing[path.section] else { continue }
            let lands = RowPath(section: section, row: reloadTarget(row: path.row, deletes: deletes, inSection: path.section,
                                                                    inserts: inserts, inTargetSection: section))
            if lands != target { breaches.append(.reloadLandsElsewhere(path, lands: lands, belongs: target)) }
        }
    }

    mutating func checkDuplicates<RowID: Hashable>(_ ids: [RowID]) {
        var seen = Set<RowID>(), repeated: [String] = []
        for id in ids where !seen.insert(id).inserted { repeated.append(String(describing: id)) }
        if !repeated.isEmpty { breaches.append(.duplicateIdentifiers(repeated)) }
    }

    /// The replayed batch must show exactly what the data source holds.
    mutating func checkIdentities<SectionID: Hashable, RowID: Hashable>(
        before: [SectionLayout<SectionID, RowID>], after: [SectionLayout<SectionID, RowID>]
    ) {
        guard let replayed = replay(batch, before: before.map(\.rows.count), after: after.map(\.rows.count)) else { return }
        for (index, section) in replayed.enumerated() {
            guard case .carried(let old, let rows) = section else { continue }
            if before[old].id != after[index].id {
                breaches.append(.sectionIdentityMismatch(section: index, expected: String(describing: after[index].id),
                                                         found: String(describing: before[old].id)))
                continue
            }
            for (slot, row) in rows.enumerated() {
                let shown: RowID
                switch row {
                case .carried(let path), .reloaded(let path): shown = before[path.section].rows[path.row]
                case .inserted: continue
                }
                let held = after[index].rows[slot]
                if shown != held {
                    breaches.append(.identityMismatch(RowPath(section: index, row: slot), expected: String(describing: held),
                                                      found: String(describing: shown)))
                }
            }
        }
    }
}
