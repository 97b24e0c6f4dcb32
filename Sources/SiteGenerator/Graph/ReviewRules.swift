import BuildGraph
import Diagnostics
import Foundation
import ProjectFiles
import Reports
import SnapshotFormat

// What the report and the review read of a build: every page and example
// as the review compares them (how each example animates, each demo
// block as its page shows it, each page's raw HTML), and with
// `--baseline`, the review's own page. Derived only when asked for.

/// How an example animates, as the review compares it.
enum ExampleMotion: Rule {
    static let name = "example-animation"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> ExampleAnimation? {
        try build.value(ExampleLoad.self, argument).example.map(ExampleAnimation.init)
    }
    static func same(_ old: ExampleAnimation?, _ new: ExampleAnimation?) -> Bool { old == new }
}

/// A page's demo blocks as the review names and compares them.
enum PageBlocks: Rule {
    static let name = "page-blocks"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [BuildReport.Block] {
        guard let page = try build.value(PageLoad.self, argument).page else { return [] }
        let blocks = page.markdown.demoBlocks(lineOffset: page.bodyLineOffset)
        guard !blocks.isEmpty else { return [] }
        let names = try build.value(ExampleNameIndex.self, "")
        var found: [BuildReport.Block] = []
        for (index, block) in blocks.enumerated() {
            guard let spec = DemoSpec.read(block, file: page.source, examples: names).spec else { continue }
            var example: LoadedExample?
            if case .example(let path) = spec.source { example = try build.value(ExampleLoad.self, names.listed(path)).example }
            if let shown = SiteRendering.shownBlock(block, number: index + 1, of: page, spec: spec, example: example) { found.append(shown) }
        }
        return found
    }
    static func same(_ old: [BuildReport.Block], _ new: [BuildReport.Block]) -> Bool { old == new }
}

/// This build's report, but for its diagnostics and changes: what the
/// review compares with the baseline's.
enum CurrentReport: Rule {
    static let name = "report"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> BuildReport {
        let shape = try build.value(SiteShape.self, "")
        let theme = try build.value(ThemeFacts.self, "")
        let siteFolder = build.site.siteFolder, examplesFolder = build.site.examplesFolder
        let digests = try build.values(SourceFile.self, shape.pages.map { siteFolder.path(of: $0.path) })
        let markup = try build.values(PageMarkup.self, shape.pages.map(\.path))
        let pages = zip(shape.pages, zip(digests, markup)).map { page, parts in
            BuildReport.Page(source: siteFolder.path(of: page.path), output: page.output, title: page.title, hash: parts.0.digest, markup: parts.1)
        }.sorted { $0.output < $1.output }
        let facts = try build.values(ExampleFacts.self, shape.examples)
        let motions = try build.values(ExampleMotion.self, shape.examples)
        var examples: [BuildReport.Example] = []
        for ((name, fact), motion) in zip(zip(shape.examples, facts), motions) {
            guard let motion else { continue }
            examples.append(BuildReport.Example(example: name, title: fact.title, output: OutputPaths.examplePath(name), stepCount: fact.summaries.count + 1,
                                                steps: fact.summaries.map { BuildReport.Step(label: $0.label, batches: $0.batches, inserted: $0.inserted,
                                                                                             deleted: $0.deleted, moved: $0.moved, reloaded: $0.reloaded) },
                                                animation: motion,
                                                markup: theme.writesFrontMatterAsMarkup ? ContentHash.key([fact.title, fact.description ?? ""]) : nil))
        }
        let blocks = try build.values(PageBlocks.self, shape.pages.map(\.path)).flatMap { $0 }
        let statics = try build.value(StaticFileList.self, "").paths
        var scripts: [String: String] = [:]
        for (path, copy) in zip(statics, try build.values(StaticCopy.self, statics)) { scripts[path] = copy.scriptKey }
        _ = examplesFolder
        return BuildReport(pages: pages, examples: examples, blocks: blocks, theme: theme.fileKeys, scripts: scripts, diagnostics: [], changes: nil)
    }
    static func same(_ old: BuildReport, _ new: BuildReport) -> Bool { old == new }
}

/// With `--baseline`: what changed since it, and the review's page (drawn
/// by the built-in theme alone, with the baseline's stylesheet: never the
/// pull request's own) with its files.
enum ReviewPage: Rule {
    static let name = "review"

    struct Value: Sendable {
        var changes: Changes?
        var link: ChangesLink?
        var made: MadeFiles
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        guard let baseline = build.site.options.baseline else { return Value(changes: nil, link: nil, made: MadeFiles()) }
        let shape = try build.value(SiteShape.self, "")
        if let page = shape.pages.first(where: { $0.output.lowercased() == OutputPaths.changes }) {
            return Value(changes: nil, link: nil, made: MadeFiles(diagnostics: [
                .error("output-collision", at: SourceLocation(file: build.site.siteFolder.path(of: page.path), line: 1, column: 1),
                       "this page becomes \(OutputPaths.changes), which --baseline writes; rename the page")]))
        }
        let current = try build.value(CurrentReport.self, "")
        let changes = Changes(base: baseline.name, baseline: baseline.report, current: current)
        let entries = try build.value(NavigationEntries.self, "")
        let root = OutputPaths.root(of: OutputPaths.changes, options: build.site.options)
        let siteTitle = try build.value(SiteTitle.self, "")
        var made = MadeFiles()
        do throws(Diagnostic) {
            let theme = try Theme.builtIn()
            let assets = ThemeAssets.themeAssets(theme)
            let css = baseline.stylesheet ?? theme.assets["rowmotion.css"] ?? ""
            let stylesheet = "assets/rowmotion.\(ThemeAssets.contentHash(css)).css"
            let chrome = Chrome(siteTitle: siteTitle, root: root, stylesheet: stylesheet, script: assets.script,
                                nav: Navigation(pages: entries).items(current: OutputPaths.changes, root: root))
            let page = try ChangesPage.changesPage(changes, baseline: baseline.report, currentReport: current, theme: theme, chrome: chrome)
            let html = Array(page.html.utf8)
            build.site.budget.take(html.count + page.files.values.reduce(0) { $0 + $1.count } + css.utf8.count)
            var files: [(String, [UInt8])] = [(assets.script, assets.files[assets.script] ?? []), (stylesheet, Array(css.utf8)), (OutputPaths.changes, html)]
            files += page.files.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            made = build.put(files)
        } catch {
            made.diagnostics.append(error)
        }
        let link = changes.examplesChanged || !changes.pages.isEmpty
            ? ChangesLink(href: OutputPaths.changes, text: "Changes since \(baseline.name): " + ChangesPage.headline(changes)) : nil
        return Value(changes: changes, link: link, made: made)
    }
    static func same(_ old: Value, _ new: Value) -> Bool { false }
}
