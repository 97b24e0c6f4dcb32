import Diagnostics
import ListDiff
import ProjectFiles
import SnapshotFormat

/// An example, read and diffed: what every build shows of it (its title,
/// description, step labels and counts: the search index, the report, the
/// link checks), and its sequence and changesets, which a command-line
/// build that took the example from the cache (`ExampleRecord`) reads only
/// when something it makes again shows them.
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
    private var content: Content

    var sequence: SnapshotSequence { content.value.sequence }
    var changesets: [Changeset<String, Record<String>>] {
        get { content.value.changesets }
        // (Another strategy's, for a comparison's pane.)
        set { content = Content(loaded: (sequence, newValue)) }
    }

    /// Why reading its file when it was first asked for failed (the file
    /// changed during the build: the build fails); nil when it did not.
    var failure: Diagnostic? { content.failure }

    /// Whether its sequence was read (always, but for one from its record
    /// that nothing asked for).
    var isRead: Bool { content.isLoaded }

    init(name: String, sequence: SnapshotSequence, changesets: [Changeset<String, Record<String>>], sourceKey: String) {
        (self.name, self.sourceKey, title, description) = (name, sourceKey, sequence.title, sequence.description)
        stepLabels = sequence.steps.map(\.label)
        summaries = zip(sequence.steps.dropFirst(), changesets).map { StepSummary(label: $0.label, changeset: $1) }
        content = Content(loaded: (sequence, changesets))
    }

    /// What every build shows of it as given (`ExampleRecord` gives it),
    /// its sequence and changesets read by `load` when first asked for; a
    /// load that fails is the example's `failure` (its file, at `path`).
    init(name: String, sourceKey: String, title: String, description: String?, stepLabels: [String], summaries: [StepSummary], path: String,
         load: @escaping @Sendable () -> Result<Content.Value, Diagnostic>) {
        (self.name, self.sourceKey, self.title, self.description, self.stepLabels, self.summaries) = (name, sourceKey, title, description, stepLabels, summaries)
        content = Content(loading: load, placeholder: { Content.placeholder(title: title, file: path) })
    }

    /// The sequence and changesets, read once (by whichever thread asks first).
    final class Content: Sendable {
        typealias Value = (sequence: SnapshotSequence, changesets: [Changeset<String, Record<String>>])
        private let state: Locked<(value: Value?, failure: Diagnostic?)>
        private let load: (@Sendable () -> Result<Value, Diagnostic>)?
        private let placeholder: (@Sendable () -> Value)?

        init(loaded: Value) {
            (state, load, placeholder) = (Locked((loaded, nil)), nil, nil)
        }

        init(loading: @escaping @Sendable () -> Result<Value, Diagnostic>, placeholder: @escaping @Sendable () -> Value) {
            (state, load, self.placeholder) = (Locked((nil, nil)), loading, placeholder)
        }

        var value: Value {
            state.withLock { state in
                if let value = state.value { return value }
                switch load!() {
                case .success(let value):
                    state.value = value
                case .failure(let problem):
                    // The build fails with `failure`; until then its pages show an empty list.
                    (state.value, state.failure) = (placeholder!(), problem)
                }
                return state.value!
            }
        }

        var failure: Diagnostic? { state.withLock { $0.failure } }
        var isLoaded: Bool { state.withLock { $0.value != nil } }

        /// Two empty steps under the example's title.
        static func placeholder(title: String, file: String) -> Value {
            let (read, _) = SnapshotReader.read(bytes: Array("steps:\n  - items: []\n  - items: []\n".utf8), file: file)
            guard var sequence = read, let changesets = try? sequence.changesets() else { preconditionFailure("two empty steps are a sequence") }
            sequence.title = title
            return (sequence, changesets)
        }
    }
}
