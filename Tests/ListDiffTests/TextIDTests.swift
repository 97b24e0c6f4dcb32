import ListDiff
import Testing

/// Text ids are compared as Swift compares strings: canonically equivalent
/// texts are the same id whatever their bytes ("é" as one scalar or as "e"
/// and a combining accent, U+212A KELVIN SIGN and "K"). The engine tells
/// text ids apart by their first bytes before a string comparison (issue
/// 32); these hold that shortcut to `==`, on every path a pair of ids can
/// take: the rows kept at the ends, a prediction from the row before, the
/// hash table, and the repeat check between the middle and the ends.
@Suite("Text ids")
struct TextIDTests {
    static let pairs: [(String, String)] = [
        ("caf\u{E9}-menu-row", "cafe\u{301}-menu-row"),  // differ from the fourth byte on, one longer
        ("menu-row-caf\u{E9}", "menu-row-cafe\u{301}"),  // the same first eight bytes, one longer
        ("\u{212A}elvin-scale-row", "Kelvin-scale-row"),  // three bytes against one
    ]

    @Test(arguments: 0..<3)
    func canonicallyEquivalentIDs_areOneRow(pair: Int) throws {
        let (before, after) = Self.pairs[pair]
        #expect(before == after)
        let rows = (0..<40).map { "row-\($0)" }
        // Kept between unchanged rows (hash table), at the front of a run
        // (prediction), and after a move (hash table after a failed prediction).
        for (old, new) in [(["top", before, "bottom"], ["top", after, "bottom"]),
                           (rows + [before], rows + [after]),
                           ([before] + rows, rows.reversed() + [after])] {
            let changeset = try Changeset(from: list(old), to: list(new))
            let inserted = changeset.rows.filter { $0.kind.contains(.inserted) }.count
            let deleted = changeset.rows.filter { $0.kind.contains(.deleted) }.count
            #expect(inserted == 0 && deleted == 0, "\(old.count) rows: \(before) → \(after) should be one row kept")
        }
    }

    @Test(arguments: 0..<3)
    func anIDEquivalentToAKeptOne_isARepeat(pair: Int) {
        let (kept, added) = Self.pairs[pair]
        let rows = (0..<40).map { "row-\($0)" } + [kept]
        // Inserted at the top: compared with the rows kept at the end.
        #expect((try? Changeset(from: list(rows), to: list([added] + rows))) == nil, "\(added) repeats \(kept)")
        // Inserted in the middle of a long list: compared with both ends.
        let middle = Array(rows[..<20]) + [added] + Array(rows[20...])
        #expect((try? Changeset(from: list(rows), to: list(middle))) == nil, "\(added) repeats \(kept)")
    }

    @Test func idsSharingTheirFirstBytes_areDifferentRows() throws {
        let old = (0..<40).map { "shared-prefix-\($0)" }
        var new = old
        new[20] = "shared-prefix-x"
        let changeset = try Changeset(from: list(old), to: list(new))
        #expect(changeset.rows.filter { $0.kind.contains(.inserted) }.count == 1)
        #expect(changeset.rows.filter { $0.kind.contains(.deleted) }.count == 1)
    }
}
