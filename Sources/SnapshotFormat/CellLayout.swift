import Diagnostics
import ListDiff

/// How a row is drawn: as a `UITableViewCell` of one of its system styles,
/// with the row's fields in the cell's parts. Written as a sequence's (or a
/// demo block's) `cell:` key.
///
/// The styles follow Apple's `UITableViewCell.CellStyle`
/// (https://developer.apple.com/documentation/uikit/uitableviewcell/cellstyle):
/// `default` is a text label and an optional image; `subtitle` puts the
/// detail text under the title, smaller and grey; `value1` puts it on the
/// right, right-aligned (Settings); `value2` shows a small right-aligned
/// title on the left and the detail beside it (Contacts), with no image.
public struct CellLayout: Hashable, Sendable {
    public enum Style: String, CaseIterable, Hashable, Sendable {
        case `default`, subtitle, value1, value2

        /// Whether the style has a place for an image.
        public var showsImage: Bool { self != .value2 }
        /// The slot the style's detail text label is, if it has one.
        public var detailSlot: Slot? {
            switch self {
            case .default: return nil
            case .subtitle: return .subtitle
            case .value1, .value2: return .detail
            }
        }
    }

    /// A part of a cell a field can be shown in.
    public enum Slot: String, CaseIterable, Hashable, Sendable {
        /// The text label.
        case title
        /// The detail text label under the title (style `subtitle`).
        case subtitle
        /// The detail text label beside the title (styles `value1` and `value2`).
        case detail
        /// The image: a picture from an `https:` or `data:image/` address,
        /// or the value's first character on a round tile (an emoji, an initial).
        case image
        /// A count or a flag on the trailing side, hidden when empty, 0 or false.
        case badge
        /// `UITableViewCell.AccessoryType` at the trailing edge: a field
        /// whose `true` is a checkmark (or whose text names an accessory), or
        /// an accessory's name for every row (`disclosureIndicator`).
        case accessory
    }

    /// `UITableViewCell.AccessoryType`'s visible cases, as a sequence names them.
    public static let accessories = ["checkmark", "disclosureIndicator", "detailButton", "detailDisclosureButton"]

    public var style: Style
    /// The field each named slot shows.
    public var fields: [Slot: String]
    /// Fields never shown: `hide:`, plus the sequence's `version` and
    /// `moveHint` fields (bookkeeping, not content).
    public var hidden: [String]

    public init(style: Style = .default, fields: [Slot: String] = [:], hidden: [String] = []) {
        self.style = style
        self.fields = fields
        self.hidden = hidden
    }

    static let keys = ["style", "title", "subtitle", "detail", "image", "badge", "accessory", "hide"]

    /// Reads a `cell:` value. Every problem is reported at its key or value;
    /// nil when there was one.
    public static func read(_ value: LocatedValue) -> (layout: CellLayout?, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        func error(_ id: String, _ location: SourceLocation, _ message: String) {
            diagnostics.append(.error(id, at: location, message))
        }
        guard case .object(let members) = value.kind else {
            error("wrong-type", value.location, "'cell' must be a mapping (style, title, subtitle, detail, image, badge, accessory, hide), not \(value.typeName)")
            return (nil, diagnostics)
        }
        var layout = CellLayout()
        var seen: [String: SourceLocation] = [:]
        var styleMember: LocatedValue.Member?
        var slotMembers: [(Slot, LocatedValue.Member)] = []
        for member in members {
            if let first = seen[member.key] {
                diagnostics.append(.error("duplicate-key", at: member.keyLocation, "duplicate key '\(member.key)' in 'cell'",
                                          notes: [Diagnostic.Note(location: first, message: "'\(member.key)' first appears here")]))
                continue
            }
            seen[member.key] = member.keyLocation
            switch member.key {
            case "style":
                guard case .string(let name) = member.value.kind else {
                    error("wrong-type", member.value.location, "'style' must be a string, not \(member.value.typeName)")
                    continue
                }
                let names = Style.allCases.map(\.rawValue)
                guard let style = Style(rawValue: name) else {
                    error("unknown-value", member.value.location, "unknown cell style '\(name)'"
                          + KeySuggestions.hint(for: name, in: names) + " (styles: \(names.joined(separator: ", ")))")
                    continue
                }
                layout.style = style
                styleMember = member
            case "hide":
                let names: [LocatedValue]
                switch member.value.kind {
                case .array(let list): names = list
                case .string: names = [member.value]
                default:
                    error("wrong-type", member.value.location, "'hide' must be a list of field names, not \(member.value.typeName)")
                    continue
                }
                for name in names {
                    guard case .string(let field) = name.kind, !field.isEmpty else {
                        error("wrong-type", name.location, "'hide' lists field names (strings), not \(name.typeName)")
                        continue
                    }
                    layout.hidden.append(field)
                }
            default:
                guard let slot = Slot(rawValue: member.key) else {
                    error("unknown-key", member.keyLocation, "unknown key '\(member.key)' in 'cell'" + KeySuggestions.keyHint(for: member.key, in: keys))
                    continue
                }
                guard case .string(let field) = member.value.kind, !field.isEmpty else {
                    error("wrong-type", member.value.location, "'\(member.key)' names the field the cell's \(member.key) shows; it must be a field name, not \(member.value.typeName)")
                    continue
                }
                slotMembers.append((slot, member))
            }
        }
        // Without a style, the slots named choose it.
        if styleMember == nil {
            if slotMembers.contains(where: { $0.0 == .subtitle }) {
                layout.style = .subtitle
            } else if slotMembers.contains(where: { $0.0 == .detail }) {
                layout.style = .value1
            }
        }
        var slotOfField: [String: Slot] = [:]
        for (slot, member) in slotMembers {
            guard case .string(let field) = member.value.kind else { continue }
            let styleWords = styleMember == nil ? "the inferred style '\(layout.style.rawValue)'" : "style '\(layout.style.rawValue)'"
            switch slot {
            case .subtitle where layout.style != .subtitle:
                error("cell-slot-style", member.keyLocation, "\(styleWords) has no subtitle; "
                      + (layout.style.detailSlot == .detail ? "its detail text is 'detail'" : "use style 'subtitle'"))
                continue
            case .detail where layout.style.detailSlot != .detail:
                error("cell-slot-style", member.keyLocation, "\(styleWords) has no detail beside the title; "
                      + (layout.style == .subtitle ? "its detail text is 'subtitle'" : "use style 'value1' or 'value2'"))
                continue
            case .image where !layout.style.showsImage:
                error("cell-slot-style", member.keyLocation, "style 'value2' shows no image (UIKit's value2 cell has two labels only)")
                continue
            default: break
            }
            if slot == .accessory, Self.accessories.contains(field) {
                layout.fields[slot] = field
                continue
            }
            // A picture may show a text slot's field (an initial on a tile); text is shown once.
            if slot != .image, let other = slotOfField[field] {
                error("cell-field-twice", member.value.location, "field '\(field)' is already the cell's \(other.rawValue)")
                continue
            }
            if layout.hidden.contains(field) {
                error("cell-field-hidden", member.value.location, "field '\(field)' is both shown as the cell's \(slot.rawValue) and listed in 'hide'")
                continue
            }
            if slot != .image { slotOfField[field] = slot }
            layout.fields[slot] = field
        }
        return (diagnostics.contains { $0.severity == .error } ? nil : layout, diagnostics)
    }

    /// The field names this layout refers to, for checking that rows have them.
    public var namedFields: [String] {
        Slot.allCases.compactMap { slot in fields[slot].flatMap { slot == .accessory && Self.accessories.contains($0) ? nil : $0 } }
    }

    /// How a row is drawn without `cell:`: a value1 cell (Settings' rows)
    /// whose title is the row's first text field and whose detail, on the
    /// right, is the next field that is not a boolean. Nothing else is
    /// shown: a boolean is a checkmark only where `cell:` says so
    /// (`accessory: done`), since `unread: true` drawn as ✓ reads as "done".
    static func inferred(for fields: [Field]) -> CellLayout {
        var layout = CellLayout(style: .value1)
        var texts = fields.filter { if case .bool = $0.value { return false }; return $0.value != .null }.makeIterator()
        if let title = texts.next() { layout.fields[.title] = title.name }
        if let detail = texts.next() { layout.fields[.detail] = detail.name }
        return layout
    }
}

/// One field as a row shows it.
public struct ShownField: Hashable, Sendable {
    public var name: String
    public var text: String
    /// The cell part it is shown in; nil when the sequence has no `cell:`
    /// (every field shown in a line, the first one primary).
    public var slot: CellLayout.Slot?

    public init(name: String, text: String, slot: CellLayout.Slot?) {
        (self.name, self.text, self.slot) = (name, text, slot)
    }
}

extension SnapshotSequence {
    /// The fields `row` shows, in order: with a `cell:`, its slots (title,
    /// subtitle or detail, image, badge); without, every field but the
    /// `version` and `moveHint` bookkeeping. A row with nothing to show
    /// shows its id.
    public func shownFields(of row: Record<String>) -> [ShownField] {
        if presentation.layout == .table, let columns = presentation.fields {
            // A data table: a cell per column, empty where the row has no
            // such field (the row's fields by name once: a row of a thousand
            // fields in a table of a thousand columns is not a million compares).
            var values: [String: FieldValue] = [:]
            values.reserveCapacity(row.fields.count)
            for field in row.fields where values[field.name] == nil { values[field.name] = field.value }
            return columns.map { name in
                let text = values[name].map { $0 == .null ? "" : $0.description } ?? (name == identityFieldName ? row.id : "")
                return ShownField(name: name, text: text, slot: nil)
            }
        }
        let bookkeeping = [versionField, moveHintField].compactMap { $0 }
        // Without `cell:`, a Settings row: its first text on the left, the next on the right.
        var inferred = false
        let cell = self.cell ?? {
            inferred = true
            return CellLayout.inferred(for: row.fields.filter { !bookkeeping.contains($0.name) })
        }()
        func value(of name: String) -> String? {
            if let field = row.fields.first(where: { $0.name == name }) {
                return field.value == .null ? nil : field.value.description
            }
            return name == identityFieldName ? row.id : nil
        }
        let named = Set(cell.fields.values)
        // Fields free to fill a slot the layout leaves unnamed, in the row's order.
        var free = row.fields.lazy.map(\.name).filter { !inferred && !named.contains($0) && !cell.hidden.contains($0) && !bookkeeping.contains($0) }.makeIterator()
        var shown: [ShownField] = []
        var slots: [CellLayout.Slot] = [.image, .title]
        if let detail = cell.style.detailSlot { slots.append(detail) }
        slots += [.badge, .accessory]
        for slot in slots {
            let name: String?
            if let given = cell.fields[slot] {
                name = given
            } else if slot == .title || slot == cell.style.detailSlot {
                name = free.next()
            } else {
                name = nil
            }
            if slot == .accessory, let name {
                // A field's true is a checkmark; its text may name an accessory;
                // a name no row's field has is the accessory of every row.
                let text = value(of: name) ?? (CellLayout.accessories.contains(name) ? name : nil)
                if let type = text == "true" ? "checkmark" : text, CellLayout.accessories.contains(type) {
                    shown.append(ShownField(name: name, text: type, slot: .accessory))
                }
                continue
            }
            guard let name, var text = value(of: name) else {
                if slot == .title { shown.append(ShownField(name: identityFieldName, text: row.id, slot: .title)) }
                continue
            }
            if slot == .badge {
                if text.isEmpty || text == "0" || text == "false" { continue }
                if text == "true" { text = "" }
            }
            shown.append(ShownField(name: name, text: text, slot: slot))
        }
        return shown
    }

    /// The cell style rows are drawn in: `cell:`'s, or value1 without it.
    public var drawnCellStyle: CellLayout.Style { cell?.style ?? .value1 }

    /// What names a row in words: its title with a `cell:`, otherwise its first shown field.
    public func title(of row: Record<String>) -> String {
        // A row of an id alone, without a `cell:`, shows its id (the layout
        // inferred from no fields names none): the common list of ids.
        if cell == nil, row.fields.isEmpty { return row.id }
        let fields = shownFields(of: row)
        let text = (fields.first { $0.slot == .title } ?? fields.first { $0.slot == nil })?.text ?? row.id
        return text.isEmpty ? row.id : text
    }

    /// The name of the field that identifies rows (`id`, or `identity:`'s).
    var identityFieldName: String {
        if case .field(let name) = identity { return name }
        return "id"
    }
}
