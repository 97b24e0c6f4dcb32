import ArgumentParser
import Foundation
import SnapshotFormat

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check snapshot sequences without writing anything.",
        discussion: "Reports every problem as path:line:column: error: message. Exits 1 when any file has an error (or a warning, with --strict).")

    @Argument(help: "Files or folders to check (default: examples).")
    var paths: [String] = []

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    func run() throws {
        let files = SequenceFiles.collect(paths.isEmpty ? ["examples"] : paths)
        var all = DiagnosticReport(files.problems)
        for file in files.found {
            all.append(contentsOf: SequenceCheck.check(path: file))
        }
        report(all.sorted)
        let errors = all.diagnostics.filter { $0.severity == .error }.count
        let warnings = all.diagnostics.count - errors
        print("checked \(files.found.count) file\(files.found.count == 1 ? "" : "s"): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        if errors > 0 || (strict && warnings > 0) { throw ExitCode(1) }
    }
}
