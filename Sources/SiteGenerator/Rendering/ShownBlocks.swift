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
    static func shownBlocks(_ inputs: SiteInputs) -> [BuildReport.Block] {
        Parallel.map(inputs.pages) { page -> [BuildReport.Block] in
            page.markdown.demoBlocks(lineOffset: page.bodyLineOffset).enumerated().compactMap { index, block in
                shownBlock(block, number: index + 1, of: page, inputs: inputs)
            }
        }.flatMap { $0 }
    }

    /// One block, or nil when it cannot be shown (the page's render reports why).
    static func shownBlock(_ block: DemoBlock, number: Int, of page: LoadedPage, inputs: SiteInputs) -> BuildReport.Block? {
        guard let spec = DemoSpec.read(block, file: page.source, examples: inputs.exampleNames).spec else { return nil }
        var example: LoadedExample?
        if case .example(let path) = spec.source { example = inputs.examplesByName[path] }
        return shownBlock(block, number: number, of: page, spec: spec, example: example)
    }

    /// The same, its options read (`spec`), with the example it names (nil
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

    /// Each page's raw HTML as one key, by its output, for the pages that
    /// have any: a page's raw HTML can script or restyle its players. When
    /// the theme writes front matter where it can script or restyle
    /// (`{{{params.head}}}`, `style="{{params.css}}"`), a page's front matter
    /// and title, and an example's title and description, are markup too,
    /// by the example's page.
    static func pageMarkup(_ inputs: SiteInputs) -> [String: String] {
        let unescaped = inputs.theme.writesFrontMatterAsMarkup
        let keys = Parallel.map(inputs.pages) { page -> String? in
            let html = page.markdown.rawHTML()
            guard unescaped else { return html.isEmpty ? nil : ContentHash.key(html) }
            return ContentHash.key([ContentHash.key(html), page.frontMatterKey ?? "", page.title])
        }
        var markup: [String: String] = [:]
        for (page, key) in zip(inputs.pages, keys) { markup[page.output] = key }
        if unescaped {
            for example in inputs.examples {
                markup[OutputPaths.examplePath(example.name)] = ContentHash.key([example.title, example.description ?? ""])
            }
        }
        return markup
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
