import ProjectFiles
import Diagnostics
import Foundation
import ListDiff

/// Reads snapshot sequence files (`.yml`, `.yaml`, `.json`) into checked
/// `SnapshotSequence` values, reporting every problem with its file, line and
/// column. A file with any error yields no sequence: nothing is half-read.
public enum SnapshotReader {
    /// The file extensions snapshot sequences are written in.
    public static let extensions: Set<String> = ["yml", "yaml", "json"]

    /// Reads the file at `path`; diagnostics name it as `displayPath`.
    public static func read(path: String, displayPath: String? = nil, followingLink: Bool = true,
                            limits: SnapshotLimits = .standard) -> (sequence: SnapshotSequence?, diagnostics: [Diagnostic]) {
        let file = displayPath ?? path
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(path, limit: limits.fileBytes, followingLink: followingLink)
        } catch {
            return (nil, [.error(error.tooLarge ? "file-too-large" : "unreadable-file",
                                 at: SourceLocation(file: file, line: 1, column: 1), error.message)])
        }
        return read(bytes: bytes, file: file, limits: limits)
    }

    /// Reads a file's contents; `file` names it in diagnostics and decides
    /// the format by its extension.
    public static func read(bytes: [UInt8], file: String,
                            limits: SnapshotLimits = .standard) -> (sequence: SnapshotSequence?, diagnostics: [Diagnostic]) {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard bytes.count <= limits.fileBytes else {
            return (nil, [.error("file-too-large", at: start, "the file is \(ByteCount.exactly(Int64(bytes.count))); "
                                 + "files are limited to \(ByteCount.exactly(Int64(limits.fileBytes)))")])
        }
        let fileExtension = file.split(separator: ".").last.map { String($0).lowercased() } ?? ""
        guard extensions.contains(fileExtension) else {
            return (nil, [.error("unsupported-file", at: start, "expected a .yml, .yaml or .json file")])
        }
        if let offset = firstInvalidUTF8Offset(bytes) {
            return (nil, [.error("invalid-utf8", at: location(ofOffset: offset, in: bytes, file: file),
                                 "the file is not valid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))")])
        }
        let root: LocatedValue
        if fileExtension == "json" {
            do {
                root = try JSONReader.parse(bytes, file: file)
            } catch {
                return (nil, [.error("json-syntax", at: error.location, error.message)])
            }
        } else {
            switch YAMLBridge.parse(String(decoding: bytes, as: UTF8.self), file: file) {
            case .success(let value): root = value
            case .failure(let diagnostic): return (nil, [diagnostic])
            }
        }
        var reader = TreeReader(file: file, limits: limits)
        let sequence = reader.sequence(from: root)
        let hasErrors = reader.diagnostics.contains { $0.severity == .error }
        return (hasErrors ? nil : sequence, reader.diagnostics)
    }

    /// Reads a sequence already parsed into a located tree (a demo block's
    /// inline `steps:` in a Markdown page).
    public static func read(value: LocatedValue, file: String,
                            limits: SnapshotLimits = .standard) -> (sequence: SnapshotSequence?, diagnostics: [Diagnostic]) {
        var reader = TreeReader(file: file, limits: limits)
        let sequence = reader.sequence(from: value)
        return (reader.diagnostics.contains { $0.severity == .error } ? nil : sequence, reader.diagnostics)
    }

    /// The byte offset of the first byte that does not start or continue a
    /// valid UTF-8 sequence, or nil when the bytes are valid.
    public static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        // ASCII, eight bytes at a time, up to the first byte that is not:
        // everything before it is valid and ends on a scalar.
        let asciiEnd = bytes.withUnsafeBytes { raw -> Int in
            var index = 0
            while index + 8 <= raw.count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { index += 8 }
            while index < raw.count, raw[index] < 0x80 { index += 1 }
            return index
        }
        guard asciiEnd < bytes.count else { return nil }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[asciiEnd...].makeIterator()
        var offset = asciiEnd
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// Line and column (in Unicode scalars, as YAML marks count) of a byte.
    public static func location(ofOffset offset: Int, in bytes: [UInt8], file: String) -> SourceLocation {
        var line = 1, column = 1
        for byte in bytes[..<offset] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}

/// Walks a located tree into a `SnapshotSequence`, collecting every problem.
struct TreeReader {
    let file: String
    var limits = SnapshotLimits.standard
    var diagnostics: [Diagnostic] = []

    static let topKeys = ["title", "description", "animation", "animations", "identity", "version", "moveHint", "prefer", "cell", "steps"]
        + Presentation.sequenceKeys
    static let animationKeys = ["insert", "delete", "reload"]
    static let stepKeys = ["label", "items", "sections"]
    static let sectionKeys = ["id", "header", "footer", "items", "layout", "columns"]

    /// Each section's own layout (compositional), where it was first given.
    var sectionStyles: [String: (style: Presentation.SectionStyle, location: SourceLocation)] = [:]

    /// The options every row is read with.
    struct RowRules {
        var identity: RowIdentity
        var versionField: String?
        var moveHintField: String?
    }

    mutating func error(_ id: String, _ location: SourceLocation, _ message: String, notes: [Diagnostic.Note] = []) {
        diagnostics.append(.error(id, at: location, message, notes: notes))
    }

    // MARK: Shapes

    /// The members of a mapping, by key; unknown and repeated keys are
    /// reported. Nil (reported) when `value` is not a mapping.
    mutating func members(of value: LocatedValue, _ what: String, allowed: [String]) -> [String: LocatedValue.Member]? {
        guard case .object(let list) = value.kind else {
            error("wrong-type", value.location, "\(what) must be a mapping, not \(value.typeName)")
            return nil
        }
        var byKey: [String: LocatedValue.Member] = [:]
        for member in list {
            guard member.key.utf8.count <= limits.keyBytes else {
                error("key-too-long", member.keyLocation, "a key is \(member.key.utf8.count) bytes long; keys are limited to \(limits.keyBytes) bytes")
                continue
            }
            if let first = byKey[member.key] {
                error("duplicate-key", member.keyLocation, "duplicate key '\(member.key)' in \(what)",
                      notes: [Diagnostic.Note(location: first.keyLocation, message: "'\(member.key)' first appears here")])
                continue
            }
            guard allowed.contains(member.key) else {
                error("unknown-key", member.keyLocation,
                      "unknown key '\(member.key)' in \(what)" + KeySuggestions.keyHint(for: member.key, in: allowed))
                continue
            }
            byKey[member.key] = member
        }
        return byKey
    }

    mutating func string(_ member: LocatedValue.Member?) -> String? {
        guard let member else { return nil }
        guard case .string(let text) = member.value.kind else {
            error("wrong-type", member.value.location, "'\(member.key)' must be a string, not \(member.value.typeName)")
            return nil
        }
        return text
    }

    mutating func list(_ member: LocatedValue.Member) -> [LocatedValue]? {
        guard case .array(let elements) = member.value.kind else {
            error("wrong-type", member.value.location, "'\(member.key)' must be a list, not \(member.value.typeName)")
            return nil
        }
        return elements
    }

    mutating func animation(_ member: LocatedValue.Member?) -> RowAnimation? {
        guard let member, let name = string(member) else { return nil }
        guard let style = RowAnimation(rawValue: name) else {
            let styles = RowAnimation.allCases.map(\.rawValue)
            error("unknown-animation", member.value.location,
                  "unknown animation style '\(name)'" + KeySuggestions.hint(for: name, in: styles)
                    + " (styles: \(styles.joined(separator: ", ")))")
            return nil
        }
        return style
    }

    // MARK: The sequence

    mutating func sequence(from root: LocatedValue) -> SnapshotSequence? {
        guard case .object = root.kind else {
            error("wrong-type", root.location, "a snapshot sequence must be a mapping with 'steps', not \(root.typeName)")
            return nil
        }
        guard let keys = members(of: root, "the snapshot sequence", allowed: Self.topKeys) else { return nil }
        let baseName = file.split(separator: "/").last.map(String.init) ?? file
        let title = string(keys["title"]) ?? String(baseName.split(separator: ".").first ?? Substring(baseName))
        let description = string(keys["description"])

        var animations = RowAnimations()
        if let base = animation(keys["animation"]) {
            animations = RowAnimations(insert: base, delete: base, reload: base)
        }
        if let member = keys["animations"], let kinds = members(of: member.value, "'animations'", allowed: Self.animationKeys) {
            if let style = animation(kinds["insert"]) { animations.insert = style }
            if let style = animation(kinds["delete"]) { animations.delete = style }
            if let style = animation(kinds["reload"]) { animations.reload = style }
        }

        var rules = RowRules(identity: .field("id"))
        if let name = string(keys["identity"]) {
            if name.isEmpty {
                error("wrong-type", keys["identity"]!.value.location, "'identity' must name a field, or be 'content'")
            } else {
                rules.identity = name == "content" ? .content : .field(name)
            }
        }
        rules.versionField = string(keys["version"])
        rules.moveHintField = string(keys["moveHint"])
        var prefer: MoveDirection?
        if let member = keys["prefer"], let name = string(member) {
            prefer = MoveDirection(rawValue: name)
            if prefer == nil {
                error("unknown-value", member.value.location,
                      "unknown value '\(name)' for 'prefer'" + KeySuggestions.hint(for: name, in: ["up", "down"]) + " (expected 'up' or 'down')")
            }
        }

        var steps: [SnapshotSequence.Step] = []
        if let member = keys["steps"] {
            if let elements = list(member) {
                if elements.isEmpty {
                    error("empty-steps", member.value.location, "'steps' is empty; a sequence needs at least one snapshot")
                }
                for (index, element) in elements.enumerated() {
                    if let step = step(element, index: index, rules: rules) { steps.append(step) }
                }
            }
        } else {
            error("missing-key", root.location, "missing 'steps': a snapshot sequence is a list of steps, each a snapshot of the list")
        }
        var cell: CellLayout?
        if let member = keys["cell"] {
            let (layout, problems) = CellLayout.read(member.value)
            diagnostics += problems
            // Every problem of the file: a field name no row has is said
            // beside an error elsewhere in the same `cell:`.
            warnAboutMissingFields(member: member, steps: steps, identity: rules.identity)
            if let layout {
                cell = layout
            }
        }
        var presentation = Presentation()
        diagnostics += presentation.read(keys)
        presentation.sections = sectionStyles.mapValues(\.style)
        checkLayout(presentation, keys: keys, cell: cell, steps: steps, identity: rules.identity)
        if presentation.layout == .table, presentation.fields == nil {
            // Every field rows have, in the order first seen (bookkeeping fields are not columns).
            let bookkeeping = Set([rules.versionField, rules.moveHintField].compactMap { $0 })
            var seen = Set<String>(), columns: [String] = []
            for step in steps { for section in step.snapshot.sections { for row in section.rows { for field in row.fields
            where !bookkeeping.contains(field.name) && seen.insert(field.name).inserted { columns.append(field.name) } } } }
            if columns.count > limits.fieldsPerRow, let member = keys["layout"] {
                error("too-many-fields", member.value.location,
                      "a data table without 'fields' shows every field rows have: these rows have \(columns.count), over the limit of \(limits.fieldsPerRow) columns; name the columns with 'fields'")
                columns.removeLast(columns.count - limits.fieldsPerRow)
            }
            presentation.fields = columns.isEmpty ? [{ if case .field(let name) = rules.identity { return name }; return "id" }()] : columns
        }
        if presentation.layout == .table, let columns = presentation.fields, let member = keys["titles"], keys["fields"] == nil,
           case .object(let entries) = member.value.kind {
            // Without 'fields', a title is checked against the fields rows have.
            for entry in entries where !columns.contains(entry.key) {
                diagnostics.append(.warning("table-unknown-field", at: entry.keyLocation, "no row has a field '\(entry.key)', so no column has this title"
                                            + KeySuggestions.hint(for: entry.key, in: columns)))
            }
        }
        if presentation.layout == .table, let columns = presentation.fields {
            checkTableSize(columns, steps: steps, at: (keys["fields"] ?? keys["layout"])?.keyLocation ?? root.location, identity: rules.identity)
        }
        if presentation.layout == .table, let columns = presentation.fields {
            // Widths from the content, as a data table sizes its columns:
            // the longest text of each (in characters; a long one wraps).
            var widths = columns.map { min(40, max(3, (presentation.titles[$0] ?? $0).count)) }
            let place = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            for step in steps { for section in step.snapshot.sections { for row in section.rows {
                for field in row.fields { if let k = place[field.name] { widths[k] = max(widths[k], min(40, field.value.description.count)) } }
                if case .field(let name) = rules.identity, let k = place[name] { widths[k] = max(widths[k], min(40, row.id.count)) }
            } } }
            presentation.columnWidths = widths
        }
        return SnapshotSequence(file: file, title: title, description: description, animations: animations,
                                identity: rules.identity, versionField: rules.versionField,
                                moveHintField: rules.moveHintField, prefer: prefer, cell: cell,
                                presentation: presentation, steps: steps)
    }

    /// Keys that mean nothing in the layout the sequence has are errors
    /// (a grid's columns on a table view would silently do nothing); row
    /// animations on a collection view, which has none, are a warning.
    mutating func checkLayout(_ presentation: Presentation, keys: [String: LocatedValue.Member], cell: CellLayout?, steps: [SnapshotSequence.Step], identity: RowIdentity) {
        let lines = presentation.layout == .grid || presentation.sections.values.contains { $0.layout != .list }
        for key in ["columns", "spacing"] where !lines {
            if let member = keys[key] {
                error("layout-key", member.keyLocation, "'\(key)' lays out a grid: it needs 'layout: grid', or a section with 'layout: grid' or 'layout: orthogonal'")
            }
        }
        if presentation.layout == .table {
            if let member = keys["cell"] {
                error("layout-key", member.keyLocation, "'cell' draws a table view's cells; a data table ('layout: table') draws a column per field ('fields')")
            }
            if let first = sectionStyles.values.min(by: { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }) {
                error("layout-key", first.location, "a data table ('layout: table') lays every section out as rows of its columns; a section's own layout needs 'layout: list' or 'layout: grid'")
            }
            if let fields = presentation.fields, let member = keys["fields"], case .array(let names) = member.value.kind {
                var present = Set<String>()
                if case .field(let name) = identity { present.insert(name) }
                for step in steps { for section in step.snapshot.sections { for row in section.rows { for field in row.fields { present.insert(field.name) } } } }
                for (name, value) in zip(fields, names.filter { if case .string(let text) = $0.kind { return !text.isEmpty } else { return false } })
                where !present.contains(name) && !steps.isEmpty {
                    diagnostics.append(.warning("table-unknown-field", at: value.location, "no row has a field '\(name)'"
                                                + KeySuggestions.hint(for: name, in: present.sorted())))
                }
            }
        }
        if presentation.isCollectionView {
            for key in ["animation", "animations"] {
                if let member = keys[key] {
                    diagnostics.append(.warning("collection-animation", at: member.keyLocation,
                                                "'\(key)' has no effect on a collection view: UICollectionView fades items in and out, moves them from frame to frame, and has no row animations"))
                }
            }
        }
    }

    /// The cells a data table draws beyond the values its rows have: every
    /// column of every row is a cell, an empty one where the row has no
    /// such field, so many columns over rows that lack them would make the
    /// site grow far past its input. The cells may be at most four times
    /// the values plus 100,000 (a table whose rows have their columns' values
    /// is one cell per value).
    static let emptyCellRoom = 100_000
    mutating func checkTableSize(_ columns: [String], steps: [SnapshotSequence.Step], at location: SourceLocation, identity: RowIdentity) {
        let wanted = Set(columns)
        var cells = 0, values = 0
        for step in steps {
            for section in step.snapshot.sections {
                cells += section.rows.count * columns.count
                for row in section.rows {
                    values += row.fields.reduce(0) { $0 + (wanted.contains($1.name) ? 1 : 0) }
                    if case .field(let name) = identity, wanted.contains(name) { values += 1 }
                }
            }
        }
        guard cells > 4 * values + Self.emptyCellRoom else { return }
        error("table-too-sparse", location,
              "a data table draws every column of every row: \(columns.count) columns over these rows are \(cells) cells, "
                + "but the rows have \(values) of their values; a table may have at most four cells per value, plus \(Self.emptyCellRoom)")
    }

    /// How many names one warning lists.
    static let listedNames = 20

    /// A cell slot or `hide` naming a field that no row has is most likely a
    /// typo: a warning at the name, listing the fields rows do have.
    mutating func warnAboutMissingFields(member: LocatedValue.Member, steps: [SnapshotSequence.Step], identity: RowIdentity) {
        guard !steps.isEmpty, case .object(let cellMembers) = member.value.kind else { return }
        var present: [String] = []
        var known = Set<String>()
        if case .field(let name) = identity { known.insert(name); present.append(name) }
        for step in steps {
            for section in step.snapshot.sections {
                for row in section.rows {
                    for field in row.fields where known.insert(field.name).inserted { present.append(field.name) }
                }
            }
        }
        // Each missing name once, at its place, up to a few; then one
        // warning that counts the rest. The fields rows have are listed up
        // to a few too: with thousands of fields and many missing names,
        // the messages once ran to hundreds of megabytes.
        let shownFields = present.count <= Self.listedNames ? present.joined(separator: ", ")
            : present.prefix(Self.listedNames).joined(separator: ", ") + " and \(present.count - Self.listedNames) more"
        var missing: [(field: String, location: SourceLocation)] = []
        // (A key `cell:` does not have is an error of its own: its value names nothing.)
        for cellMember in cellMembers where cellMember.key != "style" && CellLayout.keys.contains(cellMember.key) {
            if cellMember.key == "accessory", case .string(let name) = cellMember.value.kind, CellLayout.accessories.contains(name) { continue }
            let names: [LocatedValue]
            if case .array(let list) = cellMember.value.kind { names = list } else { names = [cellMember.value] }
            for name in names {
                guard case .string(let field) = name.kind, !known.contains(field) else { continue }
                guard field.utf8.count <= limits.keyBytes else {
                    error("key-too-long", name.location, "a field name is \(field.utf8.count) bytes long; field names are limited to \(limits.keyBytes) bytes")
                    continue
                }
                if known.insert(field).inserted { missing.append((field, name.location)) }
            }
        }
        for (field, location) in missing.prefix(Self.listedNames) {
            diagnostics.append(.warning("cell-unknown-field", at: location,
                                        "no row has a field '\(field)'" + KeySuggestions.hint(for: field, in: present) + " (rows have: \(shownFields))"))
        }
        if missing.count > Self.listedNames {
            let rest = missing.dropFirst(Self.listedNames)
            diagnostics.append(.warning("cell-unknown-field", at: rest.first!.location,
                                        "no row has these \(rest.count) fields either: "
                                            + rest.prefix(Self.listedNames).map { "'\($0.field)'" }.joined(separator: ", ")
                                            + (rest.count > Self.listedNames ? " and \(rest.count - Self.listedNames) more" : "")))
        }
    }

    // MARK: Steps, sections, rows

    mutating func step(_ value: LocatedValue, index: Int, rules: RowRules) -> SnapshotSequence.Step? {
        guard let keys = members(of: value, "a step", allowed: Self.stepKeys) else { return nil }
        let label = string(keys["label"]) ?? (index == 0 ? "Initial" : "Step \(index)")
        var sections: [Section<String, Record<String>>] = []
        var places = Places()
        switch (keys["items"], keys["sections"]) {
        case (nil, nil):
            error("step-without-rows", value.location, "a step needs 'items' (one unnamed section) or 'sections'")
            return nil
        case (.some, .some):
            error("step-with-items-and-sections", keys["sections"]!.keyLocation,
                  "a step has both 'items' and 'sections'; use 'items' for one unnamed section, 'sections' otherwise")
            return nil
        case (let items?, nil):
            guard let rows = rows(items, section: 0, rules: rules, places: &places) else { return nil }
            sections = [Section(id: "", rows: rows)]
        case (nil, let list?):
            guard let elements = self.list(list) else { return nil }
            for (index, element) in elements.enumerated() {
                if let section = section(element, index: index, rules: rules, places: &places) { sections.append(section) }
            }
        }
        return SnapshotSequence.Step(label: label, snapshot: Snapshot(sections: sections), location: value.location)
    }

    /// Where each section and row id of one snapshot was first written.
    struct Places {
        var sections: [String: SourceLocation] = [:]
        var rows: [String: SourceLocation] = [:]
        /// Rows read so far, in every section.
        var rowCount = 0
    }

    /// Nil (reported) when an id is longer than the limit allows.
    mutating func checkedID(_ id: String, _ what: String, at location: SourceLocation) -> String? {
        guard id.utf8.count <= limits.idBytes else {
            error("id-too-long", location, "\(what) id is \(id.utf8.count) bytes long; ids are limited to \(limits.idBytes) bytes")
            return nil
        }
        return id
    }

    mutating func section(_ value: LocatedValue, index: Int, rules: RowRules, places: inout Places) -> Section<String, Record<String>>? {
        guard let keys = members(of: value, "a section", allowed: Self.sectionKeys) else { return nil }
        guard let idMember = keys["id"] else {
            error("missing-key", value.location, "a section needs an 'id'")
            return nil
        }
        guard let text = idMember.value.scalarText else {
            error("wrong-type", idMember.value.location, "a section's 'id' must be a string or a number, not \(idMember.value.typeName)")
            return nil
        }
        guard let id = checkedID(text, "a section", at: idMember.value.location) else { return nil }
        if let first = places.sections[id] {
            error("duplicate-section-id", idMember.value.location, "duplicate section id '\(id)' in this snapshot",
                  notes: [Diagnostic.Note(location: first, message: "section '\(id)' first appears here")])
        } else {
            places.sections[id] = idMember.value.location
        }
        let header = string(keys["header"])
        let footer = string(keys["footer"])
        readSectionStyle(keys, of: id, at: idMember.value.location)
        var rows: [Record<String>] = []
        if let items = keys["items"] {
            guard let read = self.rows(items, section: index, rules: rules, places: &places) else { return nil }
            rows = read
        }
        return Section(id: id, header: header, footer: footer, rows: rows)
    }

    /// A section's `layout` and `columns`: said once (the first snapshot
    /// that says it), the same wherever said again.
    mutating func readSectionStyle(_ keys: [String: LocatedValue.Member], of id: String, at location: SourceLocation) {
        guard keys["layout"] != nil || keys["columns"] != nil else { return }
        guard let member = keys["layout"] else {
            error("layout-key", keys["columns"]!.keyLocation, "a section's 'columns' needs its 'layout' (grid or orthogonal)")
            return
        }
        let names = Presentation.SectionLayout.allCases.map(\.rawValue)
        guard case .string(let name) = member.value.kind, let layout = Presentation.SectionLayout(rawValue: name) else {
            let written = member.value.scalarText ?? member.value.typeName
            error("unknown-value", member.value.location, "unknown section layout '\(written)'"
                  + KeySuggestions.hint(for: written, in: names) + " (a section's layouts: \(names.joined(separator: ", ")))")
            return
        }
        var columns: Int?
        if let member = keys["columns"] {
            guard layout != .list else {
                error("layout-key", member.keyLocation, "a list section has no 'columns'; a grid or orthogonal one does")
                return
            }
            var problems: [Diagnostic] = []
            columns = Presentation.columnCount(member, into: &problems)
            diagnostics += problems
            guard problems.isEmpty else { return }
        }
        let style = Presentation.SectionStyle(layout: layout, columns: columns)
        if let first = sectionStyles[id] {
            if first.style != style {
                error("section-layout-changed", member.value.location,
                      "section '\(id)' is laid out otherwise here than where its layout was first given; a section keeps its layout in every snapshot",
                      notes: [Diagnostic.Note(location: first.location, message: "section '\(id)' first gets its layout here")])
            }
            return
        }
        sectionStyles[id] = (style, member.value.location)
    }

    mutating func rows(_ member: LocatedValue.Member, section: Int, rules: RowRules, places: inout Places) -> [Record<String>]? {
        guard let elements = list(member) else { return nil }
        var rows: [Record<String>] = []
        var complete = true
        for element in elements {
            places.rowCount += 1
            guard places.rowCount <= limits.rowsPerSnapshot else {
                error("too-many-rows", element.location,
                      "this snapshot has more than \(limits.rowsPerSnapshot) rows, the limit for one snapshot")
                return nil
            }
            guard let row = row(element, rules: rules) else {
                complete = false
                continue
            }
            if rules.identity != .content {
                if let first = places.rows[row.id] {
                    error("duplicate-row-id", element.location, "duplicate row id '\(row.id)' in this snapshot",
                          notes: [Diagnostic.Note(location: first, message: "row '\(row.id)' first appears here")])
                } else {
                    places.rows[row.id] = element.location
                }
            }
            rows.append(row)
        }
        return complete ? rows : nil
    }

    mutating func row(_ value: LocatedValue, rules: RowRules) -> Record<String>? {
        switch value.kind {
        case .string, .integer, .number:
            // A plain value is its own id and text.
            guard let text = checkedID(value.scalarText!, "a row", at: value.location) else { return nil }
            for (key, field) in [("version", rules.versionField), ("moveHint", rules.moveHintField)] {
                if let field {
                    error(key == "version" ? "missing-version" : "missing-move-hint", value.location,
                          "row '\(text)' is a plain value, but '\(key): \(field)' needs the field '\(field)' on every row")
                    return nil
                }
            }
            return Record(id: text, fields: [Field("title", .string(text))])
        case .object(let list):
            guard list.count <= limits.fieldsPerRow else {
                error("too-many-fields", value.location, "this row has \(list.count) fields; rows are limited to \(limits.fieldsPerRow)")
                return nil
            }
            var fields: [Field] = []
            var seen: [String: SourceLocation] = [:]
            var valid = true
            for member in list {
                guard member.key.utf8.count <= limits.keyBytes else {
                    error("key-too-long", member.keyLocation,
                          "a field name is \(member.key.utf8.count) bytes long; field names are limited to \(limits.keyBytes) bytes")
                    valid = false
                    continue
                }
                if let first = seen[member.key] {
                    error("duplicate-key", member.keyLocation, "duplicate field '\(member.key)' in a row",
                          notes: [Diagnostic.Note(location: first, message: "'\(member.key)' first appears here")])
                    valid = false
                    continue
                }
                seen[member.key] = member.keyLocation
                guard let fieldValue = fieldValue(member.value) else {
                    error("wrong-type", member.value.location,
                          "field '\(member.key)' must be a string, number or boolean, not \(member.value.typeName)")
                    valid = false
                    continue
                }
                fields.append(Field(member.key, fieldValue))
            }
            guard valid else { return nil }
            let id: String
            switch rules.identity {
            case .content:
                id = fields.map { "\($0.name)=\($0.value)" }.joined(separator: "\u{1F}")
            case .field(let name):
                guard let field = fields.first(where: { $0.name == name }) else {
                    error("missing-identity", value.location, "row has no '\(name)' field, which identifies rows"
                            + (name == "id" ? " (set 'identity' to use another field, or 'content')" : ""))
                    return nil
                }
                guard case .string = field.value else {
                    if case .int(let number) = field.value { id = String(number); break }
                    error("wrong-type", list.first { $0.key == name }!.value.location,
                          "the identity field '\(name)' must be a string or a number, not \(list.first { $0.key == name }!.value.typeName)")
                    return nil
                }
                id = field.value.description
                fields.removeAll { $0.name == name }
            }
            if rules.identity != .content, checkedID(id, "a row", at: value.location) == nil { return nil }
            var record = Record(id: id, fields: fields)
            if let versionField = rules.versionField {
                guard let version = fieldValue(named: versionField, in: list) else {
                    error("missing-version", value.location, "row '\(id)' has no '\(versionField)' field, which 'version' names")
                    return nil
                }
                record.version = version
            }
            if let hintField = rules.moveHintField {
                guard let hint = fieldValue(named: hintField, in: list) else {
                    error("missing-move-hint", value.location, "row '\(id)' has no '\(hintField)' field, which 'moveHint' names")
                    return nil
                }
                record.moveHint = hint
            }
            return record
        case .bool, .null, .array:
            error("wrong-type", value.location, "a row must be a mapping of fields or a plain id, not \(value.typeName)")
            return nil
        }
    }

    func fieldValue(_ value: LocatedValue) -> FieldValue? {
        switch value.kind {
        case .string(let text): return .string(text)
        case .integer(let number): return .int(number)
        case .number(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .null: return .null
        case .array, .object: return nil
        }
    }

    func fieldValue(named name: String, in members: [LocatedValue.Member]) -> FieldValue? {
        members.first { $0.key == name }.flatMap { fieldValue($0.value) }
    }
}
