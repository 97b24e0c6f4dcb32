import BuildGraph
import Diagnostics
import Foundation
import ProjectFiles
import SnapshotFormat

// Pages: each rendered with its chrome, its links resolved against the
// outputs of the folders they lead into; what other outputs read of a
// page (its ids, its search entry, what it reports) kept apart, so that
// an edit that changes none of it renders that page alone.

/// A page rendered: its bytes go to the sink; kept are its size, what
/// rendering reported, the examples it shows, its ids and links to an
/// element, its search entry, and for the home page the content the
/// index wraps.
enum PageRender: StoredRule {
    static let name = "page-render"

    struct Value: StoreCodable, Equatable {
        var output: String
        var size: Int
        var diagnostics: [Diagnostic]
        var examples: [String]
        var ids: [String]
        var links: [FragmentLink]
        var search: [UInt8]
        var homeContent: String?
        var homeDescription: String?
        var tooLarge: Bool

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(output)
            encoder.write(size)
            encoder.write(diagnostics)
            encoder.write(examples)
            encoder.write(ids)
            encoder.write(links)
            encoder.write(bytes: search)
            encoder.write(homeContent)
            encoder.write(homeDescription)
            encoder.write(tooLarge)
        }

        init(output: String, size: Int, diagnostics: [Diagnostic], examples: [String], ids: [String], links: [FragmentLink], search: [UInt8],
             homeContent: String?, homeDescription: String?, tooLarge: Bool) {
            (self.output, self.size, self.diagnostics, self.examples, self.ids, self.links) = (output, size, diagnostics, examples, ids, links)
            (self.search, self.homeContent, self.homeDescription, self.tooLarge) = (search, homeContent, homeDescription, tooLarge)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (output, size, diagnostics, examples, ids) = (try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read())
            (links, search, homeContent, homeDescription, tooLarge) = (try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read())
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let loaded = try build.value(PageLoad.self, argument)
        guard let page = loaded.page else {
            return Value(output: "", size: 0, diagnostics: [], examples: [], ids: [], links: [], search: [], homeContent: nil, homeDescription: nil,
                         tooLarge: false)
        }
        let site = build.site
        let place = site.places.withLock { $0[page.output] } ?? Int.max
        if site.budget.skips(place) { throw BuildStopped(reason: OutputBudget.stopped) }
        let isHome = page.output == "index.html"
        _ = try build.value(TemplateKey.self, isHome ? "index" : "page")
        _ = try build.value(TemplateKey.self, "player")
        let theme = try build.theme()
        let chrome = try build.chrome(for: page.output)
        // Looked up one by one, each a read of the folder it looks in; a
        // stop met on the way is thrown once the render is done.
        let lookup = build.outputLookup()
        let stop = Locked<BuildStopped?>(nil)
        func exists(_ output: String) -> Bool {
            do throws(BuildStopped) { return try lookup.contains(output) } catch { stop.withLock { $0 = $0 ?? error }; return false }
        }
        func folded(_ output: String) -> String? {
            do throws(BuildStopped) { return try lookup.named(folded: output) } catch { stop.withLock { $0 = $0 ?? error }; return nil }
        }
        // The names demo blocks look examples up in, for a page that has blocks.
        let names = page.markdown.demoBlocks(lineOffset: 0).isEmpty ? ExampleNames([]) : try build.value(ExampleNameIndex.self, "")
        func example(_ name: String) -> LoadedExample? {
            do throws(BuildStopped) { return try build.value(ExampleLoad.self, names.listed(name)).example } catch { stop.withLock { $0 = $0 ?? error }; return nil }
        }
        var result = SiteRendering.render(page: page, theme: theme, example: example, exampleNames: names, exists: exists, foldedOutput: folded,
                                          chrome: chrome, options: site.options, isHome: isHome, shared: build.playerParts)
        if let stopped = stop.withLock({ $0 }) { throw stopped }
        result.byteCount = result.bytes.count
        if result.tooLarge { site.budget.fail(at: place, result.diagnostics.first { $0.id == OutputLimits.pageTooLarge }) } else { site.budget.take(result.byteCount) }
        if !isHome, !result.tooLarge, let problem = site.sink.put(page.output, result.bytes) { result.diagnostics.append(problem) }
        let entry = SearchIndex.Entry(output: page.output, title: page.title, document: result.made)
        return Value(output: page.output, size: result.bytes.count, diagnostics: result.diagnostics, examples: result.examples.sorted(),
                     ids: result.made.ids, links: result.made.links, search: SearchIndex.json(entry),
                     homeContent: isHome ? result.html : nil, homeDescription: isHome ? page.frontMatter.description : nil, tooLarge: result.tooLarge)
    }
}

/// What the site's gathering reads of a page's render.
enum PageSummary: StoredRule {
    static let name = "page-summary"

    struct Value: StoreCodable, Equatable {
        var output: String
        var size: Int
        var diagnostics: [Diagnostic]
        var examples: [String]
        var tooLarge: Bool

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(output)
            encoder.write(size)
            encoder.write(diagnostics)
            encoder.write(examples)
            encoder.write(tooLarge)
        }

        init(_ render: PageRender.Value) {
            (output, size, diagnostics, examples, tooLarge) = (render.output, render.size, render.diagnostics, render.examples, render.tooLarge)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (output, size, diagnostics, examples, tooLarge) = (try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read())
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        Value(try build.value(PageRender.self, argument))
    }
}

/// A page's ids: what links into it are checked against.
enum PageIDs: StoredRule {
    static let name = "page-ids"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String] {
        try build.value(PageRender.self, argument).ids
    }
}

/// A page's search entry, as `SearchIndex.json` writes it.
enum PageSearchEntry: StoredRule {
    static let name = "page-search"

    struct Value: StoreCodable, Equatable {
        var json: [UInt8]
        func encode(to encoder: inout StoreEncoder) { encoder.write(bytes: json) }
        init(json: [UInt8]) { self.json = json }
        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) { json = try decoder.read() }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        Value(json: try build.value(PageRender.self, argument).search)
    }
}

/// The ids the theme puts around a page's content (the navigation's, the
/// search box's), from the `page` template rendered with no content.
enum ThemeIDs: StoredRule {
    static let name = "theme-ids"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String] {
        _ = try build.value(TemplateKey.self, "page")
        let chrome = try build.chrome(for: "index.html")
        return LinkChecks.themeIDs(try build.theme(), chrome: chrome).sorted()
    }
}

/// Who makes each output a link may name an element of: a page (its path
/// under the site folder) or an example (its name).
enum OutputOwners: Rule {
    static let name = "output-owners"

    enum Owner: Sendable, Equatable {
        case page(String)
        case example(String)
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String: Owner] {
        var owners: [String: Owner] = [:]
        for (path, output) in try build.value(PageOutputs.self, "") where owners[output] == nil { owners[output] = .page(path) }
        for name in try build.value(SiteShape.self, "").examples { owners[OutputPaths.examplePath(name)] = owners[OutputPaths.examplePath(name)] ?? .example(name) }
        return owners
    }
    static func same(_ old: [String: Owner], _ new: [String: Owner]) -> Bool { false }
}

/// A page's broken links to an element: each checked against the ids of
/// the page (or example page) it leads to, and the theme's.
enum PageFragments: StoredRule {
    static let name = "page-fragments"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [Diagnostic] {
        let render = try build.value(PageRender.self, argument)
        guard !render.links.isEmpty, let page = try build.value(PageLoad.self, argument).page else { return [] }
        let owners = try build.value(OutputOwners.self, "")
        let themeIDs = Set(try build.value(ThemeIDs.self, ""))
        let options = build.site.options
        var targets: [String: (source: String, ids: Set<String>)] = [:]
        for link in render.links where targets[link.page] == nil {
            switch owners[link.page] {
            case .page(let path)?:
                let ids = link.page == render.output ? render.ids : try build.value(PageIDs.self, path)
                targets[link.page] = (build.site.siteFolder.path(of: path), themeIDs.union(ids))
            case .example(let name)?:
                targets[link.page] = ("\(options.examples)/\(name)", Set(try build.value(ExamplePageIDs.self, name)))
            case nil:
                // (Anything else, a static file, is not checked.)
                continue
            }
        }
        var hints = LinkChecks.FragmentHints()
        return LinkChecks.brokenFragments(render.links, from: page, targets: targets, hints: &hints)
    }
}

/// A page's raw HTML as one key (for the review: raw HTML can script or
/// restyle a page's players); with a theme that writes front matter as
/// markup, its front matter and title too.
enum PageMarkup: StoredRule {
    static let name = "page-markup"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> String? {
        guard let page = try build.value(PageLoad.self, argument).page else { return nil }
        let html = page.markdown.rawHTML()
        guard try build.value(ThemeFacts.self, "").writesFrontMatterAsMarkup else { return html.isEmpty ? nil : ContentHash.key(html) }
        return ContentHash.key([ContentHash.key(html), page.frontMatterKey ?? "", page.title])
    }
}

extension FragmentLink: StoreCodable {
    func encode(to encoder: inout StoreEncoder) {
        encoder.write(page)
        encoder.write(fragment)
        encoder.write(line)
        encoder.write(column)
    }

    init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
        self.init(page: try decoder.read(), fragment: try decoder.read(), line: try decoder.read(), column: try decoder.read())
    }
}
