/// What changed in one step, in words a reviewer reads in a pull request,
/// naming rows as the list shows them: "now 2 batches (was 1); the reload
/// of “Carol” now waits for a second batch; “Bob” is no longer moved".
enum StepWords {
    /// The most phrases a step's summary lists before "and N more".
    static let limit = 4

    /// How rows and sections are named: by their title or header in
    /// quotes, with the id beside it where two share one; by the id where
    /// they have no text.
    struct Names {
        var rows: [String: String] = [:]
        var sections: [String: String] = [:]
        private var sharedRowTitles: Set<String> = []
        private var sharedSectionTitles: Set<String> = []

        init() {}

        /// The current build's names, the baseline's for what it alone has.
        init(current: ExampleAnimation?, baseline: ExampleAnimation?) {
            let none: (rows: [String: String], sections: [String: String]) = ([:], [:])
            let old = baseline?.names() ?? none, new = current?.names() ?? none
            rows = old.rows.merging(new.rows) { _, newer in newer }
            sections = old.sections.merging(new.sections) { _, newer in newer }
            sharedRowTitles = Self.shared(rows)
            sharedSectionTitles = Self.shared(sections)
        }

        static func shared(_ names: [String: String]) -> Set<String> {
            var count: [String: Int] = [:]
            for title in names.values { count[title, default: 0] += 1 }
            return Set(count.filter { $0.value > 1 }.keys)
        }

        func row(_ id: String) -> String { Self.name(id, rows[id], shared: sharedRowTitles) }

        func section(_ id: String) -> String { "section " + Self.name(id, sections[id], shared: sharedSectionTitles) }

        static func name(_ id: String, _ title: String?, shared: Set<String>) -> String {
            guard let title, title != id else { return id.isEmpty ? "“”" : id }
            return "“\(title)”" + (shared.contains(title) ? " (\(id))" : "")
        }
    }

    static func describe(before: ExampleAnimation.Step?, after: ExampleAnimation.Step?,
                         oldCells: PlayerData.Step?, newCells: PlayerData.Step?, names: Names = Names()) -> String {
        guard let before else { return "a new step" + (after.map { ", \(batches($0.batches.count))" } ?? "") }
        guard let after else { return "the step was removed" }
        var phrases: [String] = []
        if before.batches.count != after.batches.count {
            phrases.append("now \(batches(after.batches.count)) (was \(before.batches.count))")
        }
        for (noun, touched) in [("row", \ExampleAnimation.Batch.rows), ("section", \ExampleAnimation.Batch.sections)] {
            let old = operations(before, touched), new = operations(after, touched)
            for id in Set(old.keys).union(new.keys).sorted() {
                let was = old[id] ?? [:], now = new[id] ?? [:]
                for kind in ["delete", "insert", "move", "reload"] {
                    let name = noun == "row" ? names.row(id) : names.section(id)
                    switch (was[kind], now[kind]) {
                    case let (from?, to?) where from != to:
                        phrases.append(to > from ? "the \(kind) of \(name) now waits for \(ordinal(to)) batch"
                                                 : "the \(kind) of \(name) now comes in \(ordinal(to)) batch (was \(ordinal(from)))")
                    case (nil, _?): phrases.append("\(name) is now \(past(kind))")
                    case (_?, nil): phrases.append("\(name) is no longer \(past(kind))")
                    default: break
                    }
                }
            }
        }
        if phrases.isEmpty, oldCells?.changedFields != newCells?.changedFields || oldCells?.batches != newCells?.batches {
            phrases.append("the same calls, with different cell contents")
        }
        if phrases.isEmpty, oldCells?.label != newCells?.label {
            phrases.append("renamed from “\(oldCells?.label ?? "")”")
        }
        if phrases.isEmpty { phrases.append("the calls' row animation styles changed") }
        let shown = phrases.prefix(limit).joined(separator: "; ")
        return phrases.count > limit ? shown + "; and \(phrases.count - limit) more" : shown
    }

    /// For each id, the batch (1-based) of each kind of call that touches it.
    static func operations(_ step: ExampleAnimation.Step, _ touched: KeyPath<ExampleAnimation.Batch, ExampleAnimation.Touched>)
        -> [String: [String: Int]] {
        var result: [String: [String: Int]] = [:]
        for (index, batch) in step.batches.enumerated() {
            let calls = batch[keyPath: touched]
            for (kind, ids) in [("delete", calls.delete), ("insert", calls.insert), ("move", calls.move), ("reload", calls.reload)] {
                for id in ids where result[id]?[kind] == nil { result[id, default: [:]][kind] = index + 1 }
            }
        }
        return result
    }

    static func batches(_ count: Int) -> String { "\(count) batch\(count == 1 ? "" : "es")" }

    static func ordinal(_ batch: Int) -> String {
        switch batch {
        case 1: return "the first"
        case 2: return "a second"
        case 3: return "a third"
        default: return "batch \(batch)"
        }
    }

    static func past(_ kind: String) -> String {
        ["delete": "deleted", "insert": "inserted", "move": "moved", "reload": "reloaded"][kind] ?? kind
    }
}
