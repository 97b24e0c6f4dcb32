import Diagnostics
import ListDiff

/// The build's report (`--report`), made from the built site.
extension BuiltSite {
    public var report: BuildReport {
        var report = reportParts()
        report.diagnostics = DiagnosticReport(diagnostics).sorted.map { diagnostic in
            BuildReport.Problem(severity: diagnostic.severity.rawValue, id: diagnostic.id, file: diagnostic.location.file,
                                line: diagnostic.location.line, column: diagnostic.location.column, message: diagnostic.message)
        }
        report.changes = changes
        return report
    }

    /// The machine-readable summary `rowmotion build --report` writes.
    public var reportJSON: String { SafeJSON.encode(report) + "\n" }
}
