import Foundation
import Reports
import SnapshotFormat
@testable import SiteGenerator
import Testing

/// A collection view's sequence on the page and in `rowmotion diff`: the
/// first rows say each section's layout as the player's script draws it, a
/// data table's column titles come first, the player data carries the
/// layout, and the report speaks UICollectionView's words.
@Suite("Collection layouts")
struct CollectionLayoutTests {
    static func sequence(_ text: String) throws -> SnapshotSequence {
        let (sequence, diagnostics) = SnapshotReader.read(bytes: Array(text.utf8), file: "c.yml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return try #require(sequence)
    }

    @Test func aGridsFirstRows_sayTheirLayoutAndColumns_andAListTableViewSaysNothing() throws {
        let grid = try Self.sequence("layout: grid\ncolumns: 4\nsteps:\n  - sections: [{id: s, items: [a]}, {id: o, layout: orthogonal, items: [b, c]}]\n")
        let html = SiteRendering.staticList(grid.steps[0].snapshot, of: grid)
        #expect(html.contains(#"data-section-id="s" data-layout="grid" style="--columns: 4">"#))
        // A line that scrolls sideways is reached from the keyboard.
        #expect(html.contains(#"data-section-id="o" data-layout="orthogonal" style="--columns: 2; --count: 2" tabindex="0">"#))
        let list = try Self.sequence("steps:\n  - sections: [{id: s, items: [a]}]\n")
        #expect(!SiteRendering.staticList(list.steps[0].snapshot, of: list).contains("data-layout"))
    }

    @Test func aDataTable_showsItsTitlesFirst_andEveryRowHasACellPerColumn() throws {
        let table = try Self.sequence("""
            layout: table
            fields: [title, done]
            titles: {done: "Done <b>"}
            steps:
              - items: [{id: a, title: Write, done: false, extra: 1}]
            """)
        let html = SiteRendering.staticList(table.steps[0].snapshot, of: table)
        #expect(html.hasPrefix(#"<div class="rowmotion-columns" role="presentation"><span data-column="title">title</span><span data-column="done">Done &lt;b&gt;</span></div>"#))
        #expect(html.contains(#"<span class="field primary" data-field="title">Write</span><span class="field" data-field="done">false</span></div>"#))
        #expect(!html.contains("extra"))
        #expect(SiteRendering.framingStyle(PlayerData.Framing(table.presentation)) == "--rowmotion-table-columns: minmax(0, 5fr) minmax(0, 8fr)")
    }

    @Test func thePlayerData_carriesTheLayout_andAPlainListCarriesNone() throws {
        let grid = try Self.sequence("layout: grid\nspacing: 4\nscroll: anchor\nskipAnimation: 0.5\nsteps:\n  - items: [a]\n  - items: [b, a]\n")
        let data = PlayerData(sequence: grid, changesets: try grid.changesets(), name: "g.yml")
        let framing = try #require(data.presentation)
        #expect(framing.layout == "grid")
        #expect(framing.spacing == 4)
        #expect(framing.scroll == "anchor")
        #expect(framing.skipAnimation == 0.5)
        #expect(framing.sectionLayout("") ?? ("", 0) == ("grid", 3))
        let list = try Self.sequence("steps:\n  - items: [a]\n")
        #expect(PlayerData(sequence: list, changesets: [], name: "l.yml").presentation == nil)
    }

    /// `rowmotion diff` on a collection view: its calls, its words in the
    /// JSON (`"view": "collectionView"`, `items`), a reload as
    /// reconfigureItems; `--flavor table` still gives the table's.
    @Test func theDiffReport_ofACollectionView_speaksUICollectionViewsWords() throws {
        let grid = try Self.sequence("layout: grid\nsteps:\n  - items: [{id: a, t: 1}, {id: b, t: 1}]\n  - items: [{id: b, t: 2}, {id: c, t: 1}]\n")
        let report = DiffReport(file: "c.yml", sequence: grid, changesets: try grid.changesets())
        #expect(report.flavor == .collection)
        #expect(report.json.hasPrefix("{\"file\": \"c.yml\",\n \"view\": \"collectionView\",\n \"steps\": ["))
        #expect(report.json.contains("\"items\": {\"delete\": [[0, 0]], \"insert\": [[0, 1]], \"move\": [], \"reload\": [[0, 1]]}"))
        #expect(!report.json.contains("\"rows\""))
        #expect(report.swiftCalls.contains("collectionView.deleteItems(at: [IndexPath(item: 0, section: 0)])"))
        #expect(report.swiftCalls.contains("collectionView.reconfigureItems(at: [IndexPath(item: 1, section: 0)])"))
        let asTable = DiffReport(file: "c.yml", sequence: grid, changesets: try grid.changesets(), flavor: .table)
        #expect(asTable.json.hasPrefix("{\"file\": \"c.yml\",\n \"steps\": ["))
        #expect(asTable.swiftCalls.contains("tableView.deleteRows("))
    }
}
