import Diagnostics

/// How a sequence's list is framed and timed on a page: the table view's
/// size and style, and the animation's duration and curve. Written as the
/// sequence's top-level keys `height`, `width`, `style`, `duration` and
/// `spring` (a demo block may set `height`, `width` and `style` again).
public struct Presentation: Hashable, Sendable {
    /// `UITableView.Style`: plain (sections run together, headers pinned
    /// while their rows scroll), grouped (sections apart on a grey
    /// background) and insetGrouped (the same, as rounded cards inset from
    /// the edges, as in Settings).
    public enum TableStyle: String, CaseIterable, Hashable, Sendable {
        case plain, grouped, insetGrouped
    }

    /// A spring as `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:)`
    /// takes it: the damping ratio (1 settles without overshoot, nearer 0
    /// oscillates more) and the initial velocity, where 1 is the whole
    /// distance in one second (Apple's documentation of `UISpringTimingParameters`).
    public struct Spring: Hashable, Sendable {
        public var damping: Double
        public var velocity: Double
        public init(damping: Double, velocity: Double = 0) { (self.damping, self.velocity) = (damping, velocity) }
    }

    /// The view that lays the list out (`layout:`): a table view's `list`,
    /// or a collection view's `grid` (a flow layout: items in lines of
    /// `columns`) or `table` (a data table: a row per item, a column per
    /// field, as SwiftDataTables draws one).
    public enum Layout: String, CaseIterable, Hashable, Sendable {
        case list, grid, table
    }

    /// A section's own layout in a compositional collection view: a list,
    /// a grid, or one line of items that scrolls sideways (`orthogonal`,
    /// `UICollectionLayoutSectionOrthogonalScrollingBehavior`).
    public enum SectionLayout: String, CaseIterable, Hashable, Sendable {
        case list, grid, orthogonal
    }

    /// What a section of a compositional layout says of itself: its layout,
    /// and for a grid or an orthogonal line, its items per line.
    public struct SectionStyle: Hashable, Sendable {
        public var layout: SectionLayout
        public var columns: Int?
        public init(layout: SectionLayout, columns: Int? = nil) { (self.layout, self.columns) = (layout, columns) }
    }

    /// What a batch does to the scroll offset (`scroll:`): UIKit keeps it
    /// (`keep-offset`: content that grows above what is seen pushes it
    /// down), or the list anchors what is seen (`anchor`), as a chat that
    /// loads older messages, or SwiftDataTables, keeps its place.
    public enum ScrollPolicy: String, CaseIterable, Hashable, Sendable {
        case keepOffset = "keep-offset", anchor
    }

    public var layout: Layout = .list
    public var scroll: ScrollPolicy = .keepOffset
    /// A step changing more than this share of the items is shown at once,
    /// without animation (as SwiftDataTables advises reloadData for); nil: every step animates.
    public var skipAnimation: Double?
    /// Items per line of a grid (and per width of an orthogonal line); nil: 3 (2 for an orthogonal line).
    public var columns: Int?
    /// Points between items and lines of a grid, and its section insets; nil: 8.
    public var spacing: Double?
    /// A data table's columns, in order; nil: every field rows have, in the order first seen.
    public var fields: [String]?
    /// A data table's column widths, as shares: the longest text each column
    /// shows (its title's included), in characters, at most 40 (found by the reader).
    public var columnWidths: [Int] = []
    /// Column titles by field name, for the ones that are not their field's name.
    public var titles: [String: String] = [:]
    /// Sections that set their own layout, by id (a compositional layout).
    public var sections: [String: SectionStyle] = [:]

    /// A collection view draws the list (UIKit's words, its animations):
    /// any layout but a table view's list, or a section with its own.
    public var isCollectionView: Bool { layout != .list || !sections.isEmpty }

    /// The list's visible height in points; past it, the list scrolls. Nil: 512.
    public var height: Double?
    /// The list's width in points (393 is an iPhone 16's); nil: the page's column.
    public var width: Double?
    public var style: TableStyle = .plain
    /// Seconds per batch; nil: UIKit's 0.3.
    public var duration: Double?
    /// Nil: UIKit's ease-in-out.
    public var spring: Spring?

    public init(height: Double? = nil, width: Double? = nil, style: TableStyle = .plain, duration: Double? = nil, spring: Spring? = nil) {
        (self.height, self.width, self.style, self.duration, self.spring) = (height, width, style, duration, spring)
    }

    /// The keys it is read from, at the top of a sequence.
    public static let sequenceKeys = ["height", "width", "style", "duration", "spring", "layout", "columns", "spacing", "fields", "titles", "scroll", "skipAnimation"]
    /// The keys a demo block may set again.
    public static let blockKeys = ["height", "width", "style"]

    /// The sizes a list may be given, in points: a list shorter than a row
    /// or wider than any screen is a typo.
    static let heights = 120.0...4000.0
    static let widths = 240.0...2000.0
    static let durations = 0.05...10.0
    static let dampings = 0.05...1.0
    static let velocities = -50.0...50.0
    public static let columnRange = 1...12
    static let spacings = 0.0...64.0

    /// Reads the keys of `members` that are presentation keys into `self`;
    /// every problem is an error at its value.
    public mutating func read(_ members: [String: LocatedValue.Member]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        func number(_ key: String, in keys: [String: LocatedValue.Member], _ range: ClosedRange<Double>, _ what: String) -> Double? {
            guard let member = keys[key] else { return nil }
            let value: Double
            switch member.value.kind {
            case .integer(let whole): value = Double(whole)
            case .number(let real): value = real
            default:
                diagnostics.append(.error("wrong-type", at: member.value.location, "'\(key)' must be a number (\(what)), not \(member.value.typeName)"))
                return nil
            }
            guard range.contains(value) else {
                diagnostics.append(.error("out-of-range", at: member.value.location,
                                          "'\(key)' must be from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)) (\(what)), not \(Self.text(value))"))
                return nil
            }
            return value
        }
        if let height = number("height", in: members, Self.heights, "points the list shows before it scrolls") { self.height = height }
        if let width = number("width", in: members, Self.widths, "points; an iPhone 16 is 393") { self.width = width }
        if let duration = number("duration", in: members, Self.durations, "seconds per batch; UIKit's is 0.3") { self.duration = duration }
        if let member = members["style"] {
            let names = TableStyle.allCases.map(\.rawValue)
            if case .string(let name) = member.value.kind, let style = TableStyle(rawValue: name) {
                self.style = style
            } else if case .string(let name) = member.value.kind {
                diagnostics.append(.error("unknown-value", at: member.value.location, "unknown table style '\(name)'"
                                          + KeySuggestions.hint(for: name, in: names) + " (styles: \(names.joined(separator: ", ")))"))
            } else {
                diagnostics.append(.error("wrong-type", at: member.value.location, "'style' must be one of \(names.joined(separator: ", ")), not \(member.value.typeName)"))
            }
        }
        readLayout(members, into: &diagnostics)
        guard let member = members["spring"] else { return diagnostics }
        guard case .object(let list) = member.value.kind else {
            diagnostics.append(.error("wrong-type", at: member.value.location,
                                      "'spring' must be a mapping with 'damping' (and optionally 'velocity'), not \(member.value.typeName)"))
            return diagnostics
        }
        var keys: [String: LocatedValue.Member] = [:]
        for entry in list {
            if keys[entry.key] != nil {
                diagnostics.append(.error("duplicate-key", at: entry.keyLocation, "duplicate key '\(entry.key)' in 'spring'"))
            } else if !["damping", "velocity"].contains(entry.key) {
                diagnostics.append(.error("unknown-key", at: entry.keyLocation, "unknown key '\(entry.key)' in 'spring'"
                                          + KeySuggestions.keyHint(for: entry.key, in: ["damping", "velocity"])))
            } else {
                keys[entry.key] = entry
            }
        }
        guard keys["damping"] != nil else {
            diagnostics.append(.error("missing-key", at: member.value.location, "'spring' needs 'damping': the damping ratio, from 0.05 to 1 (1 settles without overshoot)"))
            return diagnostics
        }
        let before = diagnostics.count
        let damping = number("damping", in: keys, Self.dampings, "the damping ratio; 1 settles without overshoot")
        let velocity = number("velocity", in: keys, Self.velocities, "1 covers the whole distance in one second") ?? 0
        if let damping, diagnostics.count == before { spring = Spring(damping: damping, velocity: velocity) }
        return diagnostics
    }

    /// `layout`, `columns`, `spacing`, `fields` and `titles`.
    mutating func readLayout(_ members: [String: LocatedValue.Member], into diagnostics: inout [Diagnostic]) {
        if let member = members["layout"] {
            let names = Layout.allCases.map(\.rawValue)
            if case .string(let name) = member.value.kind, let layout = Layout(rawValue: name) {
                self.layout = layout
            } else if case .string(let name) = member.value.kind {
                let hint = SectionLayout(rawValue: name) == .orthogonal
                    ? " ('orthogonal' is a section's layout: write it on the section, under 'sections')"
                    : KeySuggestions.hint(for: name, in: names)
                diagnostics.append(.error("unknown-value", at: member.value.location, "unknown layout '\(name)'" + hint
                                          + " (layouts: \(names.joined(separator: ", ")))"))
            } else {
                diagnostics.append(.error("wrong-type", at: member.value.location, "'layout' must be one of \(names.joined(separator: ", ")), not \(member.value.typeName)"))
            }
        }
        if let member = members["columns"], let count = Self.columnCount(member, into: &diagnostics) { columns = count }
        if let member = members["scroll"] {
            let names = ScrollPolicy.allCases.map(\.rawValue)
            if case .string(let name) = member.value.kind, let policy = ScrollPolicy(rawValue: name) {
                scroll = policy
            } else {
                let written = member.value.scalarText ?? member.value.typeName
                diagnostics.append(.error("unknown-value", at: member.value.location, "unknown scroll policy '\(written)'"
                                          + KeySuggestions.hint(for: written, in: names) + " (keep-offset: UIKit's default; anchor: what is seen stays)"))
            }
        }
        if let member = members["skipAnimation"] {
            switch member.value.kind {
            case .integer(let whole) where whole == 1: skipAnimation = 1
            case .number(let share) where share > 0 && share <= 1: skipAnimation = share
            case .integer, .number:
                diagnostics.append(.error("out-of-range", at: member.value.location, "'skipAnimation' must be a share of the items above 0 and at most 1 (0.5: a step changing more than half of them is shown at once)"))
            default:
                diagnostics.append(.error("wrong-type", at: member.value.location, "'skipAnimation' must be a number (a share of the items, such as 0.5), not \(member.value.typeName)"))
            }
        }
        if let member = members["spacing"] {
            switch member.value.kind {
            case .integer(let whole) where spacingsContain(Double(whole)): spacing = Double(whole)
            case .number(let real) where spacingsContain(real): spacing = real
            case .integer, .number:
                diagnostics.append(.error("out-of-range", at: member.value.location, "'spacing' must be from 0 to 64 (points between items and lines)"))
            default:
                diagnostics.append(.error("wrong-type", at: member.value.location, "'spacing' must be a number (points between items and lines), not \(member.value.typeName)"))
            }
        }
        if let member = members["fields"] {
            if case .array(let list) = member.value.kind, list.isEmpty {
                diagnostics.append(.error("empty-fields", at: member.value.location, "'fields' is empty; a data table needs a column (leave 'fields' out to show every field rows have)"))
            } else if case .array(let list) = member.value.kind {
                var names: [String] = [], seen: [String: SourceLocation] = [:]
                for element in list {
                    guard case .string(let name) = element.kind, !name.isEmpty else {
                        diagnostics.append(.error("wrong-type", at: element.location, "each of 'fields' must be a field's name, not \(element.typeName)"))
                        continue
                    }
                    guard name.utf8.count <= SnapshotLimits.standard.keyBytes else {
                        diagnostics.append(.error("key-too-long", at: element.location,
                                                  "a field name is \(name.utf8.count) bytes long; field names are limited to \(SnapshotLimits.standard.keyBytes) bytes"))
                        continue
                    }
                    guard names.count < SnapshotLimits.standard.fieldsPerRow else {
                        diagnostics.append(.error("too-many-fields", at: element.location,
                                                  "'fields' names more than \(SnapshotLimits.standard.fieldsPerRow) columns, the limit for a row's fields"))
                        break
                    }
                    if let first = seen[name] {
                        diagnostics.append(.error("duplicate-field", at: element.location, "'\(name)' is already a column",
                                                  notes: [Diagnostic.Note(location: first, message: "'\(name)' first appears here")]))
                        continue
                    }
                    seen[name] = element.location
                    names.append(name)
                }
                fields = names
            } else {
                diagnostics.append(.error("wrong-type", at: member.value.location, "'fields' must be a list of field names (the table's columns, in order), not \(member.value.typeName)"))
            }
        }
        if let member = members["titles"] {
            if case .object(let list) = member.value.kind {
                for entry in list {
                    guard case .string(let title) = entry.value.kind else {
                        diagnostics.append(.error("wrong-type", at: entry.value.location, "the title of '\(entry.key)' must be a string, not \(entry.value.typeName)"))
                        continue
                    }
                    if titles[entry.key] != nil {
                        diagnostics.append(.error("duplicate-key", at: entry.keyLocation, "duplicate key '\(entry.key)' in 'titles'"))
                    } else if let fields, !fields.contains(entry.key) {
                        diagnostics.append(.error("unknown-field", at: entry.keyLocation, "'\(entry.key)' is not one of 'fields'"
                                                  + KeySuggestions.hint(for: entry.key, in: fields) + " (fields: \(fields.joined(separator: ", ")))"))
                    } else {
                        titles[entry.key] = title
                    }
                }
            } else {
                diagnostics.append(.error("wrong-type", at: member.value.location, "'titles' must be a mapping from a field's name to its column's title, not \(member.value.typeName)"))
            }
        }
        // Keys that only one layout reads are an error elsewhere: a grid's
        // columns on a table view would silently do nothing.
        for key in ["fields", "titles"] where layout != .table {
            if let member = members[key] {
                diagnostics.append(.error("layout-key", at: member.keyLocation, "'\(key)' is a data table's: it needs 'layout: table'"))
            }
        }
    }

    private func spacingsContain(_ value: Double) -> Bool { Self.spacings.contains(value) }

    /// A count of items per line, from 1 to 12.
    static func columnCount(_ member: LocatedValue.Member, into diagnostics: inout [Diagnostic]) -> Int? {
        // A whole number too big for an integer is read as text (YAML) or a double (JSON): it is out of range, not of the wrong type.
        let tooBig: String?
        switch member.value.kind {
        case .string(let text) where !text.isEmpty && text.drop(while: { $0 == "-" || $0 == "+" }).allSatisfy(\.isASCII) && text.drop(while: { $0 == "-" || $0 == "+" }).allSatisfy(\.isNumber): tooBig = text
        case .number(let value) where value.isFinite && value == value.rounded() && abs(value) > Double(Int32.max): tooBig = text(value)
        default: tooBig = nil
        }
        if let tooBig {
            diagnostics.append(.error("out-of-range", at: member.value.location, "'columns' must be from 1 to 12 (items per line), not \(tooBig)"))
            return nil
        }
        guard case .integer(let count) = member.value.kind else {
            diagnostics.append(.error("wrong-type", at: member.value.location, "'columns' must be a whole number (items per line), not \(member.value.typeName)"))
            return nil
        }
        guard columnRange.contains(count) else {
            diagnostics.append(.error("out-of-range", at: member.value.location, "'columns' must be from 1 to 12 (items per line), not \(count)"))
            return nil
        }
        return count
    }

    /// `2`, `0.5`: a number as it would be written.
    public static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension Presentation {
    /// What a demo block sets again: only the keys it names.
    public struct Override: Hashable, Sendable {
        public var height: Double?
        public var width: Double?
        public var style: TableStyle?

        public init() {}

        public init(_ presentation: Presentation, keys: Set<String>) {
            if keys.contains("height") { height = presentation.height }
            if keys.contains("width") { width = presentation.width }
            if keys.contains("style") { style = presentation.style }
        }
    }

    public mutating func apply(_ override: Override) {
        if let height = override.height { self.height = height }
        if let width = override.width { self.width = width }
        if let style = override.style { self.style = style }
    }
}
