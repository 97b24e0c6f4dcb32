import ProjectFiles
import SnapshotFormat

/// The parts of a player that depend only on its example and how it is
/// drawn (its data and its first rows as HTML), made once per build for
/// each example of `examples/` as its own file draws it, on every core,
/// before any page renders: a value every page reads, shared by the
/// example's page and every block that shows the example as it is. A block
/// that draws it otherwise (its own animation, cell or size) makes its own.
struct PlayerParts: Sendable {
    typealias Parts = (initialHTML: String, data: String)
    private var made: [String: (look: Look, parts: Parts)] = [:]

    init() {}

    init(_ examples: [LoadedExample]) {
        let parts = Parallel.map(examples) { example in
            (look: Look(example.sequence), parts: Self.make(example.sequence, example))
        }
        for (example, entry) in zip(examples, parts) { made[example.name] = entry }
    }

    /// What the player needs of `example` drawn as `sequence` says.
    func parts(_ example: LoadedExample, drawnAs sequence: SnapshotSequence) -> Parts {
        if let known = made[example.name], known.look == Look(sequence) { return known.parts }
        return Self.make(sequence, example)
    }

    static func make(_ sequence: SnapshotSequence, _ example: LoadedExample) -> Parts {
        (initialHTML: SiteRendering.staticList(sequence.steps[0].snapshot, of: sequence),
         data: PlayerData.json(for: sequence, changesets: example.changesets, name: example.name))
    }

    /// What, besides the example, the parts depend on (compared as values:
    /// a text key made of their descriptions cost a reflection per player).
    struct Look: Equatable {
        var animations: RowAnimations
        var cell: CellLayout?
        var presentation: Presentation

        init(_ sequence: SnapshotSequence) {
            (animations, cell, presentation) = (sequence.animations, sequence.cell, sequence.presentation)
        }
    }
}
