import Diagnostics
import ListDiff
import ProjectFiles
import SnapshotFormat

/// An example, read and diffed: what every build shows of it (its title,
/// description, step labels and counts: the search index, the report, the
/// link checks), and its sequence and changesets.
struct LoadedExample: Sendable {
    var name: String
    /// A hash of the file's text, for the build cache.
    var sourceKey = ""
    var title: String
    var description: String?
    /// Every step's label, the first one's included.
    var stepLabels: [String]
    /// What each change between two steps does.
    var summaries: [StepSummary]
    private(set) var sequence: SnapshotSequence
    var changesets: [Changeset<String, Record<String>>]

    init(name: String, sequence: SnapshotSequence, changesets: [Changeset<String, Record<String>>], sourceKey: String) {
        (self.name, self.sourceKey, title, description) = (name, sourceKey, sequence.title, sequence.description)
        stepLabels = sequence.steps.map(\.label)
        summaries = zip(sequence.steps.dropFirst(), changesets).map { StepSummary(label: $0.label, changeset: $1) }
        (self.sequence, self.changesets) = (sequence, changesets)
    }
}
