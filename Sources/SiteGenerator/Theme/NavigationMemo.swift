import ProjectFiles
import Foundation
import Mustache

/// The navigation partial rendered once for every group of pages that share
/// it, instead of once per page: pages of one folder differ only in which
/// item is `current`. The theme keeps its whole say over the markup: the
/// memo renders the theme's own `nav` template, and a page gets exactly the
/// bytes rendering it for that page would give.
///
/// How: the template is rendered with markers around every part that
/// `current` decides (its sections and interpolations); each opening marker
/// is itself a tag, which the item the part's `current` comes from fills
/// with its index (both names resolve in the same context: every item
/// answers both, nothing between them and the item answers either). One
/// render with no item current gives each part's "no" text and its owner,
/// one with every item current its "yes" text. A page's navigation is the
/// "no" render with its own item's parts taken from the "yes" one, which
/// holds because a part reads no other item's `current` (nesting is
/// refused). Anything this cannot prove exact falls back to a render per
/// page: a template that reads names other than the chrome's and the
/// items', nests `current`, changes delimiters or includes partials, a
/// `{{> nav}}` inside a section or indented, renders whose unmarked parts or
/// owners disagree, or marked renders that are not the plain render plus
/// markers (a title holding a marker code point).
struct NavigationMemo: Sendable {
    /// The navigation HTML of each output that has one memoized.
    private(set) var html: [String: String] = [:]

    /// Private-use code points: an opening marker is `open`, the owner's
    /// index and `owned`; a closing one is `close`.
    static let open: Character = "\u{10FFFC}", owned: Character = "\u{10FFFB}", close: Character = "\u{10FFFD}"
    /// The name of the opening marker's tag, which only items answer.
    static let markKey = "rowmotion-current-mark"
    static let chromeKeys: Set<String> = ["siteTitle", "root", "stylesheet", "script", "nav", "navList"]
    static let itemKeys: Set<String> = ["expanded", "title", "href", "current", "children", "root", "url", "depth", "folder", "closes"]

    /// - Parameters:
    ///   - outputs: every output whose page shows the navigation.
    ///   - root: an output's way back to the site's root.
    ///   - chrome: the chrome of an output; its `nav` is not read (each
    ///     render sets the group's own items).
    ///   - memory: how many bytes the memo's pages may hold in all: each
    ///     page gets a copy of its group's navigation, and past this the
    ///     pages left render their own, against the site's limit.
    init(outputs: [String], navigation: Navigation, theme: Theme, root: (String) -> String,
         memory: OutputBudget = OutputBudget(limit: OutputLimits.siteBytes), chrome: (String) -> Chrome) {
        guard let marked = theme.markedNavigation else { return }
        let plain = theme.library
        // Outputs grouped by what their navigation shows besides `current`.
        var groups: [Navigation.Group: [String]] = [:]
        var order: [Navigation.Group] = []
        for output in outputs {
            let group = navigation.group(of: output, root: root(output))
            if groups[group] == nil { order.append(group) }
            groups[group, default: []].append(output)
        }
        let work = order.map { group in (group: group, outputs: groups[group] ?? [], base: chrome(groups[group]![0])) }
        guard !work.isEmpty else { return }
        // Whether the marked template renders the plain one plus markers is
        // a property of the template (where its tags stand alone on a line),
        // the same for every group: proven on the first group, and again
        // only for a group whose text could hold a marker itself.
        let first = Self.render(group: work[0].group, outputs: work[0].outputs, navigation: navigation, base: work[0].base,
                                template: marked, plain: plain, memory: memory, proveAgainstPlain: true)
        let proven = !first.isEmpty
        let rest = Parallel.map(Array(work.dropFirst())) { group, outputs, base in
            let prove = !proven || Self.mayHoldMarkers(navigation.items(in: group) { _ in false }, base: base)
            return Self.render(group: group, outputs: outputs, navigation: navigation, base: base, template: marked, plain: plain,
                               memory: memory, proveAgainstPlain: prove)
        }
        for result in [first] + rest { html.merge(result) { first, _ in first } }
    }

    /// Whether a group's text (titles, links, the chrome's names) has a marker code point.
    static func mayHoldMarkers(_ items: [NavItem], base: Chrome) -> Bool {
        let markers: Set<Unicode.Scalar> = [open.unicodeScalars.first!, owned.unicodeScalars.first!, close.unicodeScalars.first!]
        // Every marker is past U+FFFFF, four bytes led by 0xF4 in UTF-8: a
        // text without that byte holds none (the scalars are read only
        // where it has one).
        func holds(_ text: String) -> Bool {
            text.utf8.contains(0xF4) && text.unicodeScalars.contains { markers.contains($0) }
        }
        return [base.siteTitle, base.root, base.stylesheet, base.script].contains(where: holds)
            || items.contains { holds($0.title) || holds($0.href) || holds($0.root) }
    }

    /// The navigation of each output of one group, or none when the
    /// renders cannot prove it.
    static func render(group: Navigation.Group, outputs: [String], navigation: Navigation, base: Chrome,
                       template: TemplateLibrary, plain: TemplateLibrary, memory: OutputBudget, proveAgainstPlain: Bool = true) -> [String: String] {
        func parts(current: Bool) -> Parts? {
            var chrome = base
            chrome.nav = navigation.items(in: group, marked: true) { _ in current }
            // Past a page's limit: rendered page by page, where the limit is reported.
            guard let bytes = try? template.renderBytes(chrome, withTemplate: "nav") else { return nil }
            return split(bytes)
        }
        guard let none = parts(current: false), let all = parts(current: true),
              none.outside == all.outside, none.owners == all.owners else { return [:] }
        // The markers themselves must be all that the marked template adds.
        if proveAgainstPlain {
            var unmarked = base
            unmarked.nav = navigation.items(in: group) { _ in false }
            guard let reference = try? plain.renderBytes(unmarked, withTemplate: "nav"),
                  reference.elementsEqual(zip(none.outside, none.marked + [[]]).lazy.flatMap { $0 + $1 }) else { return [:] }
        }
        // The "no" render without markers, and where each marked part sits
        // in it: a page's navigation is those bytes with its own parts
        // swapped in.
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for (index, outside) in none.outside.enumerated() {
            bytes.append(contentsOf: outside)
            guard index < none.marked.count else { break }
            let start = bytes.count
            bytes.append(contentsOf: none.marked[index])
            ranges.append(start..<bytes.count)
        }
        var partsOf: [Int: [Int]] = [:]
        for index in none.owners.indices where none.marked[index] != all.marked[index] {
            partsOf[none.owners[index], default: []].append(index)
        }
        let indexes = navigation.itemIndexes(in: group)
        // What the group's pages will hold: the shared render once, and a
        // copy for each page with parts of its own.
        var held = bytes.count
        for output in outputs {
            guard let current = indexes[output], let swapped = partsOf[current] else { continue }
            held += swapped.reduce(bytes.count) { $0 + all.marked[$1].count - ranges[$1].count }
        }
        guard memory.reserve(held) else { return [:] }
        var result: [String: String] = [:]
        result.reserveCapacity(outputs.count)
        let unswapped = String(decoding: bytes, as: UTF8.self)
        for output in outputs {
            guard let current = indexes[output], let swapped = partsOf[current] else {
                result[output] = unswapped
                continue
            }
            var text: [UInt8] = []
            text.reserveCapacity(bytes.count + 64)
            var position = 0
            for index in swapped {
                text.append(contentsOf: bytes[position..<ranges[index].lowerBound])
                text.append(contentsOf: all.marked[index])
                position = ranges[index].upperBound
            }
            text.append(contentsOf: bytes[position...])
            result[output] = String(decoding: text, as: UTF8.self)
        }
        return result
    }

    /// A marked render taken apart: the bytes between parts, the parts, and
    /// the index of the item each part belongs to.
    struct Parts {
        var outside: [ArraySlice<UInt8>] = []
        var marked: [ArraySlice<UInt8>] = []
        var owners: [Int] = []
    }

    /// A marked render taken apart; nil when markers do not pair up or an
    /// opening one names no item (a title that contains a marker).
    static func split(_ bytes: [UInt8]) -> Parts? {
        // Each marker is a private-use scalar, four bytes that start
        // F4 8F BF (no other scalar's encoding holds them), told apart by
        // its last byte.
        var parts = Parts()
        let (openByte, ownedByte, closeByte): (UInt8, UInt8, UInt8) = (0xBC, 0xBB, 0xBD)
        func marker(at position: Int) -> UInt8? {
            guard position + 3 < bytes.count, bytes[position] == 0xF4, bytes[position + 1] == 0x8F, bytes[position + 2] == 0xBF,
                  [openByte, ownedByte, closeByte].contains(bytes[position + 3]) else { return nil }
            return bytes[position + 3]
        }
        var start = 0, index = 0
        var inside = false
        while let lead = bytes[index...].firstIndex(of: 0xF4) {
            guard let kind = marker(at: lead) else {
                index = lead + 1
                continue
            }
            let after = lead + 4
            if kind == openByte {
                guard !inside else { return nil }
                parts.outside.append(bytes[start..<lead])
                // The owner's index, then `owned`.
                var digitsEnd = after, owner = 0
                while digitsEnd < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[digitsEnd]) {
                    // More digits than any index has: not a marker of ours.
                    guard digitsEnd - after < 18 else { return nil }
                    owner = owner * 10 + Int(bytes[digitsEnd] - UInt8(ascii: "0"))
                    digitsEnd += 1
                }
                guard digitsEnd > after, marker(at: digitsEnd) == ownedByte else { return nil }
                parts.owners.append(owner)
                inside = true
                index = digitsEnd + 4
                start = index
                continue
            }
            guard inside, kind == closeByte else { return nil }
            parts.marked.append(bytes[start..<lead])
            inside = false
            index = after
            start = after
        }
        guard !inside else { return nil }
        parts.outside.append(bytes[start...])
        return parts
    }

    // MARK: - Which templates qualify

    /// The `nav` template with markers around what `current` decides, or nil
    /// when rendering it once per group could differ from once per page.
    /// `includers`: the texts of the templates that may include it.
    static func marked(_ nav: String, includers: [String]) -> String? {
        guard !nav.contains(open), !nav.contains(owned), !nav.contains(close) else { return nil }
        for text in includers {
            let tags = scan(text)
            for tag in tags where tag.kind == ">" && tag.name == "nav" {
                guard tag.depth == 0, tag.column == 1 else { return nil }
            }
            guard !tags.contains(where: { $0.kind == "=" }) else { return nil }
        }
        let tags = scan(nav)
        var insertions: [(offset: String.Index, marker: String)] = []
        let opening = "{{{\(markKey)}}}", closing = String(close)
        // Per open section: whether it pushed an item, and whether it is `current`.
        var sections: [(name: String, item: Bool, current: Bool)] = []
        for tag in tags {
            switch tag.kind {
            case "!": continue
            case "=", ">", "%": return nil
            case "/":
                guard let last = sections.popLast(), last.name == tag.name else { return nil }
                if last.current { insertions.append((tag.range.upperBound, closing)) }
                continue
            default: break
            }
            let inItem = sections.contains { $0.item }
            if tag.name != "." {
                guard !tag.name.contains(".") else { return nil }
                let allowed = inItem ? chromeKeys.union(itemKeys) : chromeKeys
                guard allowed.contains(tag.name) else { return nil }
            }
            let isCurrent = tag.name == "current"
            if isCurrent, sections.contains(where: { $0.current }) { return nil }
            if tag.kind == "#" || tag.kind == "^" {
                let pushesItem = tag.kind == "#" && (tag.name == "nav" || tag.name == "navList" || tag.name == "children")
                sections.append((tag.name, pushesItem, isCurrent))
                if isCurrent { insertions.append((tag.range.lowerBound, opening)) }
            } else if isCurrent {
                insertions.append((tag.range.lowerBound, opening))
                insertions.append((tag.range.upperBound, closing))
            }
        }
        guard sections.isEmpty else { return nil }
        var text = nav
        for insertion in insertions.sorted(by: { $0.offset > $1.offset }) {
            text.insert(contentsOf: insertion.marker, at: insertion.offset)
        }
        return text
    }

    struct Tag {
        var kind: Character?
        var name: String
        var range: Range<String.Index>
        /// Sections open around it.
        var depth: Int
        /// Its column, 1 for a tag at the start of a line.
        var column: Int
    }

    /// The tags of a template with where they are, for the default `{{ }}`
    /// delimiters (a template that changes them does not qualify).
    static func scan(_ text: String) -> [Tag] {
        var tags: [Tag] = []
        var depth = 0
        var index = text.startIndex
        // A position whose column is known (the last tag's start, or a
        // line's): each column is counted on from it, so a line of many
        // tags is read once, not once per tag.
        var known = (position: text.startIndex, column: 0)
        while let opening = find("{{", in: text, from: index) {
            if let newline = text[index..<opening.lowerBound].lastIndex(of: "\n") { known = (text.index(after: newline), 0) }
            known = (opening.lowerBound, known.column + text.distance(from: known.position, to: opening.lowerBound))
            let triple = text[opening.upperBound...].hasPrefix("{")
            let closing = triple ? "}}}" : "}}"
            let contentStart = triple ? text.index(after: opening.upperBound) : opening.upperBound
            guard let end = find(closing, in: text, from: contentStart) else { break }
            var content = text[contentStart..<end.lowerBound].trimmingCharacters(in: .whitespaces)
            var kind: Character? = triple ? "&" : nil
            if let first = content.first, "#^/!>&=%".contains(first) {
                kind = first
                content = String(content.dropFirst()).trimmingCharacters(in: .whitespaces)
            }
            if kind == "/" { depth -= 1 }
            tags.append(Tag(kind: kind, name: content, range: opening.lowerBound..<end.upperBound, depth: depth, column: known.column + 1))
            if kind == "#" || kind == "^" { depth += 1 }
            index = end.upperBound
        }
        return tags
    }

    /// The first `needle` (ASCII) in `text` at or after `start` that begins
    /// and ends on character boundaries (Mustache reads characters: a brace
    /// with a combining mark on it is not a brace), found by bytes
    /// (Foundation's `range(of:)` was a quarter of loading the theme).
    static func find(_ needle: String, in text: String, from start: String.Index) -> Range<String.Index>? {
        let utf8 = text.utf8
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return nil }
        var index = start
        while let hit = utf8[index...].firstIndex(of: first) {
            var end = hit
            var matched = true
            for byte in pattern {
                guard end < utf8.endIndex, utf8[end] == byte else { matched = false; break }
                end = utf8.index(after: end)
            }
            if matched, hit.samePosition(in: text) != nil, end == text.endIndex || end.samePosition(in: text) != nil {
                return hit..<end
            }
            index = utf8.index(after: hit)
        }
        return nil
    }
}
