import ProjectFiles
import Diagnostics
import SnapshotFormat
import ArgumentParser
import Foundation
import SiteGenerator

/// The options `build` and `check` share.
struct SiteOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The folder of Markdown pages (default: site; when named, it must exist).", valueName: "folder"))
    var site: String?

    @Option(help: ArgumentHelp("The folder of snapshot sequences (default: examples; when named, it must exist).", valueName: "folder"))
    var examples: String?

    @Option(help: ArgumentHelp("A folder of theme files that override the built-in theme, file by file (default: templates; when named, it must exist).",
                               valueName: "folder"))
    var templates: String?

    @Flag(help: "Include pages whose front matter says draft: true.")
    var drafts = false

    @Flag(help: "Treat warnings (broken links, examples no page shows, UIKit rule problems) as errors.")
    var strict = false

    @Flag(name: .customLong("pretty-urls"),
          help: "Write each page as its own folder's index.html (guide/a.md → guide/a/index.html, served at /guide/a/), as Hugo and MkDocs do. Links in either form resolve.")
    var prettyURLs = false

    @Flag(help: "Go on when there is no page and no example (without it, that is an error: a wrong folder in CI).")
    var allowEmpty = false

    func buildOptions(out: String = "_site", baseURL: String = "/") -> BuildOptions {
        var options = BuildOptions()
        options.site = site ?? "site"
        options.examples = examples ?? "examples"
        options.templates = templates ?? "templates"
        options.namedFolders = ["site": site, "examples": examples, "templates": templates].compactMapValues { $0 }
        options.out = out
        options.baseURL = baseURL
        options.drafts = drafts
        options.urls = prettyURLs ? .pretty : .plain
        options.strict = strict
        options.allowEmpty = allowEmpty
        return options
    }
}

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site: a page per Markdown file, a page per example, and an index.",
        usage: "rowmotion build [--site <folder>] [--examples <folder>] [--out <folder>] [--strict] [--baseline <revision>] [<other options>]",
        discussion: "The site is written to a temporary folder beside --out and swapped in; a failed build leaves the previous site untouched, and a folder Rowmotion did not create is never replaced.")

    @OptionGroup var siteOptions: SiteOptions

    @Option(help: ArgumentHelp("The folder to write the site to.", valueName: "folder"))
    var out = "_site"

    @Option(name: .customLong("base-url"), help: ArgumentHelp("The URL path the site is served under; with / every link is relative, for file://.", valueName: "path"))
    var baseURL = "/"

    @Option(name: .customLong("report"), help: ArgumentHelp("Also write a JSON summary here: every page, every example with its steps' batches and change counts, every diagnostic.", valueName: "file"))
    var reportPath: String?

    @Flag(help: "Render every page again, ignoring what the previous build left in .build/rowmotion-cache.")
    var noCache = false

    @Option(help: ArgumentHelp("Compare with a git revision (origin/main, a commit): its site/, examples/ and templates/ are built "
                               + "to compare, and the site gains changes.html. Always a revision, never a file of that name.",
                               valueName: "revision"))
    var baseline: String?

    @Option(name: .customLong("baseline-report"),
            help: ArgumentHelp("Compare with a report an earlier build wrote with --report, instead of a revision.", valueName: "file"))
    var baselineReport: String?

    @Option(help: ArgumentHelp("With --baseline or --baseline-report: also write the changes as Markdown here (for $GITHUB_STEP_SUMMARY or a pull request comment).",
                               valueName: "file"))
    var summary: String?

    @Flag(help: "With --baseline or --baseline-report: exit 1 after writing the site when any example was added, removed or animates differently.")
    var failOnChanges = false

    @Flag(help: "Print how long each phase took.")
    var verbose = false

    @Flag(help: "Print nothing but diagnostics.")
    var quiet = false

    func validate() throws {
        if baseline != nil, baselineReport != nil {
            throw ValidationError("--baseline and --baseline-report both name a baseline: give one")
        }
        let compares = baseline != nil || baselineReport != nil
        if !compares, summary != nil { throw ValidationError("--summary needs --baseline: it describes the changes since it") }
        if !compares, failOnChanges { throw ValidationError("--fail-on-changes needs --baseline: it fails on the changes since it") }
    }

    func run() throws {
        var options = siteOptions.buildOptions(out: out, baseURL: baseURL)
        let project = Project.ofWorkingFolder()
        options.project = project
        let compares = baseline != nil || baselineReport != nil
        if !noCache && !compares {
            options.cache = Paths.cache(forOutput: out)
        }
        // Pages the site already holds as they would be made stay there unread.
        options.keepsUnchangedPages = true
        // A report lists every page and example, and a comparison every
        // example's animation: those need a real build.
        options.allowShortcut = reportPath == nil && !compares
        if compares {
            // Read (or built) before anything is written: a bad BASE changes nothing.
            do throws(Diagnostic) {
                if let baselineReport {
                    options.baseline = try Baseline.load(report: baselineReport)
                } else if let baseline {
                    options.baseline = try Baseline.load(revision: baseline, options: options)
                }
            } catch {
                report([error])
                throw failed([error], strict: options.strict)
            }
        }
        // Where the report and the summary go, checked before the site is
        // replaced: a link on the way or a folder in the way fails the
        // build while the old site is still there.
        for (path, what) in [(reportPath, "the report"), (summary, "the summary")] {
            guard let path else { continue }
            do throws(Diagnostic) {
                let target = try WritePath.prepare(path, in: project)
                var status = stat()
                if lstat(target, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                    throw Diagnostic.error("output", at: SourceLocation(file: path, line: 1, column: 1), "cannot write \(what): it is a folder")
                }
            } catch {
                report([error])
                throw failed([error], strict: options.strict)
            }
        }
        let terminal = isatty(STDERR_FILENO) != 0
        let (verbose, quiet) = (self.verbose, self.quiet)
        options.progress = { event in
            switch event {
            case let .phase(name, milliseconds) where verbose:
                FileHandle.standardError.write(Data("  \(name): \(String(format: "%.1f", milliseconds)) ms\n".utf8))
            case let .note(text) where verbose:
                FileHandle.standardError.write(Data("  \(text)\n".utf8))
            case let .rendered(done, total) where terminal && !quiet && total >= 300:
                // A progress line for large builds, on a terminal only.
                FileHandle.standardError.write(Data("\rrendering pages: \(done)/\(total)\(done == total ? "\n" : "")".utf8))
            default: break
            }
        }
        var model: BuildMemo?
        let (site, written) = SiteBuilder.buildAndWrite(options, memo: &model)
        // The process ends with the build: its values go with it, not one by
        // one (freeing 10,000 pages' model took ~10 % of a one-edit build).
        defer { LeftAtExit.keep((site, model)) }
        report(DiagnosticReport(site.diagnostics).sorted)
        if let reportPath {
            // Written whether or not the build succeeded: CI wants to know why.
            do throws(Diagnostic) {
                try WritePath.write(Array(site.reportJSON.utf8), to: reportPath, in: project, what: "the report")
            } catch {
                report([error])
                throw failed(site.diagnostics + [error], strict: options.strict)
            }
        }
        if let summary, let changes = site.changes, let baseline = options.baseline {
            let markdown = ChangesSummary.markdown(changes, baseline: baseline.report, current: site.report)
            do throws(Diagnostic) {
                try WritePath.write(Array(markdown.utf8), to: summary, in: project, what: "the summary")
            } catch {
                report([error])
                throw failed(site.diagnostics + [error], strict: options.strict)
            }
        }
        guard let written else { throw failed(site.diagnostics, strict: options.strict) }
        if !quiet {
            print("built \(site.pageCount) page\(site.pageCount == 1 ? "" : "s") and \(site.exampleCount) example\(site.exampleCount == 1 ? "" : "s") "
                  + "into \(out) (\(written.written) file\(written.written == 1 ? "" : "s") written, \(written.reused) unchanged"
                  + (site.cachedCount > 0 ? ", \(site.cachedCount) page\(site.cachedCount == 1 ? "" : "s") reused from the last build)" : ")"))
            if let changes = site.changes { print("compared with \(changes.base): \(SiteBuilder.headline(changes)) (\(out)/\(SiteBuilder.changesPath))") }
        }
        if failOnChanges, let changes = site.changes, changes.examplesChanged {
            let reasons = SiteBuilder.gateReasons(changes).joined(separator: "; ")
            FileHandle.standardError.write(Data("rowmotion: \(reasons) since \(changes.base)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Ends a failed build with one line that says why, after the
    /// diagnostics: "rowmotion: build failed: 2 errors, 3 warnings (--strict)".
    func failed(_ diagnostics: [Diagnostic], strict: Bool) -> ExitCode {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        let reason = [count(errors, "error"), count(warnings, "warning")].joined(separator: ", ")
            + (strict && warnings > 0 ? " (--strict)" : "")
        FileHandle.standardError.write(Data("rowmotion: build failed: \(reason)\n".utf8))
        return ExitCode(1)
    }
}

/// Values a one-shot command leaves for the process's end to reclaim, as
/// compilers do with their syntax trees (clang's `-disable-free`).
enum LeftAtExit {
    private final class Held<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    static func keep<Value>(_ value: Value) {
        _ = Unmanaged.passRetained(Held(value))
    }
}
