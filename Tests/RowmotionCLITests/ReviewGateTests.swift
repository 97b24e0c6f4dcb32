import Foundation
import Testing

/// The review gate compares every player as its page shows it (issue 42,
/// item 2): an example file, a sequence written in a demo block (named
/// `page.md#N`), a block's own options, the timing, the table and cell
/// style, the player's theme. Before, only example files' batches were
/// compared, and each change below passed `--fail-on-changes` as "No
/// example animates differently"; a pull request's `changes.mustache`
/// made the page say so too.
@Suite("The review gate sees every change that animates")
struct ReviewGateTests {
    typealias Repository = BaselineTests.Repository

    /// Builds against HEAD with the gate on; the exit status, the summary,
    /// the review page and what the build printed.
    static func review(_ repository: Repository) throws -> (status: Int32, summary: String, page: String, stderr: String) {
        let result = try repository.build("--baseline", "HEAD", "--summary", "s.md", "--fail-on-changes")
        return (result.status, repository.read("s.md"), repository.read("_site/changes.html"), result.stderr)
    }

    /// The names of the review page's changed players.
    static func changed(_ page: String) -> [String] {
        page.components(separatedBy: "data-rowmotion-change=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func aSequenceWrittenInAPage_whoseMoveBecomesADelete_failsTheGate_namedPageAndBlock() throws {
        let repository = try Repository()
        defer { repository.remove() }
        // engine.md's fifth block: H no longer moves to the top, it is deleted.
        try repository.edit("site/engine.md") { $0.replacingOccurrences(of: "    items: [H, A, B, C, D, E, F, G]\n", with: "    items: [A, B, C, D, E, F, G]\n") }
        let review = try Self.review(repository)
        #expect(review.status == 1)
        #expect(review.stderr.contains("rowmotion: 1 example animates differently since HEAD"), "\(review.stderr)")
        #expect(Self.changed(review.page) == ["engine.md#5"])
        #expect(review.summary.contains("| `engine.md#5` Minimal moves — the longest increasing subsequence stays (written in the page) | changed |"),
                "\(review.summary)")
        #expect(review.summary.contains("“Step 1”") || review.summary.contains("H to the top"), "\(review.summary)")
        #expect(review.summary.contains("H is now deleted"), "\(review.summary)")
        // Both players are there, each an ordinary player of the contract.
        let section = review.page.components(separatedBy: "data-rowmotion-change=\"engine.md#5\"")[1]
        #expect(section.components(separatedBy: "data-rowmotion-player=\"inline\"").count - 1 == 2)
    }

    @Test func aBlocksOwnAnimation_failsTheGate_inWords() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try repository.edit("site/engine.md") { $0.replacingOccurrences(of: "example: move-and-reload.yml\n", with: "example: move-and-reload.yml\nanimation: none\n") }
        let review = try Self.review(repository)
        #expect(review.status == 1)
        #expect(Self.changed(review.page) == ["engine.md#7"])
        #expect(review.summary.contains("| `engine.md#7`") && review.summary.contains("(shows `move-and-reload.yml`)"), "\(review.summary)")
        #expect(review.summary.contains("- animation automatic → none") || review.summary.contains("- animation fade → none"), "\(review.summary)")
    }

    @Test func timingStyleAndCell_ofAnExample_failTheGate_inWords() throws {
        for (edit, words) in [("duration: 9.5\n", ["duration 0.3 → 9.5 s"]),
                              ("spring: {damping: 0.05, velocity: 50}\n", ["spring none → damping 0.05, velocity 50"]),
                              ("style: insetGrouped\n", ["style plain → insetGrouped"]),
                              ("height: 300\n", ["height the default → 300 pt"])] {
            let repository = try Repository()
            defer { repository.remove() }
            try repository.edit("examples/content-identity.yml") { $0 + edit }
            let review = try Self.review(repository)
            #expect(review.status == 1, "\(edit)")
            #expect(Self.changed(review.page) == ["content-identity.yml"], "\(edit)")
            for word in words { #expect(review.summary.contains("- \(word)"), "\(edit): \(review.summary)") }
            for word in words { #expect(review.page.contains(word), "\(edit)") }
        }
    }

    /// A collection view's layout is part of what animates: a grid's
    /// columns and spacing, a section's own layout, the scroll policy.
    @Test func aCollectionViewsLayout_failsTheGate_inWords() throws {
        for (file, edit, words) in [
            ("examples/photo-grid.yml", { (text: String) in text.replacingOccurrences(of: "columns: 3\nspacing: 4\n", with: "columns: 4\nspacing: 12\n") },
             ["columns 3 → 4", "spacing 4 pt → 12 pt"]),
            ("examples/app-store.yml", { (text: String) in text.replacingOccurrences(of: "        columns: 2\n", with: "        columns: 3\n") },
             ["section ‘featured’ layout orthogonal, 2 columns → orthogonal, 3 columns"]),
            ("examples/stock-table.yml", { (text: String) in text.replacingOccurrences(of: "scroll: anchor\n", with: "") },
             ["scroll anchor → keep-offset"]),
        ] {
            let repository = try Repository()
            defer { repository.remove() }
            try repository.edit(file, edit)
            let review = try Self.review(repository)
            #expect(review.status == 1, "\(file): \(review.stderr)")
            for word in words { #expect(review.summary.contains("- \(word)"), "\(file): \(review.summary)") }
        }
    }

    @Test func aBlocksCellLayout_failsTheGate() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try repository.edit("site/engine.md") { $0.replacingOccurrences(of: "example: content-identity.yml\n", with: "example: content-identity.yml\ncell: {style: subtitle}\n") }
        let review = try Self.review(repository)
        #expect(review.status == 1, "\(review.stderr)")
        #expect(Self.changed(review.page) == ["engine.md#2"])
        #expect(review.summary.contains("cell fields in a line → subtitle") || review.summary.contains("cell "), "\(review.summary)")
    }

    @Test func aPullRequestsReviewTemplate_isNotUsed_andCannotHideAChange() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try FileManager.default.createDirectory(at: repository.root.appendingPathComponent("templates"), withIntermediateDirectories: true)
        try Data("<p>No example animates differently.</p>\n".utf8).write(to: repository.root.appendingPathComponent("templates/changes.mustache"))
        try repository.edit("examples/content-identity.yml") { $0 + "duration: 2\n" }
        let review = try Self.review(repository)
        #expect(review.status == 1)
        #expect(review.page.contains("1 example animates differently"))
        #expect(!review.page.contains("No example animates differently"))
        #expect(review.stderr.contains("templates/changes.mustache:1:1: warning: this file is not used: the review page (changes.html) is drawn by the built-in template alone"))
    }

    @Test func thePlayersScript_isTheBuiltInOneOnTheReviewPage_andAChangeToItFailsTheGate() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try FileManager.default.createDirectory(at: repository.root.appendingPathComponent("templates"), withIntermediateDirectories: true)
        try Data("document.body.textContent = 'No example animates differently';\n".utf8)
            .write(to: repository.root.appendingPathComponent("templates/rowmotion.js"))
        let review = try Self.review(repository)
        #expect(review.status == 1)
        #expect(review.stderr.contains("rowmotion: the theme changed (rowmotion.js) since HEAD"), "\(review.stderr)")
        #expect(review.summary.contains("The theme changed: `rowmotion.js`"))
        // The review page loads the built-in script, never the pull request's.
        let script = review.page.components(separatedBy: "<script src=\"").last.map { String($0.prefix { $0 != "\"" }) } ?? ""
        let loaded = repository.read("_site/" + script)
        #expect(!script.isEmpty && !loaded.contains("No example animates differently") && loaded.contains("Rowmotion"), "\(script)")
    }

    /// Issue 42's attack round: every template can carry a script that
    /// changes how players move (a `head` slowing every animation 30 times,
    /// an `example` loading another player), not only the player's own files.
    @Test func anyThemeFile_failsTheGate() throws {
        for (file, text) in [("head.mustache", "<script>window.slow = 30</script>\n"),
                             ("example.mustache", "<script src=\"{{root}}other-player.js\"></script>{{title}}\n")] {
            let repository = try Repository()
            defer { repository.remove() }
            try FileManager.default.createDirectory(at: repository.root.appendingPathComponent("templates"), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: repository.root.appendingPathComponent("templates/\(file)"))
            let review = try Self.review(repository)
            #expect(review.status == 1, "\(file): \(review.stderr)")
            #expect(review.stderr.contains("the theme changed (\(file))"), "\(file): \(review.stderr)")
            #expect(review.page.contains("The theme changed"))
        }
    }

    /// A page's raw HTML (a script, a style, a hand-written player) and a
    /// script of the site can change how players move: each fails the gate.
    @Test func rawHTMLOnAPage_andAScriptOfTheSite_failTheGate() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try repository.edit("site/engine.md") { $0 + "\n<style>figure[data-rowmotion-player] { display: none }</style>\n" }
        let review = try Self.review(repository)
        #expect(review.status == 1)
        #expect(review.stderr.contains("raw HTML changed on 1 page"), "\(review.stderr)")
        #expect(review.summary.contains("Raw HTML changed on `site/engine.md`"), "\(review.summary)")

        let script = try Repository()
        defer { script.remove() }
        try Data("window.player = 'another'\n".utf8).write(to: script.root.appendingPathComponent("site/other-player.js"))
        let scripted = try Self.review(script)
        #expect(scripted.status == 1)
        #expect(scripted.stderr.contains("1 script or stylesheet of the site changed"), "\(scripted.stderr)")
        #expect(scripted.summary.contains("`other-player.js`"))
        // A picture is not a script.
        let picture = try Repository()
        defer { picture.remove() }
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: picture.root.appendingPathComponent("site/new.png"))
        #expect(try Self.review(picture).status == 0)
    }

    /// The pull request's stylesheet could redraw the review of itself into
    /// saying nothing changed (`main.changes::before { content: … }`): the
    /// review page is drawn with the baseline's stylesheet.
    @Test func theReviewPage_isDrawnWithTheBaselinesStylesheet_notThePullRequests() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try FileManager.default.createDirectory(at: repository.root.appendingPathComponent("templates"), withIntermediateDirectories: true)
        try Data("main.changes::before { content: 'No example animates differently' }\n".utf8)
            .write(to: repository.root.appendingPathComponent("templates/rowmotion.css"))
        let review = try Self.review(repository)
        #expect(review.status == 1)
        let stylesheet = review.page.components(separatedBy: "<link rel=\"stylesheet\" href=\"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) } ?? ""
        let css = repository.read("_site/" + stylesheet)
        #expect(!stylesheet.isEmpty && !css.contains("No example animates differently") && css.contains(".rowmotion-player"), "\(stylesheet)")
    }

    /// A theme that writes front matter where it can script or restyle (an
    /// "extra head" slot, `{{{params.extra}}}`; `style="{{params.extra}}"`)
    /// lets a page's front matter script and restyle its players: with such
    /// a theme a page's front matter and title, and an example's title and
    /// description, are compared as raw HTML is (attack round 2: a `<style>`
    /// slowing every animation passed as "1 page's text changed"). With the
    /// built-in theme they are text.
    @Test func frontMatterTheThemeWritesAsMarkup_failsTheGate_asRawHTML() throws {
        // Attack rounds 2 and 3: written unescaped; escaped into a style
        // attribute; `{{{content}}}` inside a section over front matter,
        // which looks `content` up in the front matter first.
        for (slot, value) in [("{{#params}}{{{extra}}}{{/params}}", "<style>.rowmotion-player * { transition-duration: 30s !important }</style>"),
                              ("<div style=\"{{params.extra}}\"></div>", "--rowmotion-height: 0; filter: blur(8px)"),
                              ("{{#params.extra}}<aside>{{{content}}}</aside>{{/params.extra}}", "{content: '<script>document.title = 1</script>'}")] {
            let repository = try Repository()
            defer { repository.remove() }
            try FileManager.default.createDirectory(at: repository.root.appendingPathComponent("templates"), withIntermediateDirectories: true)
            let page = try String(contentsOf: CLI.root.appendingPathComponent("templates/page.mustache"), encoding: .utf8)
                .replacingOccurrences(of: "{{{content}}}", with: "{{{content}}}" + slot)
            try Data(page.utf8).write(to: repository.root.appendingPathComponent("templates/page.mustache"))
            try repository.edit("site/glossary.md") { $0.replacingOccurrences(of: "---\n", with: "---\nextra: \"\"\n", options: [], range: $0.range(of: "---\n")) }
            try repository.commit("a theme that writes front matter")
            try repository.edit("site/glossary.md") {
                $0.replacingOccurrences(of: "extra: \"\"", with: "extra: " + (value.hasPrefix("{") ? value : "\"\(value)\""))
            }
            let review = try Self.review(repository)
            #expect(review.status == 1, "\(slot): \(review.summary)")
            #expect(review.summary.contains("Raw HTML changed on `site/glossary.md`"), "\(slot): \(review.summary)")
        }

        // The built-in theme writes the front matter escaped: a text change.
        let plain = try Repository()
        defer { plain.remove() }
        try plain.edit("site/glossary.md") { $0.replacingOccurrences(of: "---\n", with: "---\nextra: \"<b>x</b>\"\n", options: [], range: $0.range(of: "---\n")) }
        let text = try Self.review(plain)
        #expect(text.status == 0 && text.summary.contains("`site/glossary.md` (changed)"), "\(text.summary)")
    }

    /// With `version:`, a row whose text a step changes without reloading
    /// it keeps its old text in the player (UIKit's cell does), but the
    /// example's filmstrip draws the new rows: a pull request rewrote them
    /// and the gate said nothing changed (attack round 2).
    @Test func rowsTheFilmstripDraws_butNoStepReloads_failTheGate() throws {
        let repository = try Repository()
        defer { repository.remove() }
        let sequence = """
            title: Stale cells
            version: v
            steps:
              - items: [{id: a, name: Alpha, v: 1}, {id: b, name: Beta, v: 1}]
              - items: [{id: b, name: Beta, v: 1}, {id: a, name: Alpha, v: 1}]

            """
        try Data(sequence.utf8).write(to: repository.root.appendingPathComponent("examples/stale.yml"))
        try repository.commit("an example with versions")
        try repository.edit("examples/stale.yml") { $0.replacingOccurrences(of: "{id: b, name: Beta, v: 1}, {id: a", with: "{id: b, name: Beta wires $5000, v: 1}, {id: a") }
        let review = try Self.review(repository)
        #expect(review.status == 1)
        #expect(Self.changed(review.page) == ["stale.yml"])
        #expect(review.summary.contains("the snapshots' rows changed where no step reloads them"), "\(review.summary)")
    }

    @Test func aRenamedExample_isItsOwnChange_notEveryBlockThatShowsIt() throws {
        let repository = try Repository()
        defer { repository.remove() }
        try FileManager.default.moveItem(at: repository.root.appendingPathComponent("examples/move-and-reload.yml"),
                                         to: repository.root.appendingPathComponent("examples/move-then-reload.yml"))
        for page in ["site/engine.md", "site/uikit-rules.md"] {
            try repository.edit(page) { $0.replacingOccurrences(of: "example: move-and-reload.yml", with: "example: move-then-reload.yml") }
        }
        let review = try Self.review(repository)
        #expect(Self.changed(review.page).sorted() == ["move-and-reload.yml", "move-then-reload.yml"], "\(Self.changed(review.page))")
    }

    @Test func aBlocksStartingStep_isAChange_andAnUnchangedPageIsNot() throws {
        let repository = try Repository()
        defer { repository.remove() }
        #expect(try Self.review(repository).status == 0)
        try repository.edit("site/engine.md") { $0.replacingOccurrences(of: "example: section-header.yml\n", with: "example: section-header.yml\nstep: 1\n") }
        let review = try Self.review(repository)
        #expect(review.status == 1)
        #expect(review.summary.contains("- starts at step 1 (was 0)"), "\(review.summary)")
    }
}
