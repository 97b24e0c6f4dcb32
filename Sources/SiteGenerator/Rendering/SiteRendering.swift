import ProjectFiles
import Reports
import Diagnostics
import Dispatch
import SnapshotFormat
import Foundation

/// Rendering, the second stage: pure renders from the inputs to each
/// output's bytes, on every core, each reused from the previous build when
/// its key has not changed. Results come back in input order, so output is
/// the same whatever the threads do.
extension SiteRendering {
    /// Every page (the home page's content too, which the index wraps).
    /// Once `budget` stops (the site past its limit, or a page past its
    /// own), the pages left are not rendered.
    /// Where pages go as soon as they are made, instead of being held:
    /// given a page's output and bytes, whether it was written (false),
    /// found the same on disk (true), or the error that kept it from
    /// being written.
    typealias PageSink = @Sendable (_ output: String, _ bytes: [UInt8]) -> Result<Bool, Diagnostic>

    /// With a `sink`, each page but the home page goes to it as soon as it
    /// is made, and is not held (`RenderedPage.staged`).
    /// `chrome` makes a page's chrome (by its index) only for a page
    /// rendered; `read` reads a page made from the cache's record of it
    /// (`LoadedPage.isRecord`) when it is rendered.
    static func renderPages(_ inputs: SiteInputs, chrome: @Sendable (Int) -> Chrome,
                            read: @Sendable (LoadedPage) -> Result<LoadedPage, Diagnostic> = { .success($0) }, reuse: Reuse, keys: OutputKeys,
                            options: BuildOptions, shared: PlayerParts, budget: OutputBudget,
                            sink: PageSink? = nil) -> [RenderedPage] {
        // In blocks of 250 pages, each on every core, so that progress is
        // told between blocks, by this thread (at every block's end a core
        // waits for the other's last page: blocks of 50 cost 5 % of the
        // phase on 1,000 pages).
        let count = inputs.pages.count, block = 250
        var results: [RenderedPage] = []
        results.reserveCapacity(count)
        for start in stride(from: 0, to: count, by: block) {
            results += Parallel.map(min(block, count - start)) { offset in
                let index = start + offset
                var page = inputs.pages[index]
                guard !budget.skips(index) else { return RenderedPage() }
                let isHome = page.output == "index.html"
                var reused = isHome ? nil : reuse.page(page, keys: keys)
                if reused == nil, page.isRecord {
                    switch read(page) {
                    case .success(let full): page = full
                    case .failure(let error): reused = RenderedPage(diagnostics: [error])
                    }
                }
                var result = reused
                    ?? render(page: page, theme: inputs.theme, example: { inputs.examplesByName[$0] }, exampleNames: inputs.exampleNames,
                              outputs: inputs.outputs, foldedOutputs: inputs.outputsByFoldedCase, chrome: chrome(index), options: options,
                              isHome: isHome, shared: shared)
                // A kept page counts as the cache recorded it, as if it were read.
                if !result.kept { result.byteCount = result.bytes.count }
                if result.tooLarge { budget.fail(at: index) } else { budget.take(result.byteCount) }
                if let sink, !isHome, !result.kept, !result.tooLarge {
                    switch sink(page.output, result.bytes) {
                    case .success(true): result.staged = .reused
                    case .success(false): result.staged = .written
                    case .failure(let error): result.diagnostics.append(error)
                    }
                    result.bytes = []
                }
                return result
            }
            options.progress?(.rendered(results.count, of: count))
            if budget.isStopped { break }
        }
        return results
    }

    /// The errors of a stopped build: the first output past a page's
    /// limit, else the site past its own (at the folder whose outputs were
    /// rendering).
    static func limitErrors(_ failures: [Diagnostic?], budget: OutputBudget, folder: String) -> [Diagnostic] {
        if let first = failures.lazy.compactMap({ $0 }).first { return [first] }
        let at = SourceLocation(file: folder, line: 1, column: 1)
        if budget.isPastFileLimit {
            return [.error("site-too-large", at: at, "the site's pages, aliases and files pass \(OutputLimits.siteFiles) files; "
                               + "a site is limited to \(OutputLimits.siteFiles) files")]
        }
        guard budget.isPastLimit else { return [] }
        let limit = ByteCount.describe(Int64(budget.limit))
        let rule = budget.input.map { "64 times its input (\(ByteCount.describe(Int64($0)))) and 64 MiB" } ?? limit
        return [.error("site-too-large", at: at,
                       "the site's pages, example pages, filmstrips and redirects pass \(limit); a site is limited to \(rule)")]
    }

    /// Every example's page and filmstrip.
    /// Counted against `budget` as pages are.
    /// With a `sink`, each page and filmstrip goes to it as soon as it is
    /// made, and is not held (`ExampleOutput.staged`).
    static func renderExamples(_ inputs: SiteInputs, chrome: @Sendable (Int) -> Chrome, reuse: Reuse, keys: OutputKeys,
                               shared: PlayerParts, budget: OutputBudget, urls: URLStyle = .plain, sink: PageSink? = nil) -> [ExampleOutput] {
        Parallel.map(inputs.examples.count) { index in
            let example = inputs.examples[index]
            let key = keys.example(example)
            guard !budget.skips(index) else { return ExampleOutput(key: key) }
            let (page, filmstrip) = (OutputPaths.examplePath(example.name), OutputPaths.filmstripPath(example.name))
            var output: ExampleOutput
            let ids = reuse.previous.entries[page]?.document?.ids
            if let ids, reuse.keeps(page, key: key), reuse.keeps(filmstrip, key: key) {
                // Counted as the cache recorded them, as if they were read.
                let sizes = (html: reuse.previous.entries[page]?.size ?? 0, svg: reuse.previous.entries[filmstrip]?.size ?? 0)
                budget.take(sizes.html + sizes.svg)
                return ExampleOutput(key: key, cached: true, ids: ids, kept: true, sizes: sizes)
            } else if let ids, let html = reuse.bytes(page, key: key), let svg = reuse.bytes(filmstrip, key: key) {
                output = ExampleOutput(key: key, html: html, svg: svg, problems: [], cached: true, ids: ids)
            } else {
                do throws(Diagnostic) {
                    let (html, svg, problems) = try SiteRendering.examplePage(example, theme: inputs.theme, chrome: chrome(index), shared: shared, urls: urls)
                    output = .rendered(key: key, html: html, svg: svg, problems: problems)
                } catch {
                    if error.id == OutputLimits.pageTooLarge { budget.fail(at: index) }
                    return ExampleOutput(key: key, error: error)
                }
            }
            output.sizes = (output.html.count, output.svg.count)
            budget.take(output.html.count + output.svg.count)
            if let sink {
                var staged = (reused: 0, written: 0)
                for (path, bytes) in [(page, output.html), (filmstrip, output.svg)] {
                    switch sink(path, bytes) {
                    case .success(true): staged.reused += 1
                    case .success(false): staged.written += 1
                    case .failure(let error): return ExampleOutput(key: key, error: error)
                    }
                }
                (output.html, output.svg, output.staged) = ([], [], staged)
            }
            return output
        }
    }

    /// The home page: site/index.md's content, if any, and the example
    /// gallery. Reused only when the home page had nothing to report.
    static func renderIndex(_ inputs: SiteInputs, content: String, chrome: Chrome, reuse: Reuse, keys: OutputKeys,
                            homeClean: Bool, changes: ChangesLink? = nil) -> Result<(bytes: [UInt8], cached: Bool), Diagnostic> {
        if homeClean, changes == nil, let bytes = reuse.bytes("index.html", key: keys.index(inputs)) { return .success((bytes, true)) }
        let cards = inputs.examples.map { example in
            CardView(title: example.title, href: OutputPaths.examplePath(example.name),
                     stepCount: example.stepLabels.count, sparkline: SiteRendering.sparkline(example.summaries))
        }
        let index = IndexContext(chrome: chrome, title: inputs.home?.title ?? inputs.siteTitle,
                                 description: inputs.home?.frontMatter.description, content: content, examples: cards, changes: changes)
        do throws(Diagnostic) {
            return .success((try inputs.theme.renderBytes("index", index), false))
        } catch {
            return .failure(error)
        }
    }
}

/// An example page and its filmstrip as one worker rendered (or reused) them.
struct ExampleOutput: Sendable {
    var key: String
    var html: [UInt8] = []
    var svg: [UInt8] = []
    var problems: [RuleViolation] = []
    var cached = false
    var error: Diagnostic?
    /// The page's ids (the theme makes them all: steps, the search box),
    /// read once as it is rendered and kept in the cache with its key, so
    /// links into it are checked without reading it back.
    var ids: [String] = []
    /// Taken from the previous build and left in the site on disk, unread.
    var kept = false
    /// The page's and the filmstrip's bytes, counted when they were made
    /// (kept: as the cache recorded them).
    var sizes = (html: 0, svg: 0)
    /// Put in the staging folder as soon as it was rendered: how many of
    /// its two files were found the same on disk (the rest were written).
    var staged: (reused: Int, written: Int)?

    /// A page and filmstrip just rendered.
    static func rendered(key: String, html: [UInt8], svg: [UInt8], problems: [RuleViolation]) -> ExampleOutput {
        ExampleOutput(key: key, html: html, svg: svg, problems: problems, ids: RawHTML.ids(in: String(decoding: html, as: UTF8.self)))
    }
}

extension Reuse {
    /// A page the previous build rendered from the same key, as it rendered it.
    func page(_ page: LoadedPage, keys: OutputKeys) -> RenderedPage? {
        guard let entry = previous.entries[page.output], let search = entry.search, let stored = entry.stored else { return nil }
        let key = keys.page(page, examples: entry.examples)
        if keeps(page.output, key: key) {
            return RenderedPage(diagnostics: entry.diagnostics, examples: Set(entry.examples), linkTargets: entry.linkTargets, stored: stored,
                                cached: true, key: key, kept: true, byteCount: entry.size ?? 0, searchEntry: Array(search))
        }
        guard let bytes = bytes(page.output, key: key) else { return nil }
        return RenderedPage(bytes: bytes, diagnostics: entry.diagnostics, examples: Set(entry.examples), linkTargets: entry.linkTargets,
                            stored: stored, cached: true, key: key, searchEntry: Array(search))
    }
}
