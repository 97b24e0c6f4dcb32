import Diagnostics
import Reports

extension BuiltSite {
    /// Compares this build with `baseline`: records the changes, adds
    /// `changes.html` (and the baseline's filmstrips), and returns the
    /// index's link to it when anything changed. The page is the built-in
    /// theme's alone, its templates and its player script (added to the
    /// site's assets), drawn with the baseline's stylesheet (the built-in
    /// one for a report): never the pull request's own.
    /// The review counts against `budget`, the site's limit, as every page
    /// does: a review of examples that draw mostly empty cells wrote a
    /// second copy of them past it.
    mutating func compare(with baseline: Baseline, inputs: SiteInputs, root: String, budget: OutputBudget? = nil) -> ChangesLink? {
        if let page = inputs.pages.first(where: { $0.output.lowercased() == SiteBuilder.changesPath }) {
            diagnostics.append(.error("output-collision", at: SourceLocation(file: page.source, line: 1, column: 1),
                                      "this page becomes \(SiteBuilder.changesPath), which --baseline writes; rename the page"))
            return nil
        }
        let current = report
        // Worked out once: the summary and the report read these again.
        for (index, example) in current.examples.enumerated() {
            let animation = example.animation
            examples[index].animation = { animation }
        }
        let shownBlocks = current.blocks
        blocks = { shownBlocks }
        let changes = Changes(base: baseline.name, baseline: baseline.report, current: current)
        self.changes = changes
        do throws(Diagnostic) {
            let theme = try Theme.builtIn()
            let assets = ThemeAssets.themeAssets(theme)
            files[assets.script] = assets.files[assets.script]
            let css = baseline.stylesheet ?? theme.assets["rowmotion.css"] ?? ""
            let stylesheet = "assets/rowmotion.\(ThemeAssets.contentHash(css)).css"
            files[stylesheet] = Array(css.utf8)
            let chrome = Chrome(siteTitle: inputs.siteTitle, root: root, stylesheet: stylesheet, script: assets.script,
                                nav: inputs.navigation.items(current: SiteBuilder.changesPath, root: root))
            let page = try ChangesPage.changesPage(changes, baseline: baseline.report, currentReport: current, theme: theme, chrome: chrome)
            files[SiteBuilder.changesPath] = Array(page.html.utf8)
            files.merge(page.files) { _, new in new }
            budget?.take(page.html.utf8.count + page.files.values.reduce(0) { $0 + $1.count } + css.utf8.count)
        } catch {
            diagnostics.append(error)
        }
        guard changes.examplesChanged || !changes.pages.isEmpty else { return nil }
        return ChangesLink(href: SiteBuilder.changesPath, text: "Changes since \(baseline.name): " + ChangesPage.headline(changes))
    }
}
