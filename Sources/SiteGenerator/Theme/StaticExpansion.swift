/// The most bytes a theme's templates can write from their own text: each
/// template with its sections written once and its partials written out
/// where they are included, a partial inside itself not again (a recursion
/// the theme check allows goes through a list, whose elements are counted
/// one by one). Read off the theme check's tokenizer, once per library.
///
/// What swift-mustache renders is counted with it as it is made
/// (`RenderMeter`): a render starts by counting its template's expansion,
/// and each element of a list counts the expansion of the sections that
/// iterate lists of its name; text values count themselves, and a tag that
/// writes a number or a flag counts `valueBytes`. Every byte of the render
/// is in one of these counts, so their sum bounds the output from above.
struct StaticExpansion: Sendable {
    /// Each template's expansion, as the template of a render.
    private(set) var roots: [String: Int] = [:]
    /// For each name a section iterates by (its last part, transforms
    /// taken off: `children` for `{{#reversed(item.children)}}`), the
    /// largest expansion of such a section's body.
    private(set) var elements: [String: Int] = [:]
    /// The largest of `elements`, for a list iterated by a name not there.
    private(set) var largestElement = 0
    /// For each template, the names its sections iterate by, its partials'
    /// included (`examples` for the home page's gallery).
    private(set) var lists: [String: Set<String>] = [:]
    /// Where an expansion first passes the limit it was worked out for.
    private(set) var firstPast: (template: String, line: Int, column: Int)?

    /// What a tag that writes a number or a flag may write: the longest
    /// `Int` is 20 characters, a `Double`'s description 24.
    static let valueBytes = 32

    /// What one element of a list named `name` counts: the largest body
    /// of a section that may iterate it, and a byte, so that a list whose
    /// elements write nothing is still work counted.
    func elementBytes(named name: String) -> Int {
        max(elements[name] ?? largestElement, elements["."] ?? 0) + 1
    }

    /// - Parameters:
    ///   - templates: each template's text (as parsed: a pragma line before
    ///     the theme's text writes nothing but its line break).
    ///   - limit: the bytes past which `firstPast` notes a place.
    init(templates: [String: String], limit: Int = OutputLimits.pageBytes) {
        var pieces: [String: [Piece]] = [:]
        var indentation = 0
        for (name, text) in templates {
            let utf8 = Array(text.utf8)
            let tags = TemplateCheck.tags(in: text)
            pieces[name] = Self.pieces(of: tags, in: utf8, indentation: &indentation)
        }
        // swift-mustache writes the indentation of the partials it is in
        // before every piece whose output starts a line; partials inside
        // themselves add theirs at every level (at most
        // `renderedPartialDepth`, the navigation's depth).
        var expander = Expander(templates: pieces, perPiece: Self.saturated(indentation * TemplateCheck.renderedPartialDepth))
        for name in templates.keys.sorted() {
            roots[name] = expander.expand(name, active: [])
        }
        for name in templates.keys.sorted() {
            for (key, size, _) in expander.sections(in: pieces[name] ?? []) {
                elements[key] = max(elements[key] ?? 0, size)
            }
        }
        largestElement = elements.values.max() ?? 0
        for name in templates.keys {
            lists[name] = expander.lists(name, active: [])
        }
        // The first template (in the theme's order) or list body past the limit, where it passes it.
        for name in Theme.templateNames + templates.keys.sorted() where (roots[name] ?? 0) > limit {
            var total = 0
            for piece in pieces[name] ?? [] {
                total = Self.saturated(total + expander.size([piece], active: [name]))
                if total > limit, let at = piece.at {
                    firstPast = (name, at.line, at.column)
                    break
                }
            }
            if firstPast == nil { firstPast = (name, 1, 1) }
            return
        }
        for name in Theme.templateNames + templates.keys.sorted() {
            if let (_, _, at) = expander.sections(in: pieces[name] ?? []).first(where: { $0.size > limit }) {
                firstPast = (name, at.line, at.column)
                return
            }
        }
    }

    /// Sums stop here: an expansion past any limit is only ever compared.
    static let ceiling = 1 << 52

    static func saturated(_ value: Int) -> Int { min(value, ceiling) }

    /// A template read as what writes bytes.
    indirect enum Piece {
        /// Text of the template, its bytes.
        case text(Int)
        /// A tag that writes a value.
        case value(at: (line: Int, column: Int))
        /// A section (or a block): its body written once; `key` is the
        /// name its lists are counted by when it iterates one.
        case section(key: String, iterates: Bool, body: [Piece], at: (line: Int, column: Int))
        /// A partial, or a parent (`{{<name}}`), by name; any template for
        /// a dynamic one (`{{>*name}}`).
        case partial(String?, at: (line: Int, column: Int))

        var at: (line: Int, column: Int)? {
            switch self {
            case .text: return nil
            case .value(let at), .section(_, _, _, let at), .partial(_, let at): return at
            }
        }
    }

    /// The name a section counts a list's elements by: its last part,
    /// transforms taken off (`.` stays `.`).
    static func key(of name: String) -> String {
        var name = Substring(name)
        while let open = name.firstIndex(of: "("), name.last == ")" {
            name = name[name.index(after: open)..<name.index(before: name.endIndex)]
        }
        if name == "." { return "." }
        return name.split(separator: ".").last.map(String.init) ?? ""
    }

    /// A template's tags as pieces; adds the indentation of its standalone
    /// partials (and blocks) to `indentation`.
    static func pieces(of tags: [TemplateCheck.Tag], in text: [UInt8], indentation: inout Int) -> [Piece] {
        // The open sections, innermost last, each with what it holds so far.
        var open: [(name: String, key: String, iterates: Bool, at: (line: Int, column: Int), pieces: [Piece])] = [("", "", false, (1, 1), [])]
        var position = 0
        func add(_ piece: Piece) { open[open.count - 1].pieces.append(piece) }
        func close() {
            let section = open.removeLast()
            add(.section(key: section.key, iterates: section.iterates, body: section.pieces, at: section.at))
        }
        for tag in tags {
            if tag.bytes.lowerBound > position { add(.text(tag.bytes.lowerBound - position)) }
            position = max(position, tag.bytes.upperBound)
            let at = (tag.line, tag.column)
            switch tag.kind {
            case "!", "=":
                continue
            case "#", "^":
                open.append((tag.name, key(of: tag.name), tag.kind == "#", at, []))
            case "/":
                guard let match = open.indices.dropFirst().last(where: { open[$0].name == tag.name }) else { continue }
                while open.count > match { close() }
            case ">":
                indentation += standaloneIndentation(tag.bytes, in: text)
                add(.partial(tag.name.hasPrefix("*") ? nil : tag.name, at: at))
            default:
                // `{{% pragma}}` writes nothing; `{{$block}}` is a section
                // written once; `{{<parent}}` includes its parent too.
                if tag.name.hasPrefix("%") { continue }
                if tag.name.hasPrefix("$") || tag.name.hasPrefix("<") {
                    let name = String(tag.name.dropFirst()).trimmingCharacters(in: .whitespaces)
                    indentation += standaloneIndentation(tag.bytes, in: text)
                    if tag.name.hasPrefix("<") { add(.partial(name, at: at)) }
                    open.append((name, "$", false, at, []))
                    continue
                }
                add(.value(at: at))
            }
        }
        if text.count > position { add(.text(text.count - position)) }
        while open.count > 1 { close() }
        return open[0].pieces
    }

    /// The whitespace before a tag alone on its line (what swift-mustache
    /// indents a partial's lines by), else 0.
    static func standaloneIndentation(_ tag: Range<Int>, in text: [UInt8]) -> Int {
        let blank: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t")]
        var start = tag.lowerBound
        while start > 0, blank.contains(text[start - 1]) { start -= 1 }
        guard start == 0 || text[start - 1] == UInt8(ascii: "\n") else { return 0 }
        var end = tag.upperBound
        while end < text.count, blank.contains(text[end]) || text[end] == UInt8(ascii: "\r") { end += 1 }
        guard end == text.count || text[end] == UInt8(ascii: "\n") else { return 0 }
        return tag.lowerBound - start
    }

    /// Works out expansions, each template's once for each set of
    /// templates it is included within.
    struct Expander {
        let templates: [String: [Piece]]
        /// Added for every piece: the indentation it may be written with.
        let perPiece: Int
        var memo: [Visit: Int] = [:]

        struct Visit: Hashable {
            var template: String
            var active: Set<String>
        }

        /// A template written out, within the templates of `active`.
        mutating func expand(_ name: String, active: Set<String>) -> Int {
            guard !active.contains(name), let pieces = templates[name] else { return 0 }
            let visit = Visit(template: name, active: active)
            if let known = memo[visit] { return known }
            let size = size(pieces, active: active.union([name]))
            memo[visit] = size
            return size
        }

        mutating func size(_ pieces: [Piece], active: Set<String>) -> Int {
            var total = 0
            for piece in pieces {
                total += perPiece
                switch piece {
                case .text(let bytes): total += bytes
                case .value: total += StaticExpansion.valueBytes
                case .section(_, _, let body, _): total += size(body, active: active)
                case .partial(let name?, _): total += expand(name, active: active)
                case .partial(nil, _):
                    var largest = 0
                    for other in templates.keys.sorted() { largest = max(largest, expand(other, active: active)) }
                    total += largest
                }
                total = StaticExpansion.saturated(total)
            }
            return total
        }

        /// The names the sections of template `name` iterate by, through its
        /// partials (a partial named by a value: any template's).
        mutating func lists(_ name: String, active: Set<String>) -> Set<String> {
            guard !active.contains(name), let pieces = templates[name] else { return [] }
            return lists(in: pieces, active: active.union([name]))
        }

        mutating func lists(in pieces: [Piece], active: Set<String>) -> Set<String> {
            var found = Set<String>()
            for piece in pieces {
                switch piece {
                case .section(let key, let iterates, let body, _):
                    if iterates { found.insert(key) }
                    found.formUnion(lists(in: body, active: active))
                case .partial(let name?, _): found.formUnion(lists(name, active: active))
                case .partial(nil, _):
                    for other in templates.keys.sorted() { found.formUnion(lists(other, active: active)) }
                default: break
                }
            }
            return found
        }

        /// Every section that iterates, at any depth of `pieces`, with its
        /// body's expansion on its own (its partials written out once).
        mutating func sections(in pieces: [Piece]) -> [(key: String, size: Int, at: (line: Int, column: Int))] {
            var found: [(key: String, size: Int, at: (line: Int, column: Int))] = []
            for piece in pieces {
                guard case .section(let key, let iterates, let body, let at) = piece else { continue }
                if iterates { found.append((key, size(body, active: []), at)) }
                found += sections(in: body)
            }
            return found
        }
    }
}
