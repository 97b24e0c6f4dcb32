@testable import ListDiff
import Testing

/// `Int` ids are hashed by a seeded mix, not SipHash (issue 32). The
/// position tables index by the hash's low bits, so ids an adversary or a
/// database picks to share their low bits (multiples of 2^20) must still
/// spread over the slots, and the same id must hash the same within a diff.
@Suite("Integer hash")
struct IntegerHashTests {
    @Test func idsSharingTheirLowBits_spreadOverTheTablesSlots() {
        let seed = IntegerHash.seed()
        let slots = 8_192, ids = 4_096
        var used = Set<Int>()
        for k in 0..<ids { used.insert(IntegerHash.mix(k << 20, seed: seed) & (slots - 1)) }
        // Random hashes fill about slots × (1 − e^(−ids/slots)) ≈ 3,223 slots.
        #expect(used.count > 3_000, "seed \(seed): \(used.count) slots for \(ids) ids")
        var sequential = Set<Int>()
        for k in 0..<ids { sequential.insert(IntegerHash.mix(k, seed: seed) & (slots - 1)) }
        #expect(sequential.count > 3_000, "seed \(seed): \(sequential.count) slots for \(ids) ids")
    }

    @Test func aDiffOfIdsSharingTheirLowBits_pairsEveryRow() throws {
        let old = (0..<20_000).map { Record(id: $0 << 24) }
        var new = Array(old.reversed())
        new.removeLast(100)
        let changeset = try Changeset(from: Snapshot(sectionID: 0, rows: old), to: Snapshot(sectionID: 0, rows: new))
        #expect(changeset.rows.filter { $0.kind.contains(.deleted) }.count == 100)
        #expect(changeset.rows.filter { $0.kind.contains(.inserted) }.isEmpty)
        #expect(changeset.moveCount == 19_899)
    }
}
