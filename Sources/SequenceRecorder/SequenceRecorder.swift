import Foundation
import ListDiff

/// Records the snapshots an app's data source goes through, in the app's
/// own unit tests, and writes them as a snapshot sequence file that
/// `rowmotion check`, `diff` and `build` read: the docs then replay exactly
/// what the app's list did, drawn as the app draws it.
///
/// ```swift
/// var recorder = SequenceRecorder<String, Chat>(
///     title: "Inbox",
///     options: SequenceOptions(animation: .fade, cell: .init(style: .subtitle, title: "name", subtitle: "preview", badge: "unread"))
/// ) { ["name": $0.name, "preview": $0.preview, "unread": $0.unread] }
/// try recorder.record(dataSource.snapshot, label: "Initial")
/// viewModel.receive(message)
/// try recorder.record(dataSource.snapshot, label: "Dave replies")
/// try recorder.write(to: "examples/inbox.json")
/// ```
///
/// `fields` names what a row shows, in the order a cell takes them, with
/// their values' own types (a count stays a number, a flag a boolean). Two
/// rows with the same id and the same fields are the same row to the file's
/// reader, so give every field your row's `==` compares, or the file's
/// batches will leave out reloads your app makes. Depends on ListDiff and
/// Foundation only.
public struct SequenceRecorder<SectionID: Hashable & CustomStringConvertible, Row: DiffableRow>
where Row.ID: CustomStringConvertible {
    public var title: String
    public var description: String?
    /// How the docs draw the rows and animate the changes.
    public var options: SequenceOptions
    /// The fields of a row, in order.
    private let fields: (Row) -> [(String, FieldValue)]
    private var steps: [RecordedStep] = []
    /// The steps' bytes in the file, each with a comma and its line's start.
    private var stepBytes = 0
    /// Sections recorded so far: a section's own layout is written once, where it first appears.
    private var sectionsSeen = Set<String>()

    public init(title: String, description: String? = nil, options: SequenceOptions = SequenceOptions(),
                fields: @escaping (Row) -> KeyValuePairs<String, any RecordableValue> = { _ in [:] }) {
        self.title = title
        self.description = description
        self.options = options
        self.fields = { fields($0).map { ($0.key, $0.value.fieldValue) } }
    }

    /// A recorder whose rows' fields are built as a list (a literal's
    /// `KeyValuePairs` holds as many as its source writes).
    init(title: String, options: SequenceOptions = SequenceOptions(), fieldList: @escaping (Row) -> [(String, FieldValue)]) {
        (self.title, self.description, self.options, self.fields) = (title, nil, options, fieldList)
    }

    /// How many snapshots were recorded.
    public var count: Int { steps.count }

    /// Adds `snapshot` as the sequence's next step.
    ///
    /// - Throws: `SequenceRecorderError` for what the file's reader would
    ///   refuse in it, and records nothing: more than 1,000,000 rows; a
    ///   section or row id given twice (as its `description`) or longer than
    ///   1,024 bytes; in a row, more than 999 fields (the file adds the id),
    ///   a field named `id`, named twice or with a name longer than 256 bytes,
    ///   a number that is not finite; steps that would pass the file's 64 MiB.
    public mutating func record(_ snapshot: Snapshot<SectionID, Row>, label: String? = nil) throws(SequenceRecorderError) {
        let index = steps.count
        guard snapshot.rowCount <= ReaderLimits.rowsPerSnapshot else { throw .tooManyRows(snapshot.rowCount, step: index) }
        var (sectionIDs, rowIDs) = (Set<String>(), Set<String>())
        var sections: [RecordedSection] = []
        for section in snapshot.sections {
            let id = section.id.description
            guard id.utf8.count <= ReaderLimits.idBytes else { throw .sectionIDTooLong(id, step: index) }
            guard sectionIDs.insert(id).inserted else { throw .duplicateSectionID(id, step: index) }
            var rows: [RecordedRow] = []
            rows.reserveCapacity(section.rows.count)
            for row in section.rows {
                let recorded = RecordedRow(id: row.id.description, fields: fields(row))
                try Self.check(recorded, step: index)
                guard rowIDs.insert(recorded.id).inserted else { throw .duplicateRowID(recorded.id, step: index) }
                rows.append(recorded)
            }
            let style = sectionsSeen.contains(id) ? nil : options.sectionLayouts[id]
            sections.append(RecordedSection(id: id, header: section.header, footer: section.footer, rows: rows, style: style))
        }
        let step = RecordedStep(label: label, sections: sections)
        // The steps alone, each on its line with its comma: past the limit, the file is whatever its title.
        let bytes = stepBytes + Self.text(of: step).utf8.count + 6
        guard bytes - 1 <= ReaderLimits.fileBytes else { throw .fileTooLarge(bytes: bytes - 1, step: index) }
        stepBytes = bytes
        steps.append(step)
        sectionsSeen.formUnion(sectionIDs)
    }

    /// What the reader would refuse in one row.
    private static func check(_ row: RecordedRow, step: Int) throws(SequenceRecorderError) {
        guard row.id.utf8.count <= ReaderLimits.idBytes else { throw .rowIDTooLong(row.id, step: step) }
        guard row.fields.count < ReaderLimits.fieldsPerRow else { throw .tooManyFields(row.fields.count, step: step, row: row.id) }
        var names = Set<String>()
        for (name, value) in row.fields {
            if name == "id" { throw .reservedField(step: step, row: row.id) }
            guard name.utf8.count <= ReaderLimits.keyBytes else { throw .fieldNameTooLong(name, step: step, row: row.id) }
            if !names.insert(name).inserted { throw .repeatedField(name, step: step, row: row.id) }
            if case .double(let number) = value, !number.isFinite { throw .nonFiniteNumber(field: name, step: step, row: row.id) }
        }
    }

    /// The sequence file's text: JSON, each row's fields in the order the
    /// closure gives them (a cell without `cell:` takes its title and detail
    /// in that order), everything else in a fixed order, so the same
    /// snapshots give the same bytes.
    ///
    /// - Throws: `SequenceRecorderError` for what the file's reader would
    ///   reject beyond what `record(_:label:)` refuses: no snapshot, a row
    ///   without the `version` or `moveHint` field the options name, a
    ///   `cell:` part naming a field no row has, a size or timing out of the
    ///   reader's range, a file over 64 MiB.
    public func json() throws(SequenceRecorderError) -> String {
        try check()
        var out = JSONText()
        out.object { top in
            top.member("title") { $0.string(title) }
            if let description { top.member("description") { $0.string(description) } }
            options.write(into: &top)
            top.member("steps") { list in list.array(steps) { item, step in Self.write(step, into: &item) } }
        }
        let text = out.text + "\n"
        guard text.utf8.count <= ReaderLimits.fileBytes else { throw .fileTooLarge(bytes: text.utf8.count, step: nil) }
        return text
    }

    /// One step as the file's `steps` list holds it.
    private static func write(_ step: RecordedStep, into item: inout JSONText) {
        item.object { object in
            if let label = step.label { object.member("label") { $0.string(label) } }
            object.member("sections") { list in
                list.array(step.sections) { item, section in
                    item.object { object in
                        object.member("id") { $0.string(section.id) }
                        if let header = section.header { object.member("header") { $0.string(header) } }
                        if let footer = section.footer { object.member("footer") { $0.string(footer) } }
                        if let style = section.style {
                            object.member("layout") { $0.string(style.layout.rawValue) }
                            if let columns = style.columns { object.member("columns") { $0.value(.int(columns)) } }
                        }
                        object.member("items") { list in
                            list.array(section.rows) { item, row in
                                item.inlineObject { object in
                                    object.member("id") { $0.string(row.id) }
                                    for (name, value) in row.fields { object.member(name) { $0.value(value) } }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// One step's text, as indented in the file's `steps` list.
    private static func text(of step: RecordedStep) -> String {
        var item = JSONText(depth: 2)
        write(step, into: &item)
        return item.text
    }

    /// Writes the file (atomically); `.json` is the name to give it.
    public func write(to path: String) throws {
        try Data(json().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// What the reader would reject beyond the steps themselves, found
    /// before the file is written: what the options name or set.
    private func check() throws(SequenceRecorderError) {
        guard !steps.isEmpty else { throw .noSnapshots }
        var seen = Set<String>()
        for (index, step) in steps.enumerated() {
            for section in step.sections {
                for row in section.rows {
                    let names = Set(row.fields.map(\.0))
                    for (key, field) in [("version", options.version), ("moveHint", options.moveHint)] {
                        if let field, !names.contains(field) { throw .missingField(field, option: key, step: index, row: row.id) }
                    }
                    seen.formUnion(names)
                }
            }
        }
        for (part, field) in options.cell?.parts ?? [] where !seen.contains(field) {
            throw .unknownField(field, cellPart: part, known: seen.sorted())
        }
        var ranged = [("height", options.height, ReaderLimits.heights), ("width", options.width, ReaderLimits.widths),
                      ("duration", options.duration, ReaderLimits.durations), ("springDamping", options.springDamping, ReaderLimits.dampings)]
        // The file gives a velocity only with a damping.
        if options.springDamping != nil { ranged.append(("springVelocity", options.springVelocity, ReaderLimits.velocities)) }
        ranged += [("columns", options.columns.map(Double.init), ReaderLimits.columns), ("spacing", options.spacing, ReaderLimits.spacings)]
        ranged += options.sectionLayouts.keys.sorted().map { ("sectionLayouts[\($0)].columns", options.sectionLayouts[$0]?.columns.map(Double.init), ReaderLimits.columns) }
        for (option, value, range) in ranged {
            if let value, !range.contains(value) { throw .optionOutOfRange(option, value, range) }
        }
        if let share = options.skipAnimation, !(share > 0 && share <= 1) { throw .optionOutOfRange("skipAnimation", share, 0...1) }
        // Keys the reader refuses in a layout that does not read them.
        let lines = options.layout == .grid || options.sectionLayouts.values.contains { $0.layout != .list }
        if !lines, options.columns != nil { throw .optionNeedsLayout("columns", needs: "layout .grid, or a section laid out as .grid or .orthogonal") }
        if !lines, options.spacing != nil { throw .optionNeedsLayout("spacing", needs: "layout .grid, or a section laid out as .grid or .orthogonal") }
        if options.layout != .table, options.tableFields != nil { throw .optionNeedsLayout("tableFields", needs: "layout .table") }
        if options.layout != .table, !options.titles.isEmpty { throw .optionNeedsLayout("titles", needs: "layout .table") }
        if options.layout == .table, !options.sectionLayouts.isEmpty { throw .optionNeedsLayout("sectionLayouts", needs: "layout .list or .grid") }
        if options.layout == .table, options.cell != nil { throw .optionNeedsLayout("cell", needs: "layout .list or .grid (a data table draws a column per field)") }
        for (id, style) in options.sectionLayouts where style.layout == .list && style.columns != nil {
            throw .optionNeedsLayout("sectionLayouts[\(id)].columns", needs: "the section laid out as .grid or .orthogonal")
        }
        if let fields = options.tableFields {
            if fields.isEmpty { throw .optionNeedsLayout("tableFields", needs: "at least one field (nil shows every field rows have)") }
            for title in options.titles.keys.sorted() where !fields.contains(title) {
                throw .optionNeedsLayout("titles[\(title)]", needs: "'\(title)' among tableFields")
            }
        }
    }
}

/// What `SequenceRecorder.json()` and `write(to:)` refuse to write, because
/// the file's reader would reject it. Steps are counted from 0, as the
/// player's steps are.
public enum SequenceRecorderError: Error, Equatable, CustomStringConvertible {
    case noSnapshots
    case reservedField(step: Int, row: String)
    case repeatedField(String, step: Int, row: String)
    case nonFiniteNumber(field: String, step: Int, row: String)
    case missingField(String, option: String, step: Int, row: String)
    case unknownField(String, cellPart: String, known: [String])
    case tooManyRows(Int, step: Int)
    case sectionIDTooLong(String, step: Int)
    case rowIDTooLong(String, step: Int)
    case duplicateSectionID(String, step: Int)
    case duplicateRowID(String, step: Int)
    case tooManyFields(Int, step: Int, row: String)
    case fieldNameTooLong(String, step: Int, row: String)
    /// The file's bytes; with a step, the bytes of the steps up to it alone.
    case fileTooLarge(bytes: Int, step: Int?)
    /// The option (`height`, `springDamping`), its value, and what the reader takes.
    case optionOutOfRange(String, Double, ClosedRange<Double>)
    /// An option (`columns`, `fields`) that means nothing in the options' layout, and the layout it needs.
    case optionNeedsLayout(String, needs: String)

    public var description: String {
        switch self {
        case .noSnapshots:
            return "no snapshot was recorded; a sequence needs at least one (call record(_:label:))"
        case .reservedField(let step, let row):
            return "step \(step), row '\(row)': a field is named 'id', which the file gives the row's id; name it otherwise"
        case .repeatedField(let name, let step, let row):
            return "step \(step), row '\(row)': the field '\(name)' is given twice"
        case .nonFiniteNumber(let field, let step, let row):
            return "step \(step), row '\(row)': '\(field)' is not a finite number, which a JSON file cannot hold"
        case .missingField(let field, let option, let step, let row):
            return "step \(step), row '\(row)' has no '\(field)' field, which the options' \(option) names"
        case .unknownField(let field, let part, let known):
            return "the cell's \(part) names '\(field)', a field no recorded row has"
                + (known.isEmpty ? "" : " (fields: \(known.joined(separator: ", ")))")
        case .tooManyRows(let count, let step):
            return "step \(step) has \(count) rows; a snapshot is limited to \(ReaderLimits.rowsPerSnapshot) rows"
        case .sectionIDTooLong(let id, let step):
            return "step \(step): a section id is \(id.utf8.count) bytes long ('\(Self.start(of: id))'); ids are limited to \(ReaderLimits.idBytes) bytes"
        case .rowIDTooLong(let id, let step):
            return "step \(step): a row id is \(id.utf8.count) bytes long ('\(Self.start(of: id))'); ids are limited to \(ReaderLimits.idBytes) bytes"
        case .duplicateSectionID(let id, let step):
            return "step \(step): the section id '\(Self.start(of: id))' is given twice (ids are written as their description)"
        case .duplicateRowID(let id, let step):
            return "step \(step): the row id '\(Self.start(of: id))' is given twice (ids are written as their description)"
        case .tooManyFields(let count, let step, let row):
            return "step \(step), row '\(Self.start(of: row))' has \(count) fields and its id; "
                + "rows are limited to \(ReaderLimits.fieldsPerRow), the id among them"
        case .fieldNameTooLong(let name, let step, let row):
            return "step \(step), row '\(Self.start(of: row))': a field name is \(name.utf8.count) bytes long ('\(Self.start(of: name))'); "
                + "field names are limited to \(ReaderLimits.keyBytes) bytes"
        case .fileTooLarge(let bytes, let step?):
            return "step \(step): the steps up to it are \(bytes) bytes of the file; files are limited to 64 MiB (\(ReaderLimits.fileBytes) bytes)"
        case .fileTooLarge(let bytes, nil):
            return "the file is \(bytes) bytes; files are limited to 64 MiB (\(ReaderLimits.fileBytes) bytes)"
        case .optionOutOfRange(let option, let value, let range):
            return "the options' \(option) is \(Self.number(value)); the file's reader takes \(Self.number(range.lowerBound)) to \(Self.number(range.upperBound))"
        case .optionNeedsLayout(let option, let needs):
            return "the options' \(option) needs \(needs); the file's reader refuses it otherwise"
        }
    }

    /// An id or a name as far as a message shows it: its first 40 characters.
    private static func start(of text: String) -> String {
        text.count <= 40 ? text : text.prefix(40) + "…"
    }

    /// A number as the file writes it.
    private static func number(_ value: Double) -> String {
        var text = JSONText()
        text.value(.double(value))
        return text.text
    }
}

/// A value a recorded row's field can hold, written with its type: text,
/// a whole number, a number, a flag, or nothing.
public protocol RecordableValue {
    var fieldValue: FieldValue { get }
}

extension FieldValue: RecordableValue { public var fieldValue: FieldValue { self } }
extension String: RecordableValue { public var fieldValue: FieldValue { .string(self) } }
extension Substring: RecordableValue { public var fieldValue: FieldValue { .string(String(self)) } }
extension Int: RecordableValue { public var fieldValue: FieldValue { .int(self) } }
extension Int32: RecordableValue { public var fieldValue: FieldValue { .int(Int(self)) } }
extension Int64: RecordableValue { public var fieldValue: FieldValue { .int(Int(self)) } }
extension Double: RecordableValue { public var fieldValue: FieldValue { .double(self) } }
extension Float: RecordableValue { public var fieldValue: FieldValue { .double(Double(self)) } }
extension Bool: RecordableValue { public var fieldValue: FieldValue { .bool(self) } }
extension Optional: RecordableValue where Wrapped: RecordableValue {
    public var fieldValue: FieldValue { self?.fieldValue ?? .null }
}

/// How the docs draw and replay a recorded sequence: the keys a sequence
/// file has beside its steps (`animation`, `cell`, `version`, `moveHint`,
/// `prefer`, and the list's size, style and timing). Nil leaves a key out,
/// so the reader's default applies.
public struct SequenceOptions: Equatable, Sendable {
    /// `UITableView.RowAnimation`.
    public enum Animation: String, CaseIterable, Sendable {
        case fade, right, left, top, bottom, none, middle, automatic
    }

    /// `UITableView.Style`.
    public enum TableStyle: String, CaseIterable, Sendable {
        case plain, grouped, insetGrouped
    }

    /// How rows are drawn: a `UITableViewCell` of a system style, with the
    /// fields named as its parts (the sequence file's `cell:`).
    public struct Cell: Equatable, Sendable {
        /// `UITableViewCell.CellStyle`.
        public enum Style: String, CaseIterable, Sendable {
            case `default`, subtitle, value1, value2
        }

        public var style: Style?
        public var title: String?
        public var subtitle: String?
        public var detail: String?
        public var image: String?
        public var badge: String?
        /// A field (whose `true` is a checkmark) or an accessory's name for
        /// every row (`disclosureIndicator`).
        public var accessory: String?
        /// Fields never shown.
        public var hide: [String]

        public init(style: Style? = nil, title: String? = nil, subtitle: String? = nil, detail: String? = nil,
                    image: String? = nil, badge: String? = nil, accessory: String? = nil, hide: [String] = []) {
            (self.style, self.title, self.subtitle, self.detail) = (style, title, subtitle, detail)
            (self.image, self.badge, self.accessory, self.hide) = (image, badge, accessory, hide)
        }

        /// The accessories named for every row rather than by a field.
        static let accessories: Set<String> = ["checkmark", "disclosureIndicator", "detailButton", "detailDisclosureButton"]

        /// The parts that name a field, with the field, in the file's order.
        var parts: [(String, String)] {
            let named: [(String, String?)] = [("title", title), ("subtitle", subtitle), ("detail", detail), ("image", image),
                                               ("badge", badge), ("accessory", accessory.flatMap { Self.accessories.contains($0) ? nil : $0 })]
            return named.compactMap { part, field in field.map { (part, $0) } } + hide.map { ("hide", $0) }
        }
    }

    public var animation: Animation?
    /// Per kind of change, over `animation`.
    public var insertAnimation: Animation?
    public var deleteAnimation: Animation?
    public var reloadAnimation: Animation?
    public var cell: Cell?
    /// A field whose change alone marks a row as changed.
    public var version: String?
    /// A field whose change marks a row as the one that moved, among equally small move sets.
    public var moveHint: String?
    public var prefer: MoveDirection?
    /// The list's visible height and its width, in points.
    public var height: Double?
    public var width: Double?
    public var style: TableStyle?
    /// Seconds per batch (UIKit's 0.3 when nil).
    public var duration: Double?
    /// `usingSpringWithDamping:initialSpringVelocity:`; nil: ease-in-out.
    public var springDamping: Double?
    public var springVelocity: Double?

    /// The view that lays the list out (`layout:`): a table view's list,
    /// a collection view's grid, or a data table.
    public enum Layout: String, CaseIterable, Sendable { case list, grid, table }
    /// A section's own layout in a compositional collection view.
    public enum SectionLayout: String, CaseIterable, Sendable { case list, grid, orthogonal }
    /// What a batch does to the scroll offset.
    public enum Scroll: String, CaseIterable, Sendable { case keepOffset = "keep-offset", anchor }

    public var layout: Layout?
    /// A grid's items per line, and its spacing in points.
    public var columns: Int?
    public var spacing: Double?
    /// A data table's columns, in order, and their titles by field.
    public var tableFields: [String]?
    public var titles: [String: String] = [:]
    public var scroll: Scroll?
    /// The share of items past which a step is shown at once.
    public var skipAnimation: Double?
    /// Sections with a layout of their own, by id (as its `description`):
    /// written where each first appears.
    public var sectionLayouts: [String: SectionStyle] = [:]

    /// A section's own layout, and for a grid or orthogonal line its items per line.
    public struct SectionStyle: Equatable, Sendable {
        public var layout: SectionLayout
        public var columns: Int?
        public init(_ layout: SectionLayout, columns: Int? = nil) { (self.layout, self.columns) = (layout, columns) }
    }

    public init(animation: Animation? = nil, insertAnimation: Animation? = nil, deleteAnimation: Animation? = nil,
                reloadAnimation: Animation? = nil, cell: Cell? = nil, version: String? = nil, moveHint: String? = nil,
                prefer: MoveDirection? = nil, height: Double? = nil, width: Double? = nil, style: TableStyle? = nil,
                duration: Double? = nil, springDamping: Double? = nil, springVelocity: Double? = nil) {
        (self.animation, self.insertAnimation, self.deleteAnimation, self.reloadAnimation) = (animation, insertAnimation, deleteAnimation, reloadAnimation)
        (self.cell, self.version, self.moveHint, self.prefer) = (cell, version, moveHint, prefer)
        (self.height, self.width, self.style, self.duration) = (height, width, style, duration)
        (self.springDamping, self.springVelocity) = (springDamping, springVelocity)
    }

    /// The keys, as the sequence file names them.
    func write(into top: inout JSONText.Members) {
        if let animation { top.member("animation") { $0.string(animation.rawValue) } }
        let kinds = [("insert", insertAnimation), ("delete", deleteAnimation), ("reload", reloadAnimation)].compactMap { kind, style in
            style.map { (kind, $0) }
        }
        if !kinds.isEmpty {
            top.member("animations") { value in
                value.inlineObject { object in for (kind, style) in kinds { object.member(kind) { $0.string(style.rawValue) } } }
            }
        }
        if let version { top.member("version") { $0.string(version) } }
        if let moveHint { top.member("moveHint") { $0.string(moveHint) } }
        if let prefer { top.member("prefer") { $0.string(prefer.rawValue) } }
        if let cell {
            top.member("cell") { value in
                value.inlineObject { object in
                    if let style = cell.style { object.member("style") { $0.string(style.rawValue) } }
                    for (part, field) in [("title", cell.title), ("subtitle", cell.subtitle), ("detail", cell.detail), ("image", cell.image),
                                          ("badge", cell.badge), ("accessory", cell.accessory)] {
                        if let field { object.member(part) { $0.string(field) } }
                    }
                    if !cell.hide.isEmpty { object.member("hide") { list in list.array(cell.hide, multiline: false) { $0.string($1) } } }
                }
            }
        }
        if let height { top.member("height") { $0.value(.double(height)) } }
        if let width { top.member("width") { $0.value(.double(width)) } }
        if let style { top.member("style") { $0.string(style.rawValue) } }
        if let duration { top.member("duration") { $0.value(.double(duration)) } }
        if let layout { top.member("layout") { $0.string(layout.rawValue) } }
        if let columns { top.member("columns") { $0.value(.int(columns)) } }
        if let spacing { top.member("spacing") { $0.value(.double(spacing)) } }
        if let tableFields { top.member("fields") { list in list.array(tableFields, multiline: false) { $0.string($1) } } }
        if !titles.isEmpty {
            top.member("titles") { value in
                value.inlineObject { object in for key in titles.keys.sorted() { object.member(key) { $0.string(titles[key]!) } } }
            }
        }
        if let scroll { top.member("scroll") { $0.string(scroll.rawValue) } }
        if let skipAnimation { top.member("skipAnimation") { $0.value(.double(skipAnimation)) } }
        if let springDamping {
            top.member("spring") { value in
                value.inlineObject { object in
                    object.member("damping") { $0.value(.double(springDamping)) }
                    if let springVelocity { object.member("velocity") { $0.value(.double(springVelocity)) } }
                }
            }
        }
    }
}

struct RecordedStep {
    var label: String?
    var sections: [RecordedSection]
}

struct RecordedSection {
    var id: String
    var header: String?
    var footer: String?
    var rows: [RecordedRow]
    var style: SequenceOptions.SectionStyle?
}

struct RecordedRow {
    var id: String
    /// In the closure's order.
    var fields: [(String, FieldValue)]
}

/// JSON written in the order it is given (Foundation's encoder keeps no
/// key order unless it sorts): objects over several lines, two spaces an
/// indent, rows and small mappings on one line each.
struct JSONText {
    private(set) var text = ""
    private var depth: Int

    /// Text indented from `depth` levels, for a value written inside others.
    init(depth: Int = 0) { self.depth = depth }

    struct Members {
        fileprivate var json: JSONText
        fileprivate var count = 0
        fileprivate let multiline: Bool

        mutating func member(_ key: String, _ value: (inout JSONText) -> Void) {
            json.text += count == 0 ? "" : ","
            json.text += multiline ? "\n" + String(repeating: "  ", count: json.depth) : (count == 0 ? "" : " ")
            count += 1
            json.string(key)
            json.text += ": "
            value(&json)
        }
    }

    mutating func object(_ body: (inout Members) -> Void) { members(multiline: true, body) }

    mutating func inlineObject(_ body: (inout Members) -> Void) { members(multiline: false, body) }

    private mutating func members(multiline: Bool, _ body: (inout Members) -> Void) {
        text += "{"
        depth += 1
        var members = Members(json: self, multiline: multiline)
        text = ""  // so the members' copy of the text is the only one, and grows in place
        body(&members)
        // Swapped, not copied: with a second reference left in `members`, the next append would copy the whole text.
        swap(&self, &members.json)
        depth -= 1
        if multiline, members.count > 0 { text += "\n" + String(repeating: "  ", count: depth) }
        text += "}"
    }

    mutating func array<Element>(_ elements: [Element], multiline: Bool = true, _ write: (inout JSONText, Element) -> Void) {
        text += "["
        depth += 1
        for (index, element) in elements.enumerated() {
            if index > 0 { text += "," }
            if multiline {
                text += "\n" + String(repeating: "  ", count: depth)
            } else if index > 0 {
                text += " "
            }
            write(&self, element)
        }
        depth -= 1
        if multiline, !elements.isEmpty { text += "\n" + String(repeating: "  ", count: depth) }
        text += "]"
    }

    mutating func value(_ value: FieldValue) {
        switch value {
        case .string(let string): self.string(string)
        case .int(let number): text += String(number)
        case .double(let number):
            // Whole numbers as integers: the reader reads both alike, and 2 reads better than 2.0.
            text += number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .bool(let flag): text += flag ? "true" : "false"
        case .null: text += "null"
        }
    }

    mutating func string(_ string: String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}
