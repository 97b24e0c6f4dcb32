import Mustache

/// A theme's templates: swift-mustache's, and their compiled form when
/// every one compiles, which renders first.
struct TemplateLibrary: Sendable {
    let mustache: MustacheLibrary
    let compiled: CompiledLibrary?
    /// What the templates write from their own text, for the meter of
    /// swift-mustache's renders: worked out when the library loads if
    /// swift-mustache renders it (it does not compile), else for a render
    /// the compiled renderer declines (a value it does not model), which
    /// no theme's contexts hold.
    let expansion: StaticExpansion?
    private let templates: [String: MustacheTemplate]

    /// `reusing`: a library most of whose templates are these (the
    /// theme's, for the one whose `nav` writes the memoized navigation),
    /// whose compiled templates of the same text are taken as they are.
    init(templates: [String: MustacheTemplate] = [:], reusing other: TemplateLibrary? = nil) {
        mustache = MustacheLibrary(templates: templates)
        compiled = CompiledLibrary(mustache, names: Array(templates.keys), reusing: other?.compiled)
        self.templates = templates
        expansion = compiled == nil ? Self.expansion(of: templates) : nil
    }

    /// The templates' static expansion, counted from the theme's own text
    /// (the pragma before it is a line of its own, which writes nothing).
    static func expansion(of templates: [String: MustacheTemplate]) -> StaticExpansion {
        StaticExpansion(templates: templates.mapValues { template in
            let text = template.description
            return text.hasPrefix(ByteHTMLEscaping.pragma) ? String(text.dropFirst(ByteHTMLEscaping.pragma.count)) : text
        })
    }

    /// The static expansion, worked out now if the library did not.
    var staticExpansion: StaticExpansion { expansion ?? Self.expansion(of: templates) }

    func render(_ context: Any, withTemplate name: String, limit: Int = OutputLimits.pageBytes) throws(RenderStop) -> String? {
        try renderBytes(context, withTemplate: name, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The render as UTF-8, for a page written as it is (no round trip
    /// through a String). Past `limit` bytes it throws, both renderers
    /// as they go: the compiled one measures every append, swift-mustache's
    /// render (a theme with what the compiled one does not model) is
    /// metered through its values (`RenderMeter`).
    func renderBytes(_ context: Any, withTemplate name: String, limit: Int = OutputLimits.pageBytes) throws(RenderStop) -> [UInt8]? {
        if let context = context as? any TemplateContext, let bytes = try compiled?.render(context, withTemplate: name, limit: limit) {
            return bytes
        }
        if let context = context as? any MustacheParent {
            return try meteredRender(context, withTemplate: name, limit: limit)?.bytes
        }
        guard let text = mustache.render(context, withTemplate: name) else { return nil }
        guard text.utf8.count <= limit else { throw .tooLarge }
        return Array(text.utf8)
    }

    /// swift-mustache's render, metered as it goes, with what the meter
    /// counted (an upper bound of the bytes). It throws once the count
    /// passes `limit` (the render is stopped there), or the bytes do.
    func meteredRender(_ context: any MustacheParent, withTemplate name: String, limit: Int) throws(RenderStop) -> (bytes: [UInt8], counted: Int)? {
        let expansion = staticExpansion
        let meter = RenderMeter(limit: limit, expansion: expansion)
        guard meter.count(expansion.roots[name] ?? 0) else { throw .tooLarge }
        let root = MeteredParent(parent: context, value: context, meter: meter, name: "")
        guard let text = RenderMeter.$current.withValue(meter, operation: { mustache.render(root, withTemplate: name) }) else { return nil }
        guard !meter.isStopped, text.utf8.count <= limit else { throw .tooLarge }
        return (Array(text.utf8), meter.counted)
    }
}

/// Why a render stopped before its end: its output passed its limit, or
/// its partials nested deeper than `TemplateCheck.renderedPartialDepth`.
enum RenderStop: Error {
    case tooLarge
    case tooDeep
}

/// The theme's templates rendered over the typed contexts without
/// swift-mustache's per-name dynamic casts, byte for byte as swift-mustache
/// renders them.
///
/// Exact by construction where it could differ, and by a differential test
/// elsewhere (`CompiledTemplateTests`):
/// - Parsing is swift-mustache's own: a template's tokens are read off the
///   parsed `MustacheTemplate` (its whitespace rules, standalone lines and
///   partial indentation included), never parsed again here.
/// - What this renderer does not model declines: a template with
///   transforms, blocks, parents, dynamic partials or another content type
///   is not compiled (`CompiledLibrary.init` gives nil), and a render that
///   meets a value other than text, a flag, a number, a context, a list or
///   a dictionary gives nil. Either way the caller renders with
///   swift-mustache.
struct CompiledLibrary: Sendable {
    /// Each template's parsed tokens (kept to reuse in another library).
    private let templates: [String: [Node]]
    /// Each template's source, which decides whether another library's
    /// compiled form of it can be reused.
    private let sources: [String: String]
    /// Every template as one flat program: plain values only, so walking
    /// one touches no reference count (two threads rendering the same
    /// template contended on its strings' and arrays' counts: a third of
    /// the navigation's time).
    private let program: Program

    /// The flat form of a library's templates.
    struct Program: Sendable {
        var ops: [Op] = []
        /// Each template's ops.
        var entries: [String: Range<Int>] = [:]
        /// Every text, back to back, as UTF-8.
        var text: [UInt8] = []
        /// Every name's parts, back to back (`a.b` is `a`, `b`).
        var nameParts: [String] = []
        var names: [FlatName] = []
        var indentations: [String] = []
    }

    enum Op: Sendable {
        case text(start: Int, end: Int)
        case variable(name: Int, escaped: Bool)
        /// The section's body is the ops after it, up to `end`.
        case section(name: Int, end: Int, inverted: Bool)
        /// `template`: the partial's ops (empty when the library has no such
        /// template); `indentation`: an index in `indentations`, or -1.
        case partial(start: Int, end: Int, indentation: Int)
    }

    /// A `Name` as indexes: its kind, and its parts in `nameParts`.
    struct FlatName: Sendable {
        enum Kind: Sendable { case top, stack, fromTop }
        var kind: Kind
        var first: Int
        var count: Int
    }

    /// One token of a parsed template.
    indirect enum Node: Sendable {
        case text(String)
        case variable(Name, escaped: Bool)
        case section(Name, body: [Node], inverted: Bool)
        /// `indentation` is the whitespace before a standalone partial tag.
        case partial(String, indentation: String?)
    }

    /// A tag's name as swift-mustache looks it up.
    enum Name: Sendable, Equatable {
        /// `.`: the value on top of the stack.
        case top
        /// `a.b`: `a` from the innermost level that has it, then `b` in that.
        case stack([String])
        /// `.a.b`: from the top level only.
        case fromTop([String])

        init?(_ name: String) {
            if name == "." { self = .top; return }
            let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            // `a..b` and a trailing dot split differently in swift-mustache
            // (empty parts dropped): not modelled.
            if name.first == "." {
                guard parts.count > 1, !parts.dropFirst().contains(where: \.isEmpty) else { return nil }
                self = .fromTop(Array(parts.dropFirst()))
            } else {
                guard !parts.contains(where: \.isEmpty) else { return nil }
                self = .stack(parts)
            }
        }
    }

    /// Compiles every template of `library` named in `names`; nil when one
    /// uses anything this renderer does not model.
    init?(_ library: MustacheLibrary, names: [String], reusing other: CompiledLibrary? = nil) {
        var templates: [String: [Node]] = [:]
        var sources: [String: String] = [:]
        for name in names {
            guard let template = library.getTemplate(named: name) else { return nil }
            let source = template.description
            if let other, other.sources[name] == source, let nodes = other.templates[name] {
                templates[name] = nodes
            } else {
                guard let nodes = Self.nodes(of: template, top: true) else { return nil }
                templates[name] = nodes
            }
            sources[name] = source
        }
        self.templates = templates
        self.sources = sources
        program = Self.flatten(templates)
    }

    /// The templates' nodes as one program: each template's ops in turn,
    /// partials pointing at their template's ops.
    private static func flatten(_ templates: [String: [Node]]) -> Program {
        var program = Program()
        var partials: [(op: Int, name: String)] = []
        func add(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .text(let text):
                    let start = program.text.count
                    program.text.append(contentsOf: text.utf8)
                    program.ops.append(.text(start: start, end: program.text.count))
                case .variable(let name, let escaped):
                    program.ops.append(.variable(name: add(name), escaped: escaped))
                case .section(let name, let body, let inverted):
                    let index = program.ops.count
                    program.ops.append(.text(start: 0, end: 0))
                    let flat = add(name)
                    add(body)
                    program.ops[index] = .section(name: flat, end: program.ops.count, inverted: inverted)
                case .partial(let name, let indentation):
                    var indentationIndex = -1
                    if let indentation {
                        indentationIndex = program.indentations.count
                        program.indentations.append(indentation)
                    }
                    partials.append((program.ops.count, name))
                    program.ops.append(.partial(start: 0, end: 0, indentation: indentationIndex))
                }
            }
        }
        func add(_ name: Name) -> Int {
            let flat: FlatName
            switch name {
            case .top: flat = FlatName(kind: .top, first: 0, count: 0)
            case .stack(let parts):
                flat = FlatName(kind: .stack, first: program.nameParts.count, count: parts.count)
                program.nameParts += parts
            case .fromTop(let parts):
                flat = FlatName(kind: .fromTop, first: program.nameParts.count, count: parts.count)
                program.nameParts += parts
            }
            program.names.append(flat)
            return program.names.count - 1
        }
        for name in templates.keys.sorted() {
            let start = program.ops.count
            add(templates[name]!)
            program.entries[name] = start..<program.ops.count
        }
        for (op, name) in partials {
            guard case .partial(_, _, let indentation) = program.ops[op] else { continue }
            let range = program.entries[name] ?? 0..<0
            program.ops[op] = .partial(start: range.lowerBound, end: range.upperBound, indentation: indentation)
        }
        return program
    }

    /// Renders `name` with `context` as UTF-8, or nil when the render needs
    /// what this renderer does not model (then swift-mustache renders it).
    func render(_ context: any TemplateContext, withTemplate name: String) -> [UInt8]? {
        try? render(context, withTemplate: name, limit: .max)
    }

    /// The render, or nil when it needs what this renderer does not model;
    /// it stops and throws once its output passes `limit` bytes, or its
    /// partials nest deeper than `TemplateCheck.renderedPartialDepth`.
    func render(_ context: any TemplateContext, withTemplate name: String, limit: Int) throws(RenderStop) -> [UInt8]? {
        guard let entry = program.entries[name] else { return nil }
        let program = self.program
        let result: Result<[UInt8], Bail> = program.ops.withUnsafeBufferPointer { ops in
            program.text.withUnsafeBufferPointer { text in
                program.nameParts.withUnsafeBufferPointer { nameParts in
                    program.names.withUnsafeBufferPointer { names in
                        var renderer = Renderer(ops: ops, text: text, nameParts: nameParts, names: names,
                                                indentations: program.indentations, stack: [.context(context)], limit: limit)
                        do throws(Bail) {
                            try renderer.run(entry)
                            if renderer.out.count > limit { throw .tooLarge }
                        } catch {
                            return .failure(error)
                        }
                        return .success(renderer.out)
                    }
                }
            }
        }
        switch result {
        case .success(let bytes): return bytes
        case .failure(.declined): return nil
        case .failure(.tooLarge): throw .tooLarge
        case .failure(.tooDeep): throw .tooDeep
        }
    }

    // MARK: - Reading swift-mustache's tokens

    /// The nodes of a parsed template. Every template the theme parses
    /// starts with the content type pragma that makes `{{name}}` escape
    /// with `HTMLText.escape` (`ByteHTMLEscaping`): required at the top
    /// level and dropped; any other content type declines.
    private static func nodes(of template: MustacheTemplate, top: Bool) -> [Node]? {
        guard let tokens = Mirror(reflecting: template).children.first(where: { $0.label == "tokens" })?.value as? [Any] else { return nil }
        var nodes: [Node] = []
        for (index, token) in tokens.enumerated() {
            guard let (kind, payload) = Mirror(reflecting: token).children.first.map({ ($0.label, $0.value) }) else { return nil }
            if kind == "text" {
                guard let text = payload as? String else { return nil }
                nodes.append(.text(text))
                continue
            }
            var fields: [String: Any] = [:]
            for child in Mirror(reflecting: payload).children {
                if let label = child.label, fields[label] == nil { fields[label] = child.value }
            }
            func name() -> Name? {
                guard let text = fields["name"] as? String, let transforms = fields["transforms"] as? [String], transforms.isEmpty else { return nil }
                return Name(text)
            }
            switch kind {
            case "contentType":
                guard top, index == 0, payload is ByteHTMLEscaping else { return nil }
            case "variable", "unescapedVariable":
                guard let name = name() else { return nil }
                nodes.append(.variable(name, escaped: kind == "variable"))
            case "section", "invertedSection":
                guard let name = name(), let body = fields["template"] as? MustacheTemplate,
                      let bodyNodes = Self.nodes(of: body, top: false) else { return nil }
                nodes.append(.section(name, body: bodyNodes, inverted: kind == "invertedSection"))
            case "partial":
                // `inherits` is a parent's blocks (`{{< name}}`): not modelled.
                guard let partial = fields[".0"] as? String, let indentation = fields["indentation"],
                      let inherits = fields["inherits"], Self.isNone(inherits) else { return nil }
                if Self.isNone(indentation) {
                    nodes.append(.partial(partial, indentation: nil))
                } else {
                    guard let indentation = indentation as? String else { return nil }
                    nodes.append(.partial(partial, indentation: indentation))
                }
            default:
                return nil
            }
        }
        // Without the pragma, `{{name}}` would escape as swift-mustache's
        // HTML content type does, which this renderer does not model.
        if top, !(tokens.first.flatMap { Mirror(reflecting: $0).children.first?.label } == "contentType") { return nil }
        return nodes
    }

    /// Whether a value read through `Mirror` is an optional's `none`
    /// (casting `Optional<T>.none` read as `Any` to `T?` fails, where
    /// `.some` casts).
    private static func isNone(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    // MARK: - Rendering

    /// Why a render stopped: it met what this renderer does not model
    /// (swift-mustache renders it), its output passed its limit, or its
    /// partials nested past their bound.
    enum Bail: Error { case declined, tooLarge, tooDeep }

    /// A value on the context stack, or one a name gives.
    enum Value {
        case text(String)
        case flag(Bool)
        case number(Int)
        case context(any TemplateContext)
        case list([Any])
        case navItems([NavItem])
        /// An item of a navigation list, read in place (boxed as a
        /// context, every item would be a heap copy).
        case navItem([NavItem], Int)
        case dictionary([String: Any])

        /// What a name gives, converted; what this renderer does not
        /// model bails. The types are compared exactly: a value that
        /// merely casts (an optional, a bridged number) is not taken for
        /// another.
        static func make(_ any: Any) throws(Bail) -> Value {
            let type = type(of: any)
            if type == String.self { return .text(any as! String) }
            if type == Bool.self { return .flag(any as! Bool) }
            if type == Int.self { return .number(any as! Int) }
            // A number with a fraction (a front matter param a theme prints)
            // is its description, as swift-mustache writes any value; in a
            // section it is pushed and has no names, as text is.
            if type == Double.self { return .text(String(describing: any as! Double)) }
            if type == NavItem.self { return .context(any as! NavItem) }
            if type == [NavItem].self { return .navItems(any as! [NavItem]) }
            if type == [Bool].self { return .list(any as! [Bool]) }
            if type == [String: Any].self { return .dictionary(any as! [String: Any]) }
            if let context = any as? any TemplateContext { return .context(context) }
            if let list = any as? any TemplateList { return .list(list.elements) }
            throw .declined
        }

        /// `String(describing:)` of the value a name gave, as swift-mustache
        /// writes a value that is not text.
        var swiftDescription: String {
            switch self {
            case .text(let text): return text
            case .flag(let flag): return String(describing: flag)
            case .number(let number): return String(describing: number)
            case .context(let context): return String(describing: context)
            case .list(let list): return String(describing: list)
            case .navItems(let items): return String(describing: items)
            case .navItem(let items, let index): return String(describing: items[index])
            case .dictionary(let dictionary): return String(describing: dictionary)
            }
        }

        /// The name's value in this one, as swift-mustache reads it: a
        /// context or dictionary answers; text, flags, numbers and lists
        /// (whose `Mirror` has no labelled children) have no names.
        func child(named name: String) throws(Bail) -> Value? {
            switch self {
            case .context(let context): return try context.child(named: name).map { (value: Any) throws(Bail) in try Value.make(value) }
            case .dictionary(let dictionary): return try dictionary[name].map { (value: Any) throws(Bail) in try Value.make(value) }
            case .navItem(let items, let index):
                // Through the buffer: `items[index]` would copy the item
                // (a retain of each of its strings) for every name.
                return items.withUnsafeBufferPointer { $0[index].templateValue(named: name) }
            case .text, .flag, .number, .list, .navItems: return nil
            }
        }
    }

    /// Renders ops over buffers of the program, valid while it renders.
    struct Renderer {
        let ops: UnsafeBufferPointer<Op>
        let text: UnsafeBufferPointer<UInt8>
        let nameParts: UnsafeBufferPointer<String>
        let names: UnsafeBufferPointer<FlatName>
        let indentations: [String]
        var stack: [Value]
        /// The most bytes the output may grow to (checked before each op).
        let limit: Int
        var out: [UInt8] = []
        /// The indentation of the partials being rendered, when not empty.
        var indentation: [UInt8] = []
        /// How many partials are being rendered, one inside the other.
        var partials = 0

        init(ops: UnsafeBufferPointer<Op>, text: UnsafeBufferPointer<UInt8>, nameParts: UnsafeBufferPointer<String>,
             names: UnsafeBufferPointer<FlatName>, indentations: [String], stack: [Value], limit: Int) {
            (self.ops, self.text, self.nameParts, self.names, self.indentations, self.stack) = (ops, text, nameParts, names, indentations, stack)
            self.limit = limit
            out.reserveCapacity(8192)
        }

        /// A template's (or a section's) ops; inside an indented partial,
        /// an op's non-empty output that starts a line of this run's output
        /// gets the indentation first (swift-mustache's rule: a line is one
        /// its own output so far ends with "\n" as a whole character, so not
        /// after "\r\n").
        mutating func run(_ range: Range<Int>) throws(Bail) {
            guard !indentation.isEmpty else {
                var index = range.lowerBound
                while index < range.upperBound { index = try step(index) }
                return
            }
            var local: [UInt8] = []
            var index = range.lowerBound
            while index < range.upperBound {
                let outer = out
                out = []
                index = try step(index)
                let piece = out
                out = outer
                guard local.count + indentation.count + piece.count <= limit else { throw .tooLarge }
                if !piece.isEmpty, local.last == UInt8(ascii: "\n"), local.count < 2 || local[local.count - 2] != UInt8(ascii: "\r") {
                    local += indentation
                }
                local += piece
            }
            guard out.count + local.count <= limit else { throw .tooLarge }
            out += local
        }

        /// Runs the op at `index`; returns the index of the op after it
        /// (after its body, for a section).
        mutating func step(_ index: Int) throws(Bail) -> Int {
            // A list repeats its body for every element: each append is
            // measured before it is made, so the output stops at the limit
            // instead of growing to what the template asks (and the buffer
            // never doubles past it); a number or a flag is measured here.
            if out.count > limit { throw .tooLarge }
            switch ops[index] {
            case .text(let start, let end):
                guard out.count + end - start <= limit else { throw .tooLarge }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<end]))
            case .variable(let name, let escaped):
                guard let value = try lookup(name) else { break }
                switch value {
                case .text(let string):
                    // Never past the limit, so the buffer never grows past it
                    // (escaping may lengthen: it stops at the limit).
                    guard out.count + string.utf8.count <= limit else { throw .tooLarge }
                    if escaped {
                        appendEscaped(string)
                        if out.count > limit { throw .tooLarge }
                    } else {
                        append(string)
                    }
                case .flag(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
                case .number(let number): append(String(number))
                // A context, list or dictionary as text is its Swift
                // description, as swift-mustache writes any value (a theme
                // error where the check can tell; written here, not left to
                // swift-mustache, so that its page is measured as it grows).
                case .context, .list, .navItems, .navItem, .dictionary:
                    let text = value.swiftDescription
                    guard out.count + text.utf8.count <= limit else { throw .tooLarge }
                    escaped ? appendEscaped(text) : append(text)
                    if out.count > limit { throw .tooLarge }
                }
            case .section(let name, let end, let inverted):
                let body = index + 1..<end
                let value = try lookup(name)
                if inverted {
                    switch value {
                    case nil, .flag(false)?: try run(body)
                    case .list(let list)? where list.isEmpty: try runPushing(value!, body)
                    case .navItems(let list)? where list.isEmpty: try runPushing(value!, body)
                    default: break
                    }
                    return end
                }
                switch value {
                case nil, .flag(false)?: break
                case .flag(true)?: try run(body)
                case .list(let list)?:
                    for element in list { try runPushing(try Value.make(element), body) }
                case .navItems(let items)?:
                    for item in items.indices { try runPushing(.navItem(items, item), body) }
                case let value?: try runPushing(value, body)
                }
                return end
            case .partial(let start, let end, let indented):
                // A partial that includes itself ends with its data (the
                // theme check makes sure of it); this bounds the stack
                // whatever the data.
                guard partials < TemplateCheck.renderedPartialDepth else { throw .tooDeep }
                let saved = indentation
                if indented >= 0 { indentation += Array(indentations[indented].utf8) }
                partials += 1
                defer { (indentation, partials) = (saved, partials - 1) }
                try run(start..<end)
            }
            return index + 1
        }

        mutating func runPushing(_ value: Value, _ body: Range<Int>) throws(Bail) {
            stack.append(value)
            defer { stack.removeLast() }
            try run(body)
        }

        /// A string's bytes, copied whole (a small string, held inline, is
        /// read through a copy: it has no storage to point at).
        mutating func append(_ string: String) {
            var string = string
            string.withUTF8 { out.append(contentsOf: $0) }
        }

        /// `HTMLText.escape`'s five replacements, written as bytes.
        mutating func appendEscaped(_ string: String) {
            var string = string
            string.withUTF8 { bytes in
                var plain = 0
                for (index, byte) in bytes.enumerated() {
                    let replacement: StaticString
                    switch byte {
                    case UInt8(ascii: "&"): replacement = "&amp;"
                    case UInt8(ascii: "<"): replacement = "&lt;"
                    case UInt8(ascii: ">"): replacement = "&gt;"
                    case UInt8(ascii: "\""): replacement = "&quot;"
                    case UInt8(ascii: "'"): replacement = "&#39;"
                    default: continue
                    }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<index]))
                    replacement.withUTF8Buffer { out.append(contentsOf: $0) }
                    plain = index + 1
                    if out.count > limit { return }
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain...]))
            }
        }

        /// swift-mustache's lookup: the first part from the innermost level
        /// that has it (or the top only, for `.a`), the rest inside that.
        func lookup(_ index: Int) throws(Bail) -> Value? {
            let name = names[index]
            var found: Value?
            switch name.kind {
            case .top:
                return stack.last
            case .fromTop:
                found = try stack.last?.child(named: nameParts[name.first])
            case .stack:
                var level = stack.count - 1
                while level >= 0 {
                    if let value = try stack[level].child(named: nameParts[name.first]) {
                        found = value
                        break
                    }
                    level -= 1
                }
            }
            var part = name.first + 1
            while part < name.first + name.count {
                guard let value = found else { return nil }
                found = try value.child(named: nameParts[part])
                part += 1
            }
            return found
        }
    }
}

/// An array as a section iterates it.
protocol TemplateList {
    var elements: [Any] { get }
}

extension Array: TemplateList {
    var elements: [Any] { map { $0 as Any } }
}
