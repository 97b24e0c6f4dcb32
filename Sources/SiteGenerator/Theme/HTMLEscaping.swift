import Reports
import Mustache

/// The escaping every `{{name}}` in a theme gets: `HTMLText.escape`, the
/// site's one byte-level escaper, in place of swift-mustache's own HTML
/// content type, which compares whole characters and so lets a quote
/// followed by a combining mark (`"\u{301}`) through unescaped.
struct ByteHTMLEscaping: MustacheContentType {
    /// The name templates are switched to it by.
    static let name = "ROWMOTION_HTML"
    /// Put before every template's text: a standalone line, so it adds
    /// nothing to the output (parse errors subtract it from their line).
    static let pragma = "{{% CONTENT_TYPE: \(name)}}\n"

    /// Registers the content type with Mustache, once per process.
    static let registered: Void = MustacheContentTypes.register(ByteHTMLEscaping(), named: name)

    /// Escapes as `escape`; in a metered render, counts what escaping
    /// adds (the text itself is counted by the value that wrote it).
    func escapeText(_ text: String) -> String {
        let escaped = Self.escape(text)
        if let meter = RenderMeter.current { meter.count(escaped.utf8.count - text.utf8.count) }
        return escaped
    }

    static func escape(_ text: String) -> String {
        HTMLText.escape(text)
    }
}
