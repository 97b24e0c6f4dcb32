import Reports
import Diagnostics
import SnapshotFormat
import ArgumentParser
import Foundation
import ProjectFiles
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
        var options = siteOptions.buildOptions()
        let project = Project.ofWorkingFolder()
        options.project = project
        // Listed once, for the folder checks and the build.
        let tree = InputTree.onDisk(options.inputFolders, in: project)
        options.inputs = tree
        let folderProblems = InputFolders.problems(options, tree: tree).filter { $0.id != "output-inside-input" }
        guard folderProblems.isEmpty else {
            report(folderProblems)
            throw ExitCode(1)
        }
        let files = SequenceFiles.collect(paths.isEmpty && FileManager.default.fileExists(atPath: options.examples) ? [options.examples] : paths,
                                          in: project)
        var all = DiagnosticReport(files.problems)
        let buildsSite = paths.isEmpty && FileManager.default.fileExists(atPath: options.site)
        // Nothing to check is an error, as for `build` (the site's own
        // build says so when the site folder is there): a check that finds
        // nothing in a wrong folder must not pass in CI.
        if files.found.isEmpty, files.problems.isEmpty, !buildsSite, !options.allowEmpty {
            let here = FileManager.default.currentDirectoryPath
            let message = paths.isEmpty
                ? "found no pages in '\(options.site)' and no examples in '\(options.examples)' (from \(here)): run in the project's folder or name the folders with --site and --examples; --allow-empty checks nothing on purpose"
                : "found no snapshot sequence files (\(SnapshotReader.extensions.sorted().map { "." + $0 }.joined(separator: ", "))) in " + paths.map { "'\($0)'" }.joined(separator: ", ") + "; --allow-empty checks nothing on purpose"
            all.append(.error("nothing-to-check", at: SourceLocation(file: paths.first ?? options.site, line: 1, column: 1), message))
        }
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        // What was checked, in the words of what the user has: pages and examples, or sequence files.
        var checked = count(files.found.count, "sequence file")
        if buildsSite {
            // The whole build, in memory: its diagnostics include the examples'.
            let site = SiteBuilder.build(options)
            all.append(contentsOf: site.diagnostics)
            checked = count(site.pageCount, "page") + " and " + count(max(site.exampleCount, files.found.count), "example")
            for file in files.found {
                all.append(contentsOf: SequenceCheck.check(path: file.path, followingLink: file.named).filter { $0.severity == .warning })
            }
        } else {
            for file in files.found {
                all.append(contentsOf: SequenceCheck.check(path: file.path, followingLink: file.named))
            }
        }
        // The build reads the examples too: each problem once.
        var seen = Set<Diagnostic>()
        all = DiagnosticReport(all.diagnostics.filter { seen.insert($0).inserted })
        report(all.sorted)
        let errors = all.diagnostics.filter { $0.severity == .error }.count
        let warnings = all.diagnostics.count - errors
        print("checked \(checked): \(count(errors, "error")), \(count(warnings, "warning"))")
        if errors > 0 || (strict && warnings > 0) { throw ExitCode(1) }
    }
}
