import BuildGraph
import Diagnostics
import Foundation
import ProjectFiles
import Reports
import SnapshotFormat

// The site's other outputs: each example's page and filmstrip, the index,
// the redirects, the search index, the static files and the theme's
// assets. Each rule puts its files in the sink as it makes them and keeps
// their sizes (and what it reported); a new kind of output is one rule
// here, named in `SiteOutputs.rules`.

/// Files a rule put in the sink: each path with its size, and what making
/// them reported.
struct MadeFiles: StoreCodable, Equatable {
    var files: [String: Int]
    var diagnostics: [Diagnostic]
    /// Whether the rule stopped short of the site's limit of files.
    var tooManyFiles = false

    init(files: [String: Int] = [:], diagnostics: [Diagnostic] = []) { (self.files, self.diagnostics) = (files, diagnostics) }

    func encode(to encoder: inout StoreEncoder) {
        encoder.write(files)
        encoder.write(diagnostics)
        encoder.write(tooManyFiles)
    }

    init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
        (files, diagnostics, tooManyFiles) = (try decoder.read(), try decoder.read(), try decoder.read())
    }
}

extension Derivation {
    /// Puts `files` in the sink: their sizes, and the problems of those
    /// that could not be put.
    func put(_ files: [(path: String, bytes: [UInt8])], diagnostics: [Diagnostic] = []) -> MadeFiles {
        var made = MadeFiles(diagnostics: diagnostics)
        for (path, bytes) in files {
            if let problem = site.sink.put(path, bytes) { made.diagnostics.append(problem) }
            made.files[path] = bytes.count
        }
        return made
    }
}

/// An example's page and filmstrip.
enum ExamplePage: StoredRule {
    static let name = "example-page"

    struct Value: StoreCodable, Equatable {
        var made: MadeFiles
        /// The page's ids (the theme makes them all: steps, the search box).
        var ids: [String]
        /// Its UIKit rule problems, or the error that kept it from being made.
        var problems: [Diagnostic]
        var error: Diagnostic?

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(made)
            encoder.write(ids)
            encoder.write(problems)
            encoder.write(error)
        }

        init(made: MadeFiles, ids: [String], problems: [Diagnostic], error: Diagnostic?) {
            (self.made, self.ids, self.problems, self.error) = (made, ids, problems, error)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (made, ids, problems, error) = (try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read())
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let site = build.site
        let output = OutputPaths.examplePath(argument)
        guard let example = try build.value(ExampleLoad.self, argument).example else {
            return Value(made: MadeFiles(), ids: [], problems: [], error: nil)
        }
        _ = try build.value(TemplateKey.self, "example")
        _ = try build.value(TemplateKey.self, "player")
        let theme = try build.theme()
        let chrome = try build.chrome(for: output)
        do throws(Diagnostic) {
            let (html, svg, problems) = try SiteRendering.examplePage(example, theme: theme, chrome: chrome, shared: build.playerParts,
                                                                      urls: site.options.urls)
            let made = build.put([(output, html), (OutputPaths.filmstripPath(argument), svg)])
            return Value(made: made, ids: RawHTML.ids(in: String(decoding: html, as: UTF8.self)), problems: problems.map(\.diagnostic), error: nil)
        } catch {
            return Value(made: MadeFiles(), ids: [], problems: [], error: error)
        }
    }
}

/// The parts of an example's player as its own file draws it, made once
/// for its page and every block that shows it (not stored).
enum ExamplePlayer: Rule {
    static let name = "example-player"

    struct Value: Sendable {
        var parts: PlayerParts.Parts?
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        guard let example = try build.value(ExampleLoad.self, argument).example else { return Value(parts: nil) }
        return Value(parts: PlayerParts.make(example.sequence, example))
    }

    static func same(_ old: Value, _ new: Value) -> Bool { false }
}

extension Derivation {
    /// Players' parts from `ExamplePlayer`, each read as a dependency.
    var playerParts: PlayerParts {
        PlayerParts { example in (try? self.value(ExamplePlayer.self, example.name))?.parts }
    }
}

/// An example page's ids.
enum ExamplePageIDs: StoredRule {
    static let name = "example-page-ids"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String] {
        try build.value(ExamplePage.self, argument).ids
    }
}

/// An example's search entry: its title, its description's text, its steps' labels.
enum ExampleSearchEntry: StoredRule {
    static let name = "example-search"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> PageSearchEntry.Value {
        let facts = try build.value(ExampleFacts.self, argument)
        let entry = SearchIndex.Entry(output: OutputPaths.examplePath(argument), title: facts.title,
                                      document: SiteRendering.exampleDocument(title: facts.title, description: facts.description, stepLabels: facts.stepLabels))
        return PageSearchEntry.Value(json: SearchIndex.json(entry))
    }
}

/// Links and images of an example's description that lead to no page or
/// file of the site.
enum ExampleDescriptionLinks: StoredRule {
    static let name = "example-description-links"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [Diagnostic] {
        guard let description = try build.value(ExampleFacts.self, argument).description else { return [] }
        let lookup = build.outputLookup()
        var problems: [Diagnostic] = []
        let options = build.site.options
        let page = OutputPaths.examplePath(argument)
        for url in MarkdownRenderer.linkAddresses(ofData: description) where MarkdownRenderer.isSafeDataURL(url) {
            guard let (_, output) = PageLinks.descriptionLink(url, from: page, urls: options.urls), !output.isEmpty, !output.hasPrefix("assets/"),
                  try !lookup.contains(output) else { continue }
            var other = false
            for form in PageLinks.otherForms(of: output) where try lookup.contains(form) { other = true }
            guard !other else { continue }
            problems.append(.warning("broken-link", at: SourceLocation(file: "\(options.examples)/\(argument)", line: 1, column: 1),
                                     "the description links to '\(TerminalText.escaped(String(url.prefix(200))))', which is not a page or file of the site"))
        }
        return problems
    }
}

/// The home page: `site/index.md`'s content, if any, and the example gallery.
enum IndexPage: StoredRule {
    static let name = "index-page"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> MadeFiles {
        let shape = try build.value(SiteShape.self, "")
        let home = try shape.homePath.map { path throws(BuildStopped) in try build.value(PageRender.self, path) }
        let facts = try build.values(ExampleFacts.self, shape.examples)
        _ = try build.value(TemplateKey.self, "index")
        let theme = try build.theme()
        let chrome = try build.chrome(for: "index.html")
        let changes = try build.site.options.baseline == nil ? nil : build.value(ReviewPage.self, "").link
        let cards = zip(shape.examples, facts).map { name, example in
            CardView(title: example.title, href: OutputPaths.examplePath(name), stepCount: example.stepLabels.count,
                     sparkline: SiteRendering.sparkline(example.summaries))
        }
        let index = IndexContext(chrome: chrome, title: shape.home?.title ?? shape.siteTitle, description: home?.homeDescription,
                                 content: home?.homeContent ?? "", examples: cards, changes: changes)
        do throws(Diagnostic) {
            return build.put([("index.html", try theme.renderBytes("index", index))])
        } catch {
            return MadeFiles(diagnostics: [error])
        }
    }
}

/// The pages' old addresses (`aliases`), each a page that redirects.
enum RedirectPages: StoredRule {
    static let name = "redirects"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> MadeFiles {
        let shape = try build.value(SiteShape.self, "")
        let pages = shape.pages.filter { !$0.aliases.isEmpty }
        guard !pages.isEmpty else { return MadeFiles() }
        let outputs = try build.value(OutputSet.self, "")
        let options = build.site.options
        let siteFolder = build.site.siteFolder
        var diagnostics: [Diagnostic] = []
        let entries = shape.pages.map { (source: siteFolder.path(of: $0.path), output: $0.output, title: $0.title, aliases: $0.aliases) }
        // What the site holds besides redirects: the room left of its files.
        let fileCount = outputs.count + 2
        // (Its bytes count against the site's limit where the site is counted.)
        let budget = OutputBudget(limit: options.siteByteLimit, input: build.site.inputBytes)
        let files = Redirects.redirects(pages: entries, outputs: Set(outputs), root: { OutputPaths.root(of: $0, options: options) },
                                        budget: budget, fileRoom: OutputLimits.siteFiles - fileCount, diagnostics: &diagnostics)
        var made = build.put(files.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, diagnostics: diagnostics)
        made.tooManyFiles = budget.isPastFileLimit
        return made
    }
}

/// The site's search index over every page's and example's entry.
enum SearchIndexFile: StoredRule {
    static let name = "search-index"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> MadeFiles {
        let shape = try build.value(SiteShape.self, "")
        let pages = try build.values(PageSearchEntry.self, shape.pages.map(\.path))
        let examples = try build.values(ExampleSearchEntry.self, shape.examples)
        let entries = (zip(shape.pages, pages).map { (RelativeURL.safe($0.output), $1.json) }
            + zip(shape.examples, examples).map { (RelativeURL.safe(OutputPaths.examplePath($0)), $1.json) }).sorted { $0.0 < $1.0 }
        return build.put([(OutputPaths.searchIndex, SearchIndex.script(joining: entries.map(\.1)))])
    }
}

/// A file of the site folder, published as it is; with its SHA-256 when
/// a page could load it as a script, a stylesheet or a document.
enum StaticCopy: StoredRule {
    static let name = "static-copy"

    struct Value: StoreCodable, Equatable {
        var made: MadeFiles
        var scriptKey: String?

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(made)
            encoder.write(scriptKey)
        }

        init(made: MadeFiles, scriptKey: String?) { (self.made, self.scriptKey) = (made, scriptKey) }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (made, scriptKey) = (try decoder.read(), try decoder.read())
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let folder = build.site.siteFolder
        switch try build.read(argument, in: folder, limit: nil) {
        case .success(let bytes):
            let script = StaticFiles.inert.contains((argument as NSString).pathExtension.lowercased()) ? nil : Digest.sha256(bytes)
            return Value(made: build.put([(argument, bytes)]), scriptKey: script)
        case .failure(let error):
            return Value(made: MadeFiles(diagnostics: [.error("unreadable-file", at: SourceLocation(file: folder.path(of: argument), line: 1, column: 1),
                                                                error.message)]), scriptKey: nil)
        }
    }
}

/// The theme's stylesheet and script, under names that change with their bytes.
enum ThemeAssetFiles: StoredRule {
    static let name = "theme-assets"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> MadeFiles {
        // Their texts' digests are the theme's file keys.
        _ = try build.value(ThemeFacts.self, "")
        let assets = ThemeAssets.themeAssets(try build.theme())
        return build.put(assets.files.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}
