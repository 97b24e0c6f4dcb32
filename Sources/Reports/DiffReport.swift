import SnapshotFormat
import Diagnostics
import ListDiff

/// What `rowmotion diff` prints for a sequence: every step's batches, as the
/// stable JSON (the reference page's "The JSON format") or as the Swift calls a developer would write.
public struct DiffReport {
    /// One step: from snapshot `from` to snapshot `to`.
    public struct Step {
        public var from: Int
        public var to: Int
        public var label: String
        public var changeset: Changeset<String, Record<String>>
        /// Problems the validator finds in the step's batches (none, unless
        /// the engine has a bug), as text.
        public var diagnostics: [String]
    }

    public var file: String
    public var sequence: SnapshotSequence
    public var steps: [Step]
    /// Every UIKit rule the reported steps' batches break, with where.
    public var violations: [RuleViolation] = []
    /// Whose calls and words the report uses: a collection view's for a
    /// sequence a collection view draws (`layout:` other than a list), unless asked otherwise.
    public var flavor: CallFlavor

    /// Diffs every step of `sequence`; `only` keeps the step into snapshot
    /// `only` (1-based, as the step list counts them).
    public init(file: String, sequence: SnapshotSequence, only: Int? = nil, flavor: CallFlavor? = nil) throws(Diagnostic) {
        self.init(file: file, sequence: sequence, changesets: try sequence.changesets(), only: only, flavor: flavor)
    }

    /// A report from changesets already computed for `sequence`.
    public init(file: String, sequence: SnapshotSequence, changesets: [Changeset<String, Record<String>>], only: Int? = nil,
                flavor: CallFlavor? = nil) {
        self.file = file
        self.sequence = sequence
        self.flavor = flavor ?? CallFlavor(sequence)
        var steps: [Step] = []
        let violations = RuleCheck.violations(in: sequence, changesets: changesets, only: only, flavor: self.flavor.validatorFlavor)
        self.violations = violations
        for (index, changeset) in changesets.enumerated() where only == nil || only == index + 1 {
            let problems = violations.filter { $0.step == index + 1 }.map(\.summary)
            steps.append(Step(from: index, to: index + 1, label: sequence.steps[index + 1].label,
                              changeset: changeset, diagnostics: problems))
        }
        self.steps = steps
    }

    // MARK: JSON

    /// The stable JSON: keys always present, sections as
    /// integers, rows as `[section, row]`, moves as `[from, to]`, ids as
    /// strings. A collection view's says so (`"view": "collectionView"`)
    /// and names its rows `items`, `[section, item]`.
    public var json: String {
        var out = "{\"file\": \(JSONText.string(file)),\n"
        if flavor == .collection { out += " \"view\": \"collectionView\",\n" }
        out += " \"steps\": ["
        for (index, step) in steps.enumerated() {
            out += index == 0 ? "\n  " : ",\n  "
            out += "{\"from\": \(step.from), \"to\": \(step.to), \"label\": \(JSONText.string(step.label)),\n   \"batches\": ["
            for (number, stage) in step.changeset.stages.enumerated() {
                out += number == 0 ? "\n    " : ",\n    "
                out += batchJSON(stage.batch, after: stage.after)
            }
            out += step.changeset.stages.isEmpty ? "]" : "]"
            out += ",\n   \"diagnostics\": [" + step.diagnostics.map { JSONText.string($0) }.joined(separator: ", ") + "]}"
        }
        out += steps.isEmpty ? "]}\n" : "]}\n"
        return out
    }

    func batchJSON(_ batch: Batch, after: Snapshot<String, Record<String>>) -> String {
        func ints(_ values: [Int]) -> String { "[" + values.map(String.init).joined(separator: ", ") + "]" }
        func path(_ path: RowPath) -> String { "[\(path.section), \(path.row)]" }
        func paths(_ values: [RowPath]) -> String { "[" + values.map(path).joined(separator: ", ") + "]" }
        let sectionMoves = "[" + batch.sectionMoves.map { "[\($0.from), \($0.to)]" }.joined(separator: ", ") + "]"
        let rowMoves = "[" + batch.rowMoves.map { "[\(path($0.from)), \(path($0.to))]" }.joined(separator: ", ") + "]"
        let afterJSON = "[" + after.sections.map { section in
            "{\"id\": \(JSONText.string(section.id)), \"items\": [" + section.rows.map { JSONText.string($0.id) }.joined(separator: ", ") + "]}"
        }.joined(separator: ", ") + "]"
        return "{\"sections\": {\"delete\": \(ints(batch.sectionDeletes)), \"insert\": \(ints(batch.sectionInserts)), "
            + "\"move\": \(sectionMoves), \"reload\": \(ints(batch.sectionReloads))},\n     "
            + "\"\(flavor == .collection ? "items" : "rows")\": {\"delete\": \(paths(batch.rowDeletes)), \"insert\": \(paths(batch.rowInserts)), "
            + "\"move\": \(rowMoves), \"reload\": \(paths(batch.rowReloads))},\n     "
            + "\"after\": \(afterJSON)}"
    }

    // MARK: Swift calls

    /// Each step as the code a developer would paste into an app: one
    /// `performBatchUpdates` per batch, a step's later batch run from the
    /// completion of the one before (it must not start until that batch
    /// has been applied), with what the data source must hold in each.
    public var swiftCalls: String { swiftCalls(flavor: flavor) }

    public func swiftCalls(flavor: CallFlavor) -> String {
        let animations = sequence.animations
        var lines: [String] = []
        for step in steps {
            lines.append("// Step \(step.to): \(TerminalText.escaped(step.label)) (snapshot \(step.from) → \(step.to))")
            if step.changeset.isEmpty { lines.append("// Nothing changes.") }
            let stages = step.changeset.stages
            var indent = ""
            for (number, stage) in stages.enumerated() {
                let last = number == stages.count - 1
                lines.append(indent + "// Batch \(number + 1) of \(stages.count): \(Self.explanation(of: stages, at: number, flavor: flavor))")
                // `self.`: pasted into a view controller's method, the calls
                // run in escaping closures, where Swift asks for it.
                lines.append(indent + "self.\(flavor.view).performBatchUpdates" + (last ? " {" : "({"))
                let what: String
                if last {
                    what = "snapshot \(step.to) here, then:"
                } else if Self.sameIDs(stage.after, stages[stages.count - 1].after) {
                    // The later batches only reload: the rows already stand where the snapshot puts them.
                    what = "snapshot \(step.to) here (batch \(number + 2) only \(flavor == .collection ? "reconfigures" : "reloads"); "
                        + "its \(flavor == .collection ? "items" : "rows") show their new content then), then:"
                } else {
                    what = "the \(flavor == .collection ? "items" : "rows") after batch \(number + 1) here (its \"after\" in --format json; not yet snapshot \(step.to)), then:"
                }
                lines.append(indent + "    // Update the data source to " + what)
                lines.append(contentsOf: Self.calls(for: stage.batch, animations: animations, flavor: flavor).map { indent + "    self." + $0 })
                if last {
                    lines.append(indent + "}")
                } else {
                    lines.append(indent + "}, completion: { _ in")
                    indent += "    "
                }
            }
            while !indent.isEmpty {
                indent.removeLast(4)
                lines.append(indent + "})")
            }
            for problem in step.diagnostics { lines.append("// warning: \(problem)") }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// Whether two snapshots hold the same sections and rows, in order (ids only).
    static func sameIDs(_ a: Snapshot<String, Record<String>>, _ b: Snapshot<String, Record<String>>) -> Bool {
        a.sections.count == b.sections.count && zip(a.sections, b.sections).allSatisfy { first, second in
            first.id == second.id && first.rows.map(\.id) == second.rows.map(\.id)
        }
    }

    /// In a collection view's words (`flavor`), rows are items and a reload is a reconfigure.
    public static func explanation(of role: BatchRole, flavor: CallFlavor = .table) -> String {
        let (row, reloads) = flavor == .collection ? ("item", "reconfigures") : ("row", "reloads")
        switch role {
        case .structure: return "deletes, inserts, moves and the \(reloads) that can share them"
        case .sections: return "sections first: \(row)s change inside a section that moves, which must not share its batch"
        case .rows: return "the \(row) changes that waited for the section batch"
        case .reloads: return "\(reloads) that wait until the moves have finished"
        }
    }

    /// What the batch at `index` of `stages` holds, in words that fit it: a
    /// batch of reloads alone says so (a header that changed is not "after
    /// the moves"), and deferred reloads say what they waited for.
    public static func explanation<ID: Hashable, Row>(of stages: [Changeset<ID, Row>.Stage], at index: Int, flavor: CallFlavor = .table) -> String {
        let stage = stages[index], batch = stage.batch
        let reloads = batch.rowReloads.count + batch.sectionReloads.count
        let (row, reloadWord) = flavor == .collection ? ("item", "reconfigures") : ("row", "reloads")
        if reloads > 0, reloads == batch.operationCount {
            let what = [batch.sectionReloads.isEmpty ? nil : "section\(batch.sectionReloads.count == 1 ? "" : "s") (header, footer and \(row)s)",
                        batch.rowReloads.isEmpty ? nil : "\(row)\(batch.rowReloads.count == 1 ? "" : "s")"].compactMap { $0 }
            guard index > 0 else { return "\(reloadWord) only: " + what.joined(separator: " and ") + " whose content changed; nothing moves" }
            let earlier = stages[..<index].map(\.batch)
            let moved = earlier.contains { !$0.rowMoves.isEmpty || !$0.sectionMoves.isEmpty }
            return "\(reloadWord) that wait until the " + (moved ? "moves" : "deletes and inserts") + " have finished"
        }
        return explanation(of: stage.role, flavor: flavor)
    }

    public static func calls(for batch: Batch, animations: RowAnimations, flavor: CallFlavor = .table) -> [String] {
        if flavor == .collection { return collectionCalls(for: batch) }
        func indexPath(_ path: RowPath) -> String { "IndexPath(row: \(path.row), section: \(path.section))" }
        func indexPaths(_ paths: [RowPath]) -> String { "[" + paths.map(indexPath).joined(separator: ", ") + "]" }
        func indexSet(_ sections: [Int]) -> String {
            sections.count == 1 ? "IndexSet(integer: \(sections[0]))" : "IndexSet([" + sections.map(String.init).joined(separator: ", ") + "])"
        }
        var calls: [String] = []
        if !batch.sectionDeletes.isEmpty {
            calls.append("tableView.deleteSections(\(indexSet(batch.sectionDeletes)), with: .\(animations.delete.rawValue))")
        }
        if !batch.sectionInserts.isEmpty {
            calls.append("tableView.insertSections(\(indexSet(batch.sectionInserts)), with: .\(animations.insert.rawValue))")
        }
        for move in batch.sectionMoves { calls.append("tableView.moveSection(\(move.from), toSection: \(move.to))") }
        if !batch.sectionReloads.isEmpty {
            calls.append("tableView.reloadSections(\(indexSet(batch.sectionReloads)), with: .\(animations.reload.rawValue))")
        }
        if !batch.rowDeletes.isEmpty {
            calls.append("tableView.deleteRows(at: \(indexPaths(batch.rowDeletes)), with: .\(animations.delete.rawValue))")
        }
        if !batch.rowInserts.isEmpty {
            calls.append("tableView.insertRows(at: \(indexPaths(batch.rowInserts)), with: .\(animations.insert.rawValue))")
        }
        for move in batch.rowMoves { calls.append("tableView.moveRow(at: \(indexPath(move.from)), to: \(indexPath(move.to)))") }
        if !batch.rowReloads.isEmpty {
            calls.append("tableView.reloadRows(at: \(indexPaths(batch.rowReloads)), with: .\(animations.reload.rawValue))")
        }
        return calls
    }
}

/// Which view the Swift calls are written for.
public enum CallFlavor: String, CaseIterable, Sendable {
    /// `UITableView`: rows, with a row animation per call.
    case table
    /// `UICollectionView`: items, no row animations, and a reload that only
    /// changes a cell's content as `reconfigureItems(at:)` (iOS 15), which
    /// keeps the cell instead of replacing it.
    case collection

    var view: String { self == .table ? "tableView" : "collectionView" }

    /// The view that draws `sequence`: a collection view for any layout but a table view's list.
    public init(_ sequence: SnapshotSequence) { self = sequence.presentation.isCollectionView ? .collection : .table }

    public var validatorFlavor: Validator.Flavor { self == .table ? .tableView : .collectionView }
}

extension DiffReport {
    static func collectionCalls(for batch: Batch) -> [String] {
        func indexPath(_ path: RowPath) -> String { "IndexPath(item: \(path.row), section: \(path.section))" }
        func indexPaths(_ paths: [RowPath]) -> String { "[" + paths.map(indexPath).joined(separator: ", ") + "]" }
        func indexSet(_ sections: [Int]) -> String {
            sections.count == 1 ? "IndexSet(integer: \(sections[0]))" : "IndexSet([" + sections.map(String.init).joined(separator: ", ") + "])"
        }
        var calls: [String] = []
        if !batch.sectionDeletes.isEmpty { calls.append("collectionView.deleteSections(\(indexSet(batch.sectionDeletes)))") }
        if !batch.sectionInserts.isEmpty { calls.append("collectionView.insertSections(\(indexSet(batch.sectionInserts)))") }
        for move in batch.sectionMoves { calls.append("collectionView.moveSection(\(move.from), toSection: \(move.to))") }
        if !batch.sectionReloads.isEmpty { calls.append("collectionView.reloadSections(\(indexSet(batch.sectionReloads)))") }
        if !batch.rowDeletes.isEmpty { calls.append("collectionView.deleteItems(at: \(indexPaths(batch.rowDeletes)))") }
        if !batch.rowInserts.isEmpty { calls.append("collectionView.insertItems(at: \(indexPaths(batch.rowInserts)))") }
        for move in batch.rowMoves { calls.append("collectionView.moveItem(at: \(indexPath(move.from)), to: \(indexPath(move.to)))") }
        if !batch.rowReloads.isEmpty { calls.append("collectionView.reconfigureItems(at: \(indexPaths(batch.rowReloads)))") }
        return calls
    }
}

/// JSON string literals for the `diff` contract, which keeps its documented
/// layout (key order, line breaks) byte for byte; everything else the tool
/// writes as JSON goes through Foundation's encoder (`SafeJSON`).
enum JSONText {
    static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
