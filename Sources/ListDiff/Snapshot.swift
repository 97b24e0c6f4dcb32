/// A row the diff engine can compare across two snapshots.
///
/// `id` decides identity: two rows with the same `id` in the old and the new
/// snapshot are the same row, wherever they sit. `hasChanges(comparedTo:)`
/// decides whether the row's cell must be reloaded. Types that are also
/// `Equatable` get `!=` as the change test for free.
public protocol DiffableRow: Identifiable {
    /// Whether this row, as it appears in the new snapshot, differs from
    /// `old` in a way its cell must show (a reload).
    func hasChanges(comparedTo old: Self) -> Bool

    /// The names of the fields that differ from `old`, for highlighting.
    /// Only asked of rows for which `hasChanges(comparedTo:)` is true.
    func changedFields(comparedTo old: Self) -> [String]

    /// Whether the row's move hint changed. When several minimal move sets
    /// exist, rows whose hint changed are the ones reported as moved (a chat
    /// with a new message moves up; the others stay).
    func moveHintChanged(comparedTo old: Self) -> Bool
}

extension DiffableRow where Self: Equatable {
    @inlinable
    public func hasChanges(comparedTo old: Self) -> Bool { self != old }
}

extension DiffableRow {
    @inlinable
    public func changedFields(comparedTo old: Self) -> [String] { [] }

    @inlinable
    public func moveHintChanged(comparedTo old: Self) -> Bool { false }
}

/// One section of a snapshot: an identity, an optional header and footer,
/// and its rows in display order.
public struct Section<ID: Hashable, Row: DiffableRow> {
    public var id: ID
    public var header: String?
    public var footer: String?
    public var rows: [Row]

    @inlinable
    public init(id: ID, header: String? = nil, footer: String? = nil, rows: [Row]) {
        self.id = id
        self.header = header
        self.footer = footer
        self.rows = rows
    }

    /// Whether the section's own content (header or footer) differs from `old`,
    /// which UIKit can only show by reloading the section.
    @inlinable
    public func hasChanges(comparedTo old: Self) -> Bool {
        header != old.header || footer != old.footer
    }
}

extension Section: Equatable where Row: Equatable {}
extension Section: Sendable where ID: Sendable, Row: Sendable {}

/// The state of a list at one moment: sections of identified rows, in
/// display order.
public struct Snapshot<SectionID: Hashable, Row: DiffableRow> {
    public var sections: [Section<SectionID, Row>]

    @inlinable
    public init(sections: [Section<SectionID, Row>]) {
        self.sections = sections
    }

    /// A snapshot of one section.
    @inlinable
    public init(sectionID: SectionID, rows: [Row]) {
        self.sections = [Section(id: sectionID, rows: rows)]
    }

    /// The total number of rows over all sections.
    @inlinable
    public var rowCount: Int {
        var count = 0
        for section in sections { count += section.rows.count }
        return count
    }

    /// The section and row identities, in display order.
    @inlinable
    public var layout: [SectionLayout<SectionID, Row.ID>] {
        sections.map { SectionLayout(id: $0.id, rows: $0.rows.map(\.id)) }
    }
}

extension Snapshot: Equatable where Row: Equatable {}
extension Snapshot: Sendable where SectionID: Sendable, Row: Sendable {}

/// The identities of one section and its rows: what a data source must hold,
/// without the content.
public struct SectionLayout<SectionID: Hashable, RowID: Hashable>: Hashable {
    public var id: SectionID
    public var rows: [RowID]

    @inlinable
    public init(id: SectionID, rows: [RowID]) {
        self.id = id
        self.rows = rows
    }
}

extension SectionLayout: Sendable where SectionID: Sendable, RowID: Sendable {}
