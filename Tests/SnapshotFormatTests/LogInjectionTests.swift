import Reports
@testable import Diagnostics
@testable import SnapshotFormat
import Testing

/// Text from a file never starts a line of its own in what `check`, `build`
/// and `diff` print, nor reaches the terminal as a control sequence (issue 13,
/// item 8: a duplicate id forged a GitHub annotation).
@Suite struct LogInjectionTests {
    static let forged = "x\n::error file=INJECTED,line=1::fake"

    @Test func duplicateIdWithALineBreak_staysOnItsDiagnosticsLine() {
        let text = "steps:\n  - items: [\"x\\n::error file=INJECTED,line=1::fake\", \"x\\n::error file=INJECTED,line=1::fake\"]\n"
        let diagnostics = read(text).diagnostics
        #expect(diagnostics.count == 1)
        let lines = diagnostics[0].split(separator: "\n")
        #expect(lines.count == 2) // the error and its note
        #expect(!lines.contains { $0.hasPrefix("::") })
        #expect(lines[0] == #"test.yml:2:54: error: duplicate row id 'x\n::error file=INJECTED,line=1::fake' in this snapshot"#)
    }

    @Test func escapeSequencesAndBidiControls_areShownNotSent() {
        let message = "row '\u{1B}[2J\u{9B}31m\u{202E}abc\u{7F}\r' changed"
        let diagnostic = Diagnostic.error("x", at: SourceLocation(file: "a.yml", line: 1, column: 1), message)
        #expect(diagnostic.description == #"a.yml:1:1: error: row '\u{1B}[2J\u{9B}31m\u{202E}abc\u{7F}\r' changed"#)
        #expect(!diagnostic.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test func gitHubAnnotations_escapePercentCRAndLF_scalarByScalar() {
        let diagnostic = Diagnostic.error("x", at: SourceLocation(file: "a,b:c.yml", line: 2, column: 3), "100% \r\n" + Self.forged,
                                          notes: [Diagnostic.Note(location: SourceLocation(file: "a.yml", line: 1, column: 1), message: "first")])
        let line = GitHubAnnotation.line(diagnostic)
        // One line: the input's CR LF shown as text, the note joined by %0A.
        #expect(!line.contains("\n") && !line.contains("\r"))
        #expect(line == #"::error file=a%2Cb%3Ac.yml,line=2,col=3::100%25 \r\nx\n::error file=INJECTED,line=1::fake%0Aa.yml:1:1: note: first"#)
        // Actions' own rule on a bare CR LF from elsewhere.
        #expect(GitHubAnnotation.data("a\r\nb%") == "a%0D%0Ab%25")
    }

    @Test func diffsSwiftOutput_keepsALabelWithALineBreakInItsComment() throws {
        let (sequence, diagnostics) = read("steps:\n  - items: [a]\n  - label: \"Add b\\ntableView.reloadData()\"\n    items: [a, b]\n")
        #expect(diagnostics.isEmpty)
        let swift = try DiffReport(file: "t.yml", sequence: #require(sequence)).swiftCalls
        #expect(swift.split(separator: "\n").allSatisfy { $0.hasPrefix("//") || $0.hasPrefix("    //") || $0.hasPrefix("self.tableView.performBatchUpdates") || $0.hasPrefix("    self.tableView.") || $0 == "}" })
        #expect(swift.contains(#"// Step 1: Add b\ntableView.reloadData() (snapshot 0 → 1)"#))
    }
}
