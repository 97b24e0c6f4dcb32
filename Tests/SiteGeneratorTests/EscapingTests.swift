import Reports
import Foundation
@testable import SiteGenerator
import Testing

/// The site's one HTML escaper against what breaks escapers that compare
/// whole characters: each markup byte followed by every code point that
/// joins the character before it, and ids, field names and labels holding
/// a code point of every general category.
@Suite("Escaping")
struct EscapingTests {
    static let specials: [(String, String)] = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;")]

    /// Every scalar that extends the grapheme before it: the marks (Mn, Mc,
    /// Me), joiners, variation selectors, emoji modifiers and tags, and the
    /// Hangul vowel and final jamo.
    static let extenders: [Unicode.Scalar] = (0...0x10FFFF).compactMap { value -> Unicode.Scalar? in
        guard let scalar = Unicode.Scalar(value) else { return nil }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return scalar
        default: break
        }
        if [0x200C, 0x200D].contains(value) || (0x1F3FB...0x1F3FF).contains(value) || (0xE0020...0xE007F).contains(value)
            || (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return scalar }
        return nil
    }

    /// `--summary` writes titles and labels into Markdown table cells and
    /// list items: no line break of any kind may start a line of its own
    /// (CR LF is one Character that is neither CR nor LF, and a title
    /// holding it once forged a heading in the pull request's summary).
    @Test func summaryCells_neverBreakTheLine_whateverTheLineEnding() {
        for lineBreak in ["\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}", "\n\u{301}"] {
            let title = "Inbox\(lineBreak)### Approved: no change\(lineBreak)| forged | row |"
            for text in [ChangesSummary.cellText(title), ChangesSummary.code(title)] {
                #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control
                        || $0.properties.generalCategory == .lineSeparator || $0.properties.generalCategory == .paragraphSeparator },
                        "\(lineBreak.unicodeScalars.map { String($0.value, radix: 16) }): \(text.debugDescription)")
                #expect(text.split(whereSeparator: \.isNewline).count == 1)
            }
            #expect(!ChangesSummary.cellText(title).contains("| forged |"))
        }
    }

    /// A pull request's section id or title must not mention anyone when
    /// the summary is posted (found by an outside attack on issue 43).
    @Test func summaryText_neverMentionsAnyone() {
        for title in ["hi @octocat", "@org/team please", "a@b"] {
            let text = ChangesSummary.cellText(title)
            #expect(text.range(of: #"@[A-Za-z0-9]"#, options: .regularExpression) == nil, "\(text.debugDescription)")
        }
    }

    @Test func everyMarkupByte_followedByAnyJoiningCodePoint_isEscaped() {
        #expect(Self.extenders.count > 2_000)
        for (special, entity) in Self.specials {
            for scalar in Self.extenders {
                let mark = String(scalar)
                let escaped = HTMLText.escape("a" + special + mark + "b")
                #expect(escaped == "a" + entity + mark + "b", "U+\(String(scalar.value, radix: 16, uppercase: true)) after \(special)")
                // The theme's {{name}} escapes the same way.
                #expect(ByteHTMLEscaping.escape(special + mark) == entity + mark)
            }
        }
    }

    /// One scalar of each general category (the first there is), as JSON escapes.
    static let categorySamples: [Unicode.Scalar] = {
        var seen: [String: Unicode.Scalar] = [:]
        for value in 1...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = "\(scalar.properties.generalCategory)"
            if seen[category] == nil { seen[category] = scalar }
        }
        return seen.keys.sorted().map { seen[$0]! }
    }()

    @Test func idsFieldsAndLabels_ofEveryCategory_stayInTheirAttributes_andReachThePlayerIntact() throws {
        #expect(Self.categorySamples.count >= 29)
        func json(_ scalar: Unicode.Scalar) -> String {
            scalar.value > 0xFFFF
                ? String(format: "\\u%04X\\u%04X", 0xD800 + ((scalar.value - 0x10000) >> 10), 0xDC00 + ((scalar.value - 0x10000) & 0x3FF))
                : String(format: "\\u%04X", scalar.value)
        }
        var built = 0
        for scalar in Self.categorySamples {
            let code = String(scalar.value, radix: 16, uppercase: true)
            let trap = "x\(json(scalar))\\\"\\u0301 autofocus onfocus=alert(1) y='\\u0301"
            let sequence = """
                {"title": "T\(trap)", "steps": [
                  {"label": "L\(trap)", "sections": [{"id": "s\(trap)", "header": "h\(trap)", "items": [{"id": "r\(trap)", "f\(trap)": "v\(trap)"}]}]},
                  {"label": "M\(trap)", "sections": [{"id": "s\(trap)", "header": "h\(trap)", "items": [{"id": "r\(trap)", "f\(trap)": "w\(trap)"}]}]}
                ]}
                """
            let project = try FixtureProject(files: [
                ("site/index.md", "# Home\n\n```rowmotion\nexample: trap.json\n```\n"),
                ("examples/trap.json", sequence),
            ])
            defer { project.remove() }
            let site = SiteBuilder.build(project.options)
            if site.hasErrors {
                // Refused input must be refused at a place in the file.
                for diagnostic in site.diagnostics where diagnostic.severity == .error {
                    #expect(diagnostic.location.file.hasSuffix("trap.json") && diagnostic.location.line >= 1, "U+\(code): \(diagnostic)")
                }
                continue
            }
            built += 1
            let label = "L" + "x" + String(scalar) + "\"\u{301} autofocus onfocus=alert(1) y='\u{301}"
            for path in ["index.html", "examples/trap.html"] {
                let html = String(decoding: site.files[path] ?? [], as: UTF8.self)
                var markup = "", data: [String] = []
                var rest = Substring(html)
                while let start = rest.range(of: "class=\"rowmotion-data\">"),
                      let end = rest.range(of: "</script>", range: start.upperBound..<rest.endIndex) {
                    markup += rest[..<start.upperBound]
                    data.append(String(rest[start.upperBound..<end.lowerBound]))
                    rest = rest[end.lowerBound...]
                }
                markup += rest
                let quoteTrap = "\"\u{301} autofocus", apostropheTrap = "'\u{301}"
                #expect(!markup.contains(quoteTrap), "U+\(code) in \(path)")
                #expect(!markup.contains(apostropheTrap), "U+\(code) in \(path)")
                let escapedID = HTMLText.escape("x" + String(scalar) + quoteTrap)
                for attribute in ["data-section-id=\"s", "data-item-id=\"r", "data-field=\"f"] {
                    let expected = attribute + escapedID
                    #expect(markup.contains(expected), "U+\(code): \(attribute) in \(path)")
                }
                // The player's data reads back to the very label.
                for text in data {
                    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "U+\(code)")
                    #expect((object["labels"] as? [String])?.first == label, "U+\(code) in \(path)")
                }
            }
        }
        // Only control characters may be refused (the file format forbids them in text).
        #expect(built >= Self.categorySamples.count - 1, "\(built) of \(Self.categorySamples.count) categories built")
    }
}
