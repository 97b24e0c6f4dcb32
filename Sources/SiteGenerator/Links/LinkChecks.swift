import ProjectFiles
import Diagnostics
import Dispatch
import Foundation

/// Links to an element of a page, checked once every output is rendered.
enum LinkChecks {
    /// Links to an element of a page, now that every page is rendered. A
    /// Markdown page's ids are its Document's (headings, raw HTML's) and the
    /// ids its theme adds around the content; an example page is all the
    /// theme's, so its ids are read from it.
    static func fragmentProblems(_ inputs: SiteInputs, rendered: [RenderedPage], files: [String: [UInt8]],
                                 options: BuildOptions, themeIDs: Set<String>) -> [Diagnostic] {
        let linked = Set(rendered.flatMap { $0.document.links.map(\.page) })
        var targets: [String: (source: String, ids: Set<String>)] = [:]
        for (page, result) in zip(inputs.pages, rendered) where linked.contains(page.output) {
            targets[page.output] = (page.source, themeIDs.union(result.document.ids))
        }
        let examples = inputs.examples.filter { linked.contains(OutputPaths.examplePath($0.name)) }
        let pages = examples.map { files[OutputPaths.examplePath($0.name)] ?? [] }
        let ids = Parallel.map(pages) { Set(RawHTML.ids(in: String(decoding: $0, as: UTF8.self))) }
        for (example, found) in zip(examples, ids) {
            targets[OutputPaths.examplePath(example.name)] = ("\(options.examples)/\(example.name)", found)
        }
        var hints = FragmentHints()
        var problems: [Diagnostic] = []
        for (page, result) in zip(inputs.pages, rendered) {
            problems += brokenFragments(result.document.links, from: page, targets: targets, hints: &hints)
        }
        return problems
    }

    /// The ids the theme puts around a page's content (the navigation's, the
    /// search box's), from the `page` template rendered once with no content.
    static func themeIDs(_ theme: Theme, chrome: Chrome) -> Set<String> {
        let empty = PageContext(chrome: chrome, title: "", description: nil, content: "", showTitle: false)
        guard let html = try? theme.render("page", empty) else { return [] }
        return Set(RawHTML.ids(in: html))
    }

    /// "Did you mean" for broken `#` links, worked out once per target and
    /// fragment, with the candidates of each target sorted once, and within
    /// a budget of comparisons per build: 4,000 broken links into a page of
    /// 4,000 headings once took 20 s. Past the budget a warning has no hint.
    struct FragmentHints {
        static let budget = 10_000
        var comparisons = 0
        var sorted: [String: [String]] = [:]
        var found: [String: String] = [:]

        mutating func hint(_ fragment: String, target: String, ids: Set<String>) -> String {
            let memoKey = target + "\u{0}" + fragment
            if let known = found[memoKey] { return known }
            let candidates: [String]
            if let known = sorted[target] { candidates = known } else {
                candidates = ids.sorted()
                sorted[target] = candidates
            }
            var hint = ""
            if let steps = LinkChecks.stepsHint(fragment, ids: ids) {
                hint = steps
            } else if comparisons + candidates.count <= Self.budget {
                comparisons += candidates.count
                hint = KeySuggestions.hint(for: fragment, in: candidates)
            }
            found[memoKey] = hint
            return hint
        }
    }

    /// Links to an element that the page they lead to does not have.
    /// Pages and examples are checked; static files are not.
    static func brokenFragments(_ links: [FragmentLink], from page: LoadedPage,
                                targets: [String: (source: String, ids: Set<String>)], hints: inout FragmentHints) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for link in links {
            guard let (source, ids) = targets[link.page], !ids.contains(link.fragment) else { continue }
            let which = link.page == page.output ? "this page" : source
            problems.append(.warning("broken-link", at: SourceLocation(file: page.source, line: max(link.line, 1), column: max(link.column, 1)),
                                     "link to '#\(link.fragment)', which is not a heading or element id of \(which)"
                                         + hints.hint(link.fragment, target: link.page, ids: ids)))
        }
        return problems
    }

    /// For `#step-9` on an example page, the steps it has (edit distance
    /// would offer `step-0`); nil for other fragments.
    static func stepsHint(_ fragment: String, ids: Set<String>) -> String? {
        guard fragment.hasPrefix("step-"), Int(fragment.dropFirst(5)) != nil else { return nil }
        let steps = ids.compactMap { $0.hasPrefix("step-") ? Int($0.dropFirst(5)) : nil }.sorted()
        guard let first = steps.first, let last = steps.last else { return nil }
        return "; its steps are step-\(first) to step-\(last)"
    }

}
