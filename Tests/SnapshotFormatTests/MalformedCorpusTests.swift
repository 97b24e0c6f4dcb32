import Foundation
@testable import SnapshotFormat
import Testing

/// Every file under Fixtures/malformed is broken on purpose; the file next
/// to it with `.expected` appended holds the exact diagnostics, location
/// and message. `ROWMOTION_RECORD=1 swift test` rewrites them (review the diff).
@Suite("Malformed input corpus")
struct MalformedCorpusTests {
    static let corpus = files(in: fixtures.appendingPathComponent("malformed"), extensions: ["yml", "yaml", "json"])

    @Test func corpus_isLargeEnough() {
        #expect(Self.corpus.count >= 30)
    }

    @Test(arguments: corpus)
    func malformedFile_reportsExactLocatedDiagnostics(_ url: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: url))
        let (sequence, diagnostics) = SnapshotReader.read(bytes: bytes, file: url.lastPathComponent)
        #expect(sequence == nil, "a file with errors must not be half-read")
        #expect(diagnostics.contains { $0.severity == .error })
        let actual = diagnostics.map(\.description).joined(separator: "\n") + "\n"
        let expectedURL = url.appendingPathExtension("expected")
        if ProcessInfo.processInfo.environment["ROWMOTION_RECORD"] == "1" {
            try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(actual == expected)
    }
}
