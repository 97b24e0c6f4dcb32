import Diagnostics
import Yams

/// Reads YAML through Yams' composer, which keeps every node's position, and
/// turns it into the same located tree the JSON reader builds.
enum YAMLBridge {
    /// YAML 1.2's core schema for booleans: `no`, `off` and `yes` stay
    /// strings (a country code `NO` is not false).
    static let resolver = try! Resolver.default.replacing(.bool, with: "^(?:true|True|TRUE|false|False|FALSE)$")

    /// `text` starts on line `lineOffset + 1` of `file`; diagnostics say so.
    static func parse(_ text: String, file: String, lineOffset: Int = 0) -> Result<LocatedValue, Diagnostic> {
        // A byte order mark is not part of the document (libyaml takes it
        // for content once a mapping follows it).
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        if let alias = YAMLAliasScan.firstAlias(in: text) {
            return .failure(.error("yaml-alias", at: SourceLocation(file: file, line: alias.line + lineOffset, column: alias.column),
                                   "YAML aliases ('*name') are not supported in snapshot files; write the value out where it is used"))
        }
        // Most documents are read straight from libyaml's events; the rest,
        // errors included, through Yams' composer.
        if let located = YAMLEvents.compose(text, file: file) { return .success(located) }
        return composeWithYams(text, file: file, lineOffset: lineOffset)
    }

    /// `text` (its byte order mark and aliases already dealt with) through
    /// Yams' composer: every document, and each error in Yams' words.
    static func composeWithYams(_ text: String, file: String, lineOffset: Int) -> Result<LocatedValue, Diagnostic> {
        let root: Node?
        do {
            // UTF-8 spelled out: Yams' default reads the environment on every call.
            root = try Yams.compose(yaml: text, resolver, .default, .utf8)
        } catch let error as YamlError {
            return .failure(diagnostic(for: error, in: text, file: file, lineOffset: lineOffset))
        } catch {
            return .failure(.error("yaml-syntax", at: SourceLocation(file: file, line: 1 + lineOffset, column: 1), "cannot read YAML: \(error)"))
        }
        guard let root else {
            return .failure(.error("empty-file", at: SourceLocation(file: file, line: 1 + lineOffset, column: 1),
                                   "the file is empty; expected a mapping with 'steps'"))
        }
        // Its values are shifted by the caller; a value it refuses is shifted here.
        return convert(root, file: file).mapError { refused in
            var shifted = refused
            shifted.location.line += lineOffset
            return shifted
        }
    }

    static func location(_ mark: Mark?, file: String) -> SourceLocation {
        SourceLocation(file: file, line: max(mark?.line ?? 1, 1), column: max(mark?.column ?? 1, 1))
    }

    static func convert(_ node: Node, file: String) -> Result<LocatedValue, Diagnostic> {
        let here = location(node.mark, file: file)
        switch node {
        case .scalar(let scalar):
            guard let kind = value(of: scalar) else {
                return .failure(.error("number-out-of-range", at: here, "number out of range: \(scalar.string)"))
            }
            return .success(LocatedValue(kind: kind, location: here))
        case .sequence(let sequence):
            var elements: [LocatedValue] = []
            for element in sequence {
                switch convert(element, file: file) {
                case .success(let value): elements.append(value)
                case .failure(let diagnostic): return .failure(diagnostic)
                }
            }
            return .success(LocatedValue(kind: .array(elements), location: here))
        case .mapping(let mapping):
            var members: [LocatedValue.Member] = []
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    return .failure(.error("wrong-type", at: location(key.mark, file: file),
                                           "a key must be a plain word, not \(key.sequence != nil ? "a list" : "a mapping")"))
                }
                switch convert(value, file: file) {
                case .success(let converted):
                    members.append(LocatedValue.Member(key: keyScalar.string, keyLocation: location(key.mark, file: file), value: converted))
                case .failure(let diagnostic): return .failure(diagnostic)
                }
            }
            return .success(LocatedValue(kind: .object(members), location: here))
        case .alias:
            return .failure(.error("yaml-alias", at: here, "YAML aliases are not supported in snapshot files"))
        }
    }

    /// A scalar's value by the tag YAML's core schema resolved for it: plain
    /// `42` is a number, quoted `"42"` a string. Nil for a number written
    /// with digits that a Double cannot hold (`1e400`), as JSON reports it.
    static func value(of scalar: Node.Scalar) -> LocatedValue.Kind? {
        // Every rule of the resolver needs one of a few first characters
        // (or an empty scalar, which is null): other untagged scalars are
        // strings without running its regular expressions, which took most
        // of the time spent reading a file.
        if scalar.tag.description.isEmpty, let known = plainShortcut(scalar.string) { return known }
        let node = Node.scalar(scalar)
        switch resolver.resolveTag(of: node).rawValue {
        case Tag.Name.int.rawValue:
            if let value = node.int { return .integer(value) }
            // Yams reads `-0` and `+0` as octal with no digits: they are 0,
            // as JSON's `-0` is.
            if scalar.string.dropFirst().allSatisfy({ $0 == "0" }), scalar.string.first == "-" || scalar.string.first == "+" {
                return .integer(0)
            }
        case Tag.Name.float.rawValue:
            if let value = node.float {
                if value.isFinite { return .number(value) }
                // `.inf` and `.nan` are words; `1e400` is a number too large.
                if scalar.string.contains(where: \.isNumber) { return nil }
            }
        case Tag.Name.bool.rawValue: if let value = node.bool { return .bool(value) }
        case Tag.Name.null.rawValue: return .null
        default: break
        }
        return .string(scalar.string)
    }

    /// An untagged plain scalar's value, as `value(of:)` gives it.
    static func value(ofPlain text: String) -> LocatedValue.Kind? {
        if let known = plainShortcut(text) { return known }
        return value(of: Node.Scalar(text, Tag(.implicit, resolver, .default), .plain))
    }

    /// A plain scalar's value where its first character leaves one rule
    /// that can match, or none (nil: the resolver decides): a word from
    /// `n` is null only as `null`, `Null` or `NULL`, one from `t` or `f`
    /// a boolean only as the core schema's six spellings.
    static func plainShortcut(_ text: String) -> LocatedValue.Kind? {
        guard let first = text.utf8.first else { return nil }
        switch first {
        case UInt8(ascii: "n"), UInt8(ascii: "N"):
            return text == "null" || text == "Null" || text == "NULL" ? .null : .string(text)
        case UInt8(ascii: "t"), UInt8(ascii: "T"):
            return text == "true" || text == "True" || text == "TRUE" ? .bool(true) : .string(text)
        case UInt8(ascii: "f"), UInt8(ascii: "F"):
            return text == "false" || text == "False" || text == "FALSE" ? .bool(false) : .string(text)
        default:
            return mayResolve(first) ? nil : .string(text)
        }
    }

    /// Whether a plain scalar starting with `byte` can be anything but a
    /// string: a digit, a sign or `.` (numbers, timestamps), `t`/`f` (bools),
    /// `n`/`~` (null), `<` (merge) or `=` (value).
    static func mayResolve(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "~"),
             UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"),
             UInt8(ascii: "n"), UInt8(ascii: "N"):
            return true
        default:
            return false
        }
    }

    static func diagnostic(for error: YamlError, in text: String, file: String, lineOffset: Int = 0) -> Diagnostic {
        var diagnostic = diagnostic(for: error, in: text, file: file, contextLineOffset: lineOffset)
        diagnostic.location.line += lineOffset
        return diagnostic
    }

    /// Whether the character at `mark` (or the line's indentation before
    /// it) is a tab.
    static func isTab(at mark: Mark, in text: String) -> Bool {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return false }
        let line = Array(lines[mark.line - 1].utf8)
        let column = mark.column - 1
        if column >= 0, column < line.count, line[column] == 0x09 { return true }
        return line.prefix(max(0, min(column, line.count))).allSatisfy { $0 == 0x20 || $0 == 0x09 } && line.prefix(max(0, column)).contains(0x09)
    }

    /// The first two places where `key` is written as a key at the same
    /// indentation, from `line` (1-based) on: `key:`, `"key":`, `- key:`.
    static func repeatedKey(_ key: String, from line: Int, in text: String) -> (first: (line: Int, column: Int), again: (line: Int, column: Int))? {
        var found: [(line: Int, column: Int)] = []
        for (index, content) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where index + 1 >= line {
            var rest = content.drop { $0 == " " }
            if rest.hasPrefix("- ") { rest = rest.dropFirst(2).drop { $0 == " " } }
            let column = content.count - rest.count + 1
            for spelling in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(spelling) {
                let after = rest.dropFirst(spelling.count).drop { $0 == " " }
                if after.hasPrefix(":") && (after.count == 1 || after.dropFirst().first == " ") {
                    if let first = found.first, first.column != column { continue }
                    found.append((index + 1, column))
                }
            }
            if found.count == 2 { return (found[0], found[1]) }
        }
        return nil
    }

    /// How libyaml words its nesting limit (naming its C setter, which a
    /// snapshot file cannot call).
    static let nestingLimit = "Maximum nesting level reached"

    private static func diagnostic(for error: YamlError, in text: String, file: String, contextLineOffset: Int) -> Diagnostic {
        func described(_ problem: String, _ context: YamlError.Context?) -> String {
            guard let context else { return problem }
            return "\(problem) (\(context.text) that starts at \(context.mark.line + contextLineOffset):\(context.mark.column))"
        }
        switch error {
        case let .parser(_, problem, mark, _) where problem.hasPrefix(nestingLimit):
            return .error("too-deep", at: location(mark, file: file), "lists and mappings nest deeper than 1000 levels")
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            // libyaml's words for a tab ("found character that cannot start
            // any token") do not say tab.
            if isTab(at: mark, in: text) {
                return .error("yaml-tab", at: location(mark, file: file),
                              "a tab here: YAML indents with spaces only (replace the tab with spaces)")
            }
            return .error("yaml-syntax", at: location(mark, file: file), described(problem, context))
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            // At the repeated key, with where it first appears.
            if let key = duplicates.first, let (first, again) = repeatedKey(key, from: context.mark.line, in: text) {
                return .error("duplicate-key", at: SourceLocation(file: file, line: again.line, column: again.column),
                              "duplicate key '\(key)' in a mapping; each key may appear once",
                              notes: [Diagnostic.Note(location: SourceLocation(file: file, line: first.line, column: first.column),
                                                      message: "'\(key)' first appears here")])
            }
            return .error("duplicate-key", at: location(context.mark, file: file),
                          "duplicate key \(keys) in a mapping; each key may appear once")
        case let .reader(problem, offset, value, _):
            // The offset counts bytes of the UTF-8 text libyaml was given.
            let at = offset.map { SnapshotReader.location(ofOffset: min($0, text.utf8.count), in: Array(text.utf8), file: file) }
                ?? SourceLocation(file: file, line: 1, column: 1)
            let character = value >= 0 ? " (U+\(String(value, radix: 16, uppercase: true).leftPadded(to: 4)))" : ""
            return .error("invalid-character", at: at, "cannot read YAML: \(problem)\(character)")
        default:
            return .error("yaml-syntax", at: SourceLocation(file: file, line: 1, column: 1), "cannot read YAML: \(error)")
        }
    }
}


private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
