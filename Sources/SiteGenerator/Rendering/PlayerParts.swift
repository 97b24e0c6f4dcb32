import ProjectFiles
import SnapshotFormat

/// The parts of a player that depend only on its example and how it is
/// drawn (its data and its first rows as HTML), made once for each example
/// of `examples/` as its own file draws it (`ExamplePlayer`): shared by the
/// example's page and every block that shows the example as it is. A block
/// that draws it otherwise (its own animation, cell or size) makes its own.
struct PlayerParts: Sendable {
    typealias Parts = (initialHTML: String, data: String)
    /// The parts of an example as its own file draws it (nil: made here).
    private let made: @Sendable (LoadedExample) -> Parts?

    init(_ made: @escaping @Sendable (LoadedExample) -> Parts? = { _ in nil }) { self.made = made }

    /// What the player needs of `example` drawn as `sequence` says.
    func parts(_ example: LoadedExample, drawnAs sequence: SnapshotSequence) -> Parts {
        if Look(sequence) == Look(example.sequence), let known = made(example) { return known }
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
