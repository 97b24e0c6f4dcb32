import ListDiff
import SnapshotFormat

/// An example, read and diffed.
struct LoadedExample: Sendable {
    var name: String
    var sequence: SnapshotSequence
    var changesets: [Changeset<String, Record<String>>]
    /// A hash of the file's text, for the build cache.
    var sourceKey = ""
}
