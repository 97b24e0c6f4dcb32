import ProjectFiles
import Diagnostics
import Dispatch
import Foundation

/// Links to an element of a page, checked against the ids of the page
/// they lead to (`PageFragments`).
enum LinkChecks {
    /// The ids the theme puts around a page's content (the navigation's, the
    /// search box's), from the `page` template rendered once with no content.
    static func themeIDs(_ theme: Theme, chrome: Chrome) -> Set<String> {
        let empty = PageContext(chrome: chrome, title: "", description: nil, content: "", showTitle: false)
        guard let html = try? theme.render("page", empty) else { return [] }
        return Set(RawHTML.ids(in: html))
    }

    /// "Did you mean" for broken `#` links, worked out once per target and
    /// fragment, from an index of each target built once per build (its ids
    /// sorted, the range of its steps), and within a budget of comparisons
    /// per build: 4,000 broken links into a page of 4,000 headings once took
    /// 20 s, and 10,000 links to missing steps of a 500-step example 9 s
    /// (each listed and sorted the steps again). Past the budget a warning
    /// has no hint.
    struct FragmentHints {
        static let budget = 10_000
        var comparisons = 0
        var indexes: [String: TargetIndex] = [:]
        var found: [String: String] = [:]

        /// What the hints need of one target's ids.
        struct TargetIndex {
            /// Its ids, sorted: the candidates for "did you mean".
            let candidates: [String]
            /// Its first and last `step-N` (an example page's).
            let steps: (first: Int, last: Int)?

            init(ids: Set<String>) {
                candidates = ids.sorted()
                let numbers = ids.compactMap(LinkChecks.stepNumber)
                steps = numbers.min().map { ($0, numbers.max()!) }
            }
        }

        mutating func hint(_ fragment: String, target: String, ids: Set<String>) -> String {
            let memoKey = target + "\u{0}" + fragment
            if let known = found[memoKey] { return known }
            let index: TargetIndex
            if let known = indexes[target] { index = known } else {
                index = TargetIndex(ids: ids)
                indexes[target] = index
            }
            var hint = ""
            if LinkChecks.stepNumber(fragment) != nil, let steps = index.steps {
                // For `#step-9` on an example page, the steps it has (edit distance would offer `step-0`).
                hint = "; its steps are step-\(steps.first) to step-\(steps.last)"
            } else if comparisons + index.candidates.count <= Self.budget {
                comparisons += index.candidates.count
                hint = KeySuggestions.hint(for: fragment, in: index.candidates)
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

    /// 9 for `step-9`; nil for other ids.
    static func stepNumber(_ id: String) -> Int? {
        id.hasPrefix("step-") ? Int(id.dropFirst(5)) : nil
    }

}
