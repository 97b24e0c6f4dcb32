import SnapshotFormat

/// A page's optional front matter: YAML between `---` lines at the top.
public struct FrontMatter: Equatable, Sendable {
    public var title: String?
    public var order: Int?
    public var draft = false
    public var description: String?

    static let keys = ["title", "order", "draft", "description"]

    /// Splits a page into its front matter text and its Markdown body.
    ///
    /// - Returns: the YAML (nil when there is none), the body, and the number
    ///   of lines before the body; nil when the front matter is never closed.
    static func split(_ text: String) -> (yaml: String?, body: String, bodyLineOffset: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first.trimmingTrailingCarriageReturn == "---" else { return (nil, text, 0) }
        guard let end = lines.indices.dropFirst().first(where: { ["---", "..."].contains(lines[$0].trimmingTrailingCarriageReturn) }) else {
            return nil
        }
        let yaml = lines[1..<end].joined(separator: "\n")
        let body = lines[(end + 1)...].joined(separator: "\n")
        return (yaml, body, end + 1)
    }

    /// Reads the front matter of the page `file`, reporting problems at
    /// their line in the page.
    static func read(_ yaml: String, file: String, diagnostics: inout [Diagnostic]) -> FrontMatter {
        var matter = FrontMatter()
        guard !yaml.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return matter }
        let value: LocatedValue
        switch LocatedYAML.parse(yaml, file: file, lineOffset: 1) {
        case .success(let parsed): value = parsed
        case .failure(let diagnostic):
            diagnostics.append(diagnostic)
            return matter
        }
        guard let members = value.members else {
            diagnostics.append(.error("wrong-type", at: value.location, "front matter must be a mapping, not \(value.typeName)"))
            return matter
        }
        for member in members {
            switch (member.key, member.value.kind) {
            case ("title", .string(let text)): matter.title = text
            case ("description", .string(let text)): matter.description = text
            case ("order", .integer(let number)): matter.order = number
            case ("draft", .bool(let flag)): matter.draft = flag
            case ("title", _), ("description", _), ("order", _), ("draft", _):
                let expected = ["title": "a string", "description": "a string", "order": "a whole number", "draft": "true or false"][member.key]!
                diagnostics.append(.error("wrong-type", at: member.value.location,
                                          "'\(member.key)' must be \(expected), not \(member.value.typeName)"))
            default:
                let nearest = KeySuggestionsBridge.hint(for: member.key, in: keys)
                diagnostics.append(.error("unknown-key", at: member.keyLocation, "unknown front matter key '\(member.key)'\(nearest)"))
            }
        }
        return matter
    }
}

extension Substring {
    var trimmingTrailingCarriageReturn: Substring { hasSuffix("\r") ? dropLast() : self }
}

import Foundation
