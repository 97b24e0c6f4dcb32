import Diagnostics
import Foundation
import ListDiff
import SnapshotFormat

/// The data a player needs, embedded in its page beside the first
/// snapshot's rows (which the page shows as HTML and the player adopts, so
/// they are not repeated here): each step's batches with the content of the
/// cells they create (inserted and reloaded rows and sections). A page grows
/// with the changes, not with steps × rows.
///
/// These types are the contract between the generator and the player
/// script: the page carries them as Foundation's encoder writes them (made
/// safe inside `<script>` by `SafeJSON`), as the report does, and tests
/// decode the page's data back into them.
public struct PlayerData: Codable, Equatable, Sendable {
    public var example: String
    public var title: String
    public var animations: Animations
    /// Every snapshot's label, the first one's included.
    public var labels: [String]
    public var steps: [Step]
    /// The cell style rows are drawn in (`cell:`); absent when rows show
    /// their fields in a line. With a style, each row field is
    /// `[name, text, slot]`.
    public var cell: String?
    /// The list's size and table style and the animation's timing, when
    /// the sequence sets any (`height`, `width`, `style`, `duration`,
    /// `spring`); absent otherwise.
    public var presentation: Framing?
    /// A virtual grid's first snapshot (its page shows only its first
    /// items as HTML); absent otherwise, the page's rows being the first snapshot.
    public var initial: [Section]?

    /// Past this many items in a snapshot, a list or a grid is virtual:
    /// only the items in sight have elements, as a table or collection
    /// view keeps cells (a 1,000-row page spent up to 309 ms laying out
    /// rows no one saw before it could be used).
    public static let virtualItems = 500
    /// The items a virtual list's or grid's page shows as HTML, before its script runs.
    public static let virtualFirstItems = 60

    /// `Presentation` as the script reads it: sizes in points, the duration
    /// in seconds, the spring's damping ratio and initial velocity.
    public struct Framing: Codable, Equatable, Sendable {
        public var height: Double?
        public var width: Double?
        public var style: String?
        public var duration: Double?
        public var spring: Spring?
        /// `grid` or `table` (absent: a table view's list), and what they
        /// read: items per line, points between them, a data table's
        /// columns and their titles; the sections with a layout of their own.
        public var layout: String?
        public var columns: Int?
        public var spacing: Double?
        public var fields: [String]?
        /// The columns' widths as shares (the longest text of each).
        public var widths: [Int]?
        public var titles: [String: String]?
        public var sections: [String: SectionLayout]?
        /// `anchor` (absent: UIKit's keep-offset).
        public var scroll: String?
        public var skipAnimation: Double?
        /// A list or grid of more than `virtualItems` items in a snapshot.
        public var virtual: Bool?

        public struct SectionLayout: Codable, Equatable, Sendable {
            public var layout: String
            public var columns: Int?
        }

        /// The layout of section `id` and its items per line (nil: a table view's list);
        /// what the page's first rows and the script both draw.
        public func sectionLayout(_ id: String) -> (layout: String, columns: Int)? {
            let own = sections?[id]
            let name = own?.layout ?? (layout == "grid" ? "grid" : layout == "table" ? "table" : "list")
            switch name {
            case "grid": return ("grid", own?.columns ?? columns ?? 3)
            case "orthogonal": return ("orthogonal", own?.columns ?? 2)
            case "table": return ("table", 1)
            // A list section of a collection view (compositional) says so too: its header is not pinned.
            default: return layout == nil && sections == nil ? nil : ("list", 1)
            }
        }

        public struct Spring: Codable, Equatable, Sendable {
            public var damping: Double
            public var velocity: Double
        }

        /// No framing of its own (a long list's, made only virtual).
        init() {}

        /// Nil for the defaults, so pages that set nothing stay as they were.
        public init?(_ presentation: Presentation) {
            guard presentation != Presentation() else { return nil }
            height = presentation.height
            width = presentation.width
            style = presentation.style == .plain ? nil : presentation.style.rawValue
            duration = presentation.duration
            spring = presentation.spring.map { Spring(damping: $0.damping, velocity: $0.velocity) }
            layout = presentation.layout == .list ? nil : presentation.layout.rawValue
            columns = presentation.columns
            spacing = presentation.spacing
            fields = presentation.layout == .table ? presentation.fields : nil
            widths = presentation.layout == .table ? presentation.columnWidths : nil
            titles = presentation.titles.isEmpty ? nil : presentation.titles
            scroll = presentation.scroll == .keepOffset ? nil : presentation.scroll.rawValue
            skipAnimation = presentation.skipAnimation
            sections = presentation.sections.isEmpty ? nil
                : presentation.sections.mapValues { SectionLayout(layout: $0.layout.rawValue, columns: $0.columns) }
        }
    }

    public struct Animations: Codable, Equatable, Sendable {
        public var insert: String
        public var delete: String
        public var reload: String
    }

    public struct Step: Codable, Equatable, Sendable {
        public var label: String
        public var batches: [Batch]
        /// For each reloaded row's id, the fields whose value changed.
        public var changedFields: [String: [String]]
    }

    /// One batch: its operations in UIKit coordinates, and the content of
    /// the cells it creates.
    public struct Batch: Codable, Equatable, Sendable {
        public var role: String
        public var sections: SectionOperations
        public var rows: RowOperations
        /// The inserted rows, in the order of the inserts.
        public var insertedRows: [Row]
        /// This batch's reloaded rows, in the order of its reload calls.
        public var reloadedRows: [Row]
        /// Inserted and reloaded sections, by their new index.
        public var newSections: [Section]
    }

    /// Section indexes; a move is `[from, to]`.
    public struct SectionOperations: Codable, Equatable, Sendable {
        public var delete: [Int]
        public var insert: [Int]
        public var move: [[Int]]
        public var reload: [Int]
    }

    /// Rows as `[section, row]`; a move is `[[section, row], [section, row]]`.
    public struct RowOperations: Codable, Equatable, Sendable {
        public var delete: [[Int]]
        public var insert: [[Int]]
        public var move: [[[Int]]]
        public var reload: [[Int]]

        enum CodingKeys: String, CodingKey { case delete, insert, move, reload }

        public init(delete: [[Int]], insert: [[Int]], move: [[[Int]]], reload: [[Int]]) {
            (self.delete, self.insert, self.move, self.reload) = (delete, insert, move, reload)
        }

        /// What the synthesized encoding writes, with each path's two
        /// numbers written one by one: a page's player data is mostly
        /// these, and the encoder's generic path per nested array was most
        /// of the time spent encoding it.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            func write(_ paths: [[Int]], into list: inout any UnkeyedEncodingContainer) throws {
                for path in paths {
                    var numbers = list.nestedUnkeyedContainer()
                    for number in path { try numbers.encode(number) }
                }
            }
            for (paths, key) in [(delete, CodingKeys.delete), (insert, .insert), (reload, .reload)] {
                var list: any UnkeyedEncodingContainer = container.nestedUnkeyedContainer(forKey: key)
                try write(paths, into: &list)
            }
            var moves: any UnkeyedEncodingContainer = container.nestedUnkeyedContainer(forKey: .move)
            for move in move {
                var pair: any UnkeyedEncodingContainer = moves.nestedUnkeyedContainer()
                try write(move, into: &pair)
            }
        }
    }

    /// A row: its id and the fields it shows as `[name, value as shown]`
    /// pairs, or `[name, value as shown, slot]` when drawn as a cell.
    public struct Row: Codable, Equatable, Sendable {
        public var id: String
        public var fields: [[String]]
    }

    /// A section; a header or footer it does not have is `null`.
    public struct Section: Codable, Equatable, Sendable {
        public var id: String
        public var header: String?
        public var footer: String?
        public var items: [Row]

        enum CodingKeys: String, CodingKey { case id, header, footer, items }

        public init(id: String, header: String?, footer: String?, items: [Row]) {
            (self.id, self.header, self.footer, self.items) = (id, header, footer, items)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(header, forKey: .header)
            try container.encode(footer, forKey: .footer)
            try container.encode(items, forKey: .items)
        }
    }

    public static func json(for sequence: SnapshotSequence, name: String) throws(Diagnostic) -> String {
        json(for: sequence, changesets: try sequence.changesets(), name: name)
    }

    /// The data as the page embeds it, from changesets already computed for `sequence`.
    public static func json(for sequence: SnapshotSequence, changesets: [Changeset<String, Record<String>>], name: String) -> String {
        PlayerData(sequence: sequence, changesets: changesets, name: name).json
    }

    /// The data as the page embeds it (and the report: one writer).
    var json: String { SafeJSON.encode(self) }

    public init(sequence: SnapshotSequence, changesets: [Changeset<String, Record<String>>], name: String) {
        var steps: [Step] = []
        for (index, changeset) in changesets.enumerated() {
            var before = sequence.steps[index].snapshot
            var batches: [Batch] = []
            for stage in changeset.stages {
                batches.append(Self.batch(stage, before: before, of: sequence))
                before = stage.after
            }
            var changed: [String: [String]] = [:]
            // A repeated id keeps its last row's fields, as a script reading an object would.
            for reload in changeset.rows where reload.kind.contains(.reloaded) { changed[reload.id] = reload.changedFields }
            steps.append(Step(label: sequence.steps[index + 1].label, batches: batches, changedFields: changed))
        }
        let animations = sequence.animations
        self.init(example: name, title: sequence.title,
                  animations: Animations(insert: animations.insert.rawValue, delete: animations.delete.rawValue,
                                         reload: animations.reload.rawValue),
                  labels: sequence.steps.map(\.label), steps: steps, cell: sequence.drawnCellStyle.rawValue)
        presentation = Self.framing(of: sequence)
        if presentation?.virtual == true { initial = sequence.steps[0].snapshot.sections.map { Self.section($0, of: sequence) } }
    }

    /// The framing of `sequence`, a list or a grid with more than
    /// `virtualItems` items in a snapshot made virtual (not a data table,
    /// nor sections with layouts of their own).
    static func framing(of sequence: SnapshotSequence) -> Framing? {
        var framing = Framing(sequence.presentation)
        guard [.list, .grid].contains(sequence.presentation.layout), sequence.presentation.sections.isEmpty else { return framing }
        let most = sequence.steps.lazy.map { $0.snapshot.sections.reduce(0) { $0 + $1.rows.count } }.max() ?? 0
        if most > virtualItems {
            framing = framing ?? Framing()
            framing?.virtual = true
        }
        return framing
    }

    public init(example: String, title: String, animations: Animations, labels: [String], steps: [Step], cell: String? = nil) {
        (self.example, self.title, self.animations, self.labels, self.steps, self.cell) = (example, title, animations, labels, steps, cell)
    }

    static func section(_ section: ListDiff.Section<String, Record<String>>, of sequence: SnapshotSequence) -> Section {
        Section(id: section.id, header: section.header, footer: section.footer, items: section.rows.map { row($0, of: sequence) })
    }

    /// A row's values as its cell shows them (`SnapshotSequence.shownFields`),
    /// the same text as the page's first rows (JavaScript would print `2.0`
    /// as `2`).
    static func row(_ row: Record<String>, of sequence: SnapshotSequence) -> Row {
        Row(id: row.id, fields: sequence.shownFields(of: row).map { field in
            field.slot.map { [field.name, field.text, $0.rawValue] } ?? [field.name, field.text]
        })
    }

    /// One batch, with the cells it creates taken from the data source after
    /// it. The reloaded rows are this batch's own, in the order of its reload
    /// calls (the row each call names in `before`, as `after` holds it).
    static func batch(_ stage: Changeset<String, Record<String>>.Stage, before: Snapshot<String, Record<String>>,
                      of sequence: SnapshotSequence) -> Batch {
        func row(_ record: Record<String>) -> Row { Self.row(record, of: sequence) }
        func section(_ section: ListDiff.Section<String, Record<String>>) -> Section { Self.section(section, of: sequence) }
        let batch = stage.batch
        func path(_ path: RowPath) -> [Int] { [path.section, path.row] }
        // New cells: inserted rows at their new paths, reloaded rows at the
        // path of the same row in `after`; whole sections inserted or reloaded.
        let inserted = batch.rowInserts.map { row(stage.after.sections[$0.section].rows[$0.row]) }
        var reloadedRows: [Row] = []
        if !batch.rowReloads.isEmpty {
            // Where each id sits in `after` (repeated ids pair by occurrence).
            var places: [String: [Record<String>]] = [:]
            for section in stage.after.sections {
                for candidate in section.rows { places[candidate.id, default: []].append(candidate) }
            }
            var used: [String: Int] = [:]
            for path in batch.rowReloads {
                let old = before.sections[path.section].rows[path.row]
                let taken = used[old.id, default: 0]
                let candidates = places[old.id] ?? []
                reloadedRows.append(row(taken < candidates.count ? candidates[taken] : old))
                used[old.id] = taken + 1
            }
        }
        return Batch(
            role: stage.role.rawValue,
            sections: SectionOperations(delete: batch.sectionDeletes, insert: batch.sectionInserts,
                                        move: batch.sectionMoves.map { [$0.from, $0.to] }, reload: batch.sectionReloads),
            rows: RowOperations(delete: batch.rowDeletes.map(path), insert: batch.rowInserts.map(path),
                                move: batch.rowMoves.map { [path($0.from), path($0.to)] }, reload: batch.rowReloads.map(path)),
            insertedRows: inserted, reloadedRows: reloadedRows,
            newSections: (batch.sectionInserts + batch.sectionReloadTargets).sorted().map { section(stage.after.sections[$0]) })
    }
}
