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
/// render with no item current gives each part's "no" text, its owner and
/// its number in the template, one with every item current its "yes" text.
/// A page's navigation is the "no" render with its own item's parts taken
/// from the "yes" one, which holds because a part reads no other item's
/// `current` (nesting is refused). Both renders of every group are held to
/// the plain template's renders of the same items: where a tag stands
/// alone on its line is swift-mustache's reading (a tag after a section's
/// end may stand alone though not first on its line), which only a render
/// shows. Anything this cannot prove exact falls back to a render per
/// page: a template that reads names other than the chrome's and the
/// items', nests `current`, changes delimiters or includes partials, a
/// `{{> nav}}` inside a section or indented, renders whose unmarked parts or
/// owners disagree, or marked renders that are not the plain render plus
/// markers (a title holding a marker code point).
///
/// A theme that draws the navigation as the flat list alone (the default)
/// is composed from its items' renders instead (`NavigationItems.swift`).
struct NavigationMemo: Sendable {
    /// The navigation HTML of each output that has one memoized.
    private(set) var html: [String: String] = [:]

    /// Private-use code points: an opening marker is `open`, the owner's
    /// index, `.`, the part's number in the template and `owned`; a closing
    /// one is `close`.
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
        // The flat list, composed from each item's own render, where the
        // theme draws it that way (see `composed`).
        if let itemized = theme.itemizedNavigation,
           let composed = Self.composed(work, navigation: navigation, template: itemized, plain: plain,
                                        holes: theme.navigationHoles, memory: memory) {
            html = composed
            return
        }
        let results = Parallel.map(work) { group, outputs, base in
            Self.render(group: group, outputs: outputs, navigation: navigation, base: base, template: marked, plain: plain, memory: memory)
        }
        for result in results { html.merge(result) { first, _ in first } }
    }

    /// The navigation of each output of one group, or none when the
    /// renders cannot prove it: with no item current and with every item
    /// current, the marked template must render the plain one plus markers
    /// (where a tag stands alone on its line is swift-mustache's reading,
    /// which only a render shows), for this group's own data.
    static func render(group: Navigation.Group, outputs: [String], navigation: Navigation, base: Chrome,
                       template: TemplateLibrary, plain: TemplateLibrary, memory: OutputBudget) -> [String: String] {
        func rendered(current: Bool) -> Parts? {
            var chrome = base
            chrome.nav = navigation.items(in: group, marked: true) { _ in current }
            // Past a page's limit: rendered page by page, where the limit is reported.
            guard let bytes = try? template.renderBytes(chrome, withTemplate: "nav"),
                  let parts = split(bytes) else { return nil }
            var unmarked = base
            unmarked.nav = navigation.items(in: group) { _ in current }
            guard let reference = try? plain.renderBytes(unmarked, withTemplate: "nav"),
                  reference.elementsEqual(zip(parts.outside, parts.marked + [[]]).lazy.flatMap { $0 + $1 }) else { return nil }
            return parts
        }
        guard let none = rendered(current: false), let all = rendered(current: true), none.outside == all.outside,
              none.owners == all.owners, none.templateParts == all.templateParts else { return [:] }
        let indexes = navigation.itemIndexes(in: group)
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
        /// Which of the template's parts each is.
        var templateParts: [Int] = []
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
                // The owner's index, `.`, the part's number, then `owned`.
                func number(at start: Int) -> (value: Int, end: Int)? {
                    var end = start, value = 0
                    while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
                        // More digits than any index has: not a marker of ours.
                        guard end - start < 18 else { return nil }
                        value = value * 10 + Int(bytes[end] - UInt8(ascii: "0"))
                        end += 1
                    }
                    return end > start ? (value, end) : nil
                }
                guard let owner = number(at: after), owner.end < bytes.count, bytes[owner.end] == UInt8(ascii: "."),
                      let part = number(at: owner.end + 1), marker(at: part.end) == ownedByte else { return nil }
                parts.owners.append(owner.value)
                parts.templateParts.append(part.value)
                inside = true
                index = part.end + 4
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
        let closing = String(close)
        func opening(_ part: Int) -> String { "{{{\(markKey)}}}\(part)\(owned)" }
        var parts = 0
        // Per open section: whether it pushed an item, whether it is
        // `current` (and where it opened).
        var sections: [(name: String, item: Bool, current: Bool, start: String.Index)] = []
        for tag in tags {
            switch tag.kind {
            case "!": continue
            case "=", ">", "%": return nil
            case "/":
                guard let last = sections.popLast(), last.name == tag.name else { return nil }
                // A marker beside a tag that stands alone on its line would
                // keep the line swift-mustache drops: not markable.
                if last.current, standsAlone(tag, in: nav, tags: tags) { return nil }
                if last.current {
                    insertions.append((last.start, opening(parts)))
                    insertions.append((tag.range.upperBound, closing))
                    parts += 1
                }
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
            if isCurrent, standsAlone(tag, in: nav, tags: tags) { return nil }
            if tag.kind == "#" || tag.kind == "^" {
                let pushesItem = tag.kind == "#" && (tag.name == "nav" || tag.name == "navList" || tag.name == "children")
                sections.append((tag.name, pushesItem, isCurrent, tag.range.lowerBound))
            } else if isCurrent {
                insertions.append((tag.range.lowerBound, opening(parts)))
                insertions.append((tag.range.upperBound, closing))
                parts += 1
            }
        }
        guard sections.isEmpty else { return nil }
        // From the end, so earlier offsets stay valid; at one offset (a
        // part's close and the next one's opening) in their order here.
        var text = nav
        for (_, insertion) in insertions.enumerated().sorted(by: { ($0.element.offset, $0.offset) > ($1.element.offset, $1.offset) }) {
            text.insert(contentsOf: insertion.marker, at: insertion.offset)
        }
        return text
    }

    /// Whether `tag` stands alone on its line (a section, inverted, closing,
    /// comment, partial or delimiter tag with only blanks around it), which
    /// swift-mustache drops with the line: text put beside it keeps the line.
    static func standsAlone(_ tag: Tag, in text: String, tags: [Tag]) -> Bool {
        guard let kind = tag.kind, "#^/!>=".contains(kind) else { return false }
        let lineStart = text[..<tag.range.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        let lineEnd = text[tag.range.upperBound...].firstIndex(of: "\n") ?? text.endIndex
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return text[lineStart..<tag.range.lowerBound].allSatisfy(blank) && text[tag.range.upperBound..<lineEnd].allSatisfy(blank)
            && !tags.contains { $0.range != tag.range && $0.range.lowerBound >= lineStart && $0.range.lowerBound < lineEnd }
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

    /// The tags of a template as the theme check reads them
    /// (`TemplateCheck.tags`, swift-mustache's own reading), with where
    /// each is in the text and how many sections are open around it.
    static func scan(_ text: String) -> [Tag] {
        var depth = 0
        let utf8 = text.utf8
        return TemplateCheck.tags(in: text).map { tag in
            if tag.kind == "/" { depth -= 1 }
            let start = utf8.index(utf8.startIndex, offsetBy: tag.bytes.lowerBound)
            let end = utf8.index(start, offsetBy: tag.bytes.count)
            let scanned = Tag(kind: tag.kind, name: tag.name, range: start..<end, depth: depth, column: tag.column)
            if tag.kind == "#" || tag.kind == "^" { depth += 1 }
            return scanned
        }
    }
}
