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
        String(decoding: svgBytes(for: report), as: UTF8.self)
    }

    /// `svg(for:)` as UTF-8, as a site writes it.
    public func svgBytes(for report: DiffReport) -> [UInt8] {
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

        var body = SVGBytes()
        body.bytes.reserveCapacity(frames.count * 4_096)
        var height = Self.top
        var labels: [String: (row: Record<String>, label: String)] = [:]
        labels.reserveCapacity(frames.first.map { min($0.snapshot.rowCount, rowLimit) * 2 } ?? 0)
        for index in frames.indices {
            let x = Self.margin + index * (Self.frameWidth + Self.gutter)
            let (bottom, tops) = draw(frames[index], previous: index > 0 ? frames[index - 1] : nil, x: x, sequence: sequence,
                                      labels: &labels, into: &body)
            frames[index].rowTops = tops
            height = max(height, bottom)
            if index > 0 { arrows(from: frames[index - 1], to: frames[index], x: x, into: &body) }
        }
        let width = Self.margin * 2 + frames.count * Self.frameWidth + max(0, frames.count - 1) * Self.gutter
        height += Self.margin
        var svg = SVGBytes()
        svg.bytes.reserveCapacity(body.bytes.count + 2_048)
        svg.add("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""); svg.add(width); svg.add("\" height=\""); svg.add(height)
        svg.add("\" viewBox=\"0 0 "); svg.add(width); svg.add(" "); svg.add(height); svg.add("\" role=\"img\" aria-labelledby=\"rm-title\">\n")
        svg.add("<title id=\"rm-title\">"); svg.add(Self.escape(sequence.title)); svg.add(": "); svg.add(frames.count)
        svg.add(frames.count == 1 ? " snapshot</title>\n" : " snapshots</title>\n")
        svg.add(Self.styleAndMarker)
        legend(into: &svg)
        svg.bytes.append(contentsOf: body.bytes)
        svg.add("</svg>\n")
        return svg.bytes
    }

    /// Text made as UTF-8 bytes: a filmstrip is thousands of short pieces
    /// (string interpolation made it at 50 MB/s, a fifth of an example
    /// page's time).
    struct SVGBytes {
        var bytes: [UInt8] = []

        mutating func add(_ text: StaticString) {
            text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        mutating func add(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        /// An integer in decimal, as `String(_:)` writes it.
        mutating func add(_ number: Int) {
            if number < 0 {
                bytes.append(UInt8(ascii: "-"))
                // The magnitude as unsigned: `Int.min` has no positive Int.
                add(magnitude: number.magnitude)
            } else {
                add(magnitude: UInt(number))
            }
        }

        private mutating func add(magnitude: UInt) {
            guard magnitude >= 10 else {
                bytes.append(UInt8(ascii: "0") + UInt8(magnitude))
                return
            }
            add(magnitude: magnitude / 10)
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
        }
    }

    private func legend(into out: inout SVGBytes) {
        out.add("<g class=\"legend\">")
        var x = Self.margin
        for (style, text) in [("ins", "+ inserted"), ("mov", "↕ moved"), ("rel", "↻ reloaded"), ("del", "− deleted by the next step")] {
            out.add("<rect class=\""); out.add(style); out.add("\" x=\""); out.add(x); out.add("\" y=\"8\" width=\"14\" height=\"11\" rx=\"2\"/>")
            out.add("<text x=\""); out.add(x + 19); out.add("\" y=\"17\">"); out.add(text); out.add("</text>")
            x += 36 + text.count * 6
        }
        out.add("</g>\n")
    }

    /// A frame's group (written to `out`), its bottom edge, and where each
    /// drawn row is. `labels`: each row's label as last drawn, by id, with
    /// the row it was made of (a row is in most frames, mostly unchanged,
    /// and its label takes working out which field is its title).
    private func draw(_ frame: Frame, previous: Frame?, x: Int, sequence: SnapshotSequence,
                      labels: inout [String: (row: Record<String>, label: String)], into out: inout SVGBytes) -> (Int, [String: Int]) {
        var kinds: [String: RowChangeKind] = [:]
        kinds.reserveCapacity(frame.change?.rows.count ?? 0)
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

        out.add("<g class=\"frame\" data-step=\""); out.add(frame.number); out.add("\">")
        out.add("<text class=\"cap\" x=\""); out.add(x); out.add("\" y=\"40\">"); out.add(frame.number); out.add(". ")
        out.add(Self.escape(Self.truncate(frame.label, to: Self.labelLimit - 3))); out.add("</text>")
        out.add("<text class=\"n\" x=\""); out.add(x); out.add("\" y=\"54\">")
        out.add(counts.isEmpty ? (previous == nil ? "first snapshot" : "no changes") : counts); out.add("</text>")
        var y = Self.top
        var drawn = 0
        let total = frame.snapshot.rowCount
        var tops: [String: Int] = [:]
        tops.reserveCapacity(min(total, rowLimit))
        let showHeaders = frame.snapshot.sections.count > 1 || frame.snapshot.sections.contains { $0.header != nil }
        for (sectionIndex, section) in frame.snapshot.sections.enumerated() where drawn < rowLimit {
            if showHeaders {
                let name = section.header ?? (section.id.isEmpty ? "section \(sectionIndex)" : section.id)
                let style: StaticString? = frame.deletedSectionsNext.contains(section.id) ? "dh"
                    : insertedSections.contains(section.id) ? "nh" : movedSections.contains(section.id) ? "mh"
                    : reloadedSections.contains(section.id) ? "rh" : nil
                if let style {
                    out.add("<rect class=\""); out.add(style); out.add("\" x=\""); out.add(x - 2); out.add("\" y=\""); out.add(y + 1)
                    out.add("\" width=\""); out.add(Self.frameWidth + 4); out.add("\" height=\""); out.add(Self.headerHeight - 3); out.add("\" rx=\"2\"/>")
                }
                out.add("<text class=\"h\" x=\""); out.add(x); out.add("\" y=\""); out.add(y + 12); out.add("\">")
                out.add(Self.escape(Self.truncate(name, to: Self.labelLimit + 4))); out.add("</text>")
                y += Self.headerHeight
            }
            for row in section.rows where drawn < rowLimit {
                let kind = kinds[row.id] ?? []
                let deleted = frame.deletedNext.contains(row.id)
                let style: StaticString
                var drawnDeleted = false
                if kind.contains(.inserted) {
                    style = "ins"
                } else if kind.contains(.moved) {
                    style = kind.contains(.reloaded) ? "movrel" : "mov"
                } else if kind.contains(.reloaded) {
                    style = "rel"
                } else if deleted {
                    (style, drawnDeleted) = ("del", true)
                } else {
                    style = "r"
                }
                out.add("<rect class=\""); out.add(style); out.add("\" x=\""); out.add(x); out.add("\" y=\""); out.add(y)
                out.add("\" width=\""); out.add(Self.frameWidth); out.add("\" height=\""); out.add(Self.rowHeight); out.add("\" rx=\"3\"/>")
                out.add("<text x=\""); out.add(x + 7); out.add("\" y=\""); out.add(y + 14); out.add("\">")
                if let known = labels[row.id], known.row == row {
                    out.add(known.label)
                } else {
                    let label = Self.escape(Self.truncate(sequence.title(of: row), to: Self.labelLimit))
                    labels[row.id] = (row, label)
                    out.add(label)
                }
                out.add("</text>")
                if deleted, !drawnDeleted {
                    // Changed by this step, deleted by the next.
                    out.add("<rect class=\"del\" x=\""); out.add(x); out.add("\" y=\""); out.add(y); out.add("\" width=\""); out.add(Self.frameWidth)
                    out.add("\" height=\""); out.add(Self.rowHeight); out.add("\" rx=\"3\" fill-opacity=\"0\"/>")
                }
                if deleted {
                    out.add("<line class=\"x\" x1=\""); out.add(x + 4); out.add("\" y1=\""); out.add(y + 10); out.add("\" x2=\"")
                    out.add(x + Self.frameWidth - 4); out.add("\" y2=\""); out.add(y + 10); out.add("\"/>")
                }
                tops[row.id] = y
                y += Self.rowHeight + Self.rowGap
                drawn += 1
            }
        }
        if total > drawn {
            out.add("<text class=\"n\" x=\""); out.add(x); out.add("\" y=\""); out.add(y + 12); out.add("\">… "); out.add(total - drawn)
            out.add(total - drawn == 1 ? " more row</text>" : " more rows</text>")
            y += Self.headerHeight
        }
        out.add("</g>\n")
        return (y, tops)
    }

    /// Arrows in the gutter before frame `to`, from each moved row's place in
    /// frame `from`; rows off either frame's drawn part get none.
    private func arrows(from: Frame, to: Frame, x: Int, into out: inout SVGBytes) {
        let moved = (to.change?.rows ?? []).filter { $0.kind.contains(.moved) }.map(\.id)
        var opened = false
        for id in moved.sorted() {
            guard let start = from.rowTops[id], let end = to.rowTops[id] else { continue }
            let y1 = start + Self.rowHeight / 2, y2 = end + Self.rowHeight / 2
            let x1 = x - Self.gutter + 3, x2 = x - 3
            if !opened { out.add("<g class=\"moves\">"); opened = true }
            out.add("<path class=\"a\" d=\"M"); out.add(x1); out.add(" "); out.add(y1); out.add("C"); out.add(x1 + 24); out.add(" "); out.add(y1)
            out.add(" "); out.add(x2 - 24); out.add(" "); out.add(y2); out.add(" "); out.add(x2); out.add(" "); out.add(y2); out.add("\"/>")
        }
        if opened { out.add("</g>\n") }
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
