import ListDiff
import SeededRandom
import Testing

/// Counts the hash and equality calls the engine makes on identities.
final class CallCounter {
    var hashes = 0
    var equalities = 0
}

struct CountedID: Hashable {
    var value: Int
    let counter: CallCounter

    static func == (lhs: CountedID, rhs: CountedID) -> Bool {
        lhs.counter.equalities += 1
        return lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        counter.hashes += 1
        hasher.combine(value)
    }
}

struct CountedRow: DiffableRow, Equatable {
    var id: CountedID
}

@Suite("Complexity")
struct ComplexityTests {
    func calls(old: [Int], new: [Int], sectionSize: Int? = nil) throws -> (hashes: Int, equalities: Int, rows: Int) {
        let counter = CallCounter()
        func snapshot(_ ids: [Int]) -> Snapshot<Int, CountedRow> {
            let rows = ids.map { CountedRow(id: CountedID(value: $0, counter: counter)) }
            guard let size = sectionSize else { return Snapshot(sectionID: 0, rows: rows) }
            return Snapshot(sections: stride(from: 0, to: rows.count, by: size).map {
                Section(id: $0 / size, rows: Array(rows[$0..<min($0 + size, rows.count)]))
            })
        }
        let old = snapshot(old), new = snapshot(new)
        counter.hashes = 0
        counter.equalities = 0
        _ = try Changeset(from: old, to: new)
        return (counter.hashes, counter.equalities, old.rowCount + new.rowCount)
    }

    /// The worst case for matching: no row keeps its neighbour.
    @Test func reversedList_hashesEachIdentityOnce() throws {
        let ids = Array(0..<20_000)
        let counted = try calls(old: ids, new: ids.reversed())
        #expect(counted.hashes <= counted.rows)
        #expect(counted.equalities <= 4 * counted.rows)
    }

    /// Rows that keep their neighbours cost one hash per run on the old side.
    @Test func insertAtFront_hashesTheNewSideOnly() throws {
        let ids = Array(0..<20_000)
        let counted = try calls(old: ids, new: [-1] + ids)
        #expect(counted.hashes <= ids.count + 2)
    }

    @Test func sectionedShuffle_staysLinearInCalls() throws {
        var random = SeededGenerator(seed: 7)
        let ids = Array(0..<20_000)
        let counted = try calls(old: ids, new: ids.shuffled(using: &random), sectionSize: 100)
        #expect(counted.hashes <= counted.rows)
        #expect(counted.equalities <= 4 * counted.rows)
    }
}
