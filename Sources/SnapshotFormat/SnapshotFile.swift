import Diagnostics
import ListDiff

/// `UITableView.RowAnimation`, as snapshot files name it.
public enum RowAnimation: String, CaseIterable, Hashable, Sendable {
    case fade, right, left, top, bottom, none, middle, automatic
}

/// The animation for each kind of row change.
public struct RowAnimations: Hashable, Sendable {
    public var insert: RowAnimation
    public var delete: RowAnimation
    public var reload: RowAnimation

    public init(insert: RowAnimation = .automatic, delete: RowAnimation = .automatic, reload: RowAnimation = .automatic) {
        self.insert = insert
        self.delete = delete
        self.reload = reload
    }
}

/// How rows are identified across snapshots.
public enum RowIdentity: Hashable, Sendable {
    /// By the value of this field (`id` by default).
    case field(String)
    /// By the whole row: rows with equal content are the same row, paired by
    /// occurrence when repeated.
    case content
}

/// A snapshot sequence file, read and checked: the moments a list goes
/// through, with how its changes should animate.
public struct SnapshotSequence: Sendable {
    /// One snapshot of the sequence.
    public struct Step: Sendable {
        public var label: String
        public var snapshot: Snapshot<String, Record<String>>
        /// Where the step is written.
        public var location: SourceLocation
    }

    public var file: String
    public var title: String
    public var description: String?
    public var animations: RowAnimations
    public var identity: RowIdentity
    /// The field whose change alone marks a row as changed.
    public var versionField: String?
    /// The field whose change marks a row as the one that moved.
    public var moveHintField: String?
    public var prefer: MoveDirection?
    /// How rows are drawn (`cell:`); nil shows every field in a line.
    public var cell: CellLayout?
    /// The list's size and style and the animation's timing.
    public var presentation = Presentation()
    public var steps: [Step]

    /// The options the engine diffs this sequence with.
    public var diffOptions: DiffOptions {
        DiffOptions(prefer: prefer, duplicates: identity == .content ? .pairByOccurrence : .reject)
    }

    /// The changeset of each step: from snapshot k to snapshot k + 1.
    ///
    /// - Throws: a diagnostic at the step if the engine rejects it (the
    ///   reader already rejects duplicate identities, so this is a bug).
    public func changesets(strategy: DiffStrategy = .minimalMoves) throws(Diagnostic) -> [Changeset<String, Record<String>>] {
        var result: [Changeset<String, Record<String>>] = []
        var options = diffOptions
        options.strategy = strategy
        for index in steps.indices.dropFirst() {
            do {
                result.append(try Changeset(from: steps[index - 1].snapshot, to: steps[index].snapshot, options: options))
            } catch {
                throw .error("diff-failed", at: steps[index].location, error.description)
            }
        }
        return result
    }
}
