import Foundation
import ListDiff
import Testing

/// A batch UIKit was seen to run, from a public report, and what UIKit did
/// with it: the exception it raised, in its own words, or nothing.
struct ObservedBatch: CustomTestStringConvertible, Sendable {
    /// Where the report is: the batch and the exception text come from it.
    var source: String
    var flavor: Validator.Flavor
    var before: [Int]
    var after: [Int]
    var batch: Batch
    /// The rule of uikit-rules.md and UIKit's message, or nil when UIKit
    /// took the batch and animated it as intended.
    var raised: (rule: Int, message: String)?
    /// How the batch was read off the report, where the report does not
    /// give every number.
    var note: String = ""

    var testDescription: String { source }
}

private func path(_ section: Int, _ row: Int) -> RowPath { RowPath(section: section, row: row) }

/// UIKit prints index paths as `<NSIndexPath: 0x…> {length = 2, path = s - r}`
/// and, since iOS 13, one space after a sentence where it printed two: the
/// object address and the spacing are not part of the rule.
private func normalized(_ message: String) -> String {
    var text = message
    while let start = text.range(of: "<NSIndexPath: 0x"), let end = text[start.upperBound...].range(of: "> ") {
        text.removeSubrange(start.lowerBound..<end.upperBound)
    }
    return text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
}

/// Every row of this table is a batch somebody ran on a real UITableView or
/// UICollectionView and reported in public. Rules with no such report found
/// are listed on the site's UIKit rules page.
let observedBatches: [ObservedBatch] = [
    // Rejected.
    ObservedBatch(
        source: "Apple radar 27041784 (openradar-mirror issue 15192): reload row {1,0} and move section 1 to 0",
        flavor: .tableView, before: [3, 3], after: [3, 3],
        batch: Batch(sectionMoves: [SectionMove(from: 1, to: 0)], rowReloads: [path(1, 0)]),
        raised: (2, "Invalid update: invalid number of rows in section 0.  The number of rows contained in an existing section after the update (3) must be equal to the number of rows contained in that section before the update (3), plus or minus the number of rows inserted or deleted from that section (0 inserted, 1 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out)."),
        note: "\"2 sections with some rows\": the message gives 3 rows in each"),
    ObservedBatch(
        source: "IGListKit issue 690: reload section 3 displaced by a move 2→4, a delete of 4 and an insert at 2",
        flavor: .collectionView, before: [1, 1, 1, 1, 1], after: [1, 1, 1, 1, 1],
        batch: Batch(sectionDeletes: [4], sectionInserts: [2], sectionMoves: [SectionMove(from: 2, to: 4)], sectionReloads: [3]),
        raised: (12, "attempt to perform an insert and a move to the same section (4)"),
        note: "five sections (the report's sample app); items per section do not matter"),
    ObservedBatch(
        source: "Texture pull request 507 (sample CollectionViewDeleteMoveFrom): delete and move from {0,1}",
        flavor: .collectionView, before: [3], after: [2],
        batch: Batch(rowDeletes: [path(0, 1)], rowMoves: [RowMove(from: path(0, 1), to: path(0, 0))]),
        raised: (11, "attempt to perform a delete and a move from the same index path (<NSIndexPath: 0x6180000291c0> {length = 2, path = 0 - 1})"),
        note: "the move's target is not in the report"),
    ObservedBatch(
        source: "YPImagePicker issue 325: PHFetchResultChangeDetails removed and changed index 0 in one batch",
        flavor: .collectionView, before: [3], after: [2],
        batch: Batch(rowDeletes: [path(0, 0)], rowReloads: [path(0, 0)]),
        raised: (10, "attempt to delete and reload the same index path (<NSIndexPath: 0x2800dfa60> {length = 2, path = 0 - 0})")),
    ObservedBatch(
        source: "QBImagePicker issue 171: a photo library change removes and changes item 831",
        flavor: .collectionView, before: [900], after: [899],
        batch: Batch(rowDeletes: [path(0, 831)], rowReloads: [path(0, 831)]),
        raised: (10, "attempt to delete and reload the same index path (<NSIndexPath: 0xc000000067e00016> {length = 2, path = 0 - 831})"),
        note: "library size not in the report"),
    ObservedBatch(
        source: "osteslag/Changeset issue 11: NSFetchedResultsController insert and move to {0,0}",
        flavor: .collectionView, before: [2], after: [3],
        batch: Batch(rowInserts: [path(0, 0)], rowMoves: [RowMove(from: path(0, 1), to: path(0, 0))]),
        raised: (12, "attempt to perform an insert and a move to the same index path (<NSIndexPath: 0xc000000000000016> {length = 2, path = 0 - 0})"),
        note: "the move's origin is not in the report"),
    ObservedBatch(
        source: "RxDataSources issue 35: a cross-section move out of an empty section 2",
        flavor: .tableView, before: [1, 1, 0], after: [2, 1, 0],
        batch: Batch(rowMoves: [RowMove(from: path(2, 0), to: path(0, 1))]),
        raised: (9, "attempt to move index path (<NSIndexPath: 0xc000000000000216> {length = 2, path = 2 - 0}) that does not exist - there are only 0 rows in section 2 before the update"),
        note: "the move's target is not in the report"),
    ObservedBatch(
        source: "TLIndexPathTools issue 13: a task moves into a section the same update inserts",
        flavor: .tableView, before: [2, 1], after: [1, 1, 1],
        batch: Batch(sectionInserts: [2], rowMoves: [RowMove(from: path(0, 1), to: path(2, 0))]),
        raised: (14, "cannot move a row into a newly inserted section (2)")),
    ObservedBatch(
        source: "3lvis/Form pull request 172: deletes computed from a stale form",
        flavor: .collectionView, before: [3, 17], after: [3, 16],
        batch: Batch(rowDeletes: [path(1, 19)]),
        raised: (7, "attempt to delete item 19 from section 1 which only contains 17 items before the update")),
    ObservedBatch(
        source: "Shopify/FunctionalTableData pull request 117: a row delete in a section that does not exist",
        flavor: .tableView, before: [1, 1, 1], after: [1, 1, 1],
        batch: Batch(rowDeletes: [path(3, 0)]),
        raised: (7, "attempt to delete row 0 from section 3, but there are only 3 sections before the update")),
    ObservedBatch(
        source: "5calls/ios issue 57: an insert one past the end of the new section",
        flavor: .tableView, before: [8], after: [8],
        batch: Batch(rowInserts: [path(0, 8)]),
        raised: (8, "attempt to insert row 8 into section 0, but there are only 8 rows in section 0 after the update")),
    ObservedBatch(
        source: "UIBubbleTableView issue 5: insert at numberOfRows(inSection:) of the last section",
        flavor: .tableView, before: [3, 1], after: [3, 1],
        batch: Batch(rowInserts: [path(1, 1)]),
        raised: (8, "attempt to insert row 1 into section 1, but there are only 1 rows in section 1 after the update")),
    ObservedBatch(
        source: "DifferenceKit issue 102: ten deletes while the data source still has ten rows",
        flavor: .tableView, before: [10], after: [10],
        batch: Batch(rowDeletes: (0..<10).map { path(0, $0) }),
        raised: (2, "Invalid update: invalid number of rows in section 0. The number of rows contained in an existing section after the update (10) must be equal to the number of rows contained in that section before the update (10), plus or minus the number of rows inserted or deleted from that section (0 inserted, 10 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out).")),
    ObservedBatch(
        source: "toggl/mobileapp pull request 3646: the last row of a section deleted as a row, not as its section",
        flavor: .tableView, before: [2, 2, 2, 1] + Array(repeating: 2, count: 53), after: Array(repeating: 2, count: 56),
        batch: Batch(rowDeletes: [path(3, 0)]),
        raised: (1, "Invalid update: invalid number of sections. The number of sections contained in the table view after the update (56) must be equal to the number of sections contained in the table view before the update (57), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted)."),
        note: "which section and its row counts are not in the report"),
    ObservedBatch(
        source: "RBQFetchedResultsController issue 42: three sections appear but the batch inserts none",
        flavor: .tableView, before: [], after: [1, 1, 1],
        batch: Batch(),
        raised: (1, "Invalid update: invalid number of sections.  The number of sections contained in the table view after the update (3) must be equal to the number of sections contained in the table view before the update (0), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted)."),
        note: "the log says the inserts were derived, UIKit's count says the batch had none"),
    // Accepted.
    ObservedBatch(
        source: "Apple, Table View Programming Guide, batch insertion and deletion (Listing 7-8): two deletes, three inserts",
        flavor: .tableView, before: [5], after: [6],
        batch: Batch(rowDeletes: [path(0, 2), path(0, 4)], rowInserts: [path(0, 0), path(0, 3), path(0, 5)]),
        raised: nil),
    ObservedBatch(
        source: "Apple, Table View Programming Guide, ordering of operations: reloads name rows of the original table",
        flavor: .tableView, before: [3], after: [2],
        batch: Batch(rowDeletes: [path(0, 0)], rowReloads: [path(0, 2)]),
        raised: nil),
    ObservedBatch(
        source: "IGListKit issue 690, as IGListKit fixed it: the displaced section reload as a delete and an insert",
        flavor: .collectionView, before: [1, 1, 1, 1, 1], after: [1, 1, 1, 1, 1],
        batch: Batch(sectionDeletes: [3, 4], sectionInserts: [2, 3], sectionMoves: [SectionMove(from: 2, to: 4)]),
        raised: nil),
    ObservedBatch(
        source: "Apple radar 27041784, staged as DifferenceKit and Rowmotion do: the section move alone",
        flavor: .tableView, before: [3, 3], after: [3, 3],
        batch: Batch(sectionMoves: [SectionMove(from: 1, to: 0)]),
        raised: nil),
    ObservedBatch(
        source: "Apple radar 27041784, staged: then the reload, at the row's new place",
        flavor: .tableView, before: [3, 3], after: [3, 3],
        batch: Batch(rowReloads: [path(0, 0)]),
        raised: nil),
]

@Suite("UIKit's observed behaviour")
struct UIKitEvidenceTests {
    @Test func theTableHoldsAtLeastFifteenReports() {
        #expect(observedBatches.filter { $0.raised != nil }.count >= 15)
        #expect(observedBatches.contains { $0.raised == nil })
    }

    /// The validator raises what UIKit raised, first and in UIKit's words,
    /// and finds nothing in what UIKit ran.
    @Test(arguments: observedBatches)
    func validator_agreesWithWhatUIKitDid(_ observed: ObservedBatch) {
        let violations = Validator(flavor: observed.flavor).validate(observed.batch, before: observed.before, after: observed.after)
        guard let raised = observed.raised else {
            #expect(violations.isEmpty, "UIKit ran this batch; the validator says \(violations.map(\.message))")
            return
        }
        let first = violations.first { $0.isException }
        #expect(first?.rule == raised.rule, "all found: \(violations.map { "\($0.rule): \($0.message)" })")
        #expect(first.map { normalized($0.message) } == normalized(raised.message))
    }

    /// The issue's case through the engine: the section `b` moves past `c`
    /// while its row b2 changes. The reload waits for a batch of its own, at
    /// b's new index, and the one-batch version is what UIKit rejects.
    @Test func sectionMovedPastAnotherWhoseRowChanged_reloadWaitsForItsOwnBatch() throws {
        let old = Sections(sections: [
            Section(id: "a", rows: [row("a1", [("t", .string("x"))])]),
            Section(id: "b", rows: [row("b1", [("t", .string("x"))]), row("b2", [("t", .string("x"))])]),
            Section(id: "c", rows: [row("c1", [("t", .string("x"))])]),
        ])
        let new = Sections(sections: [
            Section(id: "a", rows: [row("a1", [("t", .string("x"))])]),
            Section(id: "c", rows: [row("c1", [("t", .string("x"))])]),
            Section(id: "b", rows: [row("b1", [("t", .string("x"))]), row("b2", [("t", .string("CHANGED"))])]),
        ])
        let changeset = try assertReproducible(old, new)
        #expect(changeset.batches == [Batch(sectionMoves: [SectionMove(from: 2, to: 1)]), Batch(rowReloads: [path(2, 1)])])

        let oneBatch = Batch(sectionMoves: [SectionMove(from: 2, to: 1)], rowReloads: [path(1, 1)])
        let violations = Validator().validate(oneBatch, before: old.layout, after: new.layout)
        #expect(violations.first?.rule == 2)
        #expect(violations.first?.message ==
            "Invalid update: invalid number of rows in section 1.  The number of rows contained in an existing section after the update (1) must be equal to the number of rows contained in that section before the update (1), plus or minus the number of rows inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out).")
        #expect(throws: ListDiffError.self) { try Changeset<String, Row>(stages: [.init(batch: oneBatch, after: new, role: .structure)], rows: []).apply(to: old) }
    }

    /// Two sections swapped by a move, each with row 0 reloaded: the new
    /// halves trade sections, the counts balance, and no exception is
    /// raised — but each new cell shows in the other section (rule 19 for
    /// the section coordinate).
    @Test func displacedReloadsThatBalance_areSilentlyMisplaced() {
        let batch = Batch(sectionMoves: [SectionMove(from: 1, to: 0)], rowReloads: [path(0, 0), path(1, 0)])
        let violations = Validator().validate(batch, before: [SectionLayout(id: "a", rows: ["a1"]), SectionLayout(id: "b", rows: ["b1"])],
                                              after: [SectionLayout(id: "b", rows: ["b1"]), SectionLayout(id: "a", rows: ["a1"])])
        #expect(violations.contains { $0.rule == 19 })
        #expect(!violations.contains { $0.isException })
    }

    /// The validator's model is its own: its file names none of the
    /// functions the planner, `apply` and the player place reloads with.
    @Test func validatorSource_sharesNoPlacementCodeWithTheEngine() throws {
        let file = #filePath.replacingOccurrences(of: "Tests/ListDiffTests/UIKitEvidenceTests.swift", with: "Sources/ListDiff/Validator.swift")
        let source = try String(contentsOfFile: file, encoding: .utf8)
        for shared in ["reloadTarget(", "replay(", "replaySections(", "lowerBound(", "makePlan(", ".apply(", "sectionReloadTargets"] {
            #expect(!source.contains(shared), "Validator.swift calls \(shared)")
        }
    }
}
