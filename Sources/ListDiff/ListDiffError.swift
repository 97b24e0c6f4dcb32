/// Which of the two snapshots a diff error is about.
public enum SnapshotSide: String, Hashable, Sendable {
    case old
    case new
}

/// Why two snapshots cannot be diffed.
public enum ListDiffError: Error, Hashable, Sendable {
    /// Two rows of one snapshot share an identity (UIKit's diffable data
    /// source traps on this: "supplied item identifiers are not unique").
    case duplicateRowID(id: String, side: SnapshotSide, first: RowPath, second: RowPath)
    /// Two sections of one snapshot share an identity.
    case duplicateSectionID(id: String, side: SnapshotSide, first: Int, second: Int)
    /// `Changeset.apply(to:)` was given a snapshot the batch at this index
    /// does not fit.
    case batchDoesNotFit(batch: Int, reason: String)
}

extension ListDiffError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .duplicateRowID(id, side, first, second):
            return "duplicate row id '\(id)' in the \(side.rawValue) snapshot: "
                + "at row \(first.row) of section \(first.section) and at row \(second.row) of section \(second.section)"
        case let .duplicateSectionID(id, side, first, second):
            return "duplicate section id '\(id)' in the \(side.rawValue) snapshot: at sections \(first) and \(second)"
        case let .batchDoesNotFit(batch, reason):
            return "batch \(batch) does not fit the snapshot it is applied to: \(reason)"
        }
    }
}
