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
/// which of the template's parts it is. A page's navigation is the "no"
/// render with its own item's parts rendered "yes": each part of the
/// template is also a template of its own, rendered for the item alone
/// (parts inside the tree, `nav`/`children`, are taken from a render with
/// every item current instead), which holds because a part reads no other
/// item's `current` (nesting is refused) and only its item's names and the
/// chrome's. Anything this cannot prove exact falls back to a render per
/// page: a template that reads names other than the chrome's and the
/// items', nests `current`, changes delimiters or includes partials, a
/// `{{> nav}}` inside a section or indented, renders whose unmarked parts or
/// owners disagree, marked renders that are not the plain render plus
/// markers (a title holding a marker code point), or parts rendered alone
/// that differ from the same parts rendered in place.
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
        let parts = theme.navigationParts
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
        // Whether the marked template renders the plain one plus markers is
        // a property of the template (where its tags stand alone on a line),
        // the same for every group: proven on the first group, and again
        // only for a group whose text could hold a marker itself.
        let first = Self.render(group: work[0].group, outputs: work[0].outputs, navigation: navigation, base: work[0].base,
                                template: marked, parts: parts, plain: plain, memory: memory, proveAgainstPlain: true)
        let proven = !first.isEmpty
        let rest = Parallel.map(Array(work.dropFirst())) { group, outputs, base in
            let prove = !proven || Self.mayHoldMarkers(navigation.items(in: group) { _ in false }, base: base)
            return Self.render(group: group, outputs: outputs, navigation: navigation, base: base, template: marked, parts: parts,
                               plain: plain, memory: memory, proveAgainstPlain: prove)
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
    /// - Parameter parts: for each part of the template, whether it is in
    ///   the flat list (rendered alone for an item), else in the tree.
    static func render(group: Navigation.Group, outputs: [String], navigation: Navigation, base: Chrome,
                       template: TemplateLibrary, parts: [Bool], plain: TemplateLibrary, memory: OutputBudget,
                       proveAgainstPlain: Bool = true) -> [String: String] {
        func rendered(current: Bool) -> Parts? {
            var chrome = base
            chrome.nav = navigation.items(in: group, marked: true) { _ in current }
            // Past a page's limit: rendered page by page, where the limit is reported.
            guard let bytes = try? template.renderBytes(chrome, withTemplate: "nav") else { return nil }
            return split(bytes)
        }
        guard let none = rendered(current: false), none.templateParts.allSatisfy({ $0 < parts.count }) else { return [:] }
        let indexes = navigation.itemIndexes(in: group)
        // The items some page of the group has current, and what each part
        // of theirs writes then: rendered alone, for parts of the flat list;
        // taken from a render with every item current, for parts in the
        // tree, and to show that alone and in place agree (the first group,
        // and any whose text could hold a marker).
        let owned = Set(outputs.compactMap { indexes[$0] })
        let alone = parts.allSatisfy { $0 }
        var yes: [Int: ArraySlice<UInt8>] = [:]
        if alone {
            let items = navigation.items(in: group) { owned.contains($0) }
            for (index, owner) in none.owners.enumerated() where owned.contains(owner) {
                guard owner < items.count else { return [:] }
                let context = PartContext(item: items[owner], chrome: base)
                guard let bytes = try? template.renderBytes(context, withTemplate: partName(none.templateParts[index])) else { return [:] }
                yes[index] = bytes[...]
            }
        }
        if !alone || proveAgainstPlain {
            guard let all = rendered(current: true), none.outside == all.outside, none.owners == all.owners,
                  none.templateParts == all.templateParts else { return [:] }
            for index in none.owners.indices where owned.contains(none.owners[index]) {
                if alone {
                    guard yes[index] == all.marked[index] else { return [:] }
                } else {
                    yes[index] = all.marked[index]
                }
            }
        }
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
        for (index, text) in yes.sorted(by: { $0.key < $1.key }) where text != none.marked[index] {
            partsOf[none.owners[index], default: []].append(index)
        }
        // What the group's pages will hold: the shared render once, and a
        // copy for each page with parts of its own.
        var held = bytes.count
        for output in outputs {
            guard let current = indexes[output], let swapped = partsOf[current] else { continue }
            held += swapped.reduce(bytes.count) { $0 + yes[$1]!.count - ranges[$1].count }
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
                text.append(contentsOf: yes[index]!)
                position = ranges[index].upperBound
            }
            text.append(contentsOf: bytes[position...])
            result[output] = String(decoding: text, as: UTF8.self)
        }
        return result
    }

    /// The name of a part's own template in the marked library.
    static func partName(_ part: Int) -> String { "rowmotion-part-\(part)" }

    /// What a part rendered alone reads: its item's names first, then the
    /// chrome's, as the stack gives them in place (the marked template
    /// names nothing else, and nothing between the two answers a name).
    struct PartContext: MustacheParent {
        let item: NavItem
        let chrome: Chrome

        func child(named key: String) -> Any? { item.child(named: key) ?? chrome.child(named: key) }
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
        markedParts(nav, includers: includers)?.text
    }

    /// `marked` with the template's parts: each one's own text, and whether
    /// it sits in the flat list (`navList`), where it can be rendered alone
    /// for an item, rather than in the tree.
    static func markedParts(_ nav: String, includers: [String]) -> (text: String, parts: [(text: String, flat: Bool)])? {
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
        var parts: [(text: String, flat: Bool)] = []
        // Per open section: whether it pushed an item, whether it is
        // `current` (and where it opened), whether it is in the flat list.
        var sections: [(name: String, item: Bool, current: Bool, start: String.Index, flat: Bool)] = []
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
                    insertions.append((last.start, opening(parts.count)))
                    insertions.append((tag.range.upperBound, closing))
                    parts.append((String(nav[last.start..<tag.range.upperBound]), last.flat))
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
            // The innermost section that pushed an item decides the item's form.
            let flat = sections.last(where: { $0.item })?.name == "navList"
            if isCurrent, standsAlone(tag, in: nav, tags: tags) { return nil }
            if tag.kind == "#" || tag.kind == "^" {
                let pushesItem = tag.kind == "#" && (tag.name == "nav" || tag.name == "navList" || tag.name == "children")
                sections.append((tag.name, pushesItem, isCurrent, tag.range.lowerBound, flat))
            } else if isCurrent {
                insertions.append((tag.range.lowerBound, opening(parts.count)))
                insertions.append((tag.range.upperBound, closing))
                parts.append((String(nav[tag.range]), flat))
            }
        }
        guard sections.isEmpty else { return nil }
        // From the end, so earlier offsets stay valid; at one offset (a
        // part's close and the next one's opening) in their order here.
        var text = nav
        for (_, insertion) in insertions.enumerated().sorted(by: { ($0.element.offset, $0.offset) > ($1.element.offset, $1.offset) }) {
            text.insert(contentsOf: insertion.marker, at: insertion.offset)
        }
        return (text, parts)
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
