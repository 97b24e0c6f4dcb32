import Foundation
import ListDiff
import SeededRandom
@testable import SnapshotFormat
import Testing

/// Seeded random byte and token edits of every example: the reader must
/// never crash, and must either read the file or point at a real place in it.
@Suite("Mutation fuzzing")
struct MutationFuzzTests {
    static let tokens: [[UInt8]] = [":", "-", "[", "]", "{", "}", ",", "\"", "'", "\n", " ", "\t", "#", "&a", "*a", "!!int",
                                    "id", "items", "sections", "steps", "true", "null", "0", "-1", "1e999", "\\u", "\u{FFFF}", "é"]
        .map { Array($0.utf8) }

    static func mutate(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0 where !bytes.isEmpty: bytes.remove(at: position)
            case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            case 2 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...127, using: &random)
            case 3: bytes.insert(contentsOf: tokens.randomElement(using: &random)!, at: position)
            case 4: bytes = Array(bytes.prefix(position))
            case 5:
                // Swap two lines.
                var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                if lines.count > 2 {
                    let a = Int.random(in: 0..<lines.count, using: &random), b = Int.random(in: 0..<lines.count, using: &random)
                    lines.swapAt(a, b)
                    bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
                }
            default:
                // Duplicate a slice (a row, a key, a bracket).
                let length = min(Int.random(in: 1...40, using: &random), bytes.count - position)
                if length > 0 { bytes.insert(contentsOf: bytes[position..<position + length], at: position) }
            }
        }
        return bytes
    }

    @Test func mutatedExamples_neverCrash_andErrorsPointIntoTheFile() throws {
        let base = UInt64(ProcessInfo.processInfo.environment["ROWMOTION_FUZZ_SEED"] ?? "") ?? 42
        var random = SeededGenerator(seed: base)
        var mutations = 0, readable = 0
        for url in ExamplesTests.examples {
            let original = try [UInt8](Data(contentsOf: url))
            // The large example is 240 KB: fewer rounds keep the run short.
            let rounds = original.count > 50_000 ? 40 : 400
            for round in 0..<rounds {
                let bytes = Self.mutate(original, using: &random)
                mutations += 1
                let name = url.lastPathComponent
                let (sequence, diagnostics) = SnapshotReader.read(bytes: bytes, file: name)
                if let sequence {
                    readable += 1
                    // A file that reads must also diff.
                    _ = try? sequence.changesets()
                    continue
                }
                // YAML breaks lines at \n, \r and \r\n (and NEL, LS, PS), as editors do.
                let text = String(decoding: bytes, as: UTF8.self)
                let lines = 1 + text.unicodeScalars.filter { ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) }.count
                let errors = diagnostics.filter { $0.severity == .error }
                #expect(!errors.isEmpty, "\(name) round \(round) (seed \(base)): no sequence and no error")
                for diagnostic in diagnostics {
                    #expect(diagnostic.location.line >= 1 && diagnostic.location.line <= lines + 1 && diagnostic.location.column >= 1,
                            "\(name) round \(round) (seed \(base)): \(diagnostic) points outside the file")
                }
            }
        }
        #expect(mutations >= 4_000)
        // Some edits are harmless; most are not. Both paths must be exercised.
        #expect(readable > 0 && readable < mutations)
    }
}
