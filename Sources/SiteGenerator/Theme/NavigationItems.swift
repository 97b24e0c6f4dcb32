import ProjectFiles
import Reports

/// The navigation of a theme that draws it as the flat list (one
/// `{{#navList}}…{{/navList}}` at the top of `nav`, as the default theme
/// does), composed from its items' own renders: a page's navigation is the
/// template's text before the list, each item's part of the list, and the
/// text after it. An item's part depends only on the item (its title, link,
/// depth, whether it is open or current, the lists it closes) and the
/// chrome, so each distinct item is rendered once for the whole site rather
/// than once for every folder that shows it: the top-level items appear in
/// every folder's navigation.
///
/// How: the template gets a marker code point at the start of the list's
/// body, so a render of any items splits into the text before the list and
/// one part per item (the last one followed by the text after the list,
/// known from a render with no items). Items are rendered in batches, the
/// ones each chrome needs, each beside the plain template's render of it;
/// items that differ only in their title and link are rendered once, by
/// shape, where the list writes those only as escaped text. Whatever this cannot prove exact falls back to the memo of whole
/// renders: a template whose list is not alone at its top level or whose
/// marker would unmake a standalone line, marked renders that do not split
/// into one part per item (a title holding the marker) or that are not the
/// plain render plus markers, or a composed navigation that differs from
/// the page's own render (checked for one page of every chrome).
extension NavigationMemo {
    /// Marks the start of an item's part of the list.
    static let itemStart: Character = "\u{10FFF9}"
    /// Stand in for an item's title and link in a render of its shape.
    static let titleHole: Character = "\u{10FFF0}", hrefHole: Character = "\u{10FFF1}"

    /// Whether the list writes an item's title, link and URL only as
    /// escaped text (`{{title}}`, never `{{{title}}}` or `{{#title}}`): then
    /// items that differ only in them are rendered once, with holes in
    /// their place, and each item's part is that render with its own
    /// escaped title and link filled in.
    static func writesTitlesAsText(_ nav: String) -> Bool {
        scan(nav).allSatisfy { tag in !["title", "href", "url"].contains(tag.name) || tag.kind == nil }
    }

    /// The `nav` template with `itemStart` where the flat list's body
    /// begins, or nil when the navigation is not that list alone (and the
    /// memo's own conditions, `marked`, do not hold).
    static func itemized(_ nav: String, includers: [String]) -> String? {
        guard marked(nav, includers: includers) != nil, !nav.contains(itemStart) else { return nil }
        let tags = scan(nav)
        let lists = tags.filter { ["nav", "navList", "children"].contains($0.name) && $0.kind != "/" }
        guard lists.count == 1, let list = lists.first, list.kind == "#", list.name == "navList", list.depth == 0 else { return nil }
        // The body starts after the tag, or on the next line when the tag
        // stands alone on its own (swift-mustache drops that line).
        var start = list.range.upperBound
        let lineStart = nav[..<list.range.lowerBound].lastIndex(of: "\n").map { nav.index(after: $0) } ?? nav.startIndex
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        if nav[lineStart..<list.range.lowerBound].allSatisfy(blank),
           let newline = nav[start...].firstIndex(where: { !blank($0) && $0 != "\r" }), nav[newline] == "\n" {
            start = nav.index(after: newline)
            // The marker must not take a line of its own from a tag that
            // stands alone on it (swift-mustache would then keep the line).
            let lineEnd = nav[start...].firstIndex(of: "\n") ?? nav.endIndex
            if let first = tags.first(where: { $0.range.lowerBound >= start && $0.range.lowerBound < lineEnd }),
               standsAlone(first, in: nav, tags: tags) {
                return nil
            }
        }
        var text = nav
        text.insert(itemStart, at: start)
        return text
    }

    /// What an item's part depends on: every name an item answers, but its
    /// children (none in the flat list).
    struct ItemKey: Hashable, Sendable {
        var title: String
        var href: String
        var current: Bool
        var root: String
        var expanded: Bool
        var depth: Int
        var isFolder: Bool
        var closes: Int

        init(_ item: NavItem) {
            (title, href, current, root) = (item.title, item.href, item.current, item.root)
            (expanded, depth, isFolder, closes) = (item.expanded, item.depth, item.isFolder, item.closes)
        }
    }

    /// What the text around the list depends on: the chrome's names.
    struct ChromeKey: Hashable, Sendable {
        var siteTitle: String
        var root: String
        var stylesheet: String
        var script: String

        init(_ chrome: Chrome) {
            (siteTitle, root, stylesheet, script) = (chrome.siteTitle, chrome.root, chrome.stylesheet, chrome.script)
        }
    }

    /// The text before and after the list, and each item's part, for one chrome.
    struct Pieces: Sendable {
        var before: [UInt8]
        var after: [UInt8]
        var items: [ItemKey: [UInt8]] = [:]
    }

    /// Each output's navigation composed from its items' parts; nil when
    /// the renders cannot prove it (the caller then memoizes whole renders).
    /// - Parameter work: the groups, each with its outputs and its chrome.
    /// - Parameter holes: whether items may be rendered by shape (`writesTitlesAsText`).
    static func composed(_ work: [(group: Navigation.Group, outputs: [String], base: Chrome)], navigation: Navigation,
                         template: TemplateLibrary, plain: TemplateLibrary, holes: Bool, memory: OutputBudget) -> [String: String]? {
        // Each group's items as its pages show them: every item, and the
        // pages' own items once more as current.
        struct Needs: Sendable {
            var items: [NavItem]
            var indexes: [String: Int]
        }
        let needs = Parallel.map(work) { group, _, _ in
            Needs(items: navigation.items(in: group) { _ in false }, indexes: navigation.itemIndexes(in: group))
        }
        // What each chrome renders: each item's shape (or the item, when
        // it cannot be filled in), and a few items as they are, whose parts
        // must be their shape's filled in.
        let shape: @Sendable (NavItem) -> NavItem = { item in holes ? hollow(item) ?? item : item }
        var wanted: [ChromeKey: (chrome: Chrome, items: [ItemKey: NavItem])] = [:]
        var samples: [ChromeKey: [NavItem]] = [:]
        var chromeOrder: [ChromeKey] = []
        for (index, entry) in work.enumerated() {
            let key = ChromeKey(entry.base)
            if wanted[key] == nil {
                wanted[key] = (entry.base, [:])
                chromeOrder.append(key)
            }
            func want(_ item: NavItem) {
                let shaped = shape(item)
                wanted[key]!.items[ItemKey(shaped)] = shaped
                if shaped.title != item.title || shaped.href != item.href, samples[key, default: []].count < 32 {
                    samples[key, default: []].append(item)
                    wanted[key]!.items[ItemKey(item)] = item
                }
            }
            for item in needs[index].items { want(item) }
            for output in entry.outputs {
                guard let own = needs[index].indexes[output], own < needs[index].items.count else { continue }
                var item = needs[index].items[own]
                item.current = true
                want(item)
            }
        }
        // Each chrome's pieces: its items rendered in batches, split at the markers.
        let wantedChromes = wanted.mapValues(\.chrome)
        let batchSize = 128
        var batches: [(chrome: ChromeKey, items: [NavItem])] = []
        for key in chromeOrder {
            let items = Array(wanted[key]!.items.values)
            for start in stride(from: 0, to: items.count, by: batchSize) {
                batches.append((key, Array(items[start..<min(start + batchSize, items.count)])))
            }
        }
        let empties = Parallel.map(chromeOrder) { key -> [UInt8]? in
            var chrome = wantedChromes[key]!
            chrome.nav = []
            return try? template.renderBytes(chrome, withTemplate: "nav")
        }
        // Every batch is also rendered plain: the marker must be all the
        // marked template adds, for every item whose part is used (where a
        // tag stands alone on its line is swift-mustache's reading, which
        // only a render shows).
        let batched = batches
        let rendered = Parallel.map(Array(batched.indices)) { index -> (before: [UInt8], parts: [[UInt8]])? in
            var chrome = wantedChromes[batched[index].chrome]!
            chrome.nav = batched[index].items
            guard let bytes = try? template.renderBytes(chrome, withTemplate: "nav"),
                  let pieces = split(items: bytes, count: chrome.nav.count) else { return nil }
            guard let reference = try? plain.renderBytes(chrome, withTemplate: "nav"),
                  reference.elementsEqual(pieces.before + pieces.parts.joined()) else { return nil }
            return pieces
        }
        var pieces: [ChromeKey: Pieces] = [:]
        for (index, key) in chromeOrder.enumerated() {
            guard let empty = empties[index] else { return nil }
            pieces[key] = Pieces(before: [], after: empty)
        }
        for (index, batch) in batches.enumerated() {
            guard let result = rendered[index], var piece = pieces[batch.chrome] else { return nil }
            // The text before the list is the same in every batch; the empty
            // render is it and the text after.
            guard piece.after.starts(with: result.before), let last = result.parts.last, last.count >= piece.after.count - result.before.count,
                  last.suffix(piece.after.count - result.before.count).elementsEqual(piece.after.dropFirst(result.before.count)) else { return nil }
            if piece.before.isEmpty { piece.before = result.before } else if piece.before != result.before { return nil }
            for (item, part) in zip(batch.items, result.parts) { piece.items[ItemKey(item)] = part }
            // The last part ends where the text after the list begins.
            piece.items[ItemKey(batch.items[batch.items.count - 1])] = Array(last.dropLast(piece.after.count - result.before.count))
            pieces[batch.chrome] = piece
        }
        for key in chromeOrder {
            guard let piece = pieces[key] else { return nil }
            pieces[key]!.after = Array(piece.after.dropFirst(piece.before.count))
            // Items rendered as they are equal their shape filled in.
            for item in samples[key] ?? [] {
                guard let own = piece.items[ItemKey(item)], let hollow = piece.items[ItemKey(shape(item))] else { return nil }
                var filled: [UInt8] = []
                fill(hollow, with: item, into: &filled)
                guard filled == own else { return nil }
            }
        }
        // Each group's pages, composed, within the memory given.
        let allPieces = pieces
        let composedGroups = Parallel.map(Array(work.indices)) { index -> [String: String] in
            let (_, outputs, base) = work[index]
            guard let piece = allPieces[ChromeKey(base)] else { return [:] }
            let items = needs[index].items
            func part(_ item: NavItem, into bytes: inout [UInt8]) {
                let shaped = shape(item)
                guard let made = piece.items[ItemKey(shaped)] else { return }
                if shaped.title == item.title, shaped.href == item.href { bytes += made } else { fill(made, with: item, into: &bytes) }
            }
            // The parts every page of the group shares, made once.
            var shared: [[UInt8]] = []
            shared.reserveCapacity(items.count)
            for item in items {
                var bytes: [UInt8] = []
                part(item, into: &bytes)
                shared.append(bytes)
            }
            let size = shared.reduce(piece.before.count + piece.after.count) { $0 + $1.count }
            guard memory.reserve(size * outputs.count) else { return [:] }
            var result: [String: String] = [:]
            result.reserveCapacity(outputs.count)
            for output in outputs {
                let own = needs[index].indexes[output]
                var bytes = piece.before
                bytes.reserveCapacity(size + 64)
                for (position, made) in shared.enumerated() {
                    if position == own {
                        var item = items[position]
                        item.current = true
                        part(item, into: &bytes)
                    } else {
                        bytes += made
                    }
                }
                bytes += piece.after
                result[output] = String(decoding: bytes, as: UTF8.self)
            }
            return result
        }
        // One page of every chrome, composed, is its own render.
        var proven: Set<ChromeKey> = []
        for (index, entry) in work.enumerated() where !entry.outputs.isEmpty {
            let key = ChromeKey(entry.base)
            guard proven.insert(key).inserted else { continue }
            let output = entry.outputs[0]
            var chrome = entry.base
            let own = needs[index].indexes[output]
            chrome.nav = navigation.items(in: entry.group) { $0 == own }
            guard let reference = try? plain.renderBytes(chrome, withTemplate: "nav"),
                  let made = composedGroups[index][output], reference.elementsEqual(made.utf8) else { return nil }
        }
        var html: [String: String] = [:]
        for group in composedGroups { html.merge(group) { first, _ in first } }
        return html
    }

    /// The item parts a group's pages need: each item's shape (with holes
    /// for its title and link, where the list writes those only as text),
    /// and its own page's item current; with items as they are whose parts
    /// must be their shape's filled in (up to `sampleCount`).
    static func shapes(of items: [NavItem], indexes: [String: Int], outputs: [String], holes: Bool,
                       into wanted: inout [ItemKey: NavItem], samples: inout [NavItem]) {
        func want(_ item: NavItem) {
            let shaped = holes ? hollow(item) ?? item : item
            wanted[ItemKey(shaped)] = shaped
            if shaped.title != item.title || shaped.href != item.href, samples.count < sampleCount {
                samples.append(item)
                wanted[ItemKey(item)] = item
            }
        }
        for item in items { want(item) }
        for output in outputs {
            guard let own = indexes[output], own < items.count else { continue }
            var item = items[own]
            item.current = true
            want(item)
        }
    }

    /// How many items as they are a chrome's pieces check their shapes against.
    static let sampleCount = 32

    /// One chrome's pieces: the text around the list, and each of `wanted`
    /// rendered (in batches, each beside the plain template's render of
    /// it); nil when the renders do not prove them: a marker that does not
    /// split a render into one part per item, a marked render that is not
    /// the plain one plus markers, a sample whose part is not its shape's
    /// filled in.
    static func pieces(chrome base: Chrome, wanted: [NavItem], samples: [NavItem], template: TemplateLibrary, plain: TemplateLibrary,
                       holes: Bool) -> Pieces? {
        var chrome = base
        chrome.nav = []
        guard let empty = try? template.renderBytes(chrome, withTemplate: "nav") else { return nil }
        var piece = Pieces(before: [], after: empty)
        let batchSize = 128
        for start in stride(from: 0, to: wanted.count, by: batchSize) {
            var chrome = base
            chrome.nav = Array(wanted[start..<min(start + batchSize, wanted.count)])
            guard let bytes = try? template.renderBytes(chrome, withTemplate: "nav"),
                  let result = split(items: bytes, count: chrome.nav.count),
                  let reference = try? plain.renderBytes(chrome, withTemplate: "nav"),
                  reference.elementsEqual(result.before + result.parts.joined()) else { return nil }
            // The text before the list is the same in every batch; the empty
            // render is it and the text after.
            guard empty.starts(with: result.before), let last = result.parts.last, last.count >= empty.count - result.before.count,
                  last.suffix(empty.count - result.before.count).elementsEqual(empty.dropFirst(result.before.count)) else { return nil }
            if piece.before.isEmpty { piece.before = result.before } else if piece.before != result.before { return nil }
            for (item, part) in zip(chrome.nav, result.parts) { piece.items[ItemKey(item)] = part }
            // The last part ends where the text after the list begins.
            piece.items[ItemKey(chrome.nav[chrome.nav.count - 1])] = Array(last.dropLast(empty.count - result.before.count))
        }
        piece.after = Array(empty.dropFirst(piece.before.count))
        // Items rendered as they are equal their shape filled in.
        for item in samples {
            let shaped = holes ? hollow(item) ?? item : item
            guard let own = piece.items[ItemKey(item)], let hollow = piece.items[ItemKey(shaped)] else { return nil }
            var filled: [UInt8] = []
            fill(hollow, with: item, into: &filled)
            guard filled == own else { return nil }
        }
        return piece
    }

    /// Each of `outputs`' navigation, composed from `piece` (one group's:
    /// its items none current, the index of each output's own); nil when
    /// `piece` lacks a part or `memory` cannot hold them.
    static func compose(items: [NavItem], indexes: [String: Int], outputs: [String], piece: Pieces, holes: Bool,
                        memory: OutputBudget) -> [String: String]? {
        func part(_ item: NavItem, into bytes: inout [UInt8]) -> Bool {
            let shaped = holes ? hollow(item) ?? item : item
            guard let made = piece.items[ItemKey(shaped)] else { return false }
            if shaped.title == item.title, shaped.href == item.href { bytes += made } else { fill(made, with: item, into: &bytes) }
            return true
        }
        // The parts every page of the group shares, made once.
        var shared: [[UInt8]] = []
        shared.reserveCapacity(items.count)
        for item in items {
            var bytes: [UInt8] = []
            guard part(item, into: &bytes) else { return nil }
            shared.append(bytes)
        }
        let size = shared.reduce(piece.before.count + piece.after.count) { $0 + $1.count }
        guard memory.reserve(size * outputs.count) else { return nil }
        var result: [String: String] = [:]
        result.reserveCapacity(outputs.count)
        for output in outputs {
            let own = indexes[output]
            var bytes = piece.before
            bytes.reserveCapacity(size + 64)
            for (position, made) in shared.enumerated() {
                if position == own {
                    var item = items[position]
                    item.current = true
                    guard part(item, into: &bytes) else { return nil }
                } else {
                    bytes += made
                }
            }
            bytes += piece.after
            result[output] = String(decoding: bytes, as: UTF8.self)
        }
        return result
    }

    /// The item with holes for its title and link, when its part can be
    /// filled in from its shape's (its URL is its root and link as they are).
    static func hollow(_ item: NavItem) -> NavItem? {
        guard RelativeURL.safe(item.root + item.href) == item.root + item.href else { return nil }
        var hollow = item
        (hollow.title, hollow.href) = (String(titleHole), String(hrefHole))
        return hollow
    }

    /// A shape's part with the item's escaped title and link in its holes.
    static func fill(_ shape: [UInt8], with item: NavItem, into out: inout [UInt8]) {
        // The holes are U+10FFF0 and U+10FFF1: F4 8F BF B0 and F4 8F BF B1.
        var plain = 0, index = 0
        while let lead = shape[index...].firstIndex(of: 0xF4) {
            guard lead + 3 < shape.count, shape[lead + 1] == 0x8F, shape[lead + 2] == 0xBF,
                  shape[lead + 3] == 0xB0 || shape[lead + 3] == 0xB1 else {
                index = lead + 1
                continue
            }
            out.append(contentsOf: shape[plain..<lead])
            out.append(contentsOf: HTMLText.escape(shape[lead + 3] == 0xB0 ? item.title : item.href).utf8)
            index = lead + 4
            plain = index
        }
        out.append(contentsOf: shape[plain...])
    }

    /// A render of `count` items split at the item markers: the text before
    /// the first, and each item's part (the last one running to the end);
    /// nil unless there are exactly `count` markers.
    static func split(items bytes: [UInt8], count: Int) -> (before: [UInt8], parts: [[UInt8]])? {
        // The marker is U+10FFF9: F4 8F BF B9 (no other scalar's encoding holds it).
        let marker: [UInt8] = [0xF4, 0x8F, 0xBF, 0xB9]
        var starts: [Int] = []
        var index = 0
        while let lead = bytes[index...].firstIndex(of: 0xF4) {
            if bytes[lead...].starts(with: marker) {
                starts.append(lead)
                index = lead + 4
            } else {
                index = lead + 1
            }
        }
        guard starts.count == count, let first = starts.first else { return nil }
        var parts: [[UInt8]] = []
        parts.reserveCapacity(count)
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1] : bytes.count
            parts.append(Array(bytes[(start + 4)..<end]))
        }
        return (Array(bytes[..<first]), parts)
    }
}
