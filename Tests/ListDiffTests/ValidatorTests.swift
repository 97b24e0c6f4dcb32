import Foundation
import ListDiff
import Testing

/// One deliberately broken batch per rule of uikit-rules.md, each checked
/// for UIKit's own message.
@Suite("Validator")
struct ValidatorTests {
    let validator = Validator()
    func path(_ section: Int, _ row: Int) -> RowPath { RowPath(section: section, row: row) }

    /// The messages for `batch` on sections with `before` and `after` rows.
    func messages(_ batch: Batch, _ before: [Int], _ after: [Int]) -> [String] {
        validator.validate(batch, before: before, after: after).map(\.message)
    }

    func rules(_ batch: Batch, _ before: [Int], _ after: [Int]) -> [Int] {
        validator.validate(batch, before: before, after: after).map(\.rule)
    }

    @Test func rule1_sectionCount() {
        #expect(messages(Batch(sectionInserts: [1]), [1], [1, 0, 0]) == [
            "Invalid update: invalid number of sections.  The number of sections contained in the table view after the update (3) must be equal to the number of sections contained in the table view before the update (1), plus or minus the number of sections inserted or deleted (1 inserted, 0 deleted).",
        ])
    }

    @Test func rule2_rowCount() {
        #expect(messages(Batch(rowInserts: [path(0, 0)]), [2], [4]) == [
            "Invalid update: invalid number of rows in section 0.  The number of rows contained in an existing section after the update (4) must be equal to the number of rows contained in that section before the update (2), plus or minus the number of rows inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out).",
        ])
    }

    @Test func rule2_collectionViewWording() {
        let messages = Validator(flavor: .collectionView).validate(Batch(rowInserts: [path(0, 0)]), before: [2], after: [4]).map(\.message)
        #expect(messages.first?.hasPrefix("Invalid update: invalid number of items in section 0.  The number of items contained") == true)
    }

    /// Only repeated entries can remove more rows than a section has.
    @Test func rule3_deletesExceedRows() {
        #expect(messages(Batch(rowDeletes: [path(0, 0), path(0, 0)]), [1], [0]).contains(
            "Invalid update: invalid number of rows in section 0.  Attempt to delete more rows than exist in section."))
    }

    @Test func rule4_deleteSectionOutOfBounds() {
        #expect(messages(Batch(sectionDeletes: [3]), [1, 1], [1]) == [
            "attempt to delete section 3, but there are only 2 sections before the update"])
    }

    @Test func rule5_insertSectionOutOfBounds() {
        #expect(messages(Batch(sectionInserts: [4]), [1], [1, 1]) == [
            "attempt to insert section 4 but there are only 2 sections after the update"])
    }

    @Test func rule6_moveSectionOutOfBounds() {
        #expect(messages(Batch(sectionMoves: [SectionMove(from: 5, to: 0)]), [1, 1], [1, 1]) == [
            "attempt to move section 5, but there are only 2 sections before the update"])
        #expect(messages(Batch(sectionMoves: [SectionMove(from: 0, to: 7)]), [1, 1], [1, 1]) == [
            "attempt to to move section 0 to section 7, but there are only 2 sections after the update"])
    }

    @Test func rule7_deleteRowOutOfBounds() {
        #expect(messages(Batch(rowDeletes: [path(2, 0)]), [1], [1]) == [
            "attempt to delete row 0 from section 2, but there are only 1 sections before the update"])
        #expect(messages(Batch(rowReloads: [path(0, 3)]), [2], [2]) == [
            "attempt to delete row 3 from section 0 which only contains 2 rows before the update"])
    }

    @Test func rule8_insertRowOutOfBounds() {
        #expect(messages(Batch(rowInserts: [path(1, 0)]), [1], [2]) == [
            "attempt to insert row 0 into section 1, but there are only 1 sections after the update"])
        #expect(messages(Batch(rowInserts: [path(0, 5)]), [1], [2]) == [
            "attempt to insert row 5 into section 0, but there are only 2 rows in section 0 after the update"])
    }

    @Test func rule9_moveRowOutOfBounds() {
        let move = { (from: RowPath, to: RowPath) in Batch(rowMoves: [RowMove(from: from, to: to)]) }
        #expect(messages(move(path(3, 0), path(0, 0)), [2], [2]) == [
            "attempt to move index path ({length = 2, path = 3 - 0}) from a section that does not exist - there are only 1 sections before the update"])
        #expect(messages(move(path(0, 4), path(0, 0)), [2], [2]) == [
            "attempt to move index path ({length = 2, path = 0 - 4}) that does not exist - there are only 2 rows in section 0 before the update"])
        #expect(messages(move(path(0, 0), path(2, 0)), [2], [2]) == [
            "attempt to move index path ({length = 2, path = 0 - 0}) to index path ({length = 2, path = 2 - 0}) in section that does not exist - there are only 1 sections after the update"])
        #expect(messages(move(path(0, 0), path(0, 9)), [2], [2]) == [
            "attempt to move index path ({length = 2, path = 0 - 0}) to index path ({length = 2, path = 0 - 9}) that does not exist - there are only 2 rows in section 0 after the update"])
    }

    @Test func rule10_deleteAndReload() {
        #expect(messages(Batch(rowDeletes: [path(0, 1)], rowReloads: [path(0, 1)]), [2], [1])
            .contains("attempt to delete and reload the same index path ({length = 2, path = 0 - 1})"))
        #expect(messages(Batch(sectionDeletes: [0], sectionReloads: [0]), [1, 1], [1])
            .contains("attempt to delete and reload the same section (0)"))
    }

    @Test func rule11_deleteOrReloadAndMoveFromTheSamePlace() {
        #expect(messages(Batch(rowDeletes: [path(0, 0)], rowMoves: [RowMove(from: path(0, 0), to: path(0, 1))]), [3], [2])
            .contains("attempt to perform a delete and a move from the same index path ({length = 2, path = 0 - 0})"))
        #expect(messages(Batch(rowMoves: [RowMove(from: path(0, 0), to: path(0, 1))], rowReloads: [path(0, 0)]), [2], [2])
            .contains("attempt to perform a delete and a move from the same index path ({length = 2, path = 0 - 0})"))
        #expect(messages(Batch(sectionDeletes: [0], sectionMoves: [SectionMove(from: 0, to: 1)]), [1, 1], [1, 1])
            .contains("attempt to perform a delete and a move from the same section (0)"))
    }

    @Test func rule12_insertAndMoveToTheSamePlace() {
        #expect(messages(Batch(rowInserts: [path(0, 0)], rowMoves: [RowMove(from: path(0, 1), to: path(0, 0))]), [2], [3])
            .contains("attempt to perform an insert and a move to the same index path ({length = 2, path = 0 - 0})"))
        #expect(messages(Batch(sectionInserts: [0], sectionMoves: [SectionMove(from: 1, to: 0)]), [1, 1], [1, 1, 1])
            .contains("attempt to perform an insert and a move to the same section (0)"))
    }

    @Test func rule13_moveFromDeletedSection() {
        #expect(messages(Batch(sectionDeletes: [0], rowMoves: [RowMove(from: path(0, 0), to: path(0, 0))]), [1, 1], [2])
            .contains("cannot move a row from a deleted section (0)"))
        #expect(Validator(flavor: .collectionView)
            .validate(Batch(sectionDeletes: [0], rowMoves: [RowMove(from: path(0, 0), to: path(0, 0))]), before: [1, 1], after: [2])
            .map(\.message).contains("cannot move an item from a deleted section (0)"))
    }

    @Test func rule14_moveIntoInsertedSection() {
        #expect(messages(Batch(sectionInserts: [0], rowMoves: [RowMove(from: path(0, 0), to: path(0, 0))]), [1], [1, 0])
            .contains("cannot move a row into a newly inserted section (0)"))
    }

    @Test func rule15_movedTwice() {
        let rows = Batch(rowMoves: [RowMove(from: path(0, 0), to: path(0, 1)), RowMove(from: path(0, 0), to: path(0, 2))])
        #expect(messages(rows, [3], [3]).contains(
            "attempt to move row at index path {length = 2, path = 0 - 0} to both {length = 2, path = 0 - 1} and {length = 2, path = 0 - 2}"))
        let sections = Batch(sectionMoves: [SectionMove(from: 0, to: 1), SectionMove(from: 0, to: 2)])
        #expect(messages(sections, [1, 1, 1], [1, 1, 1]).contains("attempt to move section 0 to both section 1 and section 2"))
    }

    @Test func rule16_twoMovedToTheSameSlot() {
        let rows = Batch(rowMoves: [RowMove(from: path(0, 0), to: path(0, 2)), RowMove(from: path(0, 1), to: path(0, 2))])
        #expect(messages(rows, [3], [3]).contains(
            "attempt to move both row at index path {length = 2, path = 0 - 0} and {length = 2, path = 0 - 1} to {length = 2, path = 0 - 2}"))
        let sections = Batch(sectionMoves: [SectionMove(from: 0, to: 2), SectionMove(from: 1, to: 2)])
        #expect(messages(sections, [1, 1, 1], [1, 1, 1]).contains("attempt to move both section 0 and section 1 to section 2"))
    }

    @Test func rule17_repeatedIndexPath_isSilentMisbehaviour() {
        let violations = validator.validate(Batch(rowReloads: [path(0, 0), path(0, 0)]), before: [1], after: [1])
        #expect(violations.map(\.rule) == [17])
        #expect(violations.allSatisfy { !$0.isException })
    }

    @Test func rule18_rowChangesInsideDeletedOrInsertedSection() {
        #expect(rules(Batch(sectionDeletes: [0], rowDeletes: [path(0, 0)]), [1], []).contains(18))
        #expect(rules(Batch(sectionInserts: [0], rowInserts: [path(0, 0)]), [], [1]).contains(18))
    }

    /// DESIGN.md's example batch with Alice's reload in it: UIKit puts her
    /// new cell by deletes and inserts alone at row 0, which is where Carol
    /// moves. The new half of a reload is an insert, so this is rule 12 — an
    /// exception, as IGListKit 690 observed for the same collision of a
    /// section reload with a section move — not a silent misplacement.
    @Test func reloadLandingOnAMovesTarget_isRule12() {
        let batch = Batch(rowDeletes: [path(0, 1)], rowInserts: [path(0, 3)],
                          rowMoves: [RowMove(from: path(0, 2), to: path(0, 0))], rowReloads: [path(0, 0)])
        let violations = validator.validate(batch, before: [4], after: [4])
        #expect(violations.map(\.rule) == [12])
        #expect(violations.first?.message == "attempt to perform an insert and a move to the same index path ({length = 2, path = 0 - 0})")
    }

    /// a b c d → d a b c with b reloaded: by deletes and inserts alone b's
    /// new cell goes to row 1, a free slot, so nothing collides and the
    /// counts add up — but b is at row 2, and a shows where b should.
    @Test func rule19_reloadBesideMoves_landsInTheWrongSlot() {
        let batch = Batch(rowMoves: [RowMove(from: path(0, 3), to: path(0, 0))], rowReloads: [path(0, 1)])
        let violations = validator.validate(batch, before: [4], after: [4])
        #expect(violations.map(\.rule) == [19])
        #expect(violations.first?.message ==
            "the row reloaded at {length = 2, path = 0 - 1} is placed by deletes and inserts alone at {length = 2, path = 0 - 1}, but belongs at {length = 2, path = 0 - 2}: its new cell lands in the wrong slot (moves in the same batch)")
        let ids = validator.validate(batch, before: [SectionLayout(id: "s", rows: ["a", "b", "c", "d"])],
                                     after: [SectionLayout(id: "s", rows: ["d", "a", "b", "c"])])
        #expect(ids.map(\.rule) == [19, 22, 22])
    }

    @Test func rule20_rowChangesInsideMovedSection() {
        let batch = Batch(sectionMoves: [SectionMove(from: 0, to: 1)], rowInserts: [path(1, 0)])
        #expect(rules(batch, [1, 1], [1, 2]).contains(20))
    }

    @Test func rule21_reloadInsideReloadedSection() {
        #expect(rules(Batch(sectionReloads: [0], rowReloads: [path(0, 0)]), [1], [1]).contains(21))
    }

    @Test func rule22_replayDisagreesWithTheDataSource() {
        // Counts add up, but the rows were swapped without a move.
        let before = [SectionLayout(id: "s", rows: ["a", "b"])]
        let after = [SectionLayout(id: "s", rows: ["b", "a"])]
        let violations = validator.validate(Batch(), before: before, after: after)
        #expect(violations.map(\.rule) == [22, 22])
        #expect(violations.first?.message ==
            "after the batch, the table view shows 'a' at {length = 2, path = 0 - 0}, but the data source holds 'b' there")
    }

    @Test func rule23_duplicateIdentifiers() {
        let before = [SectionLayout(id: "s", rows: ["a"])]
        let after = [SectionLayout(id: "s", rows: ["a", "a"])]
        let violations = validator.validate(Batch(rowInserts: [path(0, 1)]), before: before, after: after)
        #expect(violations.map(\.message) == ["Fatal: supplied item identifiers are not unique. Duplicate identifiers: {(a)}"])
    }

    @Test func validBatchWithEverything_passes() {
        let batch = Batch(sectionDeletes: [1], sectionInserts: [0], rowDeletes: [path(0, 0)], rowInserts: [path(1, 1)],
                          rowMoves: [RowMove(from: path(2, 0), to: path(1, 2))], rowReloads: [path(0, 1)])
        #expect(validator.validate(batch, before: [2, 1, 2], after: [3, 3, 1]).isEmpty)
    }
}

/// README's Validator snippet (radar 27041784) says what `validate` gives,
/// in order: the snippet's words are held to the library's.
@Test func readmesValidatorSnippet_namesTheProblemsItPrints() throws {
    let batch = Batch(sectionMoves: [SectionMove(from: 1, to: 0)], rowReloads: [RowPath(section: 1, row: 0)])
    let problems = Validator().validate(batch, before: [3, 3], after: [3, 3])
    let readme = try String(contentsOfFile: "README.md", encoding: .utf8)
    guard let line = readme.split(separator: "\n").first(where: { $0.hasPrefix("// problems[") }),
          let close = line.firstIndex(of: "]"), let index = Int(line[line.index(line.startIndex, offsetBy: 12)..<close]) else {
        Issue.record("README has no `// problems[N]…` line")
        return
    }
    #expect(index < problems.count, "\(problems.map(\.message))")
    guard index < problems.count else { return }
    #expect(problems[index].message.hasPrefix("Invalid update: invalid number of rows in section 0."), "problems[\(index)]: \(problems[index].message)")
    #expect(line.contains("of \(problems.count)"), "README gives how many problems there are: \(line)")
}
