import Foundation
@testable import SnapshotFormat
import Testing

/// Files written to cost their reader time and memory, or to read as
/// something other than what they say: each is refused where it is written,
/// in less time than it takes to expand (issue 13, items 4 and 12).
@Suite struct HostileInputTests {
    /// The "billion laughs" file: each level lists the one before nine times.
    static func laughs(levels: Int, tail: String) -> String {
        var lines = ["a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]"]
        let names = "abcdefghijklmnop".map(String.init)
        for level in 1..<levels {
            lines.append("\(names[level]): &\(names[level]) [" + Array(repeating: "*\(names[level - 1])", count: 9).joined(separator: ",") + "]")
        }
        return lines.joined(separator: "\n") + "\n" + tail.replacingOccurrences(of: "LAST", with: names[levels - 1])
    }

    @Test func aliasBomb_isRefusedAtItsFirstAlias_beforeAnythingExpands() {
        // Nine levels: 9^9 copies of "lol" once expanded (Yams went past
        // 11 GB in a minute); the first alias is on line 2, column 8.
        let (sequence, diagnostics) = read(Self.laughs(levels: 9, tail: "steps: *LAST\n"))
        #expect(sequence == nil)
        #expect(diagnostics == ["test.yml:2:8: error: YAML aliases ('*name') are not supported in snapshot files; write the value out where it is used"])
    }

    @Test func aliasBombAsAMappingKey_isRefusedToo() {
        // Yams compares mapping keys by value: an aliased key costs as much
        // as the whole expansion before composing finishes.
        let (_, diagnostics) = read(Self.laughs(levels: 9, tail: "? *LAST\n: 1\n? *h\n: 2\nsteps: []\n"))
        #expect(diagnostics.first?.hasPrefix("test.yml:2:8: error: YAML aliases") == true)
    }

    @Test func aliasInsideAQuotedString_isText() {
        let (sequence, diagnostics) = read("title: \"*not an alias\"\nsteps:\n  - items: ['*', \"*b\"]\n")
        #expect(diagnostics == [])
        #expect(sequence?.title == "*not an alias")
    }

    @Test func aliasInAMarkdownFrontMatter_isLocatedInThePage() throws {
        let value = LocatedYAML.parse("a: &x 1\nb: *x\n", file: "page.md", lineOffset: 1)
        guard case .failure(let diagnostic) = value else { Issue.record("an alias was accepted"); return }
        #expect(diagnostic.description.hasPrefix("page.md:3:4: error: YAML aliases"))
    }

    /// A number past a Double in a page's front matter was located a line
    /// above it (the value's place was not shifted to the page's line).
    @Test func numberOutOfRange_inAFrontMatter_isLocatedOnItsLineOfThePage() throws {
        let value = LocatedYAML.parse("title: x\norder: 1e400\n", file: "page.md", lineOffset: 1)
        guard case .failure(let diagnostic) = value else { Issue.record("1e400 was accepted"); return }
        #expect(diagnostic.description.hasPrefix("page.md:3:8: error: number out of range: 1e400"), "\(diagnostic.description)")
    }

    @Test func byteOrderMark_beforeYAML_isIgnoredAsJSONAndMarkdownIgnoreIt() {
        let (sequence, diagnostics) = read("\u{FEFF}title: BOM\nsteps:\n  - items: [a]\n")
        #expect(diagnostics == [])
        #expect(sequence?.title == "BOM")
    }

    @Test func minusZeroAndZero_areTheSameIdInYAMLAsInJSON() {
        let yaml = read("steps:\n  - items: [0, -0]\n").diagnostics.first?.split(separator: "\n").first
        let json = read(#"{"steps": [{"items": [0, -0]}]}"#, name: "test.json").diagnostics.first?.split(separator: "\n").first
        #expect(yaml == "test.yml:2:16: error: duplicate row id '0' in this snapshot")
        #expect(json == "test.json:1:26: error: duplicate row id '0' in this snapshot")
    }

    @Test func numberTooLargeForADouble_isOutOfRangeInYAMLAsInJSON() {
        #expect(read("steps:\n  - items: [1e400]\n").diagnostics == ["test.yml:2:13: error: number out of range: 1e400"])
        #expect(read(#"{"steps": [{"items": [1e400]}]}"#, name: "test.json").diagnostics == ["test.json:1:23: error: number out of range: 1e400"])
        // Infinity spelled as YAML's word stays a word.
        #expect(read("steps:\n  - items: [.inf]\n").diagnostics == [])
    }

    @Test func nulInYAML_isLocatedAtTheNul() {
        let diagnostics = read("steps:\n  - items: [a]\u{0}\n").diagnostics
        #expect(diagnostics == ["test.yml:2:15: error: cannot read YAML: control characters are not allowed (U+0000)"])
    }

    @Test func nestingTooDeep_saysSoWithoutNamingLibyamlsAPI() {
        let diagnostics = read("steps: " + String(repeating: "[", count: 1_100) + String(repeating: "]", count: 1_100) + "\n").diagnostics
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.contains("error: lists and mappings nest deeper than 1000 levels") == true)
        #expect(diagnostics.first?.contains("yaml_set_max_nest_level") == false)
    }

    // MARK: Limits

    static let small = SnapshotLimits(fileBytes: 200, rowsPerSnapshot: 3, fieldsPerRow: 2, idBytes: 8)

    static func readLimited(_ text: String, name: String = "test.yml") -> [String] {
        SnapshotReader.read(bytes: Array(text.utf8), file: name, limits: small).diagnostics.map(\.description)
    }

    @Test func fileOverTheSizeLimit_isRefusedBeforeParsing() {
        let text = "steps:\n  - items: [" + Array(repeating: "a", count: 120).joined(separator: ", ") + "]\n"
        #expect(Self.readLimited(text) == ["test.yml:1:1: error: the file is \(text.utf8.count) bytes; files are limited to 200 bytes"])
    }

    @Test func fileOverTheSizeLimit_onDisk_isRefusedWithoutReadingIt() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-limit-\(UUID().uuidString).yml")
        try Data(repeating: UInt8(ascii: " "), count: 300).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let diagnostics = SnapshotReader.read(path: url.path, displayPath: "big.yml", limits: Self.small).diagnostics.map(\.description)
        #expect(diagnostics == ["big.yml:1:1: error: the file is 300 bytes; files are limited to 200 bytes"])
    }

    @Test func rowsOverTheLimit_areRefusedAtTheFirstRowPastIt_acrossSections() {
        let text = "steps:\n  - sections:\n    - {id: s, items: [a, b]}\n    - {id: t, items: [c, d]}\n"
        #expect(Self.readLimited(text) == ["test.yml:4:26: error: this snapshot has more than 3 rows, the limit for one snapshot"])
    }

    @Test func fieldsOverTheLimit_areRefusedAtTheRow() {
        #expect(Self.readLimited("steps:\n  - items: [{id: a, x: 1, y: 2}]\n")
                    == ["test.yml:2:13: error: this row has 3 fields; rows are limited to 2"])
    }

    @Test func idsOverTheLimit_areRefused_rowSectionPlainAndNumeric() {
        #expect(Self.readLimited("steps:\n  - items: [{id: abcdefghi}]\n") == ["test.yml:2:13: error: a row id is 9 bytes long; ids are limited to 8 bytes"])
        #expect(Self.readLimited("steps:\n  - items: [abcdefghi]\n") == ["test.yml:2:13: error: a row id is 9 bytes long; ids are limited to 8 bytes"])
        #expect(Self.readLimited("steps:\n  - items: [123456789]\n") == ["test.yml:2:13: error: a row id is 9 bytes long; ids are limited to 8 bytes"])
        #expect(Self.readLimited("steps:\n  - sections: [{id: abcdefghi}]\n") == ["test.yml:2:21: error: a section id is 9 bytes long; ids are limited to 8 bytes"])
        // Bytes, not characters: four two-byte letters fit, five do not.
        #expect(Self.readLimited("steps:\n  - items: [éééé]\n") == [])
        #expect(Self.readLimited("steps:\n  - items: [ééééé]\n").count == 1)
    }

    @Test func standardLimits_acceptAMillionRows() {
        // The figures README gives; a million short rows is about 9 MB here.
        let text = "steps:\n  - items: [" + (0..<1_000_000).map { "r\($0)" }.joined(separator: ",") + "]\n"
        let (sequence, diagnostics) = SnapshotReader.read(bytes: Array(text.utf8), file: "million.yml")
        #expect(diagnostics.isEmpty)
        #expect(sequence?.steps.first?.snapshot.sections.first?.rows.count == 1_000_000)
    }

    @Test func unreadableFiles_sayWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-unreadable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir.yml"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("dangling.yml").path, withDestinationPath: "nowhere.yml")
        defer { try? FileManager.default.removeItem(at: folder) }
        func message(_ name: String) -> String? {
            SnapshotReader.read(path: folder.appendingPathComponent(name).path, displayPath: name).diagnostics.first?.description
        }
        #expect(message("missing.yml") == "missing.yml:1:1: error: cannot read the file: it does not exist")
        #expect(message("dir.yml") == "dir.yml:1:1: error: cannot read the file: it is a folder")
        #expect(message("dangling.yml") == "dangling.yml:1:1: error: cannot read the file: it is a symbolic link to a file that does not exist")
    }
}
