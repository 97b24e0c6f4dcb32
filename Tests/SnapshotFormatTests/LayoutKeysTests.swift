import Diagnostics
@testable import SnapshotFormat
import Testing

/// `layout:` and the keys that go with it (DESIGN.md, "Layouts: table views
/// and collection views"): read into `Presentation`, every mistake a located
/// error, keys that mean nothing in the sequence's layout refused.
@Suite("Layout keys")
struct LayoutKeysTests {
    @Test func grid_readsColumnsAndSpacing_andIsACollectionView() throws {
        let sequence = try #require(read("layout: grid\ncolumns: 4\nspacing: 2.5\nsteps:\n  - items: [a, b]\n").sequence)
        #expect(sequence.presentation.layout == .grid)
        #expect(sequence.presentation.columns == 4)
        #expect(sequence.presentation.spacing == 2.5)
        #expect(sequence.presentation.isCollectionView)
    }

    @Test func aTableViewList_isNotACollectionView_andKeepsItsDefaults() throws {
        let sequence = try #require(read("steps:\n  - items: [a]\n").sequence)
        #expect(sequence.presentation == Presentation())
        #expect(!sequence.presentation.isCollectionView)
        #expect(sequence.presentation.scroll == .keepOffset)
    }

    @Test func aSectionsOwnLayout_isSaidOnce_andInheritedByLaterSnapshots() throws {
        let text = """
            steps:
              - sections:
                  - {id: featured, layout: orthogonal, columns: 2, items: [a, b]}
                  - {id: list, items: [c]}
              - sections:
                  - {id: featured, items: [b, a]}
                  - {id: list, items: [c]}
            """
        let sequence = try #require(read(text).sequence)
        #expect(sequence.presentation.sections == ["featured": .init(layout: .orthogonal, columns: 2)])
        #expect(sequence.presentation.isCollectionView)
    }

    @Test func aSectionWhoseLayoutChanges_isAnErrorWithANoteAtTheFirst() {
        let text = """
            steps:
              - sections: [{id: s, layout: grid, items: [a]}]
              - sections: [{id: s, layout: orthogonal, items: [a]}]
            """
        #expect(read(text).diagnostics == [
            "test.yml:3:32: error: section 's' is laid out otherwise here than where its layout was first given; a section keeps its layout in every snapshot\n"
                + "test.yml:2:32: note: section 's' first gets its layout here",
        ])
    }

    @Test(arguments: [
        ("layout: grod\nsteps:\n  - items: [a]\n", "test.yml:1:9: error: unknown layout 'grod'; did you mean 'grid'? (layouts: list, grid, table)"),
        ("layout: orthogonal\nsteps:\n  - items: [a]\n",
         "test.yml:1:9: error: unknown layout 'orthogonal' ('orthogonal' is a section's layout: write it on the section, under 'sections') (layouts: list, grid, table)"),
        ("layout: grid\ncolumns: 0\nsteps:\n  - items: [a]\n", "test.yml:2:10: error: 'columns' must be from 1 to 12 (items per line), not 0"),
        ("layout: grid\ncolumns: 2.5\nsteps:\n  - items: [a]\n", "test.yml:2:10: error: 'columns' must be a whole number (items per line), not a number"),
        ("layout: grid\nspacing: 100\nsteps:\n  - items: [a]\n", "test.yml:2:10: error: 'spacing' must be from 0 to 64 (points between items and lines)"),
        ("columns: 3\nsteps:\n  - items: [a]\n",
         "test.yml:1:1: error: 'columns' lays out a grid: it needs 'layout: grid', or a section with 'layout: grid' or 'layout: orthogonal'"),
        ("fields: [a]\nsteps:\n  - items: [a]\n", "test.yml:1:1: error: 'fields' is a data table's: it needs 'layout: table'"),
        ("layout: table\nfields: [title, title]\nsteps:\n  - items: [{id: a, title: A}]\n",
         "test.yml:2:17: error: 'title' is already a column\ntest.yml:2:10: note: 'title' first appears here"),
        ("layout: table\nfields: [title]\ntitles: {titel: T}\nsteps:\n  - items: [{id: a, title: A}]\n",
         "test.yml:3:10: error: 'titel' is not one of 'fields'; did you mean 'title'? (fields: title)"),
        ("layout: table\ncell: {title: name}\nsteps:\n  - items: [{id: a, name: A}]\n",
         "test.yml:2:1: error: 'cell' draws a table view's cells; a data table ('layout: table') draws a column per field ('fields')"),
        ("scroll: pinned\nsteps:\n  - items: [a]\n",
         "test.yml:1:9: error: unknown scroll policy 'pinned' (keep-offset: UIKit's default; anchor: what is seen stays)"),
        ("skipAnimation: 0\nsteps:\n  - items: [a]\n",
         "test.yml:1:16: error: 'skipAnimation' must be a share of the items above 0 and at most 1 (0.5: a step changing more than half of them is shown at once)"),
        ("steps:\n  - sections: [{id: s, columns: 2, items: [a]}]\n",
         "test.yml:2:24: error: a section's 'columns' needs its 'layout' (grid or orthogonal)"),
        ("steps:\n  - sections: [{id: s, layout: list, columns: 2, items: [a]}]\n",
         "test.yml:2:38: error: a list section has no 'columns'; a grid or orthogonal one does"),
        ("layout: table\nsteps:\n  - sections: [{id: s, layout: grid, items: [a]}]\n",
         "test.yml:3:32: error: a data table ('layout: table') lays every section out as rows of its columns; a section's own layout needs 'layout: list' or 'layout: grid'"),
    ])
    func mistakes_areLocatedErrors(text: String, message: String) {
        let (sequence, diagnostics) = read(text)
        #expect(diagnostics == [message])
        #expect(sequence == nil, "nothing is half-read")
    }

    /// Found by an outside attacker (issue 43): a number too big for an
    /// integer is out of range, not of the wrong type; an empty 'fields'
    /// says it is empty; a title without 'fields' is checked against the
    /// fields rows have; a table without 'fields' over rows of thousands of
    /// different fields is refused, not drawn with thousands of columns.
    @Test func whatAnAttackerFound_isALocatedErrorThatSaysWhatIsWrong() throws {
        #expect(read("layout: grid\ncolumns: 9999999999999999999\nsteps:\n  - items: [a]\n").diagnostics
                == ["test.yml:2:10: error: 'columns' must be from 1 to 12 (items per line), not 9999999999999999999"])
        #expect(read(#"{"layout": "grid", "columns": 99999999999999999999, "steps": [{"items": ["a"]}]}"#, name: "t.json").diagnostics
                == ["t.json:1:31: error: 'columns' must be from 1 to 12 (items per line), not 1e+20"])
        #expect(read("layout: table\nfields: []\nsteps:\n  - items: [a]\n").diagnostics
                == ["test.yml:2:9: error: 'fields' is empty; a data table needs a column (leave 'fields' out to show every field rows have)"])
        let (titled, warnings) = read("layout: table\ntitles: {title: T, zzz: Z}\nsteps:\n  - items: [{id: a, title: A}]\n")
        #expect(titled != nil)
        #expect(warnings == ["test.yml:2:20: warning: no row has a field 'zzz', so no column has this title"])
        let rows = (0..<3).map { j in "{id: r\(j), " + (0..<400).map { "f\(j)_\($0): 1" }.joined(separator: ", ") + "}" }.joined(separator: ", ")
        let (wide, errors) = read("layout: table\nsteps:\n  - items: [\(rows)]\n")
        #expect(wide == nil)
        #expect(errors.contains("test.yml:1:9: error: a data table without 'fields' shows every field rows have: these rows have 1200, over the limit of 1000 columns; name the columns with 'fields'"), "\(errors.map { String($0.prefix(160)) })")
    }

    @Test func rowAnimationsOnACollectionView_areAWarning_theyWouldDoNothing() throws {
        let (sequence, diagnostics) = read("layout: grid\nanimation: left\nsteps:\n  - items: [a]\n")
        #expect(sequence != nil)
        #expect(diagnostics == ["test.yml:2:1: warning: 'animation' has no effect on a collection view: UICollectionView fades items in and out, moves them from frame to frame, and has no row animations"])
    }

    @Test func aDataTable_withoutFields_showsEveryFieldRowsHave_inTheOrderFirstSeen_sizedByItsLongestText() throws {
        let text = """
            layout: table
            version: v
            titles: {assignee: Who}
            steps:
              - items: [{id: a, title: Write, v: 1}]
              - items: [{id: a, title: Write the notes, v: 2, assignee: Ana}]
            """
        let sequence = try #require(read(text).sequence)
        #expect(sequence.presentation.fields == ["title", "assignee"])
        #expect(sequence.presentation.columnWidths == [15, 3])
        let row = sequence.steps[0].snapshot.sections[0].rows[0]
        #expect(sequence.shownFields(of: row) == [ShownField(name: "title", text: "Write", slot: nil), ShownField(name: "assignee", text: "", slot: nil)])
    }

    /// A data table draws every column of every row: columns that rows
    /// lack are empty cells, and many of them over many rows would make the
    /// site grow far past its input (a 40 KB file, 600 columns over 1,000 ids:
    /// 600,000 empty cells). Refused at 'fields', not rendered.
    @Test func aTableOfMostlyEmptyCells_isRefused_theSiteWouldGrowPastItsInput() throws {
        let columns = (0..<600).map { "c\($0)" }.joined(separator: ", ")
        let rows = (0..<1_000).map { "r\($0)" }.joined(separator: ", ")
        let (sequence, diagnostics) = read("layout: table\nfields: [\(columns)]\nsteps:\n  - items: [\(rows)]\n")
        #expect(sequence == nil)
        #expect(diagnostics.contains { $0.hasPrefix("test.yml:2:1: error: a data table draws every column of every row: 600 columns over these rows are 600000 cells, but the rows have 0 of their values") },
                "\(diagnostics.map { String($0.prefix(200)) })")
        // The same columns over rows that have them: one cell per value.
        let full = (0..<20).map { k in "{id: r\(k), " + (0..<600).map { "c\($0): 1" }.joined(separator: ", ") + "}" }.joined(separator: ", ")
        #expect(read("layout: table\nfields: [\(columns)]\nsteps:\n  - items: [\(full)]\n").diagnostics == [])
    }

    @Test func aTableField_noRowHas_isAWarningWithASuggestion() throws {
        let (_, diagnostics) = read("layout: table\nfields: [title, asignee]\nsteps:\n  - items: [{id: a, title: A, assignee: B}]\n")
        #expect(diagnostics == ["test.yml:2:17: warning: no row has a field 'asignee'; did you mean 'assignee'?"])
    }
}
