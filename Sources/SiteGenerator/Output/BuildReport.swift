import Diagnostics
import ListDiff
import SnapshotFormat

/// One step of an example, counted.
public struct StepSummary: Sendable {
    public var label: String
    public var batches: Int
    public var inserted = 0, deleted = 0, moved = 0, reloaded = 0

    init(label: String, changeset: Changeset<String, Record<String>>) {
        self.label = label
        batches = changeset.stages.count
        let counts = changeset.rowCounts
        (inserted, deleted, moved, reloaded) = (counts.inserted, counts.deleted, counts.moved, counts.reloaded)
    }
}

extension BuiltSite {
    /// The machine-readable summary `rowmotion build --report` writes.
    public var reportJSON: String {
        func string(_ text: String) -> String { JSONText.string(text) }
        let pageList = pages.map { "{\"source\": \(string($0.source)), \"output\": \(string($0.output)), \"title\": \(string($0.title))}" }
        let exampleList = examples.map { example in
            let steps = example.steps.map { step in
                "{\"label\": \(string(step.label)), \"batches\": \(step.batches), \"inserted\": \(step.inserted), "
                    + "\"deleted\": \(step.deleted), \"moved\": \(step.moved), \"reloaded\": \(step.reloaded)}"
            }
            return "{\"example\": \(string(example.name)), \"title\": \(string(example.title)), \"output\": \(string(example.output)), "
                + "\"stepCount\": \(example.steps.count + 1), \"steps\": [\(steps.joined(separator: ", "))]}"
        }
        let diagnosticList = DiagnosticReport(diagnostics).sorted.map { diagnostic in
            "{\"severity\": \(string(diagnostic.severity.rawValue)), \"id\": \(string(diagnostic.id)), "
                + "\"file\": \(string(diagnostic.location.file)), \"line\": \(diagnostic.location.line), "
                + "\"column\": \(diagnostic.location.column), \"message\": \(string(diagnostic.message))}"
        }
        return "{\"pages\": [\(pageList.joined(separator: ",\n  "))],\n \"examples\": [\(exampleList.joined(separator: ",\n  "))],\n"
            + " \"diagnostics\": [\(diagnosticList.joined(separator: ",\n  "))]}\n"
    }
}
