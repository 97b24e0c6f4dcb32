import Diagnostics
import SnapshotFormat
import ListDiff

/// The data a player needs, embedded in its page beside the first
/// snapshot's rows (which the page shows as HTML and the player adopts, so
/// they are not repeated here): each step's batches with the content of the
/// cells they create (inserted and reloaded rows and sections). A page grows
/// with the changes, not with steps × rows.
public enum PlayerData {
    public static func json(for sequence: SnapshotSequence, name: String) throws(Diagnostic) -> String {
        json(for: sequence, changesets: try sequence.changesets(), name: name)
    }

    /// The data, from changesets already computed for `sequence`.
    public static func json(for sequence: SnapshotSequence, changesets: [Changeset<String, Record<String>>], name: String) -> String {
        var steps: [String] = []
        for (index, changeset) in changesets.enumerated() {
            var before = sequence.steps[index].snapshot
            var batches: [String] = []
            for stage in changeset.stages {
                batches.append(batch(stage, before: before))
                before = stage.after
            }
            let reloads = changeset.rows.filter { $0.kind.contains(.reloaded) }
            let changed = reloads.map { SafeJSON.string($0.id) + ":" + SafeJSON.array($0.changedFields.map(SafeJSON.string)) }
            steps.append(SafeJSON.object([
                "label": SafeJSON.string(sequence.steps[index + 1].label),
                "batches": SafeJSON.array(batches),
                "changedFields": "{" + changed.joined(separator: ",") + "}",
            ]))
        }
        let animations = sequence.animations
        return SafeJSON.object([
            "example": SafeJSON.string(name),
            "title": SafeJSON.string(sequence.title),
            "animations": SafeJSON.object([
                "insert": SafeJSON.string(animations.insert.rawValue),
                "delete": SafeJSON.string(animations.delete.rawValue),
                "reload": SafeJSON.string(animations.reload.rawValue),
            ]),
            "labels": SafeJSON.array(sequence.steps.map { SafeJSON.string($0.label) }),
            "steps": SafeJSON.array(steps),
        ])
    }

    static func section(_ section: Section<String, Record<String>>) -> String {
        SafeJSON.object([
            "id": SafeJSON.string(section.id),
            "header": section.header.map(SafeJSON.string) ?? "null",
            "footer": section.footer.map(SafeJSON.string) ?? "null",
            "items": SafeJSON.array(section.rows.map(row)),
        ])
    }

    static func row(_ row: Record<String>) -> String {
        SafeJSON.object([
            "id": SafeJSON.string(row.id),
            "fields": SafeJSON.array(row.fields.map { SafeJSON.array([SafeJSON.string($0.name), value($0.value)]) }),
        ])
    }

    /// A value as a cell shows it, the same text as the page's first rows
    /// (JavaScript would print `2.0` as `2`).
    static func value(_ value: FieldValue) -> String {
        SafeJSON.string(value.description)
    }

    /// One batch: its operations in UIKit coordinates, and the content of
    /// the cells it creates, taken from the data source after it. The
    /// reloaded rows are this batch's own, in the order of its reload calls
    /// (the row each call names in `before`, as `after` holds it).
    static func batch(_ stage: Changeset<String, Record<String>>.Stage, before: Snapshot<String, Record<String>>) -> String {
        let batch = stage.batch
        func path(_ path: RowPath) -> String { "[\(path.section),\(path.row)]" }
        func ints(_ values: [Int]) -> String { SafeJSON.array(values.map(String.init)) }
        // New cells: inserted rows at their new paths, reloaded rows at the
        // path of the same row in `after`; whole sections inserted or reloaded.
        var cells: [String] = []
        for inserted in batch.rowInserts {
            cells.append(row(stage.after.sections[inserted.section].rows[inserted.row]))
        }
        var reloadedRows: [String] = []
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
        let newSectionIndexes = batch.sectionInserts + batch.sectionReloadTargets
        return SafeJSON.object([
            "role": SafeJSON.string(stage.role.rawValue),
            "sections": SafeJSON.object([
                "delete": ints(batch.sectionDeletes), "insert": ints(batch.sectionInserts),
                "move": SafeJSON.array(batch.sectionMoves.map { "[\($0.from),\($0.to)]" }), "reload": ints(batch.sectionReloads),
            ]),
            "rows": SafeJSON.object([
                "delete": SafeJSON.array(batch.rowDeletes.map(path)), "insert": SafeJSON.array(batch.rowInserts.map(path)),
                "move": SafeJSON.array(batch.rowMoves.map { "[\(path($0.from)),\(path($0.to))]" }),
                "reload": SafeJSON.array(batch.rowReloads.map(path)),
            ]),
            "insertedRows": SafeJSON.array(cells),
            "reloadedRows": SafeJSON.array(reloadedRows),
            "newSections": SafeJSON.array(newSectionIndexes.sorted().map { section(stage.after.sections[$0]) }),
        ])
    }
}
