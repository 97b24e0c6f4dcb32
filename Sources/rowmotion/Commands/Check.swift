import Reports
import Diagnostics
import SnapshotFormat
import ArgumentParser
import Foundation
import SiteGenerator

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check snapshot sequences without writing anything.",
        discussion: "Reports every problem as path:line:column: error: message. Exits 1 when any file has an error (or a warning, with --strict).")

    @Argument(help: "Snapshot sequence files or folders to check (default: the examples, and the site's pages).")
    var paths: [String] = []

    @OptionGroup var siteOptions: SiteOptions

    var strict: Bool { siteOptions.strict }

    func run() throws {
        let options = siteOptions.buildOptions()
        let folderProblems = InputFolders.problems(options).filter { $0.id != "output-inside-input" }
        guard folderProblems.isEmpty else {
            report(folderProblems)
            throw ExitCode(1)
        }
        let files = SequenceFiles.collect(paths.isEmpty && FileManager.default.fileExists(atPath: options.examples) ? [options.examples] : paths)
        var all = DiagnosticReport(files.problems)
        if paths.isEmpty && FileManager.default.fileExists(atPath: options.site) {
            // The whole build, in memory: its diagnostics include the examples'.
            all.append(contentsOf: SiteBuilder.build(options).diagnostics)
            for file in files.found {
                all.append(contentsOf: SequenceCheck.check(path: file).filter { $0.severity == .warning })
            }
        } else {
            for file in files.found {
                all.append(contentsOf: SequenceCheck.check(path: file))
            }
        }
        // The build reads the examples too: each problem once.
        var seen = Set<Diagnostic>()
        all = DiagnosticReport(all.diagnostics.filter { seen.insert($0).inserted })
        report(all.sorted)
        let errors = all.diagnostics.filter { $0.severity == .error }.count
        let warnings = all.diagnostics.count - errors
        print("checked \(files.found.count) file\(files.found.count == 1 ? "" : "s"): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        if errors > 0 || (strict && warnings > 0) { throw ExitCode(1) }
    }
}
