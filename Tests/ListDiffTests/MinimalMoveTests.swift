import ListDiff
import Testing

@Suite("Minimal moves")
struct MinimalMoveTests {
    let ten = (0..<10).map { "r\($0)" }

    @Test func insertAtFront_movesNothing() throws {
        let changeset = try assertReproducible(list(ten), list(["new"] + ten))
        #expect(changeset.batches == [Batch(rowInserts: [RowPath(section: 0, row: 0)])])
    }

    @Test func lastRowToFront_isOneMove() throws {
        let changeset = try assertReproducible(list(ten), list([ten[9]] + ten.dropLast()))
        #expect(changeset.batches[0].rowMoves == [RowMove(from: RowPath(section: 0, row: 9), to: RowPath(section: 0, row: 0))])
    }

    @Test func firstRowToEnd_isOneMove() throws {
        let changeset = try assertReproducible(list(ten), list(Array(ten.dropFirst()) + [ten[0]]))
        #expect(changeset.batches[0].rowMoves == [RowMove(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 9))])
    }

    @Test func twoRowsSwapped_areTwoMoves() throws {
        var swapped = ten
        swapped.swapAt(1, 8)
        let changeset = try assertReproducible(list(ten), list(swapped))
        #expect(changeset.moveCount == 2)
    }

    @Test func reversed_movesAllButOne() throws {
        let changeset = try assertReproducible(list(ten), list(ten.reversed()))
        #expect(changeset.moveCount == 9)
    }

    @Test func adjacentSwap_preferUp_reportsTheRisingRow() throws {
        let changeset = try assertReproducible(list(["a", "b"]), list(["b", "a"]), options: DiffOptions(prefer: .up))
        #expect(changeset.batches[0].rowMoves == [RowMove(from: RowPath(section: 0, row: 1), to: RowPath(section: 0, row: 0))])
    }

    @Test func adjacentSwap_preferDown_reportsTheSinkingRow() throws {
        let changeset = try assertReproducible(list(["a", "b"]), list(["b", "a"]), options: DiffOptions(prefer: .down))
        #expect(changeset.batches[0].rowMoves == [RowMove(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 1))])
    }

    /// A move hint outranks the direction preference, which never outranks
    /// minimality.
    @Test func moveHint_outranksPreferDown_butNotMinimality() throws {
        let old = Snapshot(sectionID: "", rows: ["a", "b", "c"].map { row($0, hint: .int(0)) })
        var new = Snapshot(sectionID: "", rows: ["c", "a", "b"].map { row($0, hint: .int(0)) })
        new.sections[0].rows[1].moveHint = .int(1) // a's hint changed, but moving a would take two moves
        let changeset = try assertReproducible(old, new, options: DiffOptions(prefer: .down))
        #expect(changeset.moveCount == 1)
        #expect(changeset.rows.filter { $0.kind.contains(.moved) }.map(\.id) == ["c"])

        var hinted = Snapshot(sectionID: "", rows: ["b", "a"].map { row($0, hint: .int(0)) })
        hinted.sections[0].rows[1].moveHint = .int(5)
        let tie = try assertReproducible(Snapshot(sectionID: "", rows: ["a", "b"].map { row($0, hint: .int(0)) }), hinted,
                                         options: DiffOptions(prefer: .up))
        #expect(tie.rows.filter { $0.kind.contains(.moved) }.map(\.id) == ["a"])
    }

    @Test func sectionsSwapped_isOneSectionMove() throws {
        let changeset = try assertReproducible(snapshot([("x", ["1"]), ("y", ["2"])]), snapshot([("y", ["2"]), ("x", ["1"])]))
        #expect(changeset.batches == [Batch(sectionMoves: [SectionMove(from: 1, to: 0)])]
                || changeset.batches == [Batch(sectionMoves: [SectionMove(from: 0, to: 1)])])
    }

    /// Ten thousand rows with the last moved to the front: one move, found
    /// without a quadratic pass (the block reduction sees two blocks).
    @Test func largeList_lastToFront_isOneMove() throws {
        let ids = (0..<10_000).map(String.init)
        let changeset = try Changeset(from: list(ids), to: list([ids.last!] + ids.dropLast()))
        #expect(changeset.moveCount == 1)
    }
}
