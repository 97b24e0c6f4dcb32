import ProjectFiles
import Diagnostics
import ListDiff
import SnapshotFormat

/// Each demo block as a player shows it, for the review: what it shows
/// (an example file, or a sequence written in it), with its options, and
/// how it animates there when that is not how the example's own page
/// animates it. Read from the pages' Markdown, not from their HTML, so a
/// page taken from the cache counts as well.
extension SiteRendering {
    /// One block, its options read (`spec`), with the example it names (nil
    /// for one with errors, or for a sequence written in the block).
    static func shownBlock(_ block: DemoBlock, number: Int, of page: LoadedPage, spec: DemoSpec, example shownExample: LoadedExample?) -> BuildReport.Block? {
        let name = "\(page.path)#\(number)"
        var entry = BuildReport.Block(name: name, page: page.source, output: page.output, title: "", shows: nil, step: spec.step,
                                      autoplay: spec.autoplay, compare: spec.compare, animation: nil, stepCount: 0, steps: [])
        let sequence: SnapshotSequence, changesets: [Changeset<String, Record<String>>]
        switch spec.source {
        case .example(let path):
            guard let example = shownExample else { return nil }
            entry.shows = path
            (sequence, changesets) = (shown(example.sequence, as: spec), example.changesets)
            // Shown as its own page shows it: the example's changes are its own.
            guard PlayerParts.Look(sequence) != PlayerParts.Look(example.sequence) else {
                entry.title = sequence.title
                entry.stepCount = sequence.steps.count
                return entry
            }
        case .inline(let inline):
            guard let computed = try? inline.changesets() else { return nil }
            (sequence, changesets) = (shown(inline, as: spec), computed)
        }
        entry.title = sequence.title
        entry.animation = ExampleAnimation(sequence, changesets: changesets, name: name)
        entry.stepCount = sequence.steps.count
        entry.steps = zip(sequence.steps.dropFirst(), changesets).map { step, changeset in
            let counts = StepSummary(label: step.label, changeset: changeset)
            return BuildReport.Step(label: counts.label, batches: counts.batches, inserted: counts.inserted, deleted: counts.deleted,
                                    moved: counts.moved, reloaded: counts.reloaded)
        }
        return entry
    }

    /// `sequence` with a block's options applied: its animation, its cell,
    /// its size and style.
    static func shown(_ sequence: SnapshotSequence, as spec: DemoSpec?) -> SnapshotSequence {
        var sequence = sequence
        if let animation = spec?.animation { sequence.animations = RowAnimations(insert: animation, delete: animation, reload: animation) }
        if let cell = spec?.cell { sequence.cell = cell }
        if let spec { sequence.presentation.apply(spec.framing) }
        return sequence
    }
}
