import Reports
import Diagnostics
import Foundation
import ListDiff
import SnapshotFormat

/// Rendering an example: its page (steps, calls, player), its filmstrip,
/// the player and strategy panes pages embed, and the index's sparklines.
extension SiteRendering {
    /// `compare: strategies`: the same example replayed side by side by
    /// ListDiff's minimal moves, the offset test most Heckel-style diffs use,
    /// deletes and inserts only, and `reloadData()`; each pane says how many
    /// moves it makes.
    static func strategyPanes(_ example: LoadedExample, spec: DemoSpec, theme: Theme) throws(Diagnostic) -> String {
        let panes: [(strategy: DiffStrategy?, name: String, label: String)] = [
            (.minimalMoves, "minimalMoves", "ListDiff: minimal moves"),
            (.offsets, "offsets", "Offsets (Heckel-style)"),
            (.deletesAndInserts, "deletesAndInserts", "Deletes and inserts only"),
            (nil, "reloadData", "reloadData()"),
        ]
        var html = "<div class=\"rowmotion-strategies\" data-rowmotion-compare=\"strategies\">\n"
        for pane in panes {
            var shown = example
            if let strategy = pane.strategy, strategy != .minimalMoves {
                shown.changesets = try example.sequence.changesets(strategy: strategy)
            }
            var paneSpec = spec
            paneSpec.compare = nil
            var view = SiteRendering.playerView(shown, spec: paneSpec)
            let moves = pane.strategy == nil ? shown.changesets.map { _ in 0 } : shown.changesets.map(\.moveCount)
            view.strategy = pane.name
            view.strategyLabel = pane.label
            view.moves = moves.map(String.init).joined(separator: ",")
            let total = moves.reduce(0, +)
            view.moveSummary = pane.strategy == nil ? "no animation, every row reloaded"
                : "\(total) move\(total == 1 ? "" : "s") in \(moves.count) step\(moves.count == 1 ? "" : "s")"
            html += try theme.render("player", view)
        }
        return html + "</div>\n"
    }

    /// A player of `example` as `spec` asks for it. `shared`: where players
    /// of the same example of `examples/` (its page and every block that
    /// shows it) find its data and first rows made once.
    static func playerView(_ example: LoadedExample, spec: DemoSpec?, shared: PlayerParts? = nil) -> PlayerView {
        let sequence = shown(example.sequence, as: spec)
        let parts = shared?.parts(example, drawnAs: sequence) ?? PlayerParts.make(sequence, example)
        return PlayerView(name: example.name, title: sequence.title, step: min(spec?.step ?? 0, sequence.steps.count - 1),
                          autoplay: spec?.autoplay ?? false, compare: spec?.compare,
                          initialHTML: parts.initialHTML, data: parts.data, cellStyle: sequence.drawnCellStyle.rawValue,
                          tableStyle: sequence.presentation.style == .plain ? nil : sequence.presentation.style.rawValue,
                          framing: framingStyle(PlayerData.framing(of: sequence)))
    }

    /// The list's size as the player's CSS reads it (`--rowmotion-height`,
    /// `--rowmotion-width`, in CSS pixels: a point is a CSS pixel at 1×),
    /// a grid's spacing and a data table's columns.
    static func framingStyle(_ framing: PlayerData.Framing?) -> String? {
        guard let framing else { return nil }
        let parts = [framing.height.map { "--rowmotion-height: \(Presentation.text($0))px" },
                     framing.width.map { "--rowmotion-width: \(Presentation.text($0))px" },
                     framing.spacing.map { "--rowmotion-spacing: \(Presentation.text($0))px" },
                     framing.widths.map { "--rowmotion-table-columns: " + $0.map { "minmax(0, \($0)fr)" }.joined(separator: " ") }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The first snapshot as HTML, so a page shows the list before (and
    /// without) its script. Row text is escaped: it never becomes markup.
    static func staticList(_ snapshot: Snapshot<String, Record<String>>, of sequence: SnapshotSequence) -> String {
        SiteRendering.staticList(snapshot.sections.map { PlayerData.section($0, of: sequence) }, framing: PlayerData.framing(of: sequence))
    }

    /// The same, from the sections as player data holds them (a baseline's).
    /// Each section says its layout (`data-layout`, and a grid's columns)
    /// as the script's `makeSection` does; a data table's column titles
    /// come first, in a row of their own.
    static func staticList(_ sections: [PlayerData.Section], framing: PlayerData.Framing?) -> String {
        var html = ""
        if let framing, framing.layout == "table", let fields = framing.fields {
            html += "<div class=\"rowmotion-columns\" role=\"presentation\">"
            for field in fields {
                html += "<span data-column=\"\(HTMLText.escape(field))\">\(HTMLText.escape(framing.titles?[field] ?? field))</span>"
            }
            html += "</div>\n"
        }
        // A virtual list's or grid's page shows its first items; the script makes the rest as they come into sight.
        var budget = framing?.virtual == true ? PlayerData.virtualFirstItems : Int.max
        for (index, section) in sections.enumerated() {
            // Named as the script names it: by header, id, or place.
            let label = section.header.flatMap { $0.isEmpty ? nil : $0 } ?? "Section \(section.id.isEmpty ? String(index + 1) : section.id)"
            var layout = ""
            if let own = framing?.sectionLayout(section.id) {
                layout = " data-layout=\"\(own.layout)\"" + (own.layout == "table" || own.layout == "list" ? ""
                    : " style=\"--columns: \(own.columns)" + (own.layout == "orthogonal" ? "; --count: \(max(1, section.items.count))\" tabindex=\"0" : "") + "\"")
            }
            // A list needs items: an empty section is a group, as the script makes it.
            html += "<div class=\"rowmotion-section\" role=\"\(section.items.isEmpty ? "group" : "list")\" aria-label=\"\(HTMLText.escape(label))\" data-section-id=\"\(HTMLText.escape(section.id))\"\(layout)>"
            if let header = section.header { html += "<h3 class=\"rowmotion-header\" role=\"presentation\">\(HTMLText.escape(header))</h3>" }
            for row in section.items.prefix(max(0, budget)) { html += rowHTML(row) }
            budget -= section.items.count
            if let footer = section.footer { html += "<p class=\"footer\" role=\"presentation\">\(HTMLText.escape(footer))</p>" }
            html += "</div>\n"
        }
        return html
    }

    /// A row as the player script draws it (`fillRow` in rowmotion.js): a
    /// line of fields, or, when its fields carry slots (`cell:`), the cell's
    /// parts — an image tile, the title with its subtitle or detail, a badge.
    /// The style is the player's (`data-cell`).
    static func rowHTML(_ row: PlayerData.Row) -> String {
        let fields = row.fields.isEmpty ? [["id", row.id]] : row.fields
        guard fields[0].count > 2 else {
            var html = "<div class=\"rowmotion-row\" role=\"listitem\" data-item-id=\"\(HTMLText.escape(row.id))\">"
            for (index, field) in fields.enumerated() where field.count >= 2 {
                html += "<span class=\"field\(index == 0 ? " primary" : "")\" data-field=\"\(HTMLText.escape(field[0]))\">"
                    + HTMLText.escape(field[1]) + "</span>"
            }
            return html + "</div>"
        }
        var html = "<div class=\"rowmotion-row rowmotion-cell\" role=\"listitem\" data-item-id=\"\(HTMLText.escape(row.id))\">"
        for field in fields where field.count >= 3 {
            let slot = field[2]
            html += "<span class=\"field cell-\(HTMLText.escape(slot))\(slot == "title" ? " primary" : "")\" data-field=\"\(HTMLText.escape(field[0]))\" data-slot=\"\(HTMLText.escape(slot))\""
            if slot == "image" {
                let value = field[1]
                if Self.isPictureAddress(value) {
                    html += " data-value=\"\(HTMLText.escape(value))\"><img src=\"\(HTMLText.escape(value))\" alt=\"\"></span>"
                } else {
                    html += " data-value=\"\(HTMLText.escape(value))\" aria-hidden=\"true\">" + HTMLText.escape(Self.tileText(value)) + "</span>"
                }
                continue
            }
            if slot == "accessory" {
                let (glyph, name) = Self.accessory(field[1])
                html += " data-value=\"\(HTMLText.escape(field[1]))\"" + (name.map { " role=\"img\" aria-label=\"\($0)\"" } ?? " aria-hidden=\"true\"")
                    + ">" + glyph + "</span>"
                continue
            }
            html += ">" + HTMLText.escape(field[1]) + "</span>"
        }
        return html + "</div>"
    }

    /// Why a step is shown at once (`skipAnimation:`): more of its items
    /// change than the share allows, counted as the player counts them
    /// (every insert, delete, move and reload of rows and sections, against
    /// the larger of the two snapshots); nil when it animates.
    static func skipReason(_ step: DiffReport.Step, of sequence: SnapshotSequence) -> String? {
        guard let share = sequence.presentation.skipAnimation else { return nil }
        let changes = step.changeset.stages.reduce(0) { total, stage in
            let batch = stage.batch
            return total + batch.rowInserts.count + batch.rowDeletes.count + batch.rowMoves.count + batch.rowReloads.count
                + batch.sectionInserts.count + batch.sectionDeletes.count + batch.sectionMoves.count + batch.sectionReloads.count
        }
        let items = max(1, [step.from, step.to].map { sequence.steps[$0].snapshot.sections.reduce(0) { $0 + $1.rows.count } }.max() ?? 1)
        guard Double(changes) / Double(items) > share else { return nil }
        return "shown at once, without animation: \(changes) changes to \(items) items, more than \(Int((share * 100).rounded())) % (skipAnimation)"
    }

    /// An accessory's glyph, and its name for a screen reader when it says
    /// something about the row (a checkmark); as `ACCESSORIES` in rowmotion.js.
    static func accessory(_ type: String) -> (glyph: String, name: String?) {
        switch type {
        case "checkmark": return ("✓", "checked")
        case "disclosureIndicator": return ("›", nil)
        case "detailButton": return ("ⓘ", nil)
        case "detailDisclosureButton": return ("ⓘ ›", nil)
        default: return ("", nil)
        }
    }

    /// An image slot's value that is a picture to load rather than text for a tile.
    static func isPictureAddress(_ value: String) -> Bool {
        value.hasPrefix("https://") || value.hasPrefix("http://") || value.hasPrefix("data:image/")
    }

    /// The tile an image slot shows for text: its first character (an emoji, an initial).
    static func tileText(_ value: String) -> String {
        value.first.map { String($0).uppercased() } ?? ""
    }

    /// A batch's calls as the example page shows them: coloured as every
    /// Swift block is, each call a `.call-line` span ending in its line
    /// break (the last has none), as the player's script would split them.
    static func callLinesHTML(_ calls: [String]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(calls.reduce(0) { $0 + $1.utf8.count } * 3)
        for (index, call) in calls.enumerated() {
            out.append(contentsOf: #"<span class="call-line">"#.utf8)
            SwiftHighlighter.html(call, into: &out)
            if index < calls.count - 1 { out.append(UInt8(ascii: "\n")) }
            out.append(contentsOf: "</span>".utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The example's page, its filmstrip, and any UIKit rule problems its
    /// batches have.
    static func examplePage(_ example: LoadedExample, theme: Theme, chrome: Chrome, shared: PlayerParts? = nil,
                            urls: URLStyle = .plain) throws(Diagnostic) -> (html: [UInt8], svg: [UInt8], problems: [RuleViolation]) {
        let sequence = example.sequence
        let report = DiffReport(file: example.name, sequence: sequence, changesets: example.changesets)
        var problems: [String] = []
        let steps = report.steps.map { step -> StepView in
            problems.append(contentsOf: step.diagnostics)
            let rowCounts = step.changeset.rowCounts
            var counts: [String] = []
            for (label, count) in [("inserted", rowCounts.inserted), ("deleted", rowCounts.deleted),
                                   ("moved", rowCounts.moved), ("reloaded", rowCounts.reloaded)] where count > 0 {
                counts.append("\(count) \(label)")
            }
            let batches = step.changeset.stages.enumerated().map { number, stage in
                let calls = DiffReport.calls(for: stage.batch, animations: sequence.animations, flavor: report.flavor)
                return BatchView(number: number + 1, explanation: DiffReport.explanation(of: step.changeset.stages, at: number, flavor: report.flavor),
                                 calls: calls.joined(separator: "\n"), callsHTML: callLinesHTML(calls))
            }
            if let reason = skipReason(step, of: sequence) { counts.append(reason) }
            return StepView(number: step.to, label: step.label, counts: counts.isEmpty ? "no row changes" : counts.joined(separator: ", "),
                            deferred: batches.count > 1, batchCount: batches.count, batches: batches)
        }
        let page = OutputPaths.examplePath(example.name)
        let description = sequence.description.map { MarkdownRenderer.renderData($0) { PageLinks.descriptionLink($0, from: page, urls: urls)?.rewritten } } ?? ""
        let context = ExampleContext(
            chrome: chrome, title: sequence.title, description: nil, descriptionHTML: description,
            player: SiteRendering.playerView(example, spec: nil, shared: shared),
            initialLabel: sequence.steps[0].label, initialRows: sequence.steps[0].snapshot.rowCount, steps: steps,
            validation: problems.isEmpty ? "Every batch passes UIKit's batch-update rules."
                                         : "UIKit rule problems: " + problems.joined(separator: "; "),
            filmstrip: RelativeURL.safe((OutputPaths.filmstripName(example.name) as NSString).lastPathComponent))
        return (try theme.renderBytes("example", context), Filmstrip().svgBytes(for: report), report.violations)
    }

    /// A small inline SVG: per step, stacked bars of inserts, deletes, moves
    /// and reloads.
    static func sparkline(_ steps: [StepSummary]) -> String {
        let counts = steps.map { [$0.inserted, $0.deleted, $0.moved, $0.reloaded] }
        let tallest = max(counts.map { $0.reduce(0, +) }.max() ?? 1, 1)
        let width = max(counts.count * 8, 8), height = 24
        var svg = "<svg class=\"sparkline\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"changes per step\">"
        for (step, values) in counts.enumerated() {
            var top = height
            for (kind, value) in zip(["insert", "delete", "move", "reload"], values) where value > 0 {
                let barHeight = max(1, value * height / tallest)
                top -= barHeight
                svg += "<rect class=\"\(kind)\" x=\"\(step * 8)\" y=\"\(top)\" width=\"6\" height=\"\(barHeight)\"/>"
            }
        }
        return svg + "</svg>"
    }

    /// What search knows of an example: its title, its description's text
    /// and its steps' labels (its page is the theme's, not a document's).
    static func exampleDocument(_ example: LoadedExample) -> Document {
        exampleDocument(title: example.title, description: example.description, stepLabels: example.stepLabels)
    }

    static func exampleDocument(title: String, description: String?, stepLabels: [String]) -> Document {
        var text = Document.TextCollector()
        text.append(title)
        text.separate()
        if let description { text.append(MarkdownRenderer.plainText(ofMarkdown: description)) }
        for label in stepLabels {
            text.separate()
            text.append(label)
        }
        var document = Document()
        document.text = text.text
        return document
    }
}
