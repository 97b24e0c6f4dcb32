import Diagnostics
import ListDiff
import Reports
import SnapshotFormat

/// How one example animates, as `--report` records it and `--baseline`
/// compares it: enough to replay it (the first rows and the player's data),
/// to show it (its filmstrip) and to say what changed in words (each
/// batch's Swift calls and the ids each call touches). A contract type: the
/// report carries it, and a later build reads it back as its baseline.
public struct ExampleAnimation: Codable, Equatable, Sendable {
    /// The first snapshot, as the player's first rows.
    public var initial: [PlayerData.Section]
    /// What the player replays: every step's batches and the cells they create.
    public var player: PlayerData
    /// Per step (the first snapshot's excluded): its batches, in words.
    public var steps: [Step]
    /// The example's filmstrip, as the site writes it.
    public var filmstrip: String

    public struct Step: Codable, Equatable, Sendable {
        public var batches: [Batch]
    }

    /// One batch: its role, its calls as the example page lists them, and
    /// the ids of the rows and sections each kind of call touches.
    public struct Batch: Codable, Equatable, Sendable {
        public var role: String
        public var calls: [String]
        public var rows: Touched
        public var sections: Touched
    }

    public struct Touched: Codable, Equatable, Sendable {
        public var delete: [String] = []
        public var insert: [String] = []
        public var move: [String] = []
        public var reload: [String] = []
    }

    /// Whether the two show the same: the player is given the same and
    /// the filmstrip draws the same snapshots. Titles and descriptions may
    /// differ.
    public func animatesLike(_ other: ExampleAnimation) -> Bool {
        playsLike(other) && Filmstrip.drawing(filmstrip) == Filmstrip.drawing(other.filmstrip)
    }

    /// Whether the two replay the same: everything the player is given
    /// but the example's name and title (first rows, styles, labels,
    /// batches with their cells, the cell style, the list's size and table
    /// style, the timing). A row's text that a step changes without
    /// reloading it is not replayed (UIKit's cell keeps it), but the
    /// filmstrip draws it.
    public func playsLike(_ other: ExampleAnimation) -> Bool {
        var (mine, theirs) = (player, other.player)
        (mine.example, mine.title, theirs.example, theirs.title) = ("", "", "", "")
        return initial == other.initial && mine == theirs
    }

    /// What names each row and section in words, as the list shows them:
    /// a row by its title (its cell's title, else its first shown text), a
    /// section by its header; where a later step reloads or inserts a row,
    /// its newest title. Ids stand for rows and sections without text.
    public func names() -> (rows: [String: String], sections: [String: String]) {
        var rows: [String: String] = [:], sections: [String: String] = [:]
        func take(_ section: PlayerData.Section) {
            if let header = section.header, !header.isEmpty { sections[section.id] = header }
            section.items.forEach(take)
        }
        func take(_ row: PlayerData.Row) {
            let title = row.fields.first { $0.count > 2 && $0[2] == "title" } ?? row.fields.first { $0.count == 2 }
            if let text = title?[1], !text.isEmpty { rows[row.id] = text }
        }
        initial.forEach(take)
        for step in player.steps {
            for batch in step.batches {
                batch.newSections.forEach(take)
                (batch.insertedRows + batch.reloadedRows).forEach(take)
            }
        }
        return (rows, sections)
    }

    init(_ example: LoadedExample) {
        self.init(example.sequence, changesets: example.changesets, name: example.name)
    }

    /// `sequence` as a player shows it (a demo block's options applied).
    init(_ sequence: SnapshotSequence, changesets: [Changeset<String, Record<String>>], name: String) {
        initial = sequence.steps[0].snapshot.sections.map { PlayerData.section($0, of: sequence) }
        player = PlayerData(sequence: sequence, changesets: changesets, name: name)
        steps = zip(sequence.steps, changesets).map { first, changeset in
            var before = first.snapshot
            var batches: [Batch] = []
            for stage in changeset.stages {
                batches.append(Self.batch(stage, before: before, animations: sequence.animations, flavor: CallFlavor(sequence)))
                before = stage.after
            }
            return Step(batches: batches)
        }
        filmstrip = Filmstrip().svg(for: DiffReport(file: name, sequence: sequence, changesets: changesets))
    }

    static func batch(_ stage: Changeset<String, Record<String>>.Stage, before: Snapshot<String, Record<String>>,
                      animations: RowAnimations, flavor: CallFlavor = .table) -> Batch {
        let batch = stage.batch
        func oldRow(_ path: RowPath) -> String { before.sections[path.section].rows[path.row].id }
        func newRow(_ path: RowPath) -> String { stage.after.sections[path.section].rows[path.row].id }
        let rows = Touched(delete: batch.rowDeletes.map(oldRow), insert: batch.rowInserts.map(newRow),
                           move: batch.rowMoves.map { oldRow($0.from) }, reload: batch.rowReloads.map(oldRow))
        let sections = Touched(delete: batch.sectionDeletes.map { before.sections[$0].id },
                               insert: batch.sectionInserts.map { stage.after.sections[$0].id },
                               move: batch.sectionMoves.map { before.sections[$0.from].id },
                               reload: batch.sectionReloads.map { before.sections[$0].id })
        return Batch(role: stage.role.rawValue, calls: DiffReport.calls(for: batch, animations: animations, flavor: flavor), rows: rows, sections: sections)
    }
}
