import ListDiff
import Testing

@Suite("Batching")
struct BatchingTests {
    @Test func identicalSnapshots_produceNoBatch() throws {
        let changeset = try assertReproducible(list(["a", "b"]), list(["a", "b"]))
        #expect(changeset.isEmpty)
        #expect(changeset.rows.isEmpty)
    }

    @Test func rowMovesAndChanges_reloadIsDeferred() throws {
        let old = Snapshot(sectionID: "", rows: [row("a"), row("b"), row("c", [("text", .string("1"))])])
        let new = Snapshot(sectionID: "", rows: [row("c", [("text", .string("2"))]), row("a"), row("b")])
        let changeset = try assertReproducible(old, new)
        #expect(changeset.batches == [
            Batch(rowMoves: [RowMove(from: RowPath(section: 0, row: 2), to: RowPath(section: 0, row: 0))]),
            Batch(rowReloads: [RowPath(section: 0, row: 0)]),
        ])
        #expect(changeset.stages.map(\.role) == [.structure, .reloads])
    }

    /// d jumps to the top past a, b and c. b's header and c's row change:
    /// neither section moves itself, but d's move displaces both, so the
    /// section reload and the row reload wait for a batch of their own. e
    /// lies beyond d's old place, so its changed row shares the move's batch.
    @Test func sectionsDisplacedByAnotherSectionsMove_reloadLater_othersShareTheBatch() throws {
        func section(_ id: String, header: String? = nil, _ rows: [Row]) -> Section<String, Row> {
            Section(id: id, header: header, rows: rows)
        }
        let old = Snapshot(sections: [
            section("a", [row("a1")]), section("b", header: "B", [row("b1")]),
            section("c", [row("c1", [("v", .int(1))])]), section("d", [row("d1")]),
            section("e", [row("e1", [("v", .int(1))])]),
        ])
        let new = Snapshot(sections: [
            section("d", [row("d1")]), section("a", [row("a1")]), section("b", header: "B, renamed", [row("b1")]),
            section("c", [row("c1", [("v", .int(2))])]), section("e", [row("e1", [("v", .int(2))])]),
        ])
        let changeset = try assertReproducible(old, new)
        #expect(changeset.batches == [
            Batch(sectionMoves: [SectionMove(from: 3, to: 0)], rowReloads: [RowPath(section: 4, row: 0)]),
            Batch(sectionReloads: [2], rowReloads: [RowPath(section: 3, row: 0)]),
        ])
        #expect(changeset.stages.map(\.role) == [.structure, .reloads])
    }

    /// A changed row that deletes and inserts alone place correctly shares
    /// the structural batch, even with moves elsewhere in the section.
    @Test func reloadUnaffectedByMoves_sharesTheStructuralBatch() throws {
        let old = Snapshot(sectionID: "", rows: [row("a", [("v", .int(1))]), row("b"), row("c"), row("d")])
        let new = Snapshot(sectionID: "", rows: [row("a", [("v", .int(2))]), row("c"), row("b"), row("d")])
        let changeset = try assertReproducible(old, new)
        #expect(changeset.stages.count == 1)
        #expect(changeset.batches[0].rowReloads == [RowPath(section: 0, row: 0)])
    }

    @Test func headerChange_reloadsTheSectionInALaterBatch() throws {
        var new = snapshot([("x", ["1", "2"]), ("y", ["3"])])
        new.sections[1].header = "Y!"
        let old = snapshot([("x", ["2", "1"]), ("y", ["3"])])
        let changeset = try assertReproducible(old, new)
        #expect(changeset.stages.map(\.role) == [.structure, .reloads])
        #expect(changeset.batches[1] == Batch(sectionReloads: [1]))
    }

    @Test func headerChangeAlone_isOneBatch() throws {
        var new = snapshot([("x", ["1"])])
        new.sections[0].header = "X"
        let changeset = try assertReproducible(snapshot([("x", ["1"])]), new)
        #expect(changeset.batches == [Batch(sectionReloads: [0])])
    }

    /// Rule 20: rows change inside a section that moves, so the section
    /// moves first and its rows change in a second batch.
    @Test func movedSectionWithRowChanges_isStagedSectionsThenRows() throws {
        let old = snapshot([("x", ["1", "2"]), ("y", ["3", "4"])])
        let new = snapshot([("y", ["4", "3", "5"]), ("x", ["1", "2"])])
        let changeset = try assertReproducible(old, new)
        #expect(changeset.stages.map(\.role) == [.sections, .rows])
        #expect(changeset.stages[0].after.layout == snapshot([("y", ["3", "4"]), ("x", ["1", "2"])]).layout)
        #expect(changeset.batches[1].sectionMoves.isEmpty)
    }

    @Test func rowIntoInsertedSection_isDeletedAndInserted() throws {
        let changeset = try assertReproducible(snapshot([("x", ["1", "2"])]), snapshot([("new", ["2"]), ("x", ["1"])]))
        #expect(changeset.batches == [Batch(sectionInserts: [0], rowDeletes: [RowPath(section: 0, row: 1)])])
        #expect(changeset.rows.first { $0.id == "2" }?.kind == [.deleted, .inserted])
    }

    @Test func versionField_aloneDecidesChanged() throws {
        let old = Snapshot(sectionID: "", rows: [row("a", [("text", .string("x"))], version: .int(1))])
        let sameVersion = Snapshot(sectionID: "", rows: [row("a", [("text", .string("y"))], version: .int(1))])
        let newVersion = Snapshot(sectionID: "", rows: [row("a", [("text", .string("x"))], version: .int(2))])
        #expect(try Changeset(from: old, to: sameVersion).isEmpty)
        #expect(try Changeset(from: old, to: newVersion).batches == [Batch(rowReloads: [RowPath(section: 0, row: 0)])])
    }

    @Test func duplicateSectionIDs_areATypedError() {
        #expect(throws: ListDiffError.duplicateSectionID(id: "x", side: .new, first: 0, second: 1)) {
            try Changeset(from: snapshot([("x", [])]), to: snapshot([("x", ["1"]), ("x", ["2"])]))
        }
    }

    @Test func duplicateAmongDeletedRows_isCaught() {
        #expect(throws: ListDiffError.duplicateRowID(id: "z", side: .old, first: RowPath(section: 0, row: 1),
                                                     second: RowPath(section: 1, row: 0))) {
            try Changeset(from: snapshot([("x", ["a", "z"]), ("y", ["z"])]), to: snapshot([("x", ["a"])]))
        }
    }

    /// Rows that keep their place at the ends are compared, not hashed
    /// (issue 32), yet a repeat between them and the rows between is
    /// caught on either side, in another section too; the repeat that is
    /// not looked for is one in the same places on both sides, which no
    /// call names.
    @Test func repeatsBetweenTheEndsAndTheMiddle_areCaught_inPlaceRepeatsOnBothSidesAreNotNamed() throws {
        #expect(throws: ListDiffError.duplicateRowID(id: "a", side: .new, first: RowPath(section: 0, row: 0),
                                                     second: RowPath(section: 1, row: 1))) {
            try Changeset(from: snapshot([("x", ["a", "b", "c"]), ("y", ["d"])]), to: snapshot([("x", ["a", "b", "c"]), ("y", ["d", "a"])]))
        }
        #expect(throws: ListDiffError.duplicateRowID(id: "c", side: .old, first: RowPath(section: 0, row: 1),
                                                     second: RowPath(section: 0, row: 4))) {
            try Changeset(from: list(["a", "c", "b", "d", "c"]), to: list(["a", "b", "d", "c"]))
        }
        // 'a' twice in the same places on both sides, untouched: no call names it.
        let changeset = try Changeset(from: list(["a", "a", "b"]), to: list(["a", "a", "b", "c"]))
        #expect(changeset.batches == [Batch(rowInserts: [RowPath(section: 0, row: 3)])])
        #expect(try changeset.apply(to: list(["a", "a", "b"])).layout == list(["a", "a", "b", "c"]).layout)
    }

    /// Content identity: equal rows pair up by occurrence.
    @Test func pairByOccurrence_pairsRepeatedIdentitiesInOrder() throws {
        let options = DiffOptions(duplicates: .pairByOccurrence)
        let changeset = try Changeset(from: list(["x", "y", "x"]), to: list(["y", "x", "x", "x"]), options: options)
        #expect(changeset.batches == [Batch(rowInserts: [RowPath(section: 0, row: 3)])]
                || changeset.moveCount == 1)
        let applied = try changeset.apply(to: list(["x", "y", "x"]))
        #expect(applied.layout == list(["y", "x", "x", "x"]).layout)
    }
}
