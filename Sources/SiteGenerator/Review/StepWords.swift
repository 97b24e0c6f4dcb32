/// What changed in one step, in words a reviewer reads in a pull request:
/// "now 2 batches (was 1); carol's reload now waits for a second batch;
/// bob is no longer moved".
enum StepWords {
    /// The most phrases a step's summary lists before "and N more".
    static let limit = 4

    static func describe(before: ExampleAnimation.Step?, after: ExampleAnimation.Step?,
                         oldCells: PlayerData.Step?, newCells: PlayerData.Step?) -> String {
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
                    let name = noun == "row" ? id : "section \(id)"
                    switch (was[kind], now[kind]) {
                    case let (from?, to?) where from != to:
                        phrases.append(to > from ? "\(name)'s \(kind) now waits for \(ordinal(to)) batch"
                                                 : "\(name)'s \(kind) now comes in \(ordinal(to)) batch (was \(ordinal(from)))")
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
