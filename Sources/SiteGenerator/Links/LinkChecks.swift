import ProjectFiles
import Diagnostics
import Dispatch
import Foundation

/// Links to an element of a page, checked once every output is rendered.
enum LinkChecks {
    /// Links to an element of a page, now that every page is rendered. A
    /// Markdown page's ids are its Document's (headings, raw HTML's) and the
    /// ids its theme adds around the content; an example page is all the
    /// theme's, so its ids are those its render found (`exampleIDs`, in
    /// `inputs.examples`' order).
    static func fragmentProblems<Documents: RandomAccessCollection<Document>>(_ inputs: SiteInputs, documents: Documents, exampleIDs: [[String]],
                                                                           options: BuildOptions, themeIDs: Set<String>) -> [Diagnostic]
        where Documents.Index == Int {
        fragmentProblems(inputs, documents: documents, exampleIDs: exampleIDs, options: options, themeIDs: themeIDs, only: nil).flatMap { $0 }
    }

    /// The same, page by page (in `inputs.pages`' order, each page's
    /// Document at its index); with `only`, just those pages' links are
    /// checked (the others' are empty).
    static func fragmentProblems<Documents: RandomAccessCollection<Document>>(_ inputs: SiteInputs, documents: Documents, exampleIDs: [[String]],
                                                                           options: BuildOptions, themeIDs: Set<String>, only: Set<Int>?) -> [[Diagnostic]]
        where Documents.Index == Int {
        let checked = only.map { Array($0).sorted() } ?? Array(documents.indices)
        let linked = Set(checked.flatMap { documents[$0].links.map(\.page) })
        var targets: [String: (source: String, ids: Set<String>)] = [:]
        for index in inputs.pages.indices where linked.contains(inputs.pages[index].output) {
            targets[inputs.pages[index].output] = (inputs.pages[index].source, themeIDs.union(documents[index].ids))
        }
        for (example, ids) in zip(inputs.examples, exampleIDs) where linked.contains(OutputPaths.examplePath(example.name)) {
            targets[OutputPaths.examplePath(example.name)] = ("\(options.examples)/\(example.name)", Set(ids))
        }
        var hints = FragmentHints()
        var problems = [[Diagnostic]](repeating: [], count: documents.count)
        for index in checked {
            problems[index] = brokenFragments(documents[index].links, from: inputs.pages[index], targets: targets, hints: &hints)
        }
        return problems
    }

    /// Links and images of examples' descriptions that lead to no page or
    /// file of the site (`--strict` fails on them, as on a page's): each
    /// resolved from the example's page as a page's link is.
    static func descriptionProblems(_ inputs: SiteInputs, options: BuildOptions) -> [Diagnostic] {
        inputs.examples.flatMap { descriptionProblems(of: $0, inputs, options: options) }
    }

    static func descriptionProblems(of example: LoadedExample, _ inputs: SiteInputs, options: BuildOptions) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        guard let description = example.description else { return [] }
        let page = OutputPaths.examplePath(example.name)
        for url in MarkdownRenderer.linkAddresses(ofData: description) where MarkdownRenderer.isSafeDataURL(url) {
            guard let (_, output) = PageLinks.descriptionLink(url, from: page, urls: options.urls), !output.isEmpty,
                  !output.hasPrefix("assets/"), !inputs.outputs.contains(output),
                  !PageLinks.otherForms(of: output).contains(where: inputs.outputs.contains) else { continue }
            problems.append(.warning("broken-link", at: SourceLocation(file: "\(options.examples)/\(example.name)", line: 1, column: 1),
                                     "the description links to '\(TerminalText.escaped(String(url.prefix(200))))', which is not a page or file of the site"))
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
