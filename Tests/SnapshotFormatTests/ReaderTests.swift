import Diagnostics
import Foundation
import ListDiff
import SeededRandom
@testable import SnapshotFormat
import Testing

@Suite("Snapshot reader")
struct ReaderTests {
    @Test func itemsShorthand_isOneUnnamedSection_andScalarRowsAreTheirOwnIdAndTitle() throws {
        let sequence = try #require(read("steps:\n  - items: [a, 7]\n").sequence)
        let section = try #require(sequence.steps.first?.snapshot.sections.first)
        #expect(section.id == "")
        #expect(section.rows.map(\.id) == ["a", "7"])
        #expect(section.rows[1][field: "title"] == .string("7"))
        #expect(sequence.title == "test")
        #expect(sequence.steps[0].label == "Initial")
    }

    @Test func numericIDs_becomeStrings() throws {
        let sequence = try #require(read("steps:\n  - sections:\n      - {id: 1, items: [{id: 42, n: 1.5}]}\n").sequence)
        let section = try #require(sequence.steps.first?.snapshot.sections.first)
        #expect(section.id == "1")
        #expect(section.rows.first?.id == "42")
        #expect(section.rows.first?[field: "n"] == .double(1.5))
    }

    /// YAML 1.2 core schema: `no` is a string (the Norway problem), quoted
    /// numbers are strings, `true` is a boolean.
    @Test func yamlScalars_followTheCoreSchema() throws {
        let sequence = try #require(read("steps:\n  - items:\n      - {id: no, a: off, b: '5', c: true, d: ~}\n").sequence)
        let row = try #require(sequence.steps.first?.snapshot.sections.first?.rows.first)
        #expect(row.id == "no")
        #expect(row[field: "a"] == .string("off"))
        #expect(row[field: "b"] == .string("5"))
        #expect(row[field: "c"] == .bool(true))
        #expect(row[field: "d"] == .null)
    }

    @Test func options_areRead() throws {
        let text = """
            title: T
            description: D
            animation: left
            animations: {delete: right}
            identity: key
            version: v
            moveHint: h
            prefer: down
            steps:
              - items: [{key: a, v: 1, h: 2, x: 3}]
            """
        let sequence = try #require(read(text).sequence)
        #expect(sequence.title == "T")
        #expect(sequence.description == "D")
        #expect(sequence.animations == RowAnimations(insert: .left, delete: .right, reload: .left))
        #expect(sequence.identity == .field("key"))
        #expect(sequence.prefer == .down)
        let row = try #require(sequence.steps.first?.snapshot.sections.first?.rows.first)
        #expect(row.id == "a")
        #expect(row.version == .int(1))
        #expect(row.moveHint == .int(2))
        #expect(row.fields.map(\.name) == ["v", "h", "x"])
    }

    @Test func contentIdentity_allowsRepeats_andPairsThemByOccurrence() throws {
        let text = "identity: content\nsteps:\n  - items: [{n: A}, {n: B}]\n  - items: [{n: A}, {n: B}, {n: A}]\n"
        let sequence = try #require(read(text).sequence)
        let changesets = try sequence.changesets()
        #expect(changesets.first?.batches == [Batch(rowInserts: [RowPath(section: 0, row: 2)])])
    }

    @Test func json_sameModelAsYAML() throws {
        let yaml = try #require(read("title: X\nsteps:\n  - items: [{id: a, t: 1}]\n").sequence)
        let json = try #require(read(#"{"title": "X", "steps": [{"items": [{"id": "a", "t": 1}]}]}"#, name: "test.json").sequence)
        #expect(yaml.steps.map(\.snapshot) == json.steps.map(\.snapshot))
        #expect(yaml.title == json.title)
    }

    @Test func everyErrorInAFile_isReported() {
        let (sequence, diagnostics) = read("titel: x\nanimation: slide\nsteps:\n  - items: [{id: a}, {id: a}]\n  - {}\n")
        #expect(sequence == nil)
        #expect(diagnostics.count == 4)
        #expect(diagnostics.contains { $0.contains("note: row 'a' first appears here") })
    }

    @Test func unsupportedExtension_isAnError() {
        #expect(read("steps: []", name: "notes.txt").diagnostics == ["notes.txt:1:1: error: expected a .yml, .yaml or .json file"])
    }
}

/// The JSON reader against the edge cases of RFC 8259.
@Suite("JSON reader")
struct JSONReaderTests {
    func parse(_ text: String) -> Result<LocatedValue, JSONReader.SyntaxError> {
        Result { () throws(JSONReader.SyntaxError) in try JSONReader.parse(Array(text.utf8), file: "t.json") }
    }

    func string(_ text: String) -> String? {
        guard case .success(let value) = parse(text), case .string(let result) = value.kind else { return nil }
        return result
    }

    func error(_ text: String) -> String? {
        guard case .failure(let error) = parse(text) else { return nil }
        return "\(error.location.line):\(error.location.column): \(error.message)"
    }

    @Test func escapes_andSurrogatePairs() {
        #expect(string(#""\"\\\/\b\f\n\r\t""#) == "\"\\/\u{08}\u{0C}\n\r\t")
        #expect(string(#""\u00e9\u0041""#) == "éA")
        #expect(string(#""\ud83d\ude00""#) == "😀")
        #expect(string("\"é😀\"") == "é😀")
    }

    @Test func numbers() {
        guard case .success(let value) = parse("[0, -0, 12, -3.5e2, 1E+2, 9223372036854775807, 9223372036854775808]"),
              case .array(let items) = value.kind else { Issue.record("did not parse"); return }
        let kinds = items.map { item -> String in
            switch item.kind {
            case .integer(let n): return "i\(n)"
            case .number(let d): return "d\(d)"
            default: return "?"
            }
        }
        #expect(kinds == ["i0", "i0", "i12", "d-350.0", "d100.0", "i9223372036854775807", "d9.223372036854776e+18"])
    }

    @Test func whitespace_bom_andEmptyContainers() {
        guard case .success(let value) = parse("\u{FEFF} \t\r\n{ \"a\" : [ ] , \"b\" : { } }\n"),
              case .object(let members) = value.kind else { Issue.record("did not parse"); return }
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members[1].keyLocation.line == 2)
    }

    @Test func locations_countUnicodeScalars() {
        guard case .success(let value) = parse("{\"é\": 1, \"b\": 2}"), case .object(let members) = value.kind else {
            Issue.record("did not parse"); return
        }
        #expect(members[1].keyLocation.column == 10)
    }

    @Test func invalidDocuments_areLocatedErrors() {
        #expect(error("") == "1:1: unexpected end of file, expected a value")
        #expect(error("[1,]") == "1:4: unexpected character ']', expected a value in the list that starts at 1:1")
        #expect(error("{'a': 1}") == "1:2: unexpected character ''', expected a key in double quotes in the object that starts at 1:1")
        #expect(error("[01]") == "1:2: invalid number: leading zeros are not allowed")
        #expect(error("[1.]") == "1:2: invalid number: expected a digit after '.'")
        #expect(error("[-]") == "1:2: invalid number: expected a digit")
        #expect(error("[tru]") == "1:2: invalid literal, expected 'true'")
        #expect(error("\"a\u{01}\"") == "1:3: control character 0x1 must be escaped in a string")
        #expect(error("\"\\ude00\"") == "1:2: unpaired surrogate \\uDE00 in a string")
        #expect(error("\"\\u12\"") == "1:2: invalid \\u escape: expected four hexadecimal digits")
        #expect(error("[1] [2]") == "1:5: unexpected character '[' after the top-level value")
        #expect(error("{\"a\" 1}") == "1:6: unexpected character '1', expected ':' after the key \"a\" in the object that starts at 1:1")
        #expect(error("[1e400]") == "1:2: number out of range: 1e400")
        #expect(error(String(repeating: "[", count: 600)) == "1:513: nesting deeper than 512 levels")
    }
}

/// YAML mistakes in words of their own (issue 18, item 6).
@Suite struct YAMLMessageTests {
    @Test func aTabInTheIndentation_isCalledATab() {
        let (_, diagnostics) = SnapshotReader.read(bytes: Array("title: A\nsteps:\n  - items: [a]\n\t- items: [b]\n".utf8), file: "tab.yml")
        #expect(diagnostics.map(\.description) == ["tab.yml:4:1: error: a tab here: YAML indents with spaces only (replace the tab with spaces)"])
    }

    @Test func aDuplicateKey_isReportedAtTheRepeat_withTheFirstAsANote() {
        let text = "title: A\nsteps:\n  - items: [a]\n    label: one\n    label: two\n"
        let (_, diagnostics) = SnapshotReader.read(bytes: Array(text.utf8), file: "dup.yml")
        #expect(diagnostics.map(\.description) == ["dup.yml:5:5: error: duplicate key 'label' in a mapping; each key may appear once\n"
                                                   + "dup.yml:4:5: note: 'label' first appears here"])
    }

    @Test func anUnknownKeyWithNoNearMiss_listsTheValidKeys() {
        let text = "title: A\nanimations:\n  remove: fade\nsteps:\n  - items: [a]\n  - items: [b]\n"
        let (_, diagnostics) = SnapshotReader.read(bytes: Array(text.utf8), file: "unknown.yml")
        #expect(diagnostics.map(\.description) == ["unknown.yml:3:3: error: unknown key 'remove' in 'animations'; valid keys: insert, delete, reload"])
    }
}

@Suite("UTF-8 check")
struct UTF8CheckTests {
    /// The first invalid byte, scalar by scalar from the start: what the
    /// reader's check (ASCII eight bytes at a time first) must agree with.
    static func reference(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// Seeded random files of ASCII runs, valid scalars of every length and
    /// broken sequences, at every alignment around the eight-byte steps.
    @Test func randomBytes_firstInvalidOffset_asScalarByScalar() {
        let seed: UInt64 = 20_261_125
        var random = SeededGenerator(seed: seed)
        let pieces: [[UInt8]] = [Array("abcdefgh".utf8), Array("a".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8),
                                 [0x80], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x00], [0x7F]]
        for round in 0..<3_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                let piece = pieces.randomElement(using: &random)!
                // Mostly valid pieces, so the broken ones land at every offset.
                if piece.count == 1, piece[0] >= 0x80 || piece == [0xC3], Int.random(in: 0..<4, using: &random) > 0 { continue }
                bytes += piece
            }
            #expect(SnapshotReader.firstInvalidUTF8Offset(bytes) == Self.reference(bytes), "seed \(seed), round \(round): \(bytes)")
        }
    }
}
