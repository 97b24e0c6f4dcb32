import ListDiff
@testable import SnapshotFormat
import Testing

/// `cell:` — rows drawn as UITableViewCells: which field goes in which part
/// for each style, what is hidden, and what the reader rejects (the located
/// errors themselves are in the malformed corpus, `cell-*.yml`).
@Suite("Cell layouts")
struct CellLayoutTests {
    /// The fields each row of the file's first snapshot shows, as `slot=name:text`.
    func shown(_ text: String) throws -> [[String]] {
        let (sequence, diagnostics) = read(text)
        let read = try #require(sequence, "\(diagnostics)")
        return read.steps[0].snapshot.sections.flatMap(\.rows).map { row in
            read.shownFields(of: row).map { "\($0.slot?.rawValue ?? "-")=\($0.name):\($0.text)" }
        }
    }

    /// Issue 29, item 3: a row without `cell:` is a value1 cell (a
    /// Settings row): its first text on the left, the next non-boolean on
    /// the right; never every field in a line ("Fix the crash on launch
    /// false Bo"). Issue 45, item 7: a boolean is no checkmark unless
    /// `cell:` says so (`unread: true` as ✓ read as "done").
    @Test func withoutCell_aRowIsAValue1Cell_whoseBooleansAreNoCheckmark() throws {
        let rows = try shown("""
            version: rev
            moveHint: at
            steps:
              - items:
                  - {id: a, name: Ann, rev: 1, at: 10, note: hi, extra: more}
                  - {id: b, rev: 1, at: 9}
                  - {id: c, title: Fix the crash on launch, done: false, assignee: Bo, rev: 1, at: 8}
                  - {id: d, title: Review, done: true, points: 3, rev: 1, at: 7}
            """)
        #expect(rows == [["title=name:Ann", "detail=note:hi"], ["title=id:b"],
                         ["title=title:Fix the crash on launch", "detail=assignee:Bo"],
                         ["title=title:Review", "detail=points:3"]])
    }

    /// `accessory:` names a field (true: a checkmark; a field whose text is
    /// an accessory's name: that accessory) or, when no row has a field of
    /// that name, an accessory for every row.
    @Test func accessory_isAFieldsCheckmark_orOneAccessoryForEveryRow() throws {
        let rows = try shown("""
            cell: {title: name, accessory: chosen}
            steps:
              - items:
                  - {id: a, name: Ann, chosen: true}
                  - {id: b, name: Bob, chosen: false}
                  - {id: c, name: Cy, chosen: detailButton}
            """)
        #expect(rows == [["title=name:Ann", "accessory=chosen:checkmark"], ["title=name:Bob"], ["title=name:Cy", "accessory=chosen:detailButton"]])
        let every = try shown("""
            cell: {title: name, accessory: disclosureIndicator}
            steps:
              - items:
                  - {id: a, name: Ann}
            """)
        #expect(every == [["title=name:Ann", "accessory=disclosureIndicator:disclosureIndicator"]])
    }

    @Test func subtitleStyle_isInferred_andFillsTitleAndSubtitleFromTheFreeFields() throws {
        let (sequence, _) = read("""
            cell: {subtitle: preview}
            steps:
              - items:
                  - {id: a, name: Ann, preview: See you, seen: "10:02"}
            """)
        #expect(sequence?.cell?.style == .subtitle)
        let rows = try shown("""
            cell: {style: subtitle, hide: [seen]}
            steps:
              - items:
                  - {id: a, seen: "10:02", name: Ann, preview: See you}
            """)
        #expect(rows == [["title=name:Ann", "subtitle=preview:See you"]])
    }

    @Test func value1_namesItsDetail_andTheBadgeHidesWhenZeroFalseOrEmpty() throws {
        let rows = try shown("""
            version: price
            cell: {title: symbol, detail: price, badge: unread}
            steps:
              - items:
                  - {id: A, symbol: AAPL, price: 109.5, unread: 3}
                  - {id: B, symbol: ADBE, price: 85.0, unread: 0}
                  - {id: C, symbol: AMD, price: 1, unread: false}
                  - {id: D, symbol: AMZN, price: 2, unread: true}
                  - {id: E, symbol: CRM, price: 3, unread: ""}
            """)
        // The version field shows because the cell names it; `true` is a dot (an empty badge).
        #expect(rows == [["title=symbol:AAPL", "detail=price:109.5", "badge=unread:3"],
                         ["title=symbol:ADBE", "detail=price:85.0"],
                         ["title=symbol:AMD", "detail=price:1"],
                         ["title=symbol:AMZN", "detail=price:2", "badge=unread:"],
                         ["title=symbol:CRM", "detail=price:3"]])
    }

    @Test func imageComesFirst_mayReuseTheTitlesField_andTheIdentityFieldCanBeShown() throws {
        let rows = try shown("""
            cell: {style: default, title: id, image: avatar}
            steps:
              - items:
                  - {id: Ann, avatar: "🦊"}
                  - {id: Bob, avatar: "https://example.com/bob.png"}
            """)
        #expect(rows == [["image=avatar:🦊", "title=id:Ann"], ["image=avatar:https://example.com/bob.png", "title=id:Bob"]])
        let initials = try shown("""
            cell: {title: name, image: name}
            steps:
              - items: [{id: a, name: Ann}]
            """)
        #expect(initials == [["image=name:Ann", "title=name:Ann"]])
    }

    /// `title(of:)` answers a row of an id alone without `cell:` at once:
    /// what its shown fields would give, for plain ids, ids in mappings,
    /// an `identity:` field and a `version:` field.
    @Test func titleOfARowOfAnIdAlone_isWhatItsShownFieldsGive() throws {
        for text in ["steps:\n  - items: [a, b, \"\", 7]\n", "steps:\n  - items: [{id: a}, {id: b}]\n",
                     "identity: key\nsteps:\n  - items: [{key: a}, {key: b}]\n", "version: v\nsteps:\n  - items: [{id: a, v: 1}]\n"] {
            let (sequence, diagnostics) = read(text)
            let read = try #require(sequence, "\(diagnostics)")
            for row in read.steps[0].snapshot.sections.flatMap(\.rows) {
                let fields = read.shownFields(of: row)
                let shown = (fields.first { $0.slot == .title } ?? fields.first { $0.slot == nil })?.text ?? row.id
                #expect(read.title(of: row) == (shown.isEmpty ? row.id : shown), "\(text.debugDescription): \(row)")
            }
        }
    }

    @Test func aRowWithoutTheTitlesField_showsItsId() throws {
        let rows = try shown("""
            cell: {style: value2, title: label, detail: value}
            steps:
              - items:
                  - {id: home, value: "555-0100"}
            """)
        #expect(rows == [["title=id:home", "detail=value:555-0100"]])
    }

    @Test func aPartNamingAFieldNoRowHas_isAWarningListingTheFieldsRowsHave() {
        let (sequence, diagnostics) = read("""
            cell:
              title: nmae
            steps:
              - items: [{id: a, name: Ann}]
            """)
        #expect(sequence != nil)
        #expect(diagnostics == ["test.yml:2:10: warning: no row has a field 'nmae'; did you mean 'name'? (rows have: id, name)"])
    }

    /// Every problem of a file is reported (issue 45, item 16): an error
    /// elsewhere in `cell:` hid the misspelled field's warning; the unknown
    /// key's own value names no field, so it is not warned about too.
    @Test func aCellWithAnError_stillWarnsOfAFieldNoRowHas() {
        let (_, diagnostics) = read("""
            cell:
              title: nmae
              colour: red
            steps:
              - items: [{id: a, name: Ann}]
            """)
        #expect(diagnostics.count == 2, "\(diagnostics)")
        #expect(diagnostics.contains { $0.hasPrefix("test.yml:3:3: error: unknown key 'colour' in 'cell'") }, "\(diagnostics)")
        #expect(diagnostics.contains("test.yml:2:10: warning: no row has a field 'nmae'; did you mean 'name'? (rows have: id, name)"), "\(diagnostics)")
    }

    @Test func theStyleNamesOnlyTheTextItHas() {
        #expect(read("cell: {style: default, subtitle: x}\nsteps: [{items: [a]}]").diagnostics.first?
            .contains("style 'default' has no subtitle; use style 'subtitle'") == true)
        #expect(read("cell: {style: subtitle, detail: x}\nsteps: [{items: [a]}]").diagnostics.first?
            .contains("style 'subtitle' has no detail beside the title; its detail text is 'subtitle'") == true)
        #expect(read("cell: {subtitle: x, detail: y}\nsteps: [{items: [a]}]").diagnostics.first?
            .contains("the inferred style 'subtitle' has no detail beside the title") == true)
        #expect(read("cell: {title: x, detail: x}\nsteps: [{items: [{id: a, x: b}]}]").diagnostics
            == ["test.yml:1:26: error: field 'x' is already the cell's title"])
    }

    @Test func everyExampleWithACell_readsWithoutDiagnostics() throws {
        var withCells = 0
        for url in files(in: examplesFolder, extensions: ["yml", "yaml", "json"]) {
            let (sequence, diagnostics) = SnapshotReader.read(path: url.path, displayPath: url.lastPathComponent)
            #expect(diagnostics.isEmpty, "\(url.lastPathComponent): \(diagnostics)")
            if sequence?.cell != nil { withCells += 1 }
        }
        #expect(withCells >= 2)
    }
}
