/// What changed between a baseline build and this one: examples added,
/// removed or animating differently (step by step: the calls removed and
/// added, the counts before and after, and the difference in words), and
/// pages whose text changed. A contract type: the report carries it.
public struct Changes: Codable, Equatable, Sendable {
    /// The baseline as it was named (`origin/main`, `main-report.json`).
    public var base: String
    public var examples: [ExampleChange]
    public var pages: [PageChange]

    public enum Kind: String, Codable, Sendable {
        case added, removed, changed
    }

    public struct ExampleChange: Codable, Equatable, Sendable {
        /// The example's path under `examples/`.
        public var example: String
        public var title: String
        public var kind: Kind
        /// Snapshots before and after (0 for the side that has none).
        public var stepsBefore: Int
        public var stepsAfter: Int
        /// The steps that animate differently, in order.
        public var steps: [StepChange]
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

    /// Whether any example was added, removed or animates differently.
    public var examplesChanged: Bool { !examples.isEmpty }

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
                examples.append(ExampleChange(example: name, title: new.title, kind: .changed, stepsBefore: old.stepCount,
                                              stepsAfter: new.stepCount, steps: Self.steps(from: old, to: new, work: &work)))
            case let (old?, nil):
                examples.append(ExampleChange(example: name, title: old.title, kind: .removed, stepsBefore: old.stepCount, stepsAfter: 0, steps: []))
            case let (nil, new?):
                examples.append(ExampleChange(example: name, title: new.title, kind: .added, stepsBefore: 0, stepsAfter: new.stepCount, steps: []))
            case (nil, nil):
                continue
            }
        }
        self.examples = examples
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

    /// The steps of a changed example that animate differently, their
    /// calls compared line by line within `work` (see `LineDiff`).
    static func steps(from old: BuildReport.Example, to new: BuildReport.Example, work: inout Int) -> [StepChange] {
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
                before: index < old.steps.count ? Counts(old.steps[index]) : nil,
                after: index < new.steps.count ? Counts(new.steps[index]) : nil,
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
