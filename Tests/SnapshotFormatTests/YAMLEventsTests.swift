import Diagnostics
import Foundation
import SeededRandom
@testable import SnapshotFormat
import Testing

/// The reader's fast path (`YAMLEvents`, libyaml's events straight into the
/// located tree) beside Yams' composer, which reads everything the fast path
/// declines: where the fast path gives a tree, it must be Yams' tree, value
/// for value and place for place.
@Suite("YAML from libyaml's events")
struct YAMLEventsTests {
    /// Scalars as YAML writes them: words, every kind the resolver knows
    /// (and near misses), quoted and block styles, characters beyond ASCII.
    static let scalars = [
        "Milk", "r0", "n1-1", "row one", "a-b_c.d", "x: y", "a #b", "Sequence 7", "é", "naïve café", "Zoë — list", "日本", "🙂",
        "0", "7", "-3", "+12", "0x1F", "0o17", "017", "0b101", "1_000", "1:20", "-0", "+0", "3.25", "-1.5e3", "1e400", ".5", "1.",
        ".inf", "-.Inf", ".nan", ".NaN", "2026-11-25", "2001-12-14t21:59:43.10-05:00",
        "true", "True", "TRUE", "tRUE", "false", "False", "FALSE", "yes", "no", "No", "on", "off", "null", "Null", "NULL", "nULL",
        "nil", "none", "~", "<<", "=", "t", "f", "n", "N", "tr", "fals", "nulls",
        "\"quoted\"", "\"42\"", "\"true\"", "\"null\"", "\"\"", "''", "'single'", "'it''s'", "\"tab\\there\"", "\"\\u00e9\"",
        "\"a\\nb\"", "\"x: y\"", "'#not a comment'",
        "|\n  literal\n  block", "|-\n  kept\n", ">\n  folded\n  text", ">-\n  a\n\n  b",
        "!!str 42", "!!int \"7\"", "!custom x", "&anchor value", "*anchor", "\"unterminated", "[unclosed", "{a: 1", "@reserved", "`tick",
    ]
    static let keys = ["id", "title", "items", "steps", "label", "sections", "rows", "name", "1", "\"1\"", "true", "null", "'id'",
                       "\"title\"", "a b", "é", "? complex", "[k]", "{k: v}"]

    /// A random document: block and flow collections nested a few deep,
    /// with comments, blank lines, document markers, CRLF and tabs at times.
    static func document(using random: inout SeededGenerator) -> String {
        func scalar() -> String { scalars.randomElement(using: &random)! }
        func flowScalar() -> String {
            // Flow context: block scalars cannot appear inside brackets.
            var text = scalar()
            while text.hasPrefix("|") || text.hasPrefix(">") { text = scalar() }
            return text
        }
        func flow(_ depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 2 ? 1 : 3), using: &random) {
            case 0: return flowScalar()
            case 1: return "[" + (0..<Int.random(in: 0...4, using: &random)).map { _ in flow(depth + 1) }.joined(separator: ", ") + "]"
            default:
                return "{" + (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    keys.randomElement(using: &random)! + ": " + flow(depth + 1)
                }.joined(separator: ", ") + "}"
            }
        }
        func indented(_ text: String, by indent: String) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }.joined(separator: "\n")
        }
        func block(_ depth: Int, indent: String) -> String {
            let comment = Int.random(in: 0..<8, using: &random) == 0 ? "  # a comment" : ""
            func value(_ depth: Int, under indent: String) -> String {
                switch Int.random(in: 0..<(depth > 3 ? 2 : 5), using: &random) {
                case 0:
                    let text = scalar()
                    // A block scalar's lines sit under its key.
                    return " " + (text.contains("\n") ? indented(text, by: indent + "  ").dropFirst(indent.count + 2) : Substring(text))
                case 1: return " " + flow(depth)
                case 2: return ""
                default: return "\n" + block(depth + 1, indent: indent + (Int.random(in: 0..<4, using: &random) == 0 ? "" : "  "))
                }
            }
            var lines: [String] = []
            if Bool.random(using: &random) {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    lines.append(indent + keys.randomElement(using: &random)! + ":" + value(depth, under: indent) + comment)
                }
            } else {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    lines.append(indent + "-" + value(depth, under: indent + "  ") + comment)
                }
            }
            if Int.random(in: 0..<10, using: &random) == 0 { lines.insert("", at: Int.random(in: 0...lines.count, using: &random)) }
            return lines.joined(separator: "\n")
        }
        var text = block(0, indent: "")
        switch Int.random(in: 0..<12, using: &random) {
        case 0: text = "---\n" + text
        case 1: text = "---\n" + text + "\n...\n"
        case 2: text += "\n---\nsecond: document\n"
        case 3: text = text.replacingOccurrences(of: "\n", with: "\r\n")
        case 4: text = text.replacingOccurrences(of: "  ", with: "\t")
        case 5: text = "# leading comment\n\n" + text
        case 6: text = ""
        case 7: text = flow(0)
        default: break
        }
        return text + (Bool.random(using: &random) ? "\n" : "")
    }

    @Test func fastPath_givesYamsTree_orDeclines() {
        let seed = UInt64(ProcessInfo.processInfo.environment["ROWMOTION_FUZZ_SEED"] ?? "") ?? 2026_1125
        let cases = Int(ProcessInfo.processInfo.environment["ROWMOTION_YAML_CASES"] ?? "") ?? 3_000
        var random = SeededGenerator(seed: seed)
        var taken = 0, mutatedCases = 0
        for number in 0..<cases {
            var text = Self.document(using: &random)
            if number % 3 == 0 {
                // A third with random edits: errors must go to Yams.
                text = String(decoding: MutationFuzzTests.mutate(Array(text.utf8), using: &random), as: UTF8.self)
                mutatedCases += 1
            }
            guard let fast = YAMLEvents.compose(text, file: "t.yml") else { continue }
            taken += 1
            let slow = YAMLBridge.composeWithYams(text, file: "t.yml", lineOffset: 0)
            guard case .success(let expected) = slow else {
                Issue.record("seed \(seed), case \(number): the fast path read a document Yams rejects: \(slow)\n\(text)")
                return
            }
            if String(describing: fast) != String(describing: expected) {
                Issue.record("seed \(seed), case \(number): the trees differ\n\(text)\nfast: \(fast)\nYams: \(expected)")
                return
            }
        }
        // Most well-formed documents take the fast path, or the test checks little.
        #expect(taken > cases / 5, "seed \(seed): only \(taken) of \(cases) documents (\(mutatedCases) edited) took the fast path")
    }

    /// What the fast path must leave to Yams, each for its own reason.
    @Test(arguments: [
        ("", "an empty stream"),
        ("a: 1\n---\nb: 2\n", "a second document"),
        ("a: &x 1\n", "an anchor"),
        ("a: !!str 1\n", "a tag"),
        ("a: !!map {}\n", "a tag on a collection"),
        ("a: 1\na: 2\n", "a key written twice"),
        ("1: a\n\"1\": b\n", "a key written twice in two styles"),
        ("[a]: 1\n", "a list as a key"),
        ("{a: 1}: 2\n", "a mapping as a key"),
        ("a: 1e400\n", "a number no value holds"),
        ("a: [1, 2\n", "a syntax error"),
        ("a:\n\t- b\n", "a tab"),
    ])
    func declines(_ text: String, _ reason: String) {
        #expect(YAMLEvents.compose(text, file: "t.yml") == nil, "\(reason)")
    }

    /// Places as Yams gives them: lines and columns from 1, a block
    /// mapping at its first key, a flow list at its bracket.
    @Test func places_countFromOne() throws {
        let text = "steps:\n  - items: [a, \"b\"]\n    label: é x\n"
        let tree = try #require(YAMLEvents.compose(text, file: "t.yml"))
        #expect(String(describing: tree) == String(describing: try YAMLBridge.composeWithYams(text, file: "t.yml", lineOffset: 0).get()))
        guard case .object(let top) = tree.kind, case .array(let steps) = top[0].value.kind, case .object(let step) = steps[0].kind,
              case .array(let items) = step[0].value.kind else {
            Issue.record("unexpected shape: \(tree)")
            return
        }
        #expect((tree.location.line, tree.location.column) == (1, 1))
        #expect((steps[0].location.line, steps[0].location.column) == (2, 5))
        #expect((items[1].location.line, items[1].location.column) == (2, 16))
        #expect((step[1].keyLocation.line, step[1].keyLocation.column) == (3, 5))
    }
}
