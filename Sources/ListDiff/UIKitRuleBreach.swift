/// One way a batch breaks UIKit's batch-update rules (uikit-rules.md),
/// with the numbers UIKit would print.
public enum UIKitRuleBreach: Hashable, Sendable {
    // Counts.
    case sectionCount(after: Int, before: Int, inserted: Int, deleted: Int)
    /// `section` is the section's index after the update, as UIKit prints it (radar 27041784).
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
