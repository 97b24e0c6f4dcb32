import ProjectFiles
import Mustache
import Diagnostics
import Reports

/// Rendering `changes.html`: every example added, removed or animating
/// differently since the baseline, each with its changed steps (the calls
/// removed and added, counts before and after, in words), the baseline's
/// and the current player side by side and linked, and both filmstrips;
/// then the pages whose text changed.
enum ChangesPage {
    /// The page, and the baseline filmstrips it shows (path → bytes).
    static func changesPage(_ changes: Changes, baseline: BuildReport, current: SiteInputs, currentReport: BuildReport, theme: Theme,
                            chrome: Chrome, shared: PlayerParts) throws(Diagnostic) -> (html: String, files: [String: [UInt8]]) {
        let before = Dictionary(baseline.examples.map { ($0.example, $0) }) { first, _ in first }
        let after = Dictionary(currentReport.examples.map { ($0.example, $0) }) { first, _ in first }
        var files: [String: [UInt8]] = [:]
        var views: [ChangeView] = []
        for change in changes.examples {
            // Both players open at the first step that animates differently,
            // and both filmstrips mark it: a reviewer starts where it changed.
            let first = change.steps.first?.step
            var players = ""
            var beforeFilmstrip: String?, afterFilmstrip: String?
            var beforeMark: FilmstripMarkView?, afterMark: FilmstripMarkView?
            if let old = before[change.example], change.kind != .added {
                var view = baselinePlayer(old, base: changes.base)
                view.step = min(first ?? 0, max(0, old.stepCount - 1))
                players += try theme.render("player", view)
                let path = OutputPaths.baselineFilmstripPath(change.example)
                files[path] = Array(old.animation.filmstrip.utf8)
                beforeFilmstrip = path
                beforeMark = FilmstripMarkView(svg: old.animation.filmstrip, step: first, snapshots: old.stepCount)
            }
            var exampleHref: String?
            if let example = current.examplesByName[change.example], change.kind != .removed {
                var view = SiteRendering.playerView(example, spec: nil, shared: shared)
                view.strategyLabel = "Now"
                view.moveSummary = summary(of: example.changesets.map(\.rowCounts.moved), snapshots: example.sequence.steps.count)
                view.step = min(first ?? 0, max(0, example.sequence.steps.count - 1))
                players += try theme.render("player", view)
                afterFilmstrip = OutputPaths.filmstripPath(example.name)
                afterMark = after[change.example].flatMap {
                    FilmstripMarkView(svg: $0.animation.filmstrip, step: first, snapshots: example.sequence.steps.count)
                }
                exampleHref = RelativeURL.safe(OutputPaths.examplePath(example.name))
            }
            let stepsAfter = change.stepsAfter
            views.append(ChangeView(
                name: change.example, title: change.title, kind: change.kind.rawValue,
                stepsSummary: stepsSummary(change),
                steps: change.steps.map { step in
                    StepChangeView(step: step.step, label: step.label, summary: step.summary, counts: counts(step),
                                   listingHTML: listingHTML(step.listing),
                                   href: step.step < stepsAfter ? exampleHref.map { $0 + "#step-\(step.step)" } : nil)
                },
                playersHTML: players, beforeFilmstrip: beforeFilmstrip, afterFilmstrip: afterFilmstrip,
                beforeMark: beforeMark, afterMark: afterMark,
                exampleHref: exampleHref.map { href in first.map { $0 < stepsAfter ? href + "#step-\($0)" : href } ?? href },
                firstStep: first))
        }
        let pages = changes.pages.map { page in
            PageChangeView(title: page.title, href: page.kind == .removed ? nil : RelativeURL.safe(page.output), kind: page.kind.rawValue,
                           source: page.source)
        }
        let context = ChangesContext(chrome: chrome, title: "Changes since \(changes.base)",
                                     description: "What animates differently since \(changes.base)", base: changes.base,
                                     summary: ChangesPage.headline(changes) + ".", examples: views, pages: pages)
        return (try theme.render("changes", context), files)
    }

    /// The baseline's player, from what its report recorded.
    static func baselinePlayer(_ example: BuildReport.Example, base: String) -> PlayerView {
        let animation = example.animation
        return PlayerView(name: example.example, title: example.title, step: 0, autoplay: false, compare: nil,
                          initialHTML: SiteRendering.staticList(animation.initial), data: SafeJSON.encode(animation.player),
                          strategy: nil, strategyLabel: "Before (\(base))",
                          moves: nil, moveSummary: summary(of: example.steps.map(\.moved), snapshots: example.stepCount),
                          cellStyle: animation.player.cell)
    }

    static func summary(of moves: [Int], snapshots: Int) -> String {
        let total = moves.reduce(0, +)
        return "\(snapshots) snapshot\(snapshots == 1 ? "" : "s"), \(total) move\(total == 1 ? "" : "s")"
    }

    /// The one line at the top of the page (and of the Markdown summary).
    public static func headline(_ changes: Changes) -> String {
        let count = changes.examples.count
        let examples = count == 0 ? "no example animates differently"
            : "\(count) example\(count == 1 ? "" : "s") \(count == 1 ? "animates" : "animate") differently"
        let pages = changes.pages.count
        return examples + (pages == 0 ? "; no page's text changed" : "; \(pages) page\(pages == 1 ? "'s" : "s'") text changed")
    }

    static func stepsSummary(_ change: Changes.ExampleChange) -> String {
        switch change.kind {
        case .added: return "new, \(change.stepsAfter) snapshots"
        case .removed: return "removed (it had \(change.stepsBefore) snapshots)"
        case .changed:
            let steps = change.steps.filter { $0.step > 0 }.count
            let count = change.stepsBefore == change.stepsAfter ? "\(change.stepsAfter) snapshots"
                : "\(change.stepsBefore) → \(change.stepsAfter) snapshots"
            return "\(count); \(steps) step\(steps == 1 ? "" : "s") animate\(steps == 1 ? "s" : "") differently"
        }
    }

    static func counts(_ step: Changes.StepChange) -> String? {
        switch (step.before, step.after) {
        case let (before?, after?): return "\(before.text) → \(after.text)"
        case let (nil, after?): return "now \(after.text)"
        case let (before?, nil): return "was \(before.text)"
        case (nil, nil): return nil
        }
    }

    /// A unified listing as HTML: removed lines, added lines and the rest.
    static func listingHTML(_ listing: [String]) -> String {
        listing.map { line in
            let kind = line.hasPrefix("-") ? "diff-del" : line.hasPrefix("+") ? "diff-add" : "diff-same"
            let sign = line.hasPrefix("-") ? "−" : line.hasPrefix("+") ? "+" : " "
            return "<span class=\"\(kind)\">\(sign) \(SwiftHighlighter.html(String(line.dropFirst())))</span>"
        }.joined()
    }
}
