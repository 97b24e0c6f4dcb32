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
public enum DefaultTheme {}

/// A loaded theme: templates ready to render, and assets by name.
public struct Theme: Sendable {
    public static let templateNames = ["page", "example", "index", "head", "nav", "player", "changes"]
    public static let assetNames = ["rowmotion.css", "rowmotion.js"]

    /// Where each file was found, for messages and `--verbose`.
    public var sources: [String: ThemeSource] = [:]
    var texts: [String: String] = [:]
    /// Each template's tags, read once for the name checks of its renders.
    var tags: [String: [TemplateCheck.Tag]] = [:]
    var library = MustacheLibrary()
    /// The `nav` template with markers for `NavigationMemo`, alone in a
    /// library; nil when the navigation must be rendered page by page.
    var markedNavigation: MustacheLibrary?
    /// The templates with `nav` writing the memoized navigation HTML, for
    /// contexts whose chrome carries it.
    var memoLibrary: MustacheLibrary?
    public var assets: [String: String] = [:]
    /// Templates whose names have been checked against a full context.
    let checked = CheckedTemplates()

    /// The places a theme file is looked for, first match wins: the
    /// project's templates folder, then the built-in default.
    public static func lookup(_ fileName: String, projectTemplates: String?) -> [ThemeSource] {
        var places: [ThemeSource] = []
        if let projectTemplates { places.append(.project((projectTemplates as NSString).appendingPathComponent(fileName))) }
        places.append(.builtIn)
        return places
    }

    /// Loads every template and asset, each from the first place that has it.
    public static func load(projectTemplates: String?) throws(Diagnostic) -> Theme {
        ByteHTMLEscaping.registered
        var theme = Theme()
        var templates: [String: MustacheTemplate] = [:]
        for fileName in templateNames.map({ $0 + ".mustache" }) + assetNames {
            var found: (String, ThemeSource)?
            for place in lookup(fileName, projectTemplates: projectTemplates) {
                switch place {
                case .project(let path):
                    guard FileManager.default.fileExists(atPath: path) else { continue }
                    // A theme file is published (the assets) or renders every
                    // page: one that leads out of the templates folder
                    // (`rowmotion.css -> /proc/self/environ`) is never read.
                    guard let projectTemplates, Paths.isInside(path, folder: projectTemplates) else {
                        throw .error("link-outside", at: SourceLocation(file: path, line: 1, column: 1),
                                     "this theme file leads outside \(projectTemplates ?? "templates")/ through a symbolic link; copy it in instead")
                    }
                    // An override that is there but cannot be read is an
                    // error, never a silent fall back to the built-in file.
                    do {
                        found = (String(decoding: try FileContents.read(path, limit: nil), as: UTF8.self), place)
                    } catch {
                        throw .error("theme", at: SourceLocation(file: path, line: 1, column: 1), error.message)
                    }
                case .builtIn:
                    found = DefaultTheme.files[fileName].map { ($0, place) }
                }
                if found != nil { break }
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
                theme.tags[fileName] = TemplateCheck.tags(in: text)
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
        theme.library = MustacheLibrary(templates: templates)
        let includers = templateNames.filter { $0 != "nav" }.compactMap { theme.texts[$0 + ".mustache"] }
        if let nav = theme.texts["nav.mustache"], let marked = NavigationMemo.marked(nav, includers: includers),
           let markedTemplate = try? MustacheTemplate(string: ByteHTMLEscaping.pragma + marked),
           let memoTemplate = try? MustacheTemplate(string: ByteHTMLEscaping.pragma + "{{{navigationHTML}}}") {
            theme.markedNavigation = MustacheLibrary(templates: ["nav": markedTemplate])
            var memo = templates
            memo["nav"] = memoTemplate
            theme.memoLibrary = MustacheLibrary(templates: memo)
        }
        return theme
    }

    /// Whether a player template writes the first snapshot's rows as HTML.
    static func writesInitialRows(_ text: String) -> Bool {
        let spaced = text.replacingOccurrences(of: " ", with: "")
        return spaced.contains("{{{initialHTML}}}") || spaced.contains("{{&initialHTML}}")
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

    /// Renders `template` with `context`, after checking that every name the
    /// template (and its partials) uses exists in the context: Mustache
    /// would otherwise render a misspelt name as nothing.
    /// The names are checked for the first renders of each template: contexts
    /// are typed, so a context that fills every section proves them all, and
    /// a section that stays empty (a nil optional) cannot be checked anyway.
    public func render(_ template: String, _ context: Any) throws(Diagnostic) -> String {
        if checked.needsCheck(template) {
            var problems: [Diagnostic] = []
            var skipped = false
            TemplateCheck.check(template: template, theme: self, scopes: [context], problems: &problems, skipped: &skipped, depth: 0)
            if let first = problems.first { throw first }
            checked.record(template, complete: !skipped)
        }
        if let memoLibrary, let carrier = context as? any ChromeCarrying, carrier.chrome.navigationHTML != nil {
            return memoLibrary.render(context, withTemplate: template) ?? ""
        }
        return library.render(context, withTemplate: template) ?? ""
    }
}

/// Finds names a template uses that its context does not have, following
/// Mustache's context stack through sections and into partials.
enum TemplateCheck {
    /// How deep partials may include partials.
    static let partialDepth = 32

    static func check(template: String, theme: Theme, scopes: [Any], problems: inout [Diagnostic], skipped: inout Bool, depth: Int) {
        let fileName = template + ".mustache"
        guard depth < partialDepth, let text = theme.texts[fileName] else { return }
        var stack = scopes
        // Sections whose contents cannot be checked (empty lists, optionals
        // that are nil) are skipped until their closing tag.
        var skipping: [String] = []
        var sections: [String] = []
        for tag in theme.tags[fileName] ?? tags(in: text) {
            let name = tag.name
            switch tag.kind {
            case "!", "=": continue
            case "/":
                if skipping.last == name { skipping.removeLast() } else if sections.last == name {
                    sections.removeLast()
                    stack.removeLast()
                }
                continue
            default: break
            }
            guard skipping.isEmpty else {
                if tag.kind == "#" || tag.kind == "^" { skipping.append(name) }
                continue
            }
            if tag.kind == ">" {
                if theme.texts[name + ".mustache"] == nil {
                    problems.append(.error("unknown-partial", at: theme.location(of: fileName, line: tag.line, column: tag.column),
                                           "the template includes a partial '\(name)' the theme does not have"))
                } else if depth + 1 >= partialDepth {
                    // Partials that include each other on the same data
                    // never end: rendering them overflowed the stack. A
                    // recursion over a tree (`{{#children}}{{> nav}}`) ends
                    // with the data, well before this depth.
                    problems.append(.error("recursive-partial", at: theme.location(of: fileName, line: tag.line, column: tag.column),
                                           "the partial '\(name)' is included within itself without end (more than \(partialDepth) levels "
                                               + "on the same data); include a partial inside a section over nested data, such as {{#children}}"))
                } else {
                    check(template: name, theme: theme, scopes: stack, problems: &problems, skipped: &skipped, depth: depth + 1)
                }
                continue
            }
            guard name != "." else { continue }
            let head = String(name.split(separator: ".").first ?? Substring(name))
            guard let value = lookup(head, in: stack) else {
                problems.append(.error("unknown-template-variable", at: theme.location(of: fileName, line: tag.line, column: tag.column),
                                       "the template uses '\(name)', which its context does not have"))
                if tag.kind == "#" || tag.kind == "^" { skipping.append(name) }
                continue
            }
            guard tag.kind == "#" || tag.kind == "^" else { continue }
            // Inside the section, the value (or a list's first element) is on
            // top of the stack; an empty list or a nil cannot be checked.
            if tag.kind == "^" {
                sections.append(name)
                stack.append(stack.last!)
            } else if let element = sectionScope(value) {
                sections.append(name)
                stack.append(element)
            } else {
                skipping.append(name)
                skipped = true
            }
        }
    }

    /// The value a name has in the innermost scope that has it.
    static func lookup(_ name: String, in stack: [Any]) -> Any? {
        for scope in stack.reversed() {
            // As rendering does: a context answers for itself when it can.
            if let parent = scope as? MustacheParent {
                if let value = parent.child(named: name) { return value }
                // A stored optional that is nil is still a name the context has.
                if Mirror(reflecting: scope).children.contains(where: { $0.label == name }) { return Optional<Any>.none as Any }
                continue
            }
            for child in Mirror(reflecting: scope).children where child.label == name { return child.value }
            if let dictionary = scope as? [String: Any], let value = dictionary[name] { return value }
        }
        return nil
    }

    static func sectionScope(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.first.map { sectionScope($0.value) } ?? nil }
        if mirror.displayStyle == .collection { return mirror.children.first?.value }
        return value
    }

    struct Tag {
        var kind: Character?
        var name: String
        var line: Int
        var column: Int
    }

    /// The tags of a template, with their line and column, in one pass.
    static func tags(in text: String) -> [Tag] {
        let characters = Array(text)
        var result: [Tag] = []
        var line = 1, column = 1, i = 0
        func starts(_ token: String, at position: Int) -> Bool {
            let token = Array(token)
            return position + token.count <= characters.count && Array(characters[position..<position + token.count]) == token
        }
        while i < characters.count {
            if starts("{{", at: i) {
                let triple = starts("{{{", at: i)
                let closing = triple ? "}}}" : "}}"
                let contentStart = i + (triple ? 3 : 2)
                var end = contentStart
                while end < characters.count && !starts(closing, at: end) { end += 1 }
                guard end < characters.count else { break }
                var content = String(characters[contentStart..<end]).trimmingCharacters(in: .whitespaces)
                var kind: Character? = triple ? "&" : nil
                if let first = content.first, "#^/!>&=".contains(first) {
                    kind = first
                    content = String(content.dropFirst()).trimmingCharacters(in: .whitespaces)
                }
                result.append(Tag(kind: kind, name: content, line: line, column: column))
                let next = end + closing.count
                for character in characters[i..<next] {
                    if character == "\n" { line += 1; column = 1 } else { column += 1 }
                }
                i = next
                continue
            }
            if characters[i] == "\n" { line += 1; column = 1 } else { column += 1 }
            i += 1
        }
        return result
    }
}

/// Which templates have been checked, shared by the threads that render: a
/// template is done after a check that skipped no section, or after a few.
final class CheckedTemplates: @unchecked Sendable {
    private var checks: [String: Int] = [:]
    private let lock = NSLock()
    static let enough = 8

    func needsCheck(_ name: String) -> Bool { lock.withLock { checks[name, default: 0] < Self.enough } }
    func record(_ name: String, complete: Bool) {
        lock.withLock { checks[name] = complete ? Self.enough : checks[name, default: 0] + 1 }
    }
}
