import Diagnostics
import Reports
import SnapshotFormat

/// Rendering `changes.html`: every player added, removed or animating
/// differently since the baseline (examples, then demo blocks), each with
/// what it is given differently and its changed steps (the calls removed
/// and added, counts before and after, in words), the baseline's and the
/// current player side by side and linked, and an example's two
/// filmstrips; then the theme files every player moves by, and the pages
/// whose text changed.
///
/// Drawn by the built-in theme alone (its templates and its player script;
/// the project's stylesheet may restyle it): what the review says, counts
/// and plays is never a pull request's template or script.
enum ChangesPage {
    /// The page, and the baseline filmstrips it shows (path → bytes).
    static func changesPage(_ changes: Changes, baseline: BuildReport, currentReport: BuildReport, theme: Theme,
                            chrome: Chrome) throws(Diagnostic) -> (html: String, files: [String: [UInt8]]) {
        let before = Dictionary(baseline.examples.map { ($0.example, $0) }) { first, _ in first }
        let after = Dictionary(currentReport.examples.map { ($0.example, $0) }) { first, _ in first }
        let blocksBefore = Dictionary(baseline.blocks.map { ($0.name, $0) }) { first, _ in first }
        let blocksAfter = Dictionary(currentReport.blocks.map { ($0.name, $0) }) { first, _ in first }
        var files: [String: [UInt8]] = [:]
        var views: [ChangeView] = []
        for change in changes.examples {
            // Both players open at the first step that animates differently,
            // and both filmstrips mark it: a reviewer starts where it changed.
            let first = change.steps.first?.step
            let isBlock = change.page != nil
            let old = isBlock ? blocksBefore[change.example].flatMap { Changes.Shown($0, in: baseline) } : before[change.example].map(Changes.Shown.init)
            let new = isBlock ? blocksAfter[change.example].flatMap { Changes.Shown($0, in: currentReport) } : after[change.example].map(Changes.Shown.init)
            let shownName = isBlock ? change.shows ?? "inline" : change.example
            var players = ""
            var beforeFilmstrip: String?, afterFilmstrip: String?
            var beforeMark: FilmstripMarkView?, afterMark: FilmstripMarkView?
            if let old, change.kind != .added {
                players += try theme.render("player", player(old, name: shownName, title: change.title, label: "Before (\(changes.base))",
                                                             step: min(first ?? 0, max(0, old.stepCount - 1))))
                if !isBlock {
                    let path = OutputPaths.baselineFilmstripPath(change.example)
                    files[path] = Array(old.animation.filmstrip.utf8)
                    beforeFilmstrip = path
                    beforeMark = FilmstripMarkView(svg: old.animation.filmstrip, step: first, snapshots: old.stepCount)
                }
            }
            var exampleHref: String?
            if let new, change.kind != .removed {
                players += try theme.render("player", player(new, name: shownName, title: change.title, label: "Now",
                                                             step: min(first ?? 0, max(0, new.stepCount - 1))))
                if !isBlock {
                    afterFilmstrip = OutputPaths.filmstripPath(change.example)
                    afterMark = FilmstripMarkView(svg: new.animation.filmstrip, step: first, snapshots: new.stepCount)
                    exampleHref = RelativeURL.safe(OutputPaths.examplePath(change.example))
                }
            }
            if isBlock, change.kind != .removed { exampleHref = blocksAfter[change.example].map { RelativeURL.safe($0.output) } }
            let stepsAfter = change.stepsAfter
            views.append(ChangeView(
                name: change.example, title: change.title, kind: change.kind.rawValue,
                stepsSummary: stepsSummary(change), differences: change.differences, page: change.page, shows: change.shows,
                steps: change.steps.map { step in
                    StepChangeView(step: step.step, label: step.label, summary: step.summary, counts: counts(step),
                                   listingHTML: listingHTML(step.listing),
                                   href: !isBlock && step.step < stepsAfter ? exampleHref.map { $0 + "#step-\(step.step)" } : nil)
                },
                playersHTML: players, beforeFilmstrip: beforeFilmstrip, afterFilmstrip: afterFilmstrip,
                beforeMark: beforeMark, afterMark: afterMark,
                exampleHref: isBlock ? exampleHref : exampleHref.map { href in first.map { $0 < stepsAfter ? href + "#step-\($0)" : href } ?? href },
                firstStep: isBlock ? nil : first))
        }
        let pages = changes.pages.map { page in
            PageChangeView(title: page.title, href: page.kind == .removed ? nil : RelativeURL.safe(page.output), kind: page.kind.rawValue,
                           source: page.source)
        }
        let context = ChangesContext(chrome: chrome, title: "Changes since \(changes.base)",
                                     description: "What animates differently since \(changes.base)", base: changes.base,
                                     summary: ChangesPage.headline(changes) + ".", examples: views, theme: changes.theme,
                                     markup: changes.markup, scripts: changes.scripts, pages: pages)
        return (try theme.render("changes", context), files)
    }

    /// A player of how one side animates, from what its report recorded:
    /// the same data, first rows, cell and table style and size as the
    /// player it was.
    static func player(_ shown: Changes.Shown, name: String, title: String, label: String, step: Int) -> PlayerView {
        let player = shown.animation.player
        let moves = shown.counts.map(\.moved)
        return PlayerView(name: name, title: title, step: step, autoplay: false, compare: nil,
                          initialHTML: SiteRendering.staticList(shown.animation.initial, framing: player.presentation), data: SafeJSON.encode(player),
                          strategy: nil, strategyLabel: label, moves: nil, moveSummary: summary(of: moves, snapshots: shown.stepCount),
                          cellStyle: player.cell, tableStyle: player.presentation?.style, framing: SiteRendering.framingStyle(player.presentation))
    }

    static func summary(of moves: [Int], snapshots: Int) -> String {
        let total = moves.reduce(0, +)
        return "\(snapshots) snapshot\(snapshots == 1 ? "" : "s"), \(total) move\(total == 1 ? "" : "s")"
    }

    /// The one line at the top of the page (and of the Markdown summary).
    public static func headline(_ changes: Changes) -> String {
        let examples = changes.examples.isEmpty ? "no example animates differently" : ""
        let pages = changes.pages.count
        return ([examples] + gateReasons(changes)).filter { !$0.isEmpty }.joined(separator: "; ")
            + (pages == 0 ? "; no page's text changed" : "; \(pages) page\(pages == 1 ? "'s" : "s'") text changed")
    }

    /// What fails `--fail-on-changes`, in words: the players that animate
    /// differently, and what can change how any of them moves (the theme,
    /// a page's raw HTML, a script or stylesheet of the site).
    public static func gateReasons(_ changes: Changes) -> [String] {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        var reasons: [String] = []
        let players = changes.examples.count
        if players > 0 { reasons.append("\(count(players, "example")) \(players == 1 ? "animates" : "animate") differently") }
        if !changes.theme.isEmpty { reasons.append("the theme changed (\(changes.theme.joined(separator: ", ")))") }
        if !changes.markup.isEmpty { reasons.append("raw HTML changed on \(count(changes.markup.count, "page"))") }
        if !changes.scripts.isEmpty { reasons.append("\(changes.scripts.count) script\(changes.scripts.count == 1 ? "" : "s") or stylesheet\(changes.scripts.count == 1 ? "" : "s") of the site changed") }
        return reasons
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
