import CCMark

/// GitHub Flavored Markdown tables on top of libcmark, which stays the
/// parser. CommonMark reads a table as a paragraph; here a paragraph whose
/// line is a delimiter row (`| :-- | --: |`) under a header row with as
/// many cells becomes a table, in the tree, before anything else walks it:
/// so links in cells are rewritten and checked, and headings around it are
/// numbered as usual.
///
/// The rows are read from the paragraph's source lines (not from its
/// inlines: `\|` must still be told from `|`, and smart punctuation never
/// sees a delimiter row); each cell's inline Markdown is parsed by libcmark
/// with the page's options. What GFM says and this follows: a leading and
/// a trailing pipe are optional; `\|` is a pipe inside a cell, code spans
/// included; body rows with fewer cells are padded, extra cells dropped;
/// lines of the paragraph above the header row stay a paragraph; the table
/// runs to the paragraph's end (a blank line or another block). The HTML is
/// cmark-gfm's, `align` attributes included.
///
/// Not followed: a cell's `[label]` cannot use the page's link reference
/// definitions (each cell is parsed on its own).
enum Tables {
    enum Alignment { case none, left, center, right }

    /// Turns every table paragraph of `document` (parsed from `source`) into a table.
    @discardableResult
    static func apply(to document: OpaquePointer, source: String, options: Int32) -> [Problem] {
        // Collect first: replacing nodes while iterating would upset the iterator.
        var paragraphs: [OpaquePointer] = []
        let iterator = cmark_iter_new(document)
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                  cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH,
                  cmark_node_get_end_line(node) > cmark_node_get_start_line(node) else { continue }
            paragraphs.append(node)
        }
        cmark_iter_free(iterator)
        guard !paragraphs.isEmpty else { return [] }
        // Split at the line feed byte (a split by Characters was most of this pass).
        var lines: [Substring] = []
        var start = source.utf8.startIndex
        for index in source.utf8.indices where source.utf8[index] == UInt8(ascii: "\n") {
            lines.append(source[start..<index])
            start = source.utf8.index(after: index)
        }
        lines.append(source[start...])
        var problems: [Problem] = []
        var cellsLeft = Limits.cellsPerPage
        for paragraph in paragraphs {
            let rows = Self.lines(of: paragraph, in: lines)
            guard let start = tableStart(rows) else { continue }
            let (alignments, header) = (delimiterRow(rows[start + 1])!, cells(rows[start]))
            // Short rows are padded to the header's width: without a cap, a
            // small page of many columns and many short rows made cells
            // without end (30 KB of Markdown, 250 MB of HTML). The cells
            // added may not outnumber the table's own bytes (past a floor),
            // so the HTML stays linear in the Markdown.
            let body = rows.count > start + 2 ? rows[(start + 2)...] : []
            let bodyCells = body.map { cells($0) }
            let padded = bodyCells.reduce(0) { $0 + max(0, alignments.count - $1.count) }
            let sourceBytes = rows[start...].reduce(0) { $0 + $1.utf8.count }
            if alignments.count > Limits.columns || padded > max(Limits.paddedCells, sourceBytes) {
                problems.append(Problem(line: Int(cmark_node_get_start_line(paragraph)) + start,
                                        message: "this table has \(alignments.count) columns and \(body.count + 1) rows, \(padded) cells of them empty "
                                            + "to fill short rows; tables are limited to \(Limits.columns) columns, and to \(Limits.paddedCells) "
                                            + "filled-in cells or as many as the table has bytes, so it is shown as text"))
                continue
            }
            // Each cell is a few nodes and strings: a page's tables together
            // are capped, so memory does not grow with a 64 MiB page of them.
            let cellCount = alignments.count * (body.count + 1)
            guard cellCount <= cellsLeft else {
                problems.append(Problem(line: Int(cmark_node_get_start_line(paragraph)) + start,
                                        message: "this table would take the page's tables past \(Limits.cellsPerPage) cells "
                                            + "(it has \(cellCount)), so it is shown as text"))
                continue
            }
            cellsLeft -= cellCount
            if start > 0, let before = parse(rows[..<start].joined(separator: "\n"), options: options) {
                // The lines above the header row stay a paragraph.
                while let child = cmark_node_first_child(before) {
                    cmark_node_unlink(child)
                    cmark_node_insert_before(paragraph, child)
                }
                cmark_node_free(before)
            }
            guard let table = block("<table>", "</table>") else { continue }
            if let head = block("<thead>\n<tr>", "</tr>\n</thead>") {
                for (index, text) in header.enumerated() {
                    appendCell(text, tag: "th", alignment: alignments[index], to: head, options: options)
                }
                cmark_node_append_child(table, head)
            }
            if !bodyCells.isEmpty, let tbody = block("<tbody>", "</tbody>") {
                for texts in bodyCells {
                    guard let row = block("<tr>", "</tr>") else { continue }
                    for index in alignments.indices {
                        appendCell(index < texts.count ? texts[index] : "", tag: "td", alignment: alignments[index], to: row, options: options)
                    }
                    cmark_node_append_child(tbody, row)
                }
                cmark_node_append_child(table, tbody)
            }
            cmark_node_replace(paragraph, table)
            cmark_node_free(paragraph)
        }
        return problems
    }

    /// The most a table may have: its HTML grows with columns × rows
    /// whatever the Markdown's size, since short rows are padded.
    enum Limits {
        static let columns = 1_000
        /// Empty cells added to short rows, when the table has fewer bytes.
        static let paddedCells = 10_000
        /// Cells in all the tables of one page.
        static let cellsPerPage = 200_000
    }

    /// A table that is not made one, at its header row's line in the body.
    struct Problem: Sendable {
        var line: Int
        var message: String
    }

    /// The index of the header row: the first line followed by a delimiter
    /// row with as many cells; nil when the paragraph is no table.
    static func tableStart(_ rows: [Substring]) -> Int? {
        guard rows.count >= 2 else { return nil }
        for index in 1..<rows.count {
            guard let alignments = delimiterRow(rows[index]) else { continue }
            // A table shows a pipe somewhere in its first two rows.
            guard rows[index].contains("|") || rows[index - 1].contains("|") else { continue }
            if cells(rows[index - 1]).count == alignments.count { return index - 1 }
        }
        return nil
    }

    /// A delimiter row's alignments, or nil when the line is not one.
    static func delimiterRow(_ line: Substring) -> [Alignment]? {
        var alignments: [Alignment] = []
        for cell in cells(line) {
            let bytes = Array(cell.utf8)
            let left = bytes.first == UInt8(ascii: ":"), right = bytes.count > 1 && bytes.last == UInt8(ascii: ":")
            let dashes = bytes.dropFirst(left ? 1 : 0).dropLast(right ? 1 : 0)
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == UInt8(ascii: "-") }) else { return nil }
            alignments.append(left && right ? .center : left ? .left : right ? .right : .none)
        }
        return alignments.isEmpty ? nil : alignments
    }

    /// A row's cells, trimmed: split at unescaped pipes, a leading and a
    /// trailing pipe dropped. `\|` stays escaped here.
    static func cells(_ line: Substring) -> [String] {
        // Trimmed by moving the ends of a slice (taking bytes off the front
        // of an array one by one was quadratic in a line's leading spaces).
        let all = Array(line.utf8)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0C }
        var start = all.startIndex, end = all.endIndex
        while start < end, isSpace(all[start]) { start += 1 }
        while end > start, isSpace(all[end - 1]) { end -= 1 }
        if start < end, all[start] == UInt8(ascii: "|") { start += 1 }
        let bytes = all[start..<end]
        var cells: [String] = []
        var current: [UInt8] = []
        var index = bytes.startIndex
        var endsWithPipe = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.endIndex {
                current.append(byte)
                current.append(bytes[index + 1])
                index += 2
                endsWithPipe = false
                continue
            }
            if byte == UInt8(ascii: "|") {
                cells.append(trimmed(current))
                current = []
                endsWithPipe = true
            } else {
                current.append(byte)
                endsWithPipe = false
            }
            index += 1
        }
        if !endsWithPipe || !current.isEmpty { cells.append(trimmed(current)) }
        return cells
    }

    private static func trimmed(_ bytes: [UInt8]) -> String {
        var slice = bytes[...]
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }

    /// A paragraph's source lines, without the prefixes of the block quotes
    /// and list items it sits in.
    static func lines(of paragraph: OpaquePointer, in lines: [Substring]) -> [Substring] {
        let first = Int(cmark_node_get_start_line(paragraph)), last = Int(cmark_node_get_end_line(paragraph))
        guard first >= 1, last <= lines.count else { return [] }
        var quotes = 0
        var parent = cmark_node_parent(paragraph)
        while let node = parent {
            if cmark_node_get_type(node) == CMARK_NODE_BLOCK_QUOTE { quotes += 1 }
            parent = cmark_node_parent(node)
        }
        var result: [Substring] = []
        for number in first...last {
            var line = lines[number - 1]
            if number == first {
                let column = Int(cmark_node_get_start_column(paragraph)) - 1
                let start = line.utf8.index(line.utf8.startIndex, offsetBy: min(column, line.utf8.count))
                line = line[start...]
            } else {
                for _ in 0..<quotes {
                    let content = line.drop { $0 == " " || $0 == "\t" }
                    guard content.first == ">" else { break }
                    line = content.dropFirst()
                    if line.first == " " { line = line.dropFirst() }
                }
            }
            result.append(line)
        }
        return result
    }

    private static func block(_ enter: String, _ exit: String) -> OpaquePointer? {
        guard let node = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK) else { return nil }
        cmark_node_set_on_enter(node, enter)
        cmark_node_set_on_exit(node, exit)
        return node
    }

    /// A cell: its inline Markdown parsed by libcmark, inside `<th>`/`<td>`.
    private static func appendCell(_ text: String, tag: String, alignment: Alignment, to row: OpaquePointer, options: Int32) {
        guard let cell = cmark_node_new(CMARK_NODE_CUSTOM_INLINE) else { return }
        let align: String
        switch alignment {
        case .none: align = ""
        case .left: align = " align=\"left\""
        case .center: align = " align=\"center\""
        case .right: align = " align=\"right\""
        }
        cmark_node_set_on_enter(cell, "<\(tag)\(align)>")
        cmark_node_set_on_exit(cell, "</\(tag)>\n")
        // A no-break space first keeps the text inline: `# x`, `- x` or
        // `1. x` in a cell are text, not a heading or a list; as Unicode
        // white space it reads like the start of a line to the inline
        // parser (flanking, smart quotes). It is taken off again below.
        let content = "\u{A0}" + (text.utf8.contains(UInt8(ascii: "\\")) ? text.replacingOccurrences(of: "\\|", with: "|") : text)
        if let parsed = parse(content, options: options) {
            if let paragraph = cmark_node_first_child(parsed), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH {
                while let child = cmark_node_first_child(paragraph) {
                    cmark_node_unlink(child)
                    cmark_node_append_child(cell, child)
                }
                if let first = cmark_node_first_child(cell), cmark_node_get_type(first) == CMARK_NODE_TEXT,
                   let literal = cmark_node_get_literal(first).map({ String(cString: $0) }), literal.hasPrefix("\u{A0}") {
                    let rest = String(literal.dropFirst())
                    if rest.isEmpty {
                        cmark_node_unlink(first)
                        cmark_node_free(first)
                    } else {
                        cmark_node_set_literal(first, rest)
                    }
                }
            }
            cmark_node_free(parsed)
        }
        cmark_node_append_child(row, cell)
    }

    private static func parse(_ text: String, options: Int32) -> OpaquePointer? {
        CMarkInput.parse(text, options: options)
    }
}
