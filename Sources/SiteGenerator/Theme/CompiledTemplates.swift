import Mustache

/// A theme's templates: swift-mustache's, and their compiled form when
/// every one compiles, which renders first.
struct TemplateLibrary: Sendable {
    let mustache: MustacheLibrary
    let compiled: CompiledLibrary?

    /// `reusing`: a library most of whose templates are these (the
    /// theme's, for the one whose `nav` writes the memoized navigation),
    /// whose compiled templates of the same text are taken as they are.
    init(templates: [String: MustacheTemplate] = [:], reusing other: TemplateLibrary? = nil) {
        mustache = MustacheLibrary(templates: templates)
        compiled = CompiledLibrary(mustache, names: Array(templates.keys), reusing: other?.compiled)
    }

    func render(_ context: Any, withTemplate name: String) -> String? {
        if let compiled, let context = context as? any TemplateContext, let text = compiled.render(context, withTemplate: name) {
            return text
        }
        return mustache.render(context, withTemplate: name)
    }
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
///   meets a value other than text, a flag, a whole number, a context, a
///   list or a dictionary gives nil. Either way the caller renders with
///   swift-mustache.
struct CompiledLibrary: Sendable {
    private let templates: [String: [Node]]
    /// Each template's source, which decides whether another library's
    /// compiled form of it can be reused.
    private let sources: [String: String]

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
    }

    /// Renders `name` with `context`, or nil when the render needs what
    /// this renderer does not model (then swift-mustache renders it).
    func render(_ context: any TemplateContext, withTemplate name: String) -> String? {
        guard let nodes = templates[name] else { return nil }
        var renderer = Renderer(library: self, stack: [.context(context)])
        do throws(Bail) {
            try renderer.render(nodes)
        } catch {
            return nil
        }
        return renderer.out
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

    struct Bail: Error {}

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
            if type == NavItem.self { return .context(any as! NavItem) }
            if type == [NavItem].self { return .navItems(any as! [NavItem]) }
            if type == [Bool].self { return .list(any as! [Bool]) }
            if type == [String: Any].self { return .dictionary(any as! [String: Any]) }
            if let context = any as? any TemplateContext { return .context(context) }
            if let list = any as? any TemplateList { return .list(list.elements) }
            throw Bail()
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
                let value = items.withUnsafeBufferPointer { $0[index].child(named: name) }
                return try value.map { (value: Any) throws(Bail) in try Value.make(value) }
            case .text, .flag, .number, .list, .navItems: return nil
            }
        }
    }

    struct Renderer {
        let library: CompiledLibrary
        var stack: [Value]
        var out = ""
        /// The indentation of the partials being rendered, when not empty.
        var indentation: String?

        init(library: CompiledLibrary, stack: [Value]) {
            self.library = library
            self.stack = stack
            out.reserveCapacity(8192)
        }

        /// A template's (or a section's) tokens; inside an indented
        /// partial, a token's non-empty output that starts a line of this
        /// template's output gets the indentation first (swift-mustache's
        /// rule: a line is one its own output so far ends with "\n" as a
        /// whole character, so not after "\r\n").
        mutating func render(_ nodes: [Node]) throws(Bail) {
            guard let indentation, !indentation.isEmpty else {
                for node in nodes { try render(node) }
                return
            }
            var local = ""
            for node in nodes {
                let outer = out
                out = ""
                try render(node)
                let piece = out
                out = outer
                if !piece.isEmpty, local.last == "\n" { local += indentation }
                local += piece
            }
            out += local
        }

        mutating func render(_ node: Node) throws(Bail) {
            switch node {
            case .text(let text):
                out += text
            case .variable(let name, let escaped):
                guard let value = try lookup(name) else { return }
                let text: String
                switch value {
                case .text(let string): text = string
                case .flag(let flag): text = flag ? "true" : "false"
                case .number(let number): text = String(number)
                // A context or list as text is its Swift description.
                case .context, .list, .navItems, .navItem, .dictionary: throw Bail()
                }
                out += escaped ? ByteHTMLEscaping.escape(text) : text
            case .section(let name, let body, let inverted):
                let value = try lookup(name)
                if inverted {
                    switch value {
                    case nil, .flag(false)?: try render(body)
                    case .list(let list)? where list.isEmpty: try renderPushing(value!, body)
                    case .navItems(let list)? where list.isEmpty: try renderPushing(value!, body)
                    default: break
                    }
                    return
                }
                switch value {
                case nil, .flag(false)?: break
                case .flag(true)?: try render(body)
                case .list(let list)?:
                    for element in list { try renderPushing(try Value.make(element), body) }
                case .navItems(let items)?:
                    for index in items.indices { try renderPushing(.navItem(items, index), body) }
                case let value?: try renderPushing(value, body)
                }
            case .partial(let name, let indented):
                guard let nodes = library.templates[name] else { return }
                let saved = indentation
                if let indented { indentation = (indentation ?? "") + indented }
                defer { indentation = saved }
                try render(nodes)
            }
        }

        mutating func renderPushing(_ value: Value, _ body: [Node]) throws(Bail) {
            stack.append(value)
            defer { stack.removeLast() }
            try render(body)
        }

        /// swift-mustache's lookup: the first part from the innermost level
        /// that has it (or the top only, for `.a`), the rest inside that.
        func lookup(_ name: Name) throws(Bail) -> Value? {
            let parts: [String]
            var found: Value?
            switch name {
            case .top:
                return stack.last
            case .fromTop(let names):
                parts = names
                found = try stack.last?.child(named: names[0])
            case .stack(let names):
                parts = names
                var level = stack.count - 1
                while level >= 0 {
                    if let value = try stack[level].child(named: names[0]) { found = value; break }
                    level -= 1
                }
            }
            for part in parts.dropFirst() {
                guard let value = found else { return nil }
                found = try value.child(named: part)
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
