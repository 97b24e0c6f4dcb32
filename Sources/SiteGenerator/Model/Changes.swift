/// What changed between a baseline build and this one: every player added,
/// removed or animating differently — an example as its page shows it, and
/// each demo block as its page shows it (`guide/intro.md#2`): a sequence
/// written in the block, or an example shown with options of its own —
/// step by step (the calls removed and added, the counts before and after,
/// the difference in words) and in what the player is given besides
/// (animation styles, timing, table style, size, cell style, which example
/// a block shows, where it starts); the theme files every player is drawn
/// and moved by; and pages whose text changed. A contract type: the report
/// carries it.
public struct Changes: Codable, Equatable, Sendable {
    /// The baseline as it was named (`origin/main`, `main-report.json`).
    public var base: String
    /// Examples first (by name), then demo blocks (by page, then number).
    public var examples: [ExampleChange]
    /// The theme files (`head.mustache`, `rowmotion.js`, …) that are not the
    /// baseline's: every page is drawn by them.
    public var theme: [String]
    /// The pages (their Markdown files) whose raw HTML is not the
    /// baseline's (a page's raw HTML can script or restyle its players),
    /// and the static files a page could load as a script, a stylesheet or
    /// a document that are not.
    public var markup: [String]
    public var scripts: [String]
    public var pages: [PageChange]

    public enum Kind: String, Codable, Sendable {
        case added, removed, changed
    }

    public struct ExampleChange: Codable, Equatable, Sendable {
        /// The example's path under `examples/`, or a demo block's name
        /// (`guide/intro.md#2`: the page under `site/`, the block's number).
        public var example: String
        public var title: String
        public var kind: Kind
        /// Snapshots before and after (0 for the side that has none).
        public var stepsBefore: Int
        public var stepsAfter: Int
        /// The steps that animate differently, in order.
        public var steps: [StepChange]
        /// What else the player is given differently, in words
        /// (`duration 0.3 → 9.5 s`, `animation fade → none`).
        public var differences: [String] = []
        /// For a demo block: the page that holds it, and the example file it
        /// shows (nil for a sequence written in it).
        public var page: String?
        public var shows: String?
    }

    public struct StepChange: Codable, Equatable, Sendable {
        /// The snapshot the step leads to (1 for the first change); 0 for
        /// the first snapshot itself.
        public var step: Int
        public var label: String
        public var before: Counts?
        public var after: Counts?
        /// The Swift calls only the baseline makes, and only this build makes.
        public var removedCalls: [String]
        public var addedCalls: [String]
        /// Both versions' calls as a unified listing: lines starting with
        /// `-` (baseline only), `+` (this build only) or a space.
        public var listing: [String]
        /// What changed, in words.
        public var summary: String
    }

    public struct Counts: Codable, Equatable, Sendable {
        public var batches: Int
        public var inserted: Int
        public var deleted: Int
        public var moved: Int
        public var reloaded: Int

        init(_ step: BuildReport.Step) {
            (batches, inserted, deleted, moved, reloaded) = (step.batches, step.inserted, step.deleted, step.moved, step.reloaded)
        }

        /// `2 batches: 1 inserted, 3 moved`.
        public var text: String {
            let changes = [("inserted", inserted), ("deleted", deleted), ("moved", moved), ("reloaded", reloaded)]
                .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
            return "\(batches) batch\(batches == 1 ? "" : "es")" + (changes.isEmpty ? "" : ": " + changes.joined(separator: ", "))
        }
    }

    public struct PageChange: Codable, Equatable, Sendable {
        public var output: String
        public var title: String
        public var kind: Kind
        /// The Markdown file (`site/index.md`), as a reviewer finds it in
        /// the pull request's files; nil in reports written before it was kept.
        public var source: String?
    }

    /// Whether any player was added, removed or animates differently, or
    /// the theme every player moves by changed.
    public var examplesChanged: Bool { !examples.isEmpty || !theme.isEmpty || !markup.isEmpty || !scripts.isEmpty }

    /// An animation with its steps counted: how one player animates.
    struct Shown {
        var animation: ExampleAnimation
        var counts: [BuildReport.Step]
        var stepCount: Int

        init(animation: ExampleAnimation, counts: [BuildReport.Step], stepCount: Int) {
            (self.animation, self.counts, self.stepCount) = (animation, counts, stepCount)
        }

        init(_ example: BuildReport.Example) {
            self.init(animation: example.animation, counts: example.steps, stepCount: example.stepCount)
        }

        /// A block as it animates: its own animation, else its example's
        /// in the same report.
        init?(_ block: BuildReport.Block, in report: BuildReport) {
            if let animation = block.animation {
                self.init(animation: animation, counts: block.steps, stepCount: block.stepCount)
            } else if let shows = block.shows, let example = report.examples.first(where: { $0.example == shows }) {
                self.init(example)
            } else {
                return nil
            }
        }
    }

    /// Compares `current` with `baseline`, both reports of whole builds.
    public init(base: String, baseline: BuildReport, current: BuildReport) {
        self.base = base
        let before = Dictionary(baseline.examples.map { ($0.example, $0) }) { first, _ in first }
        let after = Dictionary(current.examples.map { ($0.example, $0) }) { first, _ in first }
        var examples: [ExampleChange] = []
        var work = LineDiff.workPerReview
        for name in Set(before.keys).union(after.keys).sorted() {
            switch (before[name], after[name]) {
            case let (old?, new?):
                guard !old.animation.animatesLike(new.animation) else { continue }
                let (a, b) = (Shown(old), Shown(new))
                examples.append(ExampleChange(example: name, title: new.title, kind: .changed, stepsBefore: old.stepCount,
                                              stepsAfter: new.stepCount, steps: Self.steps(from: a, to: b, work: &work),
                                              differences: ChangeWords.shown(from: a.animation, to: b.animation)))
            case let (old?, nil):
                examples.append(ExampleChange(example: name, title: old.title, kind: .removed, stepsBefore: old.stepCount, stepsAfter: 0, steps: []))
            case let (nil, new?):
                examples.append(ExampleChange(example: name, title: new.title, kind: .added, stepsBefore: 0, stepsAfter: new.stepCount, steps: []))
            case (nil, nil):
                continue
            }
        }
        examples += Self.blockChanges(baseline: baseline, current: current, work: &work)
        self.examples = examples
        theme = Set(baseline.theme.keys).union(current.theme.keys).sorted().filter { baseline.theme[$0] != current.theme[$0] }
        let oldMarkup = Dictionary(baseline.pages.map { ($0.output, $0.markup) }) { first, _ in first }
        let oldExampleMarkup = Dictionary(baseline.examples.map { ($0.example, $0.markup) }) { first, _ in first }
        markup = current.pages.filter { page in page.markup != (oldMarkup[page.output] ?? nil) }.map { $0.source }
            + current.examples.filter { example in example.markup != (oldExampleMarkup[example.example] ?? nil) }.map { "examples/" + $0.example }
        scripts = Set(baseline.scripts.keys).union(current.scripts.keys).sorted().filter { baseline.scripts[$0] != current.scripts[$0] }
        let oldPages = Dictionary(baseline.pages.map { ($0.output, $0) }) { first, _ in first }
        let newPages = Dictionary(current.pages.map { ($0.output, $0) }) { first, _ in first }
        pages = Set(oldPages.keys).union(newPages.keys).sorted().compactMap { output in
            switch (oldPages[output], newPages[output]) {
            case let (old?, new?):
                return old.hash == new.hash ? nil : PageChange(output: output, title: new.title, kind: .changed, source: new.source)
            case let (old?, nil): return PageChange(output: output, title: old.title, kind: .removed, source: old.source)
            case let (nil, new?): return PageChange(output: output, title: new.title, kind: .added, source: new.source)
            case (nil, nil): return nil
            }
        }
    }

    /// The demo blocks that animate differently, by page and number: a
    /// block that shows an example as the example's page does, on both
    /// sides, is that example's change, not its own.
    static func blockChanges(baseline: BuildReport, current: BuildReport, work: inout Int) -> [ExampleChange] {
        let before = Dictionary(baseline.blocks.map { ($0.name, $0) }) { first, _ in first }
        let after = Dictionary(current.blocks.map { ($0.name, $0) }) { first, _ in first }
        // `page.md#10` after `page.md#9`.
        func order(_ name: String) -> (String, Int) {
            guard let hash = name.lastIndex(of: "#") else { return (name, 0) }
            return (String(name[..<hash]), Int(name[name.index(after: hash)...]) ?? 0)
        }
        var changes: [ExampleChange] = []
        for name in Set(before.keys).union(after.keys).sorted(by: { order($0) < order($1) }) {
            switch (before[name], after[name]) {
            case let (old?, new?):
                var differences = ChangeWords.options(from: old, to: new)
                var steps: [StepChange] = []
                let a = Shown(old, in: baseline), b = Shown(new, in: current)
                // A block that shows an example as its page does, on both
                // sides, is that example: its changes are the example's.
                if old.animation != nil || new.animation != nil || old.shows != new.shows {
                    if let a, let b {
                        if !a.animation.animatesLike(b.animation) {
                            differences = ChangeWords.source(from: old, to: new) + differences
                                + ChangeWords.shown(from: a.animation, to: b.animation)
                            steps = Self.steps(from: a, to: b, work: &work)
                        }
                    } else {
                        differences = ChangeWords.source(from: old, to: new) + differences
                    }
                }
                guard !differences.isEmpty || !steps.isEmpty else { continue }
                changes.append(ExampleChange(example: name, title: new.title, kind: .changed, stepsBefore: a?.stepCount ?? old.stepCount,
                                             stepsAfter: b?.stepCount ?? new.stepCount, steps: steps, differences: differences,
                                             page: new.page, shows: new.shows))
            case let (old?, nil):
                changes.append(ExampleChange(example: name, title: old.title, kind: .removed, stepsBefore: old.stepCount, stepsAfter: 0, steps: [],
                                             page: old.page, shows: old.shows))
            case let (nil, new?):
                changes.append(ExampleChange(example: name, title: new.title, kind: .added, stepsBefore: 0, stepsAfter: new.stepCount, steps: [],
                                             page: new.page, shows: new.shows))
            case (nil, nil):
                continue
            }
        }
        return changes
    }

    /// The steps of a changed player that animate differently, their
    /// calls compared line by line within `work` (see `LineDiff`).
    static func steps(from old: Shown, to new: Shown, work: inout Int) -> [StepChange] {
        var changes: [StepChange] = []
        let (a, b) = (old.animation, new.animation)
        if a.initial != b.initial {
            changes.append(StepChange(step: 0, label: b.player.labels.first ?? "", before: nil, after: nil, removedCalls: [], addedCalls: [],
                                      listing: [], summary: "the first snapshot's rows changed"))
        }
        let sameStyles = a.player.animations == b.player.animations
        let names = StepWords.Names(current: b, baseline: a)
        for index in 0..<max(a.steps.count, b.steps.count) {
            let oldStep = index < a.steps.count ? a.steps[index] : nil
            let newStep = index < b.steps.count ? b.steps[index] : nil
            let oldPlayer = index < a.player.steps.count ? a.player.steps[index] : nil
            let newPlayer = index < b.player.steps.count ? b.player.steps[index] : nil
            guard oldStep != newStep || oldPlayer != newPlayer || !sameStyles else { continue }
            let oldLines = oldStep.map(Self.lines) ?? [], newLines = newStep.map(Self.lines) ?? []
            let (listing, removed, added) = Self.listing(LineDiff.compare(oldLines, newLines, work: &work))
            let label = newPlayer?.label ?? oldPlayer?.label ?? ""
            changes.append(StepChange(
                step: index + 1, label: label,
                before: index < old.counts.count ? Counts(old.counts[index]) : nil,
                after: index < new.counts.count ? Counts(new.counts[index]) : nil,
                removedCalls: removed, addedCalls: added, listing: listing,
                summary: StepWords.describe(before: oldStep, after: newStep, oldCells: oldPlayer, newCells: newPlayer, names: names)))
        }
        return changes
    }

    /// A step's listing, and the calls it removes and adds. Past the
    /// comparison's bound the listing is one comment line that counts them:
    /// they were not compared line by line.
    static func listing(_ outcome: LineDiff.Outcome) -> (listing: [String], removed: [String], added: [String]) {
        switch outcome {
        case .listing(let listing):
            return (listing, listing.filter { $0.hasPrefix("-") }.map { String($0.dropFirst()) },
                    listing.filter { $0.hasPrefix("+") }.map { String($0.dropFirst()) })
        case .uncompared(let removed, let added):
            return ([" // the calls changed: \(removed.count) lines removed and \(added.count) added, too many to compare line by line"],
                    removed, added)
        }
    }

    /// A step's calls as the example page lists them, a comment line
    /// before each batch.
    static func lines(_ step: ExampleAnimation.Step) -> [String] {
        step.batches.enumerated().flatMap { index, batch in
            ["// batch \(index + 1) of \(step.batches.count): \(batch.role)"] + batch.calls
        }
    }
}
