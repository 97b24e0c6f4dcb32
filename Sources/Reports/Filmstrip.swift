import SnapshotFormat
import ListDiff

/// A static picture of a sequence for places where JavaScript does not run
/// (a pull request's diff view, an email): one frame per snapshot, side by
/// side, rows as labelled bars. A frame marks what its step did: inserted
/// rows green, moved rows blue with an arrow from their place in the frame
/// before, reloaded rows amber; rows the next step deletes are struck
/// through in red. Deterministic, and small: long lists show their first
/// rows and say how many more there are.
public struct Filmstrip {
    /// The most rows a frame draws.
    public var rowLimit = 40

    static let frameWidth = 190
    static let gutter = 54
    static let rowHeight = 20
    static let rowGap = 3
    static let headerHeight = 17
    static let top = 62
    static let margin = 12
    static let labelLimit = 27

    /// The style and arrow marker every filmstrip starts with, word for word
    /// (a baseline report's filmstrip is checked against it).
    static let styleAndMarker = """
        <style>
        text{font:11px system-ui,-apple-system,'Segoe UI',sans-serif;fill:#1d232b}
        .cap{font-weight:600}.n{fill:#5b6573}.h{font-size:10px;fill:#5b6573;text-transform:uppercase;letter-spacing:.04em}
        .r{fill:#eef1f5;stroke:#c4cbd5}.ins{fill:#d4f4dc;stroke:#2e9b52}.mov{fill:#d7e6ff;stroke:#2f6fde}
        .rel{fill:#ffefc4;stroke:#c98f00}.movrel{fill:#d7e6ff;stroke:#c98f00;stroke-width:2}
        .del{fill:#fde2e2;stroke:#d33a3a;stroke-dasharray:4 2}.x{stroke:#d33a3a;stroke-width:1.5}
        .a{stroke:#2f6fde;stroke-width:1.5;fill:none;marker-end:url(#rm-arrow)}.nh{fill:#d4f4dc}.mh{fill:#d7e6ff}.dh{fill:#fde2e2}.rh{fill:#ffe3b8}
        </style>
        <defs><marker id="rm-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0L8 4L0 8z" fill="#2f6fde"/></marker></defs>

        """

    public init(rowLimit: Int = 40) {
        self.rowLimit = rowLimit
    }

    /// Where the frame of snapshot `index` is drawn, in the SVG's units
    /// (its pixels at its own size): its left edge and its width.
    public static func frame(ofSnapshot index: Int) -> (x: Int, width: Int) {
        (margin + index * (frameWidth + gutter), frameWidth)
    }

    /// The size a filmstrip's SVG gives itself (its root's `width` and
    /// `height`), nil for text that does not start as a filmstrip does.
    public static func size(of svg: String) -> (width: Int, height: Int)? {
        guard svg.hasPrefix("<svg "), let end = svg.firstIndex(of: ">") else { return nil }
        let tag = svg[..<end]
        func number(_ name: String) -> Int? {
            guard let start = tag.range(of: " \(name)=\"") else { return nil }
            return Int(tag[start.upperBound...].prefix { $0.isNumber })
        }
        guard let width = number("width"), let height = number("height") else { return nil }
        return (width, height)
    }

    /// One frame: a snapshot, and what the step into it did.
    struct Frame {
        var number: Int
        var label: String
        var snapshot: Snapshot<String, Record<String>>
        var change: Changeset<String, Record<String>>?
        /// Rows and sections the next step deletes.
        var deletedNext: Set<String> = []
        var deletedSectionsNext: Set<String> = []
        /// The rows drawn, by id: their bar's top edge.
        var rowTops: [String: Int] = [:]
    }

    /// The SVG for `report`: its first step's snapshot before, then each
    /// step's snapshot after.
    public func svg(for report: DiffReport) -> String {
        let sequence = report.sequence
        var frames: [Frame] = []
        if let first = report.steps.first {
            frames.append(Frame(number: first.from, label: sequence.steps[first.from].label, snapshot: sequence.steps[first.from].snapshot))
        } else if let only = sequence.steps.first {
            frames.append(Frame(number: 0, label: only.label, snapshot: only.snapshot))
        }
        for step in report.steps {
            frames[frames.count - 1].deletedNext = Set(step.changeset.rows.filter { $0.kind.contains(.deleted) }.map(\.id))
            var before = sequence.steps[step.from].snapshot
            for stage in step.changeset.stages {
                for index in stage.batch.sectionDeletes where before.sections.indices.contains(index) {
                    frames[frames.count - 1].deletedSectionsNext.insert(before.sections[index].id)
                }
                before = stage.after
            }
            frames.append(Frame(number: step.to, label: step.label, snapshot: sequence.steps[step.to].snapshot, change: step.changeset))
        }

        var body = ""
        var height = Self.top
        for index in frames.indices {
            let x = Self.margin + index * (Self.frameWidth + Self.gutter)
            let (group, bottom, tops) = draw(frames[index], previous: index > 0 ? frames[index - 1] : nil, x: x, sequence: sequence)
            frames[index].rowTops = tops
            body += group
            height = max(height, bottom)
            if index > 0 { body += arrows(from: frames[index - 1], to: frames[index], x: x) }
        }
        let width = Self.margin * 2 + frames.count * Self.frameWidth + max(0, frames.count - 1) * Self.gutter
        height += Self.margin
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\""
            + " aria-labelledby=\"rm-title\">\n"
        svg += "<title id=\"rm-title\">\(Self.escape(sequence.title)): \(frames.count) snapshot\(frames.count == 1 ? "" : "s")</title>\n"
        svg += Self.styleAndMarker
        svg += legend()
        svg += body
        svg += "</svg>\n"
        return svg
    }

    private func legend() -> String {
        var out = "<g class=\"legend\">"
        var x = Self.margin
        for (style, text) in [("ins", "+ inserted"), ("mov", "↕ moved"), ("rel", "↻ reloaded"), ("del", "− deleted by the next step")] {
            out += "<rect class=\"\(style)\" x=\"\(x)\" y=\"8\" width=\"14\" height=\"11\" rx=\"2\"/>"
            out += "<text x=\"\(x + 19)\" y=\"17\">\(text)</text>"
            x += 36 + text.count * 6
        }
        return out + "</g>\n"
    }

    /// A frame's group, its bottom edge, and where each drawn row is.
    private func draw(_ frame: Frame, previous: Frame?, x: Int, sequence: SnapshotSequence) -> (String, Int, [String: Int]) {
        var kinds: [String: RowChangeKind] = [:]
        for row in frame.change?.rows ?? [] { kinds[row.id, default: []].formUnion(row.kind) }
        let counts = frame.change.map(Self.counts) ?? ""
        // Sections the step inserted or moved, by id, from its batches.
        var insertedSections = Set<String>(), movedSections = Set<String>(), reloadedSections = Set<String>()
        for stage in frame.change?.stages ?? [] {
            // A section reload (a header or footer that changed) keeps its place within its batch.
            for index in stage.batch.sectionReloads where stage.after.sections.indices.contains(index) {
                reloadedSections.insert(stage.after.sections[index].id)
            }
            for index in stage.batch.sectionInserts where stage.after.sections.indices.contains(index) {
                insertedSections.insert(stage.after.sections[index].id)
            }
            for move in stage.batch.sectionMoves where stage.after.sections.indices.contains(move.to) {
                movedSections.insert(stage.after.sections[move.to].id)
            }
        }

        var out = "<g class=\"frame\" data-step=\"\(frame.number)\">"
        out += "<text class=\"cap\" x=\"\(x)\" y=\"40\">\(frame.number). \(Self.escape(Self.truncate(frame.label, to: Self.labelLimit - 3)))</text>"
        out += "<text class=\"n\" x=\"\(x)\" y=\"54\">\(counts.isEmpty ? (previous == nil ? "first snapshot" : "no changes") : counts)</text>"
        var y = Self.top
        var drawn = 0
        var tops: [String: Int] = [:]
        let total = frame.snapshot.rowCount
        let showHeaders = frame.snapshot.sections.count > 1 || frame.snapshot.sections.contains { $0.header != nil }
        for (sectionIndex, section) in frame.snapshot.sections.enumerated() where drawn < rowLimit {
            if showHeaders {
                let name = section.header ?? (section.id.isEmpty ? "section \(sectionIndex)" : section.id)
                let style = frame.deletedSectionsNext.contains(section.id) ? "dh"
                    : insertedSections.contains(section.id) ? "nh" : movedSections.contains(section.id) ? "mh"
                    : reloadedSections.contains(section.id) ? "rh" : nil
                if let style {
                    out += "<rect class=\"\(style)\" x=\"\(x - 2)\" y=\"\(y + 1)\" width=\"\(Self.frameWidth + 4)\" height=\"\(Self.headerHeight - 3)\" rx=\"2\"/>"
                }
                out += "<text class=\"h\" x=\"\(x)\" y=\"\(y + 12)\">\(Self.escape(Self.truncate(name, to: Self.labelLimit + 4)))</text>"
                y += Self.headerHeight
            }
            for row in section.rows where drawn < rowLimit {
                let kind = kinds[row.id] ?? []
                let style: String
                if kind.contains(.inserted) {
                    style = "ins"
                } else if kind.contains(.moved) {
                    style = kind.contains(.reloaded) ? "movrel" : "mov"
                } else if kind.contains(.reloaded) {
                    style = "rel"
                } else if frame.deletedNext.contains(row.id) {
                    style = "del"
                } else {
                    style = "r"
                }
                out += "<rect class=\"\(style)\" x=\"\(x)\" y=\"\(y)\" width=\"\(Self.frameWidth)\" height=\"\(Self.rowHeight)\" rx=\"3\"/>"
                out += "<text x=\"\(x + 7)\" y=\"\(y + 14)\">\(Self.escape(Self.truncate(sequence.title(of: row), to: Self.labelLimit)))</text>"
                if style != "del", frame.deletedNext.contains(row.id) {
                    // Changed by this step, deleted by the next.
                    out += "<rect class=\"del\" x=\"\(x)\" y=\"\(y)\" width=\"\(Self.frameWidth)\" height=\"\(Self.rowHeight)\" rx=\"3\" fill-opacity=\"0\"/>"
                }
                if frame.deletedNext.contains(row.id) {
                    out += "<line class=\"x\" x1=\"\(x + 4)\" y1=\"\(y + 10)\" x2=\"\(x + Self.frameWidth - 4)\" y2=\"\(y + 10)\"/>"
                }
                tops[row.id] = y
                y += Self.rowHeight + Self.rowGap
                drawn += 1
            }
        }
        if total > drawn {
            out += "<text class=\"n\" x=\"\(x)\" y=\"\(y + 12)\">… \(total - drawn) more row\(total - drawn == 1 ? "" : "s")</text>"
            y += Self.headerHeight
        }
        out += "</g>\n"
        return (out, y, tops)
    }

    /// Arrows in the gutter before frame `to`, from each moved row's place in
    /// frame `from`; rows off either frame's drawn part get none.
    private func arrows(from: Frame, to: Frame, x: Int) -> String {
        var out = ""
        let moved = (to.change?.rows ?? []).filter { $0.kind.contains(.moved) }.map(\.id)
        for id in moved.sorted() {
            guard let start = from.rowTops[id], let end = to.rowTops[id] else { continue }
            let y1 = start + Self.rowHeight / 2, y2 = end + Self.rowHeight / 2
            let x1 = x - Self.gutter + 3, x2 = x - 3
            out += "<path class=\"a\" d=\"M\(x1) \(y1)C\(x1 + 24) \(y1) \(x2 - 24) \(y2) \(x2) \(y2)\"/>"
        }
        return out.isEmpty ? "" : "<g class=\"moves\">\(out)</g>\n"
    }

    /// `+2  −1  ↕1  ↻3`: the step's inserts, deletes, moves and reloads.
    static func counts(_ changeset: Changeset<String, Record<String>>) -> String {
        let counts = changeset.rowCounts
        let (inserted, deleted, moved, reloaded) = (counts.inserted, counts.deleted, counts.moved, counts.reloaded)
        var parts: [String] = []
        if inserted > 0 { parts.append("+\(inserted)") }
        if deleted > 0 { parts.append("−\(deleted)") }
        if moved > 0 { parts.append("↕\(moved)") }
        if reloaded > 0 { parts.append("↻\(reloaded)") }
        return parts.joined(separator: "  ")
    }

    static func truncate(_ text: String, to limit: Int) -> String {
        let flat = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
        return flat.count <= limit ? flat : String(flat.prefix(limit - 1)) + "…"
    }

    /// Text for XML: markup characters as entities (the one escaper,
    /// `HTMLText`), after the control characters XML 1.0 does not allow
    /// become spaces.
    static func escape(_ text: String) -> String {
        var allowed = ""
        allowed.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let forbidden = (scalar.value < 0x20 && scalar != "\t") || scalar == "\u{FFFE}" || scalar == "\u{FFFF}"
            allowed.unicodeScalars.append(forbidden ? " " : scalar)
        }
        return HTMLText.escape(allowed)
    }
}
