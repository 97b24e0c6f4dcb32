import CCMark
import SnapshotFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fenced code block whose info string is `rowmotion`: a player to put
/// in the page.
public struct DemoBlock: Sendable {
    /// The block's text (between the fences).
    public var source: String
    /// The line of the block's first content line in the `.md` file.
    public var firstLine: Int
}

/// Markdown to HTML through libcmark (CommonMark), with raw HTML passed
/// through (`CMARK_OPT_UNSAFE`: the docs are written by the project's own
/// authors) and smart punctuation. Demo blocks are found by walking the
/// syntax tree and replaced there, never by searching the HTML.
public enum MarkdownRenderer {
    /// Renders `markdown`, asking `player` for the HTML of each demo block.
    ///
    /// - Parameters:
    ///   - lineOffset: lines before `markdown` in its file (front matter),
    ///     so demo blocks know their line in the file.
    ///   - player: the HTML that replaces a demo block, or nil to leave a
    ///     visible placeholder (the caller reports why).
    public static func render(_ markdown: String, lineOffset: Int = 0, player: (DemoBlock) -> String?) -> String {
        render(markdown, lineOffset: lineOffset, player: player, link: { _, _ in nil })
    }

    /// Renders `markdown`; `link` sees every link's URL (with its line) and
    /// may return a replacement (`.md` pages become `.html`).
    public static func render(_ markdown: String, lineOffset: Int = 0, player: (DemoBlock) -> String?,
                              link: (_ url: String, _ line: Int) -> String?) -> String {
        let options = CMARK_OPT_UNSAFE | CMARK_OPT_SMART
        let bytes = Array(markdown.utf8)
        guard let document = cmark_parse_document(bytes, bytes.count, options) else { return "" }
        defer { cmark_node_free(document) }

        // Collect first: replacing nodes while iterating would upset the iterator.
        var blocks: [OpaquePointer] = []
        let iterator = cmark_iter_new(document)
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            if cmark_node_get_type(node) == CMARK_NODE_LINK, let url = cmark_node_get_url(node).map({ String(cString: $0) }) {
                var line = Int(cmark_node_get_start_line(node))
                // Inline nodes carry no position in cmark 0.30: use the enclosing block's.
                var parent = cmark_node_parent(node)
                while line == 0, let block = parent {
                    line = Int(cmark_node_get_start_line(block))
                    parent = cmark_node_parent(block)
                }
                if let replacement = link(url, line + lineOffset) { cmark_node_set_url(node, replacement) }
                continue
            }
            guard cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK else { continue }
            // cmark 0.30 has no cmark_node_get_fenced: a non-empty info string means fenced.
            let info = cmark_node_get_fence_info(node).map { String(cString: $0) } ?? ""
            if info.split(separator: " ").first == "rowmotion" { blocks.append(node) }
        }
        cmark_iter_free(iterator)

        for node in blocks {
            let source = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
            // The fence is on the node's start line; the content starts below it.
            let block = DemoBlock(source: source, firstLine: Int(cmark_node_get_start_line(node)) + 1 + lineOffset)
            let html = player(block) ?? "<div class=\"rowmotion-error\">This demo block could not be built.</div>"
            guard let replacement = cmark_node_new(CMARK_NODE_HTML_BLOCK) else { continue }
            cmark_node_set_literal(replacement, html + "\n")
            cmark_node_replace(node, replacement)
            cmark_node_free(node)
        }
        guard let rendered = cmark_render_html(document, options) else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }
}
