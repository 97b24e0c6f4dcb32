import BuildGraph
import Diagnostics
import Foundation
import ProjectFiles

/// The rules a site is built with, and the outputs the site has: every
/// rule a graph of a site knows (its store names them), and the output
/// rules the site gathers, each putting its own files in the sink. A new
/// kind of output is one rule whose value is `MadeFiles`, added here.
enum SiteOutputs {
    /// Rules that make whole-site outputs (no argument), gathered by `Site`.
    static let outputRules: [any OutputRule.Type] = [ThemeAssetFiles.self, IndexPage.self, RedirectPages.self, SearchIndexFile.self]

    static let rules: [any Rule.Type] = [
        SourceFile.self, FolderListing.self, InputChecks.self, ThemeLoad.self, ThemeFacts.self, TemplateKey.self,
        ExampleFiles.self, ExampleNameIndex.self, ExampleLoad.self, ExampleFacts.self, ExampleValid.self,
        PageFiles.self, PageLoad.self, PageFacts.self, SiteShape.self, PageOutputs.self, SiteTitle.self,
        StaticFileList.self, OutputSet.self, OutputIndex.self, OutputsInFolder.self, OutputNameChecks.self,
        NavigationEntries.self, NavigationTree.self, ChromeOutputs.self, NavigationGroups.self, PageGroup.self, GroupMembers.self,
        GroupItems.self, ChromeBase.self, NavigationShapes.self, NavigationPieces.self, GroupNavigation.self, GroupNavigationKey.self,
        PageRender.self, PageSummary.self, PageIDs.self, PageSearchEntry.self, ThemeIDs.self, OutputOwners.self, PageFragments.self,
        PageMarkup.self, ExamplePage.self, ExamplePlayer.self, ExamplePageIDs.self, ExampleSearchEntry.self, ExampleDescriptionLinks.self,
        StaticCopy.self, ExampleMotion.self, PageBlocks.self, CurrentReport.self, ReviewPage.self, Site.self,
    ] + outputRules

    /// The rules that put files in the sink as they derive: when the site
    /// they were put aside for is not written, they are derived again.
    static let producers: [any Rule.Type] = [PageRender.self, ExamplePage.self, StaticCopy.self, ReviewPage.self] + outputRules

    /// The rules of a graph with `extra` outputs besides the site's own.
    static func rules(adding extra: [any Rule.Type]) -> [any Rule.Type] {
        rules + extra.filter { rule in !rules.contains { $0 == rule } }
    }
}

/// A rule that makes files of the site as a whole (its argument is empty).
protocol OutputRule: Rule where Value == MadeFiles {}

extension ThemeAssetFiles: OutputRule {}
extension IndexPage: OutputRule {}
extension RedirectPages: OutputRule {}
extension SearchIndexFile: OutputRule {}

/// The whole site: every output with its size, every diagnostic in the
/// order a build reports them, and what the report needs besides.
enum Site: StoredRule {
    static let name = "site"

    struct Value: StoreCodable, Equatable {
        var outputs: [String: Int]
        var diagnostics: [Diagnostic]
        /// Whether the build stopped before rendering anything (the theme
        /// did not load, the site is empty): nothing is written.
        var stopped: Bool
        var pageCount: Int
        var exampleCount: Int

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(outputs)
            encoder.write(diagnostics)
            encoder.write(stopped)
            encoder.write(pageCount)
            encoder.write(exampleCount)
        }

        init(outputs: [String: Int] = [:], diagnostics: [Diagnostic], stopped: Bool = false, pageCount: Int = 0, exampleCount: Int = 0) {
            (self.outputs, self.diagnostics, self.stopped, self.pageCount, self.exampleCount) = (outputs, diagnostics, stopped, pageCount, exampleCount)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (outputs, diagnostics, stopped, pageCount, exampleCount) = (try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read(),
                                                                        try decoder.read())
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let options = build.site.options
        let checks = try build.value(InputChecks.self, "")
        if checks.contains(where: { $0.severity == .error }) { return Value(diagnostics: checks, stopped: true) }
        var diagnostics = checks
        let theme = try build.value(ThemeFacts.self, "")
        let exampleFiles = try build.value(ExampleFiles.self, "")
        let shape = try build.value(SiteShape.self, "")
        let statics = try build.value(StaticFileList.self, "")
        // What loading found, in the order a build reports it.
        diagnostics += exampleFiles.diagnostics + theme.warnings
        let facts = try build.values(ExampleFacts.self, exampleFiles.chosen)
        for fact in facts { diagnostics += fact.diagnostics }
        diagnostics += shape.diagnostics
        if let error = theme.error { return Value(diagnostics: diagnostics + [error], stopped: true) }
        if shape.pages.isEmpty, shape.examples.isEmpty, !options.allowEmpty, !diagnostics.contains(where: { $0.severity == .error }) {
            let here = FileManager.default.currentDirectoryPath
            return Value(diagnostics: diagnostics + [.error("empty-site", at: SourceLocation(file: options.site, line: 1, column: 1),
                                                            "found no pages in '\(options.site)' and no examples in '\(options.examples)' (from \(here)): "
                                                                + "run in the project's folder or name the folders with --site and --examples; "
                                                                + "--allow-empty builds an empty site on purpose")], stopped: true)
        }
        diagnostics += statics.diagnostics
        diagnostics += try build.value(OutputNameChecks.self, "")

        let pagePaths = shape.pages.map(\.path)
        let pages = try build.values(PageSummary.self, pagePaths)
        // What the site's limit counts: pages, example pages and filmstrips,
        // redirects and the review (the error names the folder of the
        // outputs that passed it).
        let budget = OutputBudget(limit: options.siteByteLimit, input: build.site.inputBytes)
        func pastLimit(_ folder: String) -> Value? {
            budget.isPastLimit || budget.isPastFileLimit ? Value(diagnostics: SiteRendering.limitErrors([], budget: budget, folder: folder), stopped: true) : nil
        }
        var outputs: [String: Int] = [:]
        var referenced = Set<String>()
        for page in pages {
            diagnostics += page.diagnostics
            referenced.formUnion(page.examples)
            if page.output != "index.html" {
                outputs[page.output] = page.size
                budget.take(page.size)
            }
        }
        // The first output past a page's limit stops the build (the pages before it are counted).
        if let first = pages.first(where: \.tooLarge) {
            return Value(diagnostics: [first.diagnostics.first { $0.id == OutputLimits.pageTooLarge }].compactMap { $0 }, stopped: true)
        }
        if let past = pastLimit(options.site) { return past }
        let examplePages = try build.values(ExamplePage.self, shape.examples)
        let gallery = theme.showsExampleGallery
        for (name, page) in zip(shape.examples, examplePages) {
            if !gallery && !referenced.contains(name) {
                diagnostics.append(.warning("unreferenced-example", at: SourceLocation(file: "\(options.examples)/\(name)", line: 1, column: 1),
                                            "no page shows this example in a rowmotion block"))
            }
            if let error = page.error {
                if error.id == OutputLimits.pageTooLarge { return Value(diagnostics: [error], stopped: true) }
                diagnostics.append(error)
                continue
            }
            diagnostics += page.problems
            outputs.merge(page.made.files) { _, new in new }
            budget.take(page.made.files.values.reduce(0, +))
        }
        if let past = pastLimit(options.examples) { return past }
        let review = try build.value(ReviewPage.self, "")
        diagnostics += review.made.diagnostics
        outputs.merge(review.made.files) { _, new in new }
        budget.take(review.made.files.values.reduce(0, +))
        for rule in SiteOutputs.outputRules + build.site.extraOutputs.compactMap({ $0 as? any OutputRule.Type }) {
            let made = try rule.made(in: build)
            diagnostics += made.diagnostics
            outputs.merge(made.files) { existing, _ in existing }
            if rule == RedirectPages.self { budget.take(made.files.values.reduce(0, +)) }
            if made.tooManyFiles { budget.tooManyFiles() }
        }
        for copy in try build.values(StaticCopy.self, statics.paths) {
            diagnostics += copy.made.diagnostics
            // (A static file of the same name gives way to the page.)
            outputs.merge(copy.made.files) { existing, _ in existing }
        }
        if outputs.count > OutputLimits.siteFiles { budget.tooManyFiles() }
        if let past = pastLimit(options.site) { return past }
        for description in try build.values(ExampleDescriptionLinks.self, shape.examples) { diagnostics += description }
        for problems in try build.values(PageFragments.self, pagePaths) { diagnostics += problems }
        // A theme problem shows up once per page: say it once.
        var seen = Set<Diagnostic>()
        diagnostics = diagnostics.filter { seen.insert($0).inserted }
        return Value(outputs: outputs, diagnostics: diagnostics, pageCount: shape.pages.count, exampleCount: shape.examples.count)
    }
}

extension OutputRule {
    static func made(in build: Derivation) throws(BuildStopped) -> MadeFiles { try build.value(Self.self, "") }
}
