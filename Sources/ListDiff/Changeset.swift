/// A row's place: a section index and a row index within it (UIKit's
/// `IndexPath(row:section:)`).
public struct RowPath: Hashable, Comparable, Sendable {
    public var section: Int
    public var row: Int

    @inlinable
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    @inlinable
    public static func < (lhs: RowPath, rhs: RowPath) -> Bool {
        lhs.section != rhs.section ? lhs.section < rhs.section : lhs.row < rhs.row
    }
}

extension RowPath: CustomStringConvertible {
    /// UIKit's description of an index path, without the object address.
    public var description: String { "{length = 2, path = \(section) - \(row)}" }
}

/// A row moved from a path in the old index space to a path in the new one.
public struct RowMove: Hashable, Sendable {
    public var from: RowPath
    public var to: RowPath

    @inlinable
    public init(from: RowPath, to: RowPath) {
        self.from = from
        self.to = to
    }
}

/// A section moved from an old index to a new one.
public struct SectionMove: Hashable, Sendable {
    public var from: Int
    public var to: Int

    @inlinable
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }
}

/// Exactly what one `performBatchUpdates` call receives, in UIKit's
/// coordinates: deletes and reloads in the old index space (before the
/// batch), inserts in the new one (after it), moves from old to new.
///
/// The engine lists every operation in ascending order; the order does not
/// matter to UIKit.
public struct Batch: Hashable, Sendable {
    public var sectionDeletes: [Int]
    public var sectionInserts: [Int]
    public var sectionMoves: [SectionMove]
    public var sectionReloads: [Int]
    public var rowDeletes: [RowPath]
    public var rowInserts: [RowPath]
    public var rowMoves: [RowMove]
    public var rowReloads: [RowPath]

    public init(
        sectionDeletes: [Int] = [], sectionInserts: [Int] = [],
        sectionMoves: [SectionMove] = [], sectionReloads: [Int] = [],
        rowDeletes: [RowPath] = [], rowInserts: [RowPath] = [],
        rowMoves: [RowMove] = [], rowReloads: [RowPath] = []
    ) {
        self.sectionDeletes = sectionDeletes
        self.sectionInserts = sectionInserts
        self.sectionMoves = sectionMoves
        self.sectionReloads = sectionReloads
        self.rowDeletes = rowDeletes
        self.rowInserts = rowInserts
        self.rowMoves = rowMoves
        self.rowReloads = rowReloads
    }

    /// Whether the batch does nothing.
    public var isEmpty: Bool {
        sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty
            && sectionReloads.isEmpty && rowDeletes.isEmpty && rowInserts.isEmpty
            && rowMoves.isEmpty && rowReloads.isEmpty
    }

    /// The number of operations of every kind together.
    public var operationCount: Int {
        sectionDeletes.count + sectionInserts.count + sectionMoves.count + sectionReloads.count
            + rowDeletes.count + rowInserts.count + rowMoves.count + rowReloads.count
    }
}

/// Why a batch is separate from the one before it.
public enum BatchRole: String, Hashable, Sendable {
    /// Everything structural in one batch: deletes, inserts and moves of
    /// sections and rows, plus the reloads that can safely share it.
    case structure
    /// Section deletes, inserts and moves only: some moved section also has
    /// row changes, which UIKit must not see in the same batch (rule 20).
    case sections
    /// The row changes that had to wait for the section batch.
    case rows
    /// Reloads that could not share a structural batch: rows that also move
    /// (rule 11), rows whose slot moves would shift (rule 19), and sections
    /// whose header or footer changed.
    case reloads
}

/// What happened to one row between two snapshots.
public struct RowChangeKind: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let deleted = RowChangeKind(rawValue: 1 << 0)
    public static let inserted = RowChangeKind(rawValue: 1 << 1)
    public static let moved = RowChangeKind(rawValue: 1 << 2)
    public static let reloaded = RowChangeKind(rawValue: 1 << 3)
}

/// One row that did not simply stay: its id, where it was and is (in the
/// old and new snapshots), what happened to it and which of its fields changed.
///
/// A row that leaves a deleted section or enters an inserted section is both
/// `.deleted` and `.inserted` (UIKit cannot move it: rules 13 and 14).
public struct RowChange<RowID: Hashable>: Hashable {
    public var id: RowID
    public var old: RowPath?
    public var new: RowPath?
    public var kind: RowChangeKind
    public var changedFields: [String]

    @inlinable
    public init(id: RowID, old: RowPath?, new: RowPath?, kind: RowChangeKind, changedFields: [String] = []) {
        self.id = id
        self.old = old
        self.new = new
        self.kind = kind
        self.changedFields = changedFields
    }
}

extension RowChange: Sendable where RowID: Sendable {}

/// The batches that take one snapshot to the next, with the data the data
/// source must hold after each, and what happened to each row.
public struct Changeset<SectionID: Hashable, Row: DiffableRow> {
    /// One `performBatchUpdates` call: set the data source to `after`, then
    /// perform `batch`. Stage k runs on the state stage k − 1 left.
    public struct Stage {
        public var batch: Batch
        public var after: Snapshot<SectionID, Row>
        public var role: BatchRole

        @inlinable
        public init(batch: Batch, after: Snapshot<SectionID, Row>, role: BatchRole) {
            self.batch = batch
            self.after = after
            self.role = role
        }
    }

    /// The batches in the order they must run. Empty when nothing changed.
    public var stages: [Stage]
    /// Every row that was deleted, inserted, moved or reloaded, old rows in
    /// old order first, then new rows in new order. Rows not listed stayed.
    public var rows: [RowChange<Row.ID>]

    @inlinable
    public init(stages: [Stage], rows: [RowChange<Row.ID>]) {
        self.stages = stages
        self.rows = rows
    }

    /// The batches alone, in order.
    @inlinable
    public var batches: [Batch] { stages.map(\.batch) }

    /// Whether nothing changed.
    @inlinable
    public var isEmpty: Bool { stages.isEmpty }

    /// The number of explicit moves over all batches (row and section moves).
    @inlinable
    public var moveCount: Int {
        stages.reduce(0) { $0 + $1.batch.rowMoves.count + $1.batch.sectionMoves.count }
    }

    /// How many rows the step inserts, deletes, moves and reloads (a row
    /// that is deleted and inserted, or moved and reloaded, counts in both).
    public var rowCounts: RowChangeCounts {
        var counts = RowChangeCounts()
        for row in rows {
            if row.kind.contains(.inserted) { counts.inserted += 1 }
            if row.kind.contains(.deleted) { counts.deleted += 1 }
            if row.kind.contains(.moved) { counts.moved += 1 }
            if row.kind.contains(.reloaded) { counts.reloaded += 1 }
        }
        return counts
    }
}

/// A step's rows by kind of change.
public struct RowChangeCounts: Hashable, Sendable {
    public var inserted = 0, deleted = 0, moved = 0, reloaded = 0

    public init(inserted: Int = 0, deleted: Int = 0, moved: Int = 0, reloaded: Int = 0) {
        self.inserted = inserted
        self.deleted = deleted
        self.moved = moved
        self.reloaded = reloaded
    }
}

extension Changeset: Sendable where SectionID: Sendable, Row: Sendable, Row.ID: Sendable {}
extension Changeset.Stage: Sendable where SectionID: Sendable, Row: Sendable {}
