import Diagnostics
import ListDiff

/// The build's report (`--report`), made from the built site.
extension BuiltSite {
    public var report: BuildReport {
        let markup = markup()
        return BuildReport(
            pages: pages.map { BuildReport.Page(source: $0.source, output: $0.output, title: $0.title, hash: $0.hash, markup: markup[$0.output]) },
            examples: examples.map { example in
                BuildReport.Example(example: example.name, title: example.title, output: example.output, stepCount: example.steps.count + 1,
                                    steps: example.steps.map { BuildReport.Step(label: $0.label, batches: $0.batches, inserted: $0.inserted,
                                                                                deleted: $0.deleted, moved: $0.moved, reloaded: $0.reloaded) },
                                    animation: example.animation(), markup: markup[example.output])
            },
            blocks: blocks(),
            theme: theme,
            scripts: scripts,
            diagnostics: DiagnosticReport(diagnostics).sorted.map { diagnostic in
                BuildReport.Problem(severity: diagnostic.severity.rawValue, id: diagnostic.id, file: diagnostic.location.file,
                                    line: diagnostic.location.line, column: diagnostic.location.column, message: diagnostic.message)
            },
            changes: changes)
    }

    /// The machine-readable summary `rowmotion build --report` writes.
    public var reportJSON: String { SafeJSON.encode(report) + "\n" }
}
