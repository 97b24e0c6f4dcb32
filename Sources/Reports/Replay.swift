import SnapshotFormat
import ListDiff

/// One step of a sequence as a picture that plays by itself: an SVG whose
/// rows move as the step's batches move them, with CSS keyframes and no
/// script, so that it plays where only an image may (README on GitHub, an
/// issue, a chat). The list holds its snapshot before the step, the deleted
/// rows fade out while the kept ones glide to their new places and the
/// inserted ones fade in, then the reloaded ones change in place; the new
/// snapshot holds, and the loop starts again. Without motion (reduced
/// motion, a viewer that runs no animation), it is the snapshot after.
public struct Replay {
    /// The most rows drawn of each snapshot.
    public var rowLimit = 12

    public init(rowLimit: Int = 12) {
        self.rowLimit = rowLimit
    }

    /// One loop, and when within it each part of the step happens (as
    /// fractions of it): the step before, its move, its reloads, the step after.
    static let loopSeconds = 6.0
    static let (moveStarts, moveEnds, reloadEnds) = (20, 40, 50)

    static let width = Filmstrip.frameWidth + 2 * Filmstrip.margin

    /// The replay of `report`'s step at `index` (of `report.steps`); nil when there is none.
    public func svg(for report: DiffReport, step index: Int = 0) -> String? {
        guard report.steps.indices.contains(index) else { return nil }
        let step = report.steps[index], sequence = report.sequence
        let before = sequence.steps[step.from].snapshot, after = sequence.steps[step.to].snapshot
        var kinds: [String: RowChangeKind] = [:]
        for row in step.changeset.rows { kinds[row.id, default: []].formUnion(row.kind) }
        let (oldTops, oldRows, oldHeight) = tops(of: before)
        let (newTops, newRows, newHeight) = tops(of: after)
        let top = 44
        let height = top + max(oldHeight, newHeight) + Filmstrip.margin

        var out = Filmstrip.SVGBytes()
        out.add("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""); out.add(Self.width); out.add("\" height=\""); out.add(height)
        out.add("\" viewBox=\"0 0 "); out.add(Self.width); out.add(" "); out.add(height); out.add("\" role=\"img\" aria-labelledby=\"rm-replay\">\n")
        out.add("<title id=\"rm-replay\">"); out.add(Filmstrip.escape("\(sequence.title), step \(step.to): \(step.label)")); out.add("</title>\n")
        out.add("<style>\ntext{font:11px system-ui,-apple-system,'Segoe UI',sans-serif;fill:#1d232b}.cap{font-weight:600}.n{fill:#5b6573}\n")
        out.add(".r{fill:#eef1f5;stroke:#c4cbd5}.ins{fill:#d4f4dc;stroke:#2e9b52}.mov{fill:#d7e6ff;stroke:#2f6fde}.rel{fill:#ffefc4;stroke:#c98f00}.del{fill:#fde2e2;stroke:#d33a3a}\n")
        out.add("g,rect,text{animation-duration:"); out.add(Int(Self.loopSeconds)); out.add("s;animation-iteration-count:infinite;animation-timing-function:ease-in-out}\n")
        // Shown during the step, gone once it has been.
        out.add("@keyframes out{0%,"); out.add(Self.moveStarts); out.add("%{opacity:1}"); out.add(Self.moveEnds); out.add("%,100%{opacity:0}}\n")
        out.add("@keyframes in{0%,"); out.add(Self.moveStarts); out.add("%{opacity:0}"); out.add(Self.moveEnds); out.add("%,100%{opacity:1}}\n")
        out.add("@keyframes was{0%,"); out.add(Self.moveEnds); out.add("%{opacity:1}"); out.add(Self.reloadEnds); out.add("%,100%{opacity:0}}\n")
        out.add("@keyframes now{0%,"); out.add(Self.moveEnds); out.add("%{opacity:0}"); out.add(Self.reloadEnds); out.add("%,100%{opacity:1}}\n")
        out.add("@media (prefers-reduced-motion:reduce){g,rect,text{animation:none!important}}\n</style>\n")
        out.add("<text class=\"cap\" x=\""); out.add(Filmstrip.margin); out.add("\" y=\"18\">")
        out.add(Filmstrip.escape(Filmstrip.truncate("\(step.to). \(step.label)", to: Filmstrip.labelLimit + 3))); out.add("</text>\n")
        out.add("<text class=\"n\" x=\""); out.add(Filmstrip.margin); out.add("\" y=\"33\">")
        out.add(Filmstrip.escape(Filmstrip.counts(step.changeset))); out.add("</text>\n")

        // Rows that stay still first, then those that leave, arrive and
        // slide, then the moves UIKit is told of: a moved row is drawn over
        // the rows it passes.
        var keyframes = ""
        var still: [String] = [], moving: [String] = [], leaving: [String] = [], arriving: [String] = []
        for id in oldRows where newTops[id] == nil { leaving.append(id) }
        for id in newRows {
            if let old = oldTops[id] { if old == newTops[id] { still.append(id) } else { moving.append(id) } } else { arriving.append(id) }
        }
        moving.sort { (kinds[$0]?.contains(.moved) == true ? 1 : 0) < (kinds[$1]?.contains(.moved) == true ? 1 : 0) }
        func rowGroup(_ id: String, _ record: Record<String>, top y: Int, style: StaticString, animation: String?, newRecord: Record<String>?) {
            out.add("<g transform=\"translate("); out.add(Filmstrip.margin); out.add(" "); out.add(top + y); out.add(")\"")
            if let animation { out.add(" style=\"animation-name:"); out.add(animation); out.add("\"") }
            out.add("><rect class=\""); out.add(style); out.add("\" width=\""); out.add(Filmstrip.frameWidth); out.add("\" height=\"")
            out.add(Filmstrip.rowHeight); out.add("\" rx=\"3\"/>")
            let label = Filmstrip.escape(Filmstrip.truncate(sequence.title(of: record), to: Filmstrip.labelLimit))
            if let newRecord, kinds[id]?.contains(.reloaded) == true {
                // The reload: the old content gives way to the new in place.
                out.add("<rect class=\"rel\" width=\""); out.add(Filmstrip.frameWidth); out.add("\" height=\""); out.add(Filmstrip.rowHeight)
                out.add("\" rx=\"3\" style=\"animation-name:now\"/>")
                out.add("<text x=\"7\" y=\"14\" opacity=\"0\" style=\"animation-name:was\">"); out.add(label); out.add("</text>")
                out.add("<text x=\"7\" y=\"14\" style=\"animation-name:now\">")
                out.add(Filmstrip.escape(Filmstrip.truncate(sequence.title(of: newRecord), to: Filmstrip.labelLimit))); out.add("</text>")
            } else {
                out.add("<text x=\"7\" y=\"14\">"); out.add(label); out.add("</text>")
            }
            out.add("</g>\n")
        }
        let oldRecords = records(of: before), newRecords = records(of: after)
        for id in still { rowGroup(id, oldRecords[id]!, top: newTops[id]!, style: "r", animation: nil, newRecord: newRecords[id]) }
        for id in leaving {
            out.add("<g opacity=\"0\" style=\"animation-name:out\">")
            rowGroup(id, oldRecords[id]!, top: oldTops[id]!, style: "del", animation: nil, newRecord: nil)
            out.add("</g>\n")
        }
        for id in arriving {
            out.add("<g style=\"animation-name:in\">")
            rowGroup(id, newRecords[id]!, top: newTops[id]!, style: "ins", animation: nil, newRecord: nil)
            out.add("</g>\n")
        }
        for (number, id) in moving.enumerated() {
            // From its old place to its new one, as a translation of the group (drawn at the new place).
            let name = "m\(number)", from = oldTops[id]! - newTops[id]!
            keyframes += "@keyframes \(name){0%,\(Self.moveStarts)%{transform:translateY(\(from)px)}\(Self.moveEnds)%,100%{transform:translateY(0)}}\n"
            out.add("<g style=\"animation-name:"); out.add(name); out.add("\">")
            // Blue for a move UIKit is told of; the rows it pushes aside slide as they are.
            rowGroup(id, oldRecords[id]!, top: newTops[id]!, style: kinds[id]?.contains(.moved) == true ? "mov" : "r", animation: nil,
                     newRecord: newRecords[id])
            out.add("</g>\n")
        }
        if !keyframes.isEmpty { out.add("<style>\n"); out.add(keyframes); out.add("</style>\n") }
        out.add("</svg>\n")
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Each drawn row's top edge by id (below the caption), the ids in
    /// order, and the height they take; the first `rowLimit` rows.
    func tops(of snapshot: Snapshot<String, Record<String>>) -> ([String: Int], [String], Int) {
        var tops: [String: Int] = [:], order: [String] = []
        var y = 0
        for section in snapshot.sections {
            for row in section.rows where order.count < rowLimit {
                tops[row.id] = y
                order.append(row.id)
                y += Filmstrip.rowHeight + Filmstrip.rowGap
            }
        }
        return (tops, order, y)
    }

    /// The drawn rows by id.
    func records(of snapshot: Snapshot<String, Record<String>>) -> [String: Record<String>] {
        var found: [String: Record<String>] = [:]
        for section in snapshot.sections {
            for row in section.rows where found.count < rowLimit { found[row.id] = row }
        }
        return found
    }
}
