import Diagnostics
import SnapshotFormat
import TOMLKit

/// A page's optional front matter: YAML between `---` lines at the top, or
/// TOML between `+++` lines (Hugo's other format).
public struct FrontMatter: Equatable, Sendable {
    public var title: String?
    public var order: Int?
    public var draft = false
    public var description: String?
    /// Orders the navigation like `order` (Hugo's name); `order` wins.
    public var weight: Int?
    /// The navigation entry's name, when it differs from the title.
    public var linkTitle: String?
    /// Old addresses of the page: each gets a page that redirects here.
    public var aliases: [Alias] = []
    /// Every other key, kept for templates (`{{params.tags}}`).
    public var params: [String: Param] = [:]

    public struct Alias: Equatable, Sendable {
        public var path: String
        public var location: SourceLocation
    }

    /// A front matter value as templates see it.
    public indirect enum Param: Equatable, Sendable {
        case string(String), integer(Int), number(Double), bool(Bool), null
        case array([Param])
        case object([String: Param])

        init(_ value: LocatedValue) {
            switch value.kind {
            case .string(let text): self = .string(text)
            case .integer(let number): self = .integer(number)
            case .number(let number): self = .number(number)
            case .bool(let flag): self = .bool(flag)
            case .null: self = .null
            case .array(let items): self = .array(items.map(Param.init))
            case .object(let members): self = .object(Dictionary(members.map { ($0.key, Param($0.value)) }) { first, _ in first })
            }
        }

        /// The value as Mustache reads it.
        var templateValue: Any {
            switch self {
            case .string(let text): return text
            case .integer(let number): return number
            case .number(let number): return number
            case .bool(let flag): return flag
            case .null: return false
            case .array(let items): return items.map(\.templateValue)
            case .object(let members): return members.mapValues(\.templateValue)
            }
        }
    }

    /// The keys Rowmotion reads; any other key is kept as a param, with a
    /// warning when it is a likely typo of one of these.
    static let keys = ["title", "order", "draft", "description", "weight", "linkTitle", "aliases"]

    /// The order the navigation sorts by.
    var navigationOrder: Int? { order ?? weight }


    /// Splits a page into its front matter text and its Markdown body.
    ///
    /// - Returns: the YAML (nil when there is none), the body, and the number
    ///   of lines before the body; nil when the front matter is never closed.
    static func split(_ text: String) -> (yaml: String?, body: String, bodyLineOffset: Int)? {
        split(text, opening: "---", closing: ["---", "..."])
    }

    /// Splits off TOML front matter between `+++` lines; nil when the page
    /// does not start with one, or it is never closed.
    static func splitTOML(_ text: String) -> (toml: String, body: String, bodyLineOffset: Int)? {
        guard text.utf8.starts(with: "+++".utf8), let (toml, body, offset) = split(text, opening: "+++", closing: ["+++"]),
              let toml else { return nil }
        return (toml, body, offset)
    }

    private static func split(_ text: String, opening: Substring, closing: [Substring]) -> (yaml: String?, body: String, bodyLineOffset: Int)? {
        // Line by line from the top, without splitting the rest of the page;
        // by bytes, so CRLF line ends are found too ("\r\n" is one Character).
        func isFence(_ line: Substring, _ fences: [Substring]) -> Bool {
            var bytes = line.utf8[...]
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            return fences.contains { $0.utf8.elementsEqual(bytes) }
        }
        var lineStart = text.startIndex
        var lineNumber = 0
        var yamlStart = text.startIndex
        while lineStart < text.endIndex || lineNumber == 0 {
            let lineEnd = text.utf8[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
            let line = text[lineStart..<lineEnd]
            let next = lineEnd == text.endIndex ? text.endIndex : text.utf8.index(after: lineEnd)
            if lineNumber == 0 {
                guard isFence(line, [opening]) else { return (nil, text, 0) }
                yamlStart = next
            } else if isFence(line, closing) {
                // The YAML ends before the newline that ends its last line.
                let yamlEnd = lineNumber == 1 ? yamlStart : text.utf8.index(before: lineStart)
                return (String(text[yamlStart..<yamlEnd]), String(text[next...]), lineNumber + 1)
            }
            if lineEnd == text.endIndex { break }
            lineStart = next
            lineNumber += 1
        }
        return nil
    }

    /// Reads the front matter of the page `file`, reporting problems at
    /// their line in the page; nil when the text between the `---` lines is
    /// not a mapping at all (a scalar or a list: then the page starts with a
    /// thematic break, as CommonMark reads it).
    static func read(_ yaml: String, file: String, diagnostics: inout [Diagnostic]) -> FrontMatter? {
        // Always the YAML parser: a reader of "the simple cases" beside it
        // saved 3 % of a 1,000-page build (measured with farm-bench).
        parsed(yaml, file: file, diagnostics: &diagnostics)
    }

    /// Front matter read by the YAML parser, every problem reported; nil
    /// when it is not a mapping (see `read`).
    static func parsed(_ yaml: String, file: String, diagnostics: inout [Diagnostic]) -> FrontMatter? {
        let matter = FrontMatter()
        guard !yaml.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return matter }
        let value: LocatedValue
        switch LocatedYAML.parse(yaml, file: file, lineOffset: 1) {
        case .success(let parsed): value = parsed
        case .failure(let diagnostic) where diagnostic.id == "empty-file":
            // Comments only: front matter with no keys.
            return matter
        case .failure(var diagnostic):
            if diagnostic.id == "yaml-alias" {
                diagnostic.message = "YAML aliases ('*name') are not supported in a page's front matter; write the value out where it is used"
            }
            diagnostics.append(diagnostic)
            return matter
        }
        switch value.kind {
        case .object: break
        case .null: return matter
        default: return nil
        }
        return interpret(value, diagnostics: &diagnostics)
    }

    /// TOML front matter (`+++`), read by TOMLKit and then exactly like
    /// YAML's. TOML keeps no positions of values: a key's problem is
    /// reported at the line that sets it, found in the text.
    static func parsedTOML(_ toml: String, file: String, diagnostics: inout [Diagnostic]) -> FrontMatter {
        // TOMLKit's parser recurses once per part of a dotted key: a key of
        // 200,000 parts overflowed its stack. Such keys are refused first.
        if let (line, column, parts) = longestDottedKey(toml), parts > dottedKeyLimit {
            diagnostics.append(.error("toml-too-deep", at: SourceLocation(file: file, line: line + 1, column: column),
                                      "the page's TOML front matter has a dotted key of \(parts) parts; keys are limited to \(dottedKeyLimit)"))
            return FrontMatter()
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: toml)
        } catch let error as TOMLParseError {
            diagnostics.append(.error("toml-syntax", at: SourceLocation(file: file, line: error.source.begin.line + 1, column: max(1, error.source.begin.column)),
                                      "the page's TOML front matter: \(error.description)"))
            return FrontMatter()
        } catch {
            diagnostics.append(.error("toml-syntax", at: SourceLocation(file: file, line: 2, column: 1), "the page's TOML front matter: \(error)"))
            return FrontMatter()
        }
        // Where each top-level key is set (`key =`, `"key" =`, before any
        // `[table]` header), found in one pass over the lines: looking each
        // key up in all the lines was quadratic in the number of keys.
        var keyLines: [String: SourceLocation] = [:]
        for (index, line) in toml.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("[") { break }
            var key = trimmed.prefix { $0 != "=" && $0 != " " && $0 != "\t" }
            if let quote = key.first, quote == "\"" || quote == "'", key.count >= 2, key.last == quote { key = key.dropFirst().dropLast() }
            guard !key.isEmpty, trimmed.dropFirst(trimmed.prefix { $0 != "=" }.count).hasPrefix("=") else { continue }
            let place = SourceLocation(file: file, line: index + 2, column: line.count - trimmed.count + 1)
            if keyLines[String(key)] == nil { keyLines[String(key)] = place }
        }
        func location(ofKey key: String) -> SourceLocation { keyLines[key] ?? SourceLocation(file: file, line: 1, column: 1) }
        /// Tables and arrays nested deeper than this are an error, not a
        /// recursion as deep as the page asks (`a.b.c.…` of 20,000 parts
        /// overflowed the stack).
        let depthLimit = 64
        var tooDeep = false
        func located(_ value: TOMLValueConvertible, at place: SourceLocation, depth: Int = 0) -> LocatedValue {
            if depth > depthLimit {
                tooDeep = true
                return LocatedValue(kind: .null, location: place)
            }
            switch value.type {
            case .string: return LocatedValue(kind: .string(value.string ?? ""), location: place)
            case .int: return LocatedValue(kind: .integer(value.int ?? 0), location: place)
            case .double: return LocatedValue(kind: .number(value.double ?? 0), location: place)
            case .bool: return LocatedValue(kind: .bool(value.bool ?? false), location: place)
            case .array:
                return LocatedValue(kind: .array((value.array.map { Array($0) } ?? []).map { located($0, at: place, depth: depth + 1) }), location: place)
            case .table:
                guard let table = value.table else { return LocatedValue(kind: .null, location: place) }
                return LocatedValue(kind: .object(table.keys.compactMap { key in
                    table[key].map { LocatedValue.Member(key: key, keyLocation: place, value: located($0, at: place, depth: depth + 1)) }
                }), location: place)
            case .date, .time, .dateTime:
                // Dates as written in TOML's own form, for templates to show.
                return LocatedValue(kind: .string(value.tomlValue.debugDescription), location: place)
            }
        }
        let members = table.keys.compactMap { key in
            table[key].map { LocatedValue.Member(key: key, keyLocation: location(ofKey: key), value: located($0, at: location(ofKey: key))) }
        }
        if tooDeep {
            diagnostics.append(.error("toml-too-deep", at: SourceLocation(file: file, line: 2, column: 1),
                                      "the page's TOML front matter nests tables or arrays deeper than \(depthLimit) levels"))
            return FrontMatter()
        }
        return interpret(LocatedValue(kind: .object(members), location: SourceLocation(file: file, line: 2, column: 1)),
                         diagnostics: &diagnostics) ?? FrontMatter()
    }

    /// The most parts a dotted TOML key may have (`a.b.c` has 3).
    static let dottedKeyLimit = 64

    /// The key (or `[table]` header) with the most dot-separated parts:
    /// its line (1-based), column and part count; dots inside quotes do
    /// not count. Nil when there is no key. One pass over the bytes.
    static func longestDottedKey(_ toml: String) -> (line: Int, column: Int, parts: Int)? {
        var best: (line: Int, column: Int, parts: Int)?
        var line = 1, lineStart = true, inKey = false, quote: UInt8?, parts = 1, keyColumn = 1, column = 0
        for byte in toml.utf8 {
            column += 1
            if byte == UInt8(ascii: "\n") {
                if inKey, parts > (best?.parts ?? 0) { best = (line, keyColumn, parts) }
                (line, lineStart, inKey, quote, parts, column) = (line + 1, true, false, nil, 1, 0)
                continue
            }
            if lineStart {
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { continue }
                (lineStart, inKey, keyColumn) = (false, byte != UInt8(ascii: "#"), column)
            }
            guard inKey else { continue }
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ".") {
                parts += 1
            } else if byte == UInt8(ascii: "=") || byte == UInt8(ascii: "]") {
                if parts > (best?.parts ?? 0) { best = (line, keyColumn, parts) }
                inKey = false
            }
        }
        if inKey, parts > (best?.parts ?? 0) { best = (line, keyColumn, parts) }
        return best
    }

    /// A parsed mapping's keys as front matter, whichever format it came in.
    static func interpret(_ value: LocatedValue, diagnostics: inout [Diagnostic]) -> FrontMatter? {
        var matter = FrontMatter()
        for member in value.members ?? [] {
            switch (member.key, member.value.kind) {
            case ("title", .string(let text)): matter.title = text
            case ("description", .string(let text)): matter.description = text
            case ("linkTitle", .string(let text)): matter.linkTitle = text
            case ("order", .integer(let number)): matter.order = number
            case ("weight", .integer(let number)): matter.weight = number
            case ("draft", .bool(let flag)): matter.draft = flag
            case ("aliases", .string(let path)): matter.aliases = [Alias(path: path, location: member.value.location)]
            case ("aliases", .array(let items)) where items.allSatisfy({ if case .string = $0.kind { true } else { false } }):
                matter.aliases = items.compactMap { item in
                    if case .string(let path) = item.kind { Alias(path: path, location: item.location) } else { nil }
                }
            case ("title", _), ("description", _), ("linkTitle", _), ("order", _), ("weight", _), ("draft", _), ("aliases", _):
                let expected = ["title": "a string", "description": "a string", "linkTitle": "a string", "order": "a whole number",
                                "weight": "a whole number", "draft": "true or false", "aliases": "a list of paths"][member.key]!
                diagnostics.append(.error("wrong-type", at: member.value.location,
                                          "the page's '\(member.key)' must be \(expected), not \(member.value.typeName)"))
            default:
                // Kept for templates; a near miss of a known key is worth a word.
                matter.params[member.key] = Param(member.value)
                if let nearest = KeySuggestions.nearest(to: member.key, in: keys) {
                    diagnostics.append(.warning("unknown-key", at: member.keyLocation,
                                                "unknown front matter key '\(member.key)' (kept as params.\(member.key)); did you mean '\(nearest)'?"))
                }
            }
        }
        return matter
    }
}

extension Substring {
    var trimmingTrailingCarriageReturn: Substring { hasSuffix("\r") ? dropLast() : self }
}

import Foundation
