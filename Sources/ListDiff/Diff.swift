/// How the engine breaks ties and treats repeated identities.
public struct DiffOptions: Hashable, Sendable {
    /// Which way ambiguous moves go; nil for no preference.
    public var prefer: MoveDirection?
    /// What to do with two rows of one snapshot that share an identity.
    public var duplicates: DuplicatePolicy
    /// How reordered rows are reported; anything but `.minimalMoves` is for
    /// comparison.
    public var strategy: DiffStrategy

    public init(prefer: MoveDirection? = nil, duplicates: DuplicatePolicy = .reject, strategy: DiffStrategy = .minimalMoves) {
        self.prefer = prefer
        self.duplicates = duplicates
        self.strategy = strategy
    }
}

/// How a step's reordered rows become operations. Every strategy gives
/// batches UIKit accepts that end in the new snapshot; they differ in what
/// the user sees move.
public enum DiffStrategy: String, Hashable, Sendable, CaseIterable {
    /// The fewest moves: the rows outside one longest increasing
    /// subsequence of each section's kept rows. What ListDiff reports.
    case minimalMoves
    /// For comparison: the offset test of Heckel-style diffs (DifferenceKit
    /// and others), where a kept row moves when its index among its
    /// section's kept rows changes, so every row between a moved row's old
    /// and new place moves too (one row taken from the top of n rows to the
    /// bottom: n moves, the row and the n − 1 it passes).
    case offsets
    /// For comparison: no moves at all; each row the minimal strategy
    /// would move is deleted and inserted instead (sections still move).
    case deletesAndInserts
}

extension Changeset {
    /// Computes the batches that take `old` to `new`, in UIKit coordinates.
    ///
    /// Every batch passes the UIKit rule `Validator`. Moves are minimal: per
    /// section, the kept rows outside one longest increasing subsequence of
    /// their new offsets (inserting one row at the front moves nothing); a
    /// row that changes between surviving sections is one move; sections
    /// likewise. Among minimal move sets, rows whose move hint changed are
    /// the movers, then rows going the `prefer` direction.
    ///
    /// A row that moves *and* changes is moved in the structural batch and
    /// reloaded in a later one; so is a changed row whose slot moves would
    /// shift (UIKit places reloaded cells by deletes and inserts alone).
    /// Header and footer changes reload their section in that later batch.
    ///
    /// - Parameters:
    ///   - old: the snapshot the list shows now.
    ///   - new: the snapshot it must show after the changeset.
    ///   - options: tie-breaks and the duplicate policy.
    /// - Throws: `ListDiffError.duplicateRowID` naming the id and both
    ///   positions (under `.reject`), `ListDiffError.duplicateSectionID`.
    /// - Complexity: O((n + m) log(n + m)) hashes, comparisons and
    ///   `hasChanges` calls at worst, n and m the row counts of `old` and
    ///   `new`; O(n + m) when no kept row changes order.
    @inlinable
    public init(from old: Snapshot<SectionID, Row>, to new: Snapshot<SectionID, Row>,
                options: DiffOptions = DiffOptions()) throws(ListDiffError) {
        let map = try matchIdentities(old: old, new: new, duplicates: options.duplicates)
        let plan = makePlan(map, prefer: options.prefer, strategy: options.strategy)
        var stages: [Stage] = []
        stages.reserveCapacity(plan.stages.count)
        for stage in plan.stages {
            let after = stage.layout.map { snapshot(of: $0, old: old, new: new, map: map, continues: plan.continues) } ?? new
            stages.append(Stage(batch: stage.batch, after: after, role: stage.role))
        }
        var rows: [RowChange<Row.ID>] = []
        rows.reserveCapacity(plan.rows.count)
        for planned in plan.rows {
            let oldPath = planned.old >= 0 ? map.oldPath(ofFlat: Int(planned.old)) : nil
            let newPath = planned.new >= 0 ? map.newPath(ofFlat: Int(planned.new)) : nil
            // Only the id is copied (rows are read in place, not copied out,
            // which cost a retain and a release of each row's contents).
            let id = newPath.map { new.sections[$0.section].rows[$0.row].id } ?? old.sections[oldPath!.section].rows[oldPath!.row].id
            var fields: [String] = []
            if planned.kind.contains(.reloaded), let oldPath, let newPath {
                fields = new.sections[newPath.section].rows[newPath.row]
                    .changedFields(comparedTo: old.sections[oldPath.section].rows[oldPath.row])
            }
            rows.append(RowChange(id: id, old: oldPath, new: newPath, kind: planned.kind, changedFields: fields))
        }
        self.init(stages: stages, rows: rows)
    }
}

/// The snapshot a layout describes: rows that keep their cell carry their
/// new content (UIKit shows it once the row is reloaded), rows on their way
/// out their old content.
@inlinable
func snapshot<SectionID, Row>(
    of layout: Layout, old: Snapshot<SectionID, Row>, new: Snapshot<SectionID, Row>,
    map: IdentityMap, continues: [Bool]
) -> Snapshot<SectionID, Row> {
    var sections: [Section<SectionID, Row>] = []
    sections.reserveCapacity(layout.sectionKeys.count)
    for (index, key) in layout.sectionKeys.enumerated() {
        var section: Section<SectionID, Row>
        if key >= map.oldSectionCount {
            section = new.sections[key - map.oldSectionCount]
        } else if map.oldSectionToNew[key] >= 0 {
            section = new.sections[map.oldSectionToNew[key]]
        } else {
            section = old.sections[key]
        }
        section.rows = []
        for position in layout.rowStarts[index]..<layout.rowStarts[index + 1] {
            let rowKey = Int(layout.rowKeys[position])
            let path: RowPath
            let source: Snapshot<SectionID, Row>
            if rowKey >= map.oldRowCount {
                path = map.newPath(ofFlat: rowKey - map.oldRowCount)
                source = new
            } else if continues[rowKey] {
                path = map.newPath(ofFlat: Int(map.oldToNew[rowKey]))
                source = new
            } else {
                path = map.oldPath(ofFlat: rowKey)
                source = old
            }
            section.rows.append(source.sections[path.section].rows[path.row])
        }
        sections.append(section)
    }
    return Snapshot(sections: sections)
}
