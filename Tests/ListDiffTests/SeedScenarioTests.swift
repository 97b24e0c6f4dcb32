import ListDiff
import Testing

/// The scenarios of the five seed articles, as named tests.
@Suite("Seed scenarios")
struct SeedScenarioTests {
    /// Seed 000: a profile's typed sections; the attributes section goes, an
    /// email section comes, a friend is renamed. UIKit takes it in one batch.
    @Test func profile_sectionSwapAndRenamedFriend_oneBatchWithReload() throws {
        let old = Snapshot<String, Row>(sections: [
            Section(id: "name", rows: [row("name", [("text", .string("Ada Lovelace"))])]),
            Section(id: "about", rows: [row("about", [("text", .string("Mathematician"))])]),
            Section(id: "attributes", rows: [row("height"), row("eyes")]),
            Section(id: "friends", rows: [row("bob", [("name", .string("Bob"))]), row("carol", [("name", .string("Carol"))])]),
        ])
        var new = old
        new.sections[2] = Section(id: "email", rows: [row("email", [("text", .string("ada@example.com"))])])
        new.sections[3].rows[1] = row("carol", [("name", .string("Caroline"))])

        let changeset = try assertReproducible(old, new)
        try #require(changeset.stages.count == 1)
        #expect(changeset.stages[0].batch == Batch(sectionDeletes: [2], sectionInserts: [2], rowReloads: [RowPath(section: 3, row: 1)]))
        #expect(changeset.rows.first { $0.id == "carol" }?.changedFields == ["name"])
    }

    /// Seed 001 and DESIGN.md's JSON example: Carol's new message moves her
    /// chat to the top (her move hint changed), Bob's chat is deleted, Erin's
    /// is new, and Alice's preview text changes. Alice does not move, but Carol's move shifts her,
    /// so UIKit would put her reloaded cell at row 0 (rule 19): her reload
    /// waits for a second batch.
    @Test func messenger_moveAndShiftedReload_reloadDeferredToSecondBatch() throws {
        let old = Snapshot(sectionID: "chats", rows: [
            row("alice", [("preview", .string("See you"))], hint: .int(1)),
            row("bob", [("preview", .string("Ok"))], hint: .int(2)),
            row("carol", [("preview", .string("Hi"))], hint: .int(3)),
            row("dave", [("preview", .string("Thanks"))], hint: .int(4)),
        ])
        let new = Snapshot(sectionID: "chats", rows: [
            row("carol", [("preview", .string("Hi"))], hint: .int(9)),
            row("alice", [("preview", .string("See you soon"))], hint: .int(1)),
            row("dave", [("preview", .string("Thanks"))], hint: .int(4)),
            row("erin", [("preview", .string("Hello"))], hint: .int(8)),
        ])
        let changeset = try assertReproducible(old, new)
        try #require(changeset.stages.count == 2)
        #expect(changeset.stages[0].batch == Batch(
            rowDeletes: [RowPath(section: 0, row: 1)], rowInserts: [RowPath(section: 0, row: 3)],
            rowMoves: [RowMove(from: RowPath(section: 0, row: 2), to: RowPath(section: 0, row: 0))]))
        #expect(changeset.stages[1].batch == Batch(rowReloads: [RowPath(section: 0, row: 1)]))
        #expect(changeset.stages.map(\.role) == [.structure, .reloads])
        #expect(changeset.stages[0].after.layout == new.layout)
        let carol = try #require(changeset.rows.first { $0.id == "carol" })
        #expect(carol.kind == .moved)
    }

    /// A chat that moves and changes: moved first, reloaded at its new place.
    @Test func messenger_chatMovesAndChanges_movedThenReloadedAtNewPlace() throws {
        let old = Snapshot(sectionID: "chats", rows: [row("alice"), row("carol", [("preview", .string("Hi"))])])
        let new = Snapshot(sectionID: "chats", rows: [row("carol", [("preview", .string("Lunch?"))]), row("alice")])
        let changeset = try assertReproducible(old, new, options: DiffOptions(prefer: .up))
        #expect(changeset.batches == [
            Batch(rowMoves: [RowMove(from: RowPath(section: 0, row: 1), to: RowPath(section: 0, row: 0))]),
            Batch(rowReloads: [RowPath(section: 0, row: 0)]),
        ])
        #expect(changeset.rows.first?.kind == [.moved, .reloaded])
    }

    /// The move hint decides who moved: without it, keeping Carol in place
    /// and moving Alice down is just as minimal.
    @Test func messenger_moveHint_picksTheChatWithTheNewMessage() throws {
        let old = Snapshot(sectionID: "chats", rows: [row("alice", hint: .int(1)), row("carol", hint: .int(3))])
        let new = Snapshot(sectionID: "chats", rows: [row("carol", hint: .int(9)), row("alice", hint: .int(1))])
        let changeset = try assertReproducible(old, new)
        #expect(changeset.rows.map(\.id) == ["carol"])
        #expect(changeset.stages[0].batch.rowMoves == [RowMove(from: RowPath(section: 0, row: 1), to: RowPath(section: 0, row: 0))])
    }

    /// Seed 002: episodes grouped by their first tag, refreshed with random
    /// filtering and shuffling: rows cross between surviving sections as
    /// moves, rows of a vanished tag are deleted and inserted elsewhere.
    @Test func episodesByTag_regrouping_movesAcrossSectionsAndReinserts() throws {
        let old = snapshot([("swift", ["e1", "e2", "e3"]), ("uikit", ["e4", "e5"]), ("combine", ["e6", "e7"])])
        let new = snapshot([("uikit", ["e5", "e1"]), ("swift", ["e2", "e6"]), ("testing", ["e7", "e8"])])
        let changeset = try assertReproducible(old, new)
        let kinds = Dictionary(uniqueKeysWithValues: changeset.rows.map { ($0.id, $0.kind) })
        #expect(kinds["e1"] == .moved)               // swift → uikit, both survive
        #expect(kinds["e6"] == [.deleted, .inserted]) // combine is deleted (rule 13)
        #expect(kinds["e7"] == [.deleted, .inserted]) // testing is inserted (rule 14)
        #expect(kinds["e3"] == .deleted)
        #expect(kinds["e4"] == .deleted)
        #expect(kinds["e8"] == .inserted)
        #expect(changeset.moveCount == minimumMoves(old, new))
    }

    /// Seed 003: "Test Item 1…5"; items 1, 3 and 5 are deleted, then
    /// re-inserted.
    @Test func originalRevised_deleteAndReinsertAlternateRows() throws {
        let original = list(["Test Item 1", "Test Item 2", "Test Item 3", "Test Item 4", "Test Item 5"])
        let revised = list(["Test Item 2", "Test Item 4"])
        let deleting = try assertReproducible(original, revised)
        let paths = [0, 2, 4].map { RowPath(section: 0, row: $0) }
        #expect(deleting.batches == [Batch(rowDeletes: paths)])
        let inserting = try assertReproducible(revised, original)
        #expect(inserting.batches == [Batch(rowInserts: paths)])
        // The article writes its deletes in descending order: UIKit does not mind.
        let handWritten = Batch(rowDeletes: paths.reversed())
        #expect(Validator().validate(handWritten, before: original.layout, after: revised.layout).isEmpty)
    }

    /// Seed 004: a task table where one task's `isComplete` flips: only that
    /// field is reported, in a single reload.
    @Test func taskTable_oneFieldFlips_onlyThatFieldChanged() throws {
        func task(_ id: String, _ title: String, _ done: Bool, _ assignee: String) -> Row {
            row(id, [("title", .string(title)), ("isComplete", .bool(done)), ("assignee", .string(assignee))])
        }
        let old = Snapshot(sectionID: "tasks", rows: [task("t1", "Write", false, "ana"), task("t2", "Test", false, "bo")])
        let new = Snapshot(sectionID: "tasks", rows: [task("t1", "Write", true, "ana"), task("t2", "Test", false, "bo")])
        let changeset = try assertReproducible(old, new)
        #expect(changeset.batches == [Batch(rowReloads: [RowPath(section: 0, row: 0)])])
        #expect(changeset.rows == [RowChange(id: "t1", old: RowPath(section: 0, row: 0), new: RowPath(section: 0, row: 0),
                                             kind: .reloaded, changedFields: ["isComplete"])])
    }

    /// Seed 001: a server sends `[1, 2, 3, 3, 4, 5]`; the engine names the id
    /// and both positions instead of crashing or guessing.
    @Test func duplicateIDsFromServer_areATypedError() {
        let old = list(["1", "2", "3", "4", "5"])
        let new = list(["1", "2", "3", "3", "4", "5"])
        #expect(throws: ListDiffError.duplicateRowID(id: "3", side: .new, first: RowPath(section: 0, row: 2),
                                                     second: RowPath(section: 0, row: 3))) {
            try Changeset(from: old, to: new)
        }
        #expect(throws: ListDiffError.duplicateRowID(id: "3", side: .old, first: RowPath(section: 0, row: 2),
                                                     second: RowPath(section: 0, row: 3))) {
            try Changeset(from: new, to: old)
        }
    }
}
