import ProjectFiles
import Diagnostics
import SnapshotFormat
import Foundation
import Mustache

/// Where a theme file comes from.
public enum ThemeSource: Equatable, Sendable {
    /// The project's own file, which overrides the default.
    case project(String)
    /// The default theme built into the binary.
    case builtIn
}

/// The default theme, built into the binary (`DefaultTheme+Files.swift`,
/// generated from `templates/`).
public enum DefaultTheme {
    /// The built-in theme's file `name` (`page.mustache`, `rowmotion.css`), as the binary holds it.
    public static func builtIn(_ name: String) -> String? { files[name] }
}

/// A loaded theme: templates ready to render, and assets by name.
public struct Theme: Sendable {
    public static let templateNames = ["page", "example", "index", "head", "nav", "player", "changes"]
    public static let assetNames = ["rowmotion.css", "rowmotion.js"]

    /// Where each file was found, for messages and `--verbose`.
    public var sources: [String: ThemeSource] = [:]
    var texts: [String: String] = [:]
    /// Each template's tags, read once for the name checks of its renders.
    var tags: [String: [TemplateCheck.Tag]] = [:]

    /// Whether the theme writes a page's front matter, or a title or
    /// description, where it can script or restyle the page (see
    /// `TemplateCheck.writesFrontMatterAsMarkup`): the review then compares
    /// them as it does a page's raw HTML.
    var writesFrontMatterAsMarkup: Bool {
        tags.contains { fileName, tags in TemplateCheck.writesFrontMatterAsMarkup(tags, in: texts[fileName] ?? "") }
    }
    var library = TemplateLibrary()
    /// Whether the home page lists every example (its gallery: `index`
    /// iterates `examples`, the default theme's does), so that an example
    /// no page embeds is still shown, and linked, by the site.
    var showsExampleGallery: Bool { library.expansion.lists["index"]?.contains("examples") == true }
    /// The `nav` template with markers for `NavigationMemo`, alone in a
    /// library; nil when the navigation must be rendered page by page.
    var markedNavigation: TemplateLibrary?
    /// The `nav` template with a marker where each item of the flat list
    /// starts, when the navigation is that list alone (`NavigationMemo.composed`).
    var itemizedNavigation: TemplateLibrary?
    /// Whether its items may be rendered by shape (`NavigationMemo.writesTitlesAsText`).
    var navigationHoles = false
    /// The templates with `nav` writing the memoized navigation HTML, for
    /// contexts whose chrome carries it.
    var memoLibrary: TemplateLibrary?
    public var assets: [String: String] = [:]

    /// The places a theme file is looked for, first match wins: the
    /// project's templates folder, then the built-in default.
    public static func lookup(_ fileName: String, projectTemplates: String?) -> [ThemeSource] {
        var places: [ThemeSource] = []
        if let projectTemplates { places.append(.project((projectTemplates as NSString).appendingPathComponent(fileName))) }
        places.append(.builtIn)
        return places
    }

    /// The theme of the templates folder at `projectTemplates` (listed as a
    /// build lists it), over the built-in one.
    public static func load(projectTemplates: String?) throws(Diagnostic) -> Theme {
        guard let projectTemplates else { return try builtIn() }
        let folder = InputTree.onDisk([projectTemplates], in: .ofWorkingFolder())[projectTemplates]
        if let first = folder.problems.first { throw first }
        return try load(templates: folder.exists ? folder : nil)
    }

    /// The built-in theme alone.
    public static func builtIn() throws(Diagnostic) -> Theme {
        try load(templates: nil)
    }

    /// Loads every template and asset, each from the first place that has
    /// it: the project's `templates` folder (its files as a build lists
    /// them), then the built-in theme.
    public static func load(templates folder: InputFolder?) throws(Diagnostic) -> Theme {
        ByteHTMLEscaping.registered
        var theme = Theme()
        var templates: [String: MustacheTemplate] = [:]
        // Tags × bytes of the templates read so far (see `TemplateCheck.parseWork`).
        var parseWork = 0
        for fileName in templateNames.map({ $0 + ".mustache" }) + assetNames {
            var found: (String, ThemeSource)?
            // The review page is the built-in theme's alone: a pull
            // request's template could make it say anything.
            if let folder, folder.contains(fileName), !Self.builtInOnly.contains(fileName) {
                let path = folder.path(of: fileName)
                // An override that is there but cannot be read is an
                // error, never a silent fall back to the built-in file.
                // Every page carries its templates: one far past any
                // real template is refused unread.
                let isTemplate = fileName.hasSuffix(".mustache")
                do {
                    let limit = isTemplate ? TemplateCheck.templateBytes : SnapshotLimits.standard.fileBytes
                    found = (String(decoding: try folder.read(fileName, limit: limit), as: UTF8.self), .project(path))
                } catch {
                    let message = isTemplate && error.tooLarge
                        ? "the file is \(ByteCount.describe(Int64(folder.size(of: fileName) ?? TemplateCheck.templateBytes + 1))); "
                            + "templates are limited to \(ByteCount.describe(Int64(TemplateCheck.templateBytes))) (every page carries them)"
                        : error.message
                    throw .error("theme", at: SourceLocation(file: path, line: 1, column: 1), message)
                }
            } else if let folder, folder.hasFolder(fileName) {
                throw .error("theme", at: SourceLocation(file: folder.path(of: fileName), line: 1, column: 1), "cannot read the file: it is a folder")
            } else {
                found = DefaultTheme.files[fileName].map { ($0, .builtIn) }
            }
            guard let (text, source) = found else {
                throw .error("theme", at: SourceLocation(file: fileName, line: 1, column: 1), "no theme file '\(fileName)'")
            }
            theme.sources[fileName] = source
            theme.texts[fileName] = text
            if fileName == "player.mustache", !writesInitialRows(text) {
                throw .error("theme", at: theme.location(of: fileName),
                             "the player template must write {{{initialHTML}}} unescaped inside its '.rowmotion-list': "
                                 + "the player reads the first snapshot from those rows")
            }
            if fileName.hasSuffix(".mustache") {
                let name = String(fileName.dropLast(".mustache".count))
                let tags = TemplateCheck.tags(in: text)
                theme.tags[fileName] = tags
                if let deep = TemplateCheck.tooDeep(tags) {
                    throw .error("template-syntax", at: theme.location(of: fileName, line: deep.line, column: deep.column),
                                 "sections nest more than \(TemplateCheck.sectionDepth) deep here")
                }
                parseWork += tags.count * text.utf8.count
                if parseWork > TemplateCheck.parseWork {
                    throw .error("template-too-large", at: theme.location(of: fileName),
                                 "the template has \(tags.count) tags in \(text.utf8.count) bytes; the template engine finds each tag "
                                     + "by counting the characters left in its template, so its time grows with tags × bytes, "
                                     + "and a theme's templates are limited to \(TemplateCheck.parseWork) of that in all "
                                     + "(with this one: \(parseWork))")
                }
                do {
                    templates[name] = try MustacheTemplate(string: ByteHTMLEscaping.pragma + text)
                } catch let error as MustacheTemplate.ParserError {
                    throw .error("template-syntax", at: theme.location(of: fileName, line: max(1, error.context.lineNumber - 1),
                                                                       column: error.context.columnNumber),
                                 "cannot parse the template: \(error.error)")
                } catch {
                    throw .error("template-syntax", at: theme.location(of: fileName), "cannot parse the template: \(error)")
                }
            } else {
                theme.assets[fileName] = text
            }
        }
        theme.library = TemplateLibrary(templates: templates)
        let includers = templateNames.filter { $0 != "nav" }.compactMap { theme.texts[$0 + ".mustache"] }
        if let nav = theme.texts["nav.mustache"], let marked = NavigationMemo.marked(nav, includers: includers),
           let markedTemplate = try? MustacheTemplate(string: ByteHTMLEscaping.pragma + marked),
           let memoTemplate = try? MustacheTemplate(string: ByteHTMLEscaping.pragma + "{{{navigationHTML}}}") {
            theme.markedNavigation = TemplateLibrary(templates: ["nav": markedTemplate])
            if let itemized = NavigationMemo.itemized(nav, includers: includers),
               let template = try? MustacheTemplate(string: ByteHTMLEscaping.pragma + itemized) {
                theme.itemizedNavigation = TemplateLibrary(templates: ["nav": template])
                theme.navigationHoles = NavigationMemo.writesTitlesAsText(nav)
            }
            var memo = templates
            memo["nav"] = memoTemplate
            theme.memoLibrary = TemplateLibrary(templates: memo)
        }
        // Mustache renders a misspelt name as nothing: every name every
        // template uses must be one its context has. The built-in templates
        // are the same in every build, checked by a test
        // (`builtInTheme_passesTheTemplateCheck`); a project's, every build.
        let ownTemplates = theme.sources.contains { fileName, source in fileName.hasSuffix(".mustache") && source != .builtIn }
        if ownTemplates, let first = TemplateCheck.check(theme: theme).first { throw first }
        // A page is at least its template's own text, partials written out
        // where they are included: partials that include partials a
        // thousand times each pass any limit before a value is read. (The
        // built-in theme's is a few kilobytes: `RenderBudgetTests`.)
        if ownTemplates, let past = theme.library.expansion.firstPast {
            let limit = ByteCount.describe(Int64(OutputLimits.pageBytes))
            throw .error(OutputLimits.pageTooLarge, at: theme.location(of: past.template + ".mustache", line: past.line, column: past.column),
                         "the theme's text, each partial written out where it is included, passes \(limit) here; "
                             + "every page it makes would be over the limit of \(limit) a page")
        }
        return theme
    }

    /// Whether a player template writes the first snapshot's rows as HTML.
    static func writesInitialRows(_ text: String) -> Bool {
        let spaced = text.replacingOccurrences(of: " ", with: "")
        return spaced.contains("{{{initialHTML}}}") || spaced.contains("{{&initialHTML}}")
    }

    /// Theme files a project cannot override: `changes.html` is drawn by
    /// the built-in template (a project's `rowmotion.css` may restyle it).
    public static let builtInOnly: Set<String> = ["changes.mustache"]

    /// Each theme file by its SHA-256 (the project's file or the built-in
    /// one): every page is drawn by them, and any of them can carry a
    /// script or a style that changes how every example moves (a `head`
    /// that slows every animation, an `example` that loads another player).
    var fileKeys: [String: String] {
        var keys: [String: String] = [:]
        for name in Self.templateNames.map({ $0 + ".mustache" }) + Self.assetNames where !Self.builtInOnly.contains(name) {
            keys[name] = Digest.sha256((texts[name] ?? assets[name] ?? "").utf8)
        }
        return keys
    }

    /// A key of what a render of `template` reads of the theme: its text
    /// and the texts of the partials it includes, through any depth.
    func renderKey(of template: String) -> String {
        var seen: Set<String> = [], queue = [template]
        while let name = queue.popLast() {
            guard seen.insert(name).inserted else { continue }
            for tag in tags[name + ".mustache"] ?? [] where tag.kind == ">" || tag.kind == "<" { queue.append(tag.name) }
        }
        var hash = ContentHash()
        for name in seen.sorted() {
            hash.add(name)
            hash.add(texts[name + ".mustache"] ?? "")
        }
        return hash.key
    }

    /// Where a theme file's line is, for diagnostics.
    func location(of fileName: String, line: Int = 1, column: Int = 1) -> SourceLocation {
        let file: String
        switch sources[fileName] {
        case .project(let path)?: file = path
        default: file = "<built-in theme>/\(fileName)"
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// Renders `template` with `context` (whose names `load` checked).
    /// - Parameter source: the input the render is for, where a render past
    ///   `OutputLimits.pageBytes` is reported (else the template).
    public func render(_ template: String, _ context: any MustacheParent, for source: String? = nil) throws(Diagnostic) -> String {
        String(decoding: try renderBytes(template, context, for: source), as: UTF8.self)
    }

    /// `render` as UTF-8: a page's bytes as the site writes them.
    public func renderBytes(_ template: String, _ context: any MustacheParent, for source: String? = nil) throws(Diagnostic) -> [UInt8] {
        do throws(RenderStop) {
            if let memoLibrary, let carrier = context as? any ChromeCarrying, carrier.chrome.navigationHTML != nil {
                return try memoLibrary.renderBytes(context, withTemplate: template) ?? []
            }
            return try library.renderBytes(context, withTemplate: template) ?? []
        } catch {
            let at = source.map { SourceLocation(file: $0, line: 1, column: 1) } ?? location(of: template + ".mustache")
            let what = source == nil ? "this template makes a page's HTML" : "the theme makes this page's HTML"
            let limit = ByteCount.describe(Int64(OutputLimits.pageBytes))
            throw .error(OutputLimits.pageTooLarge, at: at, "\(what) over \(limit); pages are limited to \(limit)")
        }
    }
}

/// Finds names a template uses that its context does not have, following
/// Mustache's context stack through sections and into partials, over the
/// context types' schema (no page needs to render first, and a section a
/// build leaves empty is checked as well).
enum TemplateCheck {
    /// The templates pages are rendered with, and their contexts; `head`
    /// and `nav` are partials.
    static var roots: [(template: String, context: any TemplateContext.Type)] {
        [("page", PageContext.self), ("index", IndexContext.self), ("example", ExampleContext.self),
         ("changes", ChangesContext.self), ("player", PlayerView.self)]
    }
    static let schema = ContextSchema(roots: roots.map(\.context))

    /// Every name of every template, from each root template's context.
    static func check(theme: Theme) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var reported = Set<String>()
        // The built-in-only templates are rendered with the built-in theme
        // alone, never with a project's partials.
        let isProject = theme.sources.contains { $0.value != .builtIn }
        for root in roots where !(isProject && Theme.builtInOnly.contains(root.template + ".mustache")) {
            var walk = Walk(theme: theme, problems: [])
            walk.check(template: root.template, stack: [Scope(shape: schema.shape(of: root.context), deeper: false, below: nil)])
            // A partial checked under two roots reports a name once.
            for problem in walk.problems where reported.insert(problem.description).inserted { problems.append(problem) }
        }
        return problems
    }

    /// One level of the context stack: what it holds, and whether the
    /// section that pushed it went one step down into the data (a list or
    /// context named by the innermost context above it, not by one further
    /// out, which would start over), which is how a partial that includes
    /// itself ends.
    struct Scope {
        var shape: ContextShape
        var deeper: Bool
        /// Up to this level, how many levels are contexts or lists (not
        /// text or flags), and how many of those start over: a partial's
        /// recursion is judged from two levels' counts, not by walking the
        /// levels between (a theme of deep sections stays linear).
        var contexts = 0
        var restarts = 0
        /// Up to this level, how many levels a list's section pushed.
        var lists = 0

        init(shape: ContextShape, deeper: Bool, below: Scope?, fromList: Bool = false) {
            (self.shape, self.deeper) = (shape, deeper)
            lists = (below?.lists ?? 0) + (fromList ? 1 : 0)
            let counts = shape != .scalar
            contexts = (below?.contexts ?? 0) + (counts ? 1 : 0)
            restarts = (below?.restarts ?? 0) + (counts && !deeper ? 1 : 0)
        }
    }

    struct Walk {
        let theme: Theme
        var problems: [Diagnostic]
        /// The partials being checked, outermost first, with the stack's
        /// height when each was entered.
        var active: [(name: String, height: Int)] = []
        /// Partials already checked with a given innermost shape.
        var visited: Set<Visit> = []

        struct Visit: Hashable {
            var partial: String
            var shape: ContextShape?
        }

        mutating func check(template: String, stack entry: [Scope]) {
            let fileName = template + ".mustache"
            guard let text = theme.texts[fileName] else { return }
            active.append((template, entry.count))
            defer { active.removeLast() }
            var stack = entry
            // Sections whose name is unknown are skipped to their closing tag.
            var skipping: [String] = []
            var sections: [(name: String, pushed: Bool)] = []
            for tag in theme.tags[fileName] ?? TemplateCheck.tags(in: text) {
                // The theme is refused at its first problem.
                guard problems.isEmpty else { return }
                let name = tag.name
                let location = theme.location(of: fileName, line: tag.line, column: tag.column)
                switch tag.kind {
                case "!", "=": continue
                case "/":
                    if skipping.last == name { skipping.removeLast() } else if sections.last?.name == name {
                        if sections.removeLast().pushed { stack.removeLast() }
                    }
                    continue
                default: break
                }
                guard skipping.isEmpty else {
                    if tag.kind == "#" || tag.kind == "^" { skipping.append(name) }
                    continue
                }
                if tag.kind == ">" {
                    include(name, at: location, stack: stack)
                    continue
                }
                guard name != "." else {
                    if tag.kind == "#" || tag.kind == "^" { sections.append((name, false)) }
                    if tag.kind == nil || tag.kind == "&", let problem = Self.unprintable(".", stack.last!.shape, at: location) {
                        problems.append(problem)
                    }
                    continue
                }
                guard let (shape, goesDown) = resolve(name, in: stack) else {
                    problems.append(.error("unknown-template-variable", at: location,
                                           "the template uses '\(name)', which its context does not have"))
                    if tag.kind == "#" || tag.kind == "^" { skipping.append(name) }
                    continue
                }
                switch tag.kind {
                case nil, "&":
                    if let problem = Self.unprintable(name, shape, at: location) { problems.append(problem) }
                case "#":
                    // Inside the section, the value (a list's element) is on top.
                    var element = shape
                    var descends = goesDown
                    var isList = false
                    if case .list(let inner) = shape { (element, isList) = (inner, true) } else if shape == .scalar { descends = false }
                    // A list named from further out than the element around
                    // it is the whole list again for every element: nested,
                    // its renders multiply (30 pages, 12 deep: 30^12). Data
                    // nests finitely, so a list of the element's own does not.
                    if isList && !goesDown && stack.last!.lists > 0 {
                        problems.append(.error("repeated-list", at: location,
                                               "the section '\(name)' repeats a whole list for each element of the list around it; "
                                                   + "inside a list, name only lists of its element (such as {{#children}})"))
                        return
                    }
                    stack.append(Scope(shape: element, deeper: descends, below: stack.last, fromList: isList))
                    sections.append((name, true))
                case "^":
                    sections.append((name, false))
                default: break
                }
            }
        }

        mutating func include(_ name: String, at location: SourceLocation, stack: [Scope]) {
            guard theme.texts[name + ".mustache"] != nil else {
                problems.append(.error("unknown-partial", at: location, "the template includes a partial '\(name)' the theme does not have"))
                return
            }
            if let entered = active.last(where: { $0.name == name }) {
                // Partials that include each other on the same data never
                // end (rendering them overflowed the stack); a recursion
                // over a tree (`{{#children}}{{> nav}}`) ends with the data,
                // if every section since goes down (text and flags aside).
                let (top, entry) = (stack[stack.count - 1], stack[entered.height - 1])
                guard top.contexts > entry.contexts, top.restarts == entry.restarts else {
                    problems.append(.error("recursive-partial", at: location,
                                           "the partial '\(name)' is included within itself without end (on the same data); "
                                               + "include a partial inside a section over nested data, such as {{#children}}"))
                    return
                }
            }
            guard active.count < TemplateCheck.partialDepth, visited.insert(Visit(partial: name, shape: stack.last?.shape)).inserted else { return }
            check(template: name, stack: stack)
        }

        /// A list or a context written as text is Swift's description of
        /// it (every item's fields): never HTML anyone wants (a list
        /// written inside a section of the same list is pages² of it).
        static func unprintable(_ name: String, _ shape: ContextShape, at location: SourceLocation) -> Diagnostic? {
            switch shape {
            case .list:
                return .error("unprintable-template-variable", at: location,
                              "'\(name)' is a list, which a tag writes as Swift's description of it; "
                                  + (name == "." ? "name one of its items' fields" : "write {{#\(name)}}…{{/\(name)}} to show its items"))
            case .object:
                return .error("unprintable-template-variable", at: location,
                              "'\(name)' has names of its own, which a tag writes as Swift's description of it; write one of its names")
            case .scalar, .open:
                return nil
            }
        }

        /// What a name gives, and whether it surely goes one step down:
        /// the innermost context (a scope that is not text or a flag) has
        /// it, and no part of it is found only in front matter. A dotted
        /// name is looked up part by part, a transform's argument
        /// (`uppercased(title)`) as the name.
        ///
        /// Front matter (an open scope) answers every name here, but at
        /// render time it may lack one, and the lookup climbs to the
        /// contexts around it: a name found there is what an outer context
        /// gives, if one has it (a list is still a list), and never a step
        /// down (`{{#params}}{{> page}}` inside `page` finds the page's own
        /// `params` again: without end).
        func resolve(_ name: String, in stack: [Scope]) -> (ContextShape, Bool)? {
            var name = Substring(name)
            if let open = name.firstIndex(of: "("), name.last == ")" {
                name = name[name.index(after: open)..<name.index(before: name.endIndex)]
            }
            let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let head = parts.first, !head.isEmpty else { return nil }
            let innermost = stack.lastIndex { $0.shape != .scalar } ?? 0
            var maybeOpen = false
            for (offset, scope) in stack.enumerated().reversed() {
                if scope.shape == .open {
                    maybeOpen = true
                    continue
                }
                guard var shape = TemplateCheck.schema.lookup(head, in: scope.shape) else { continue }
                var throughOpen = maybeOpen
                for part in parts.dropFirst() {
                    switch shape {
                    case .object:
                        guard let inner = TemplateCheck.schema.lookup(part, in: shape) else { return nil }
                        shape = inner
                    case .open: throughOpen = true
                    // Mustache reads a list's or a scalar's own members
                    // (`count`, `first`); the schema does not list them.
                    case .list, .scalar: shape = .open
                    }
                }
                return (shape, offset == innermost && !throughOpen)
            }
            return maybeOpen ? (.open, false) : nil
        }
    }

    /// How deep partials may include partials.
    static let partialDepth = 32

    /// How deep partials may be rendered one inside the other: a partial
    /// that includes itself goes one level down the data each time (the
    /// check's rule), and the only tree is the navigation, which shows at
    /// most `Navigation.maxDepth` levels.
    static let renderedPartialDepth = 100

    /// A template's size: every page carries its templates, and a real one
    /// is a few kilobytes.
    static let templateBytes = 4 << 20

    /// Tags × bytes, summed over a theme's templates. swift-mustache finds
    /// each delimiter by counting the characters left in the template
    /// (`String.distance`), so its parse takes time in proportion to a
    /// template's tags times its length: 40,000 tags on one line (520 KB)
    /// took 78 s. Under this bound the slowest theme (a hundred tags before
    /// a megabyte of text) parses in half a second in a release build; the
    /// default theme uses under 1 % of it, a 20 KB template of 1,000 tags
    /// two fifths.
    static let parseWork = 50_000_000

    struct Tag {
        var kind: Character?
        var name: String
        var line: Int
        var column: Int
        /// Where the tag starts and ends in the template's UTF-8.
        var bytes: Range<Int> = 0..<0
    }

    /// The characters of a name as swift-mustache reads them (`Template+Parser.swift`).
    static let nameCharacters = Set<Character>("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*")
    static let partialNameCharacters = nameCharacters.union(["/"])

    /// The tags of a template, with their line, column and bytes, in one
    /// pass, read as swift-mustache reads them: every check stands on these
    /// tags, so a tag the engine reads differently would pass unchecked (a
    /// `{{=<%\t%>=}}` the engine took and the check did not hid 40,000
    /// nested sections from the depth check: the parse overflowed its
    /// stack). Where the engine would stop with an error, the tags stop
    /// too: the engine parses nothing past it.
    ///
    /// Kinds: `#`, `^`, `/`, `!`, `>`, `&` (`{{{name}}}` too), `=`, and nil
    /// for a variable. A block `{{$name}}`, a parent `{{<name}}` and a
    /// pragma `{{%…}}` are kind nil with the name after their mark, and a
    /// dynamic partial `{{>*name}}` is `>` with `*name`, as the name checks
    /// refuse them.
    static func tags(in text: String) -> [Tag] {
        let characters = Array(text)
        var result: [Tag] = []
        var line = 1, column = 1, i = 0, byte = 0
        // The delimiters, which a `{{=<% %>=}}` tag changes.
        var open: [Character] = ["{", "{"], close: [Character] = ["}", "}"]
        func starts(_ token: [Character], at position: Int) -> Bool {
            guard position + token.count <= characters.count else { return false }
            for offset in token.indices where characters[position + offset] != token[offset] { return false }
            return true
        }
        func skipWhitespace(_ position: inout Int) {
            while position < characters.count && characters[position].isWhitespace { position += 1 }
        }
        func read(_ position: inout Int, until stop: (Character) -> Bool) -> String {
            let first = position
            while position < characters.count && !stop(characters[position]) { position += 1 }
            return String(characters[first..<position])
        }
        // A name: whitespace, the name's characters, whitespace, the closing delimiter.
        func name(_ position: inout Int, _ allowed: Set<Character>) -> String? {
            skipWhitespace(&position)
            let name = read(&position) { !allowed.contains($0) }
            skipWhitespace(&position)
            guard starts(close, at: position) else { return nil }
            position += close.count
            return name
        }
        func character(_ expected: Character, _ position: inout Int) -> Bool {
            guard position < characters.count, characters[position] == expected else { return false }
            position += 1
            return true
        }
        while i < characters.count {
            guard starts(open, at: i) else {
                if characters[i] == "\n" || characters[i] == "\r\n" { line += 1; column = 1 } else { column += 1 }
                byte += characters[i].utf8.count
                i += 1
                continue
            }
            var next = i + open.count
            guard next < characters.count else { break }
            let mark = characters[next]
            // A line break right after the opening delimiter: the engine
            // drops the delimiter and reads on from the next line, no tag.
            if mark.isNewline {
                for character in characters[i...next] {
                    if character == "\n" || character == "\r\n" { line += 1; column = 1 } else { column += 1 }
                    byte += character.utf8.count
                }
                i = next + 1
                continue
            }
            var kind: Character?
            var tagName: String?
            switch mark {
            case "#", "^", "/", "&":
                next += 1
                (kind, tagName) = (mark, name(&next, nameCharacters))
            case "{":
                next += 1
                kind = "&"
                if let read = name(&next, nameCharacters), character("}", &next) { tagName = read }
            case "!":
                // The engine looks for the closing delimiter without
                // stepping back after a partial match: with `!>`, a comment
                // does not end at `!!>`.
                next += 1
                var (end, matched) = (next, 0)
                while end < characters.count && matched < close.count {
                    matched = characters[end] == close[matched] ? matched + 1 : 0
                    end += 1
                }
                if matched == close.count { (kind, tagName, next) = ("!", String(characters[next..<(end - close.count)]), end) }
            case ">":
                next += 1
                skipWhitespace(&next)
                let dynamic = character("*", &next)
                kind = ">"
                tagName = name(&next, partialNameCharacters).map { (dynamic ? "*" : "") + $0 }
            case "<":
                next += 1
                skipWhitespace(&next)
                tagName = name(&next, partialNameCharacters).map { "<" + $0 }
            case "$":
                next += 1
                tagName = name(&next, nameCharacters).map { "$" + $0 }
            case "%":
                // `{{% CONTENT_TYPE: TEXT}}`: a name, `:`, a value.
                next += 1
                skipWhitespace(&next)
                let variable = read(&next) { !nameCharacters.contains($0) || "()".contains($0) }
                skipWhitespace(&next)
                if character(":", &next) {
                    skipWhitespace(&next)
                    let value = read(&next) { !nameCharacters.contains($0) || "()".contains($0) }
                    skipWhitespace(&next)
                    if !variable.isEmpty, !value.isEmpty, starts(close, at: next) {
                        (tagName, next) = ("%" + variable + ":" + value, next + close.count)
                    }
                }
            case "=":
                // As the engine reads it: whitespace, the opening delimiter
                // up to whitespace, whitespace, the closing one up to `=` or
                // whitespace, whitespace, `=`, and the old closing delimiter.
                next += 1
                skipWhitespace(&next)
                let newOpen = read(&next) { $0.isWhitespace }
                skipWhitespace(&next)
                let newClose = read(&next) { $0 == "=" || $0.isWhitespace }
                skipWhitespace(&next)
                if !newOpen.isEmpty, !newClose.isEmpty, character("=", &next), starts(close, at: next) {
                    next += close.count
                    (kind, tagName) = ("=", newOpen + " " + newClose)
                    (open, close) = (Array(newOpen), Array(newClose))
                }
            default:
                tagName = name(&next, nameCharacters)
            }
            // The engine stops here with an error, and so do the tags.
            guard let tagName else { break }
            let (start, tagLine, tagColumn) = (byte, line, column)
            for character in characters[i..<next] {
                if character == "\n" || character == "\r\n" { line += 1; column = 1 } else { column += 1 }
                byte += character.utf8.count
            }
            result.append(Tag(kind: kind, name: tagName, line: tagLine, column: tagColumn, bytes: start..<byte))
            i = next
        }
        return result
    }

    /// The front matter's own text values, which a page's or an example's
    /// context gives templates besides `params`.
    static let frontMatterText: Set<String> = ["title", "description", "linkTitle"]

    /// Attributes whose quoted value is text: an escaped value there can
    /// neither script nor restyle (`<meta content="{{description}}">`).
    static let textAttributes: Set<String> = ["content", "alt", "title", "aria-label", "aria-description", "placeholder", "value", "datetime"]

    /// Whether a template writes front matter where it can script or
    /// restyle a page: it reads `params` at all (open data: a pull request
    /// picks its names and shapes, and a section over it puts it on the
    /// stack for every name inside, `{{{content}}}` included), or it writes
    /// a title or description unescaped, inside a tag other than a quoted
    /// text attribute (`style="{{title}}"`, `<a href={{title}}>`), or in a
    /// `<script>`, `<style>` or comment. Each such value is marked in the
    /// template's text and the text read once by `RawHTML.scan`: a value
    /// is text only where a mark comes back in the text or in a quoted
    /// text attribute.
    static func writesFrontMatterAsMarkup(_ tags: [Tag], in text: String) -> Bool {
        let bytes = Array(text.utf8)
        let mark = Array("\u{E000}rowmotion-value\u{E001}".utf8)
        var marked: [UInt8] = []
        marked.reserveCapacity(bytes.count)
        var (position, marks) = (0, 0)
        for tag in tags where tag.bytes.upperBound <= bytes.count {
            if tag.bytes.lowerBound > position { marked += bytes[position..<tag.bytes.lowerBound] }
            position = max(position, tag.bytes.upperBound)
            let name = tag.name
            if name == "params" || name.hasPrefix("params.") || name.hasPrefix("params(") || name.contains("(params") { return true }
            guard tag.kind == nil || tag.kind == "&" else { continue }
            let last = name.split(separator: ".").last.map(String.init) ?? name
            guard frontMatterText.contains(last) || frontMatterText.contains(where: { name.contains("(" + $0) }) else { continue }
            if tag.kind == "&" { return true }
            marked += mark
            marks += 1
        }
        guard marks > 0 else { return false }
        if position < bytes.count { marked += bytes[position...] }
        let scan = RawHTML.scan(String(decoding: marked, as: UTF8.self))
        func count(_ bytes: [UInt8]) -> Int {
            guard bytes.count >= mark.count else { return 0 }
            var (found, index) = (0, 0)
            while index + mark.count <= bytes.count {
                if bytes[index..<(index + mark.count)].elementsEqual(mark) { (found, index) = (found + 1, index + mark.count) } else { index += 1 }
            }
            return found
        }
        let inText = count(scan.text)
            + scan.attributes.filter { $0.quoted && textAttributes.contains($0.name) }.reduce(0) { $0 + count(Array($1.value.utf8)) }
        return inText < marks
    }

    /// How deep sections may nest: the template engine parses (and
    /// renders) a section inside a section by recursion, and a theme of
    /// 100,000 nested sections overflowed the stack.
    static let sectionDepth = 100

    /// The first tag that nests sections deeper than `sectionDepth`: a
    /// section, an inverted one, a block (`{{$name}}`) and a parent
    /// (`{{<name}}`) are each parsed by a recursion.
    static func tooDeep(_ tags: [Tag]) -> Tag? {
        var depth = 0
        for tag in tags {
            if tag.kind == "#" || tag.kind == "^" || (tag.kind == nil && (tag.name.hasPrefix("$") || tag.name.hasPrefix("<"))) {
                depth += 1
                if depth > sectionDepth { return tag }
            } else if tag.kind == "/" {
                depth = max(0, depth - 1)
            }
        }
        return nil
    }
}
