import Mustache

/// A theme's templates, rendered by swift-mustache through its public API
/// alone, every render metered as it goes (`RenderMeter`).
struct TemplateLibrary: Sendable {
    let mustache: MustacheLibrary
    /// What the templates write from their own text, for the meter.
    let expansion: StaticExpansion

    init(templates: [String: MustacheTemplate] = [:]) {
        mustache = MustacheLibrary(templates: templates)
        expansion = Self.expansion(of: templates)
    }

    /// The templates' static expansion, counted from the theme's own text
    /// (the pragma before it is a line of its own, which writes nothing).
    static func expansion(of templates: [String: MustacheTemplate]) -> StaticExpansion {
        StaticExpansion(templates: templates.mapValues { template in
            let text = template.description
            return text.hasPrefix(ByteHTMLEscaping.pragma) ? String(text.dropFirst(ByteHTMLEscaping.pragma.count)) : text
        })
    }

    func render(_ context: any MustacheParent, withTemplate name: String, limit: Int = OutputLimits.pageBytes) throws(RenderStop) -> String? {
        try meteredRender(context, withTemplate: name, limit: limit).map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// The render as UTF-8; past `limit` bytes it throws, as it goes.
    func renderBytes(_ context: any MustacheParent, withTemplate name: String, limit: Int = OutputLimits.pageBytes) throws(RenderStop) -> [UInt8]? {
        try meteredRender(context, withTemplate: name, limit: limit)?.bytes
    }

    /// swift-mustache's render, metered as it goes, with what the meter
    /// counted (an upper bound of the bytes). It throws once the count
    /// passes `limit` (the render is stopped there), or the bytes do.
    func meteredRender(_ context: any MustacheParent, withTemplate name: String, limit: Int) throws(RenderStop) -> (bytes: [UInt8], counted: Int)? {
        let meter = RenderMeter(limit: limit, expansion: expansion)
        guard meter.count(expansion.roots[name] ?? 0) else { throw .tooLarge }
        let root = MeteredParent(parent: context, value: context, meter: meter, name: "")
        guard let text = RenderMeter.$current.withValue(meter, operation: { mustache.render(root, withTemplate: name) }) else { return nil }
        guard !meter.isStopped, text.utf8.count <= limit else { throw .tooLarge }
        return (Array(text.utf8), meter.counted)
    }
}

/// Why a render stopped before its end: its output passed its limit.
enum RenderStop: Error {
    case tooLarge
}
