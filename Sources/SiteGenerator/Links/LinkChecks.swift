import Diagnostics
import Dispatch
import Foundation

/// Links to an element of a page, checked once every output is rendered.
extension SiteBuilder {
    /// Links to an element of a page, now that every page is final: the
    /// ids are read from the HTML, so those of headings, of raw HTML in the
    /// Markdown and of the theme all count.
    static func fragmentProblems(_ inputs: SiteInputs, rendered: [RenderedPage], files: [String: [UInt8]],
                                 options: BuildOptions) -> [Diagnostic] {
        // Only pages some link points into are read for ids, on every core.
        let linked = Set(rendered.flatMap { $0.links.map(\.page) })
        var sources: [(output: String, source: String)] = inputs.pages.filter { linked.contains($0.output) }.map { ($0.output, $0.source) }
        for example in inputs.examples where linked.contains(examplePath(example.name)) {
            sources.append((examplePath(example.name), "\(options.examples)/\(example.name)"))
        }
        let toRead = sources
        let ids = ResultSlots<Set<String>>(count: toRead.count)
        DispatchQueue.concurrentPerform(iterations: toRead.count) { index in ids[index] = elementIDs(in: files[toRead[index].output] ?? []) }
        var targets: [String: (source: String, ids: Set<String>)] = [:]
        for (target, found) in zip(sources, ids.values) { targets[target.output] = (target.source, found) }
        var hints = FragmentHints()
        var problems: [Diagnostic] = []
        for (page, result) in zip(inputs.pages, rendered) {
            problems += brokenFragments(result.links, from: page, targets: targets, hints: &hints)
        }
        return problems
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
            if let steps = SiteBuilder.stepsHint(fragment, ids: ids) {
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
    static func brokenFragments(_ links: [FragmentLink], from page: Page,
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

    /// The values of the `id` attributes in a page (`id="…"` or `id='…'`,
    /// after whitespace, so `data-id` and `aria-…id` do not count), and of
    /// `name` on `<a>` elements, which browsers scroll to as well (and
    /// GitHub keeps): `<a name="legacy">` answers `#legacy`.
    static func elementIDs(in html: [UInt8]) -> Set<String> {
        var ids = Set<String>()
        var index = 1
        let count = html.count
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") }
        /// Whether the tag around `position` is `<a …`.
        func inAnchorTag(_ position: Int) -> Bool {
            var start = position - 1
            while start >= 0, position - start < 512, html[start] != UInt8(ascii: "<"), html[start] != UInt8(ascii: ">") { start -= 1 }
            guard start >= 0, html[start] == UInt8(ascii: "<"), start + 2 < count else { return false }
            return html[start + 1] | 0x20 == UInt8(ascii: "a") && isSpace(html[start + 2])
        }
        while index + 4 < count {
            // i d = quote (or n a m e = quote in <a>), after a space, tab or newline
            var valueStart: Int?
            if html[index] == UInt8(ascii: "i"), html[index + 1] == UInt8(ascii: "d"), html[index + 2] == UInt8(ascii: "="), isSpace(html[index - 1]) {
                valueStart = index + 3
            } else if index + 6 < count, html[index] == UInt8(ascii: "n"), html[index + 1] == UInt8(ascii: "a"), html[index + 2] == UInt8(ascii: "m"),
                      html[index + 3] == UInt8(ascii: "e"), html[index + 4] == UInt8(ascii: "="), isSpace(html[index - 1]), inAnchorTag(index) {
                valueStart = index + 5
            }
            if let quoteAt = valueStart, html[quoteAt] == UInt8(ascii: "\"") || html[quoteAt] == UInt8(ascii: "'") {
                let quote = html[quoteAt]
                var end = quoteAt + 1
                while end < count, html[end] != quote, html[end] != UInt8(ascii: ">") { end += 1 }
                if end < count, html[end] == quote { ids.insert(String(decoding: html[(quoteAt + 1)..<end], as: UTF8.self)) }
                index = end
            }
            index += 1
        }
        return ids
    }

    /// `a/./b/../c` to `a/c`. Byte-level: every link of every page goes
    /// through here.
    static func normalize(_ path: String) -> String {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        // Already normal: no empty, `.` or `..` segment (the common case).
        var previous = slash, clean = true
        for byte in path.utf8 {
            if previous == slash, byte == slash || byte == dot { clean = false; break }
            previous = byte
        }
        if clean, previous != slash { return path }
        var parts: [Substring.UTF8View] = []
        for part in path.utf8.split(separator: slash) {
            if part.count == 1, part.first == dot { continue }
            if part.count == 2, part.first == dot, part.last == dot, !parts.isEmpty { parts.removeLast() } else { parts.append(part) }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for (index, part) in parts.enumerated() {
            if index > 0 { bytes.append(slash) }
            bytes.append(contentsOf: part)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
