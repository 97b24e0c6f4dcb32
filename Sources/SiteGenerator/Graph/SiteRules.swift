import BuildGraph
import Diagnostics
import Foundation
import ProjectFiles

// The site's shape: which pages and examples it has and where each goes,
// the files it publishes as they are, and every output's name; each a
// value of its own, so that what reads one part is not made again when
// only another changed (a title leaves the outputs' names alone).

/// The pages the site publishes (each output claimed by its first page,
/// none where an example's page goes, drafts only with `--drafts`), in
/// path order; the examples that load, in name order; the home page and
/// the site's title; what gathering them found.
enum SiteShape: StoredRule {
    static let name = "site-shape"

    struct Page: StoreCodable, Equatable {
        var path: String
        var output: String
        var title: String
        var linkTitle: String?
        var order: Int?
        var folder: String
        var isSectionPage: Bool
        var aliases: [FrontMatter.Alias]

        var listed: Navigation.Listed {
            Navigation.Listed(output: output, title: linkTitle ?? title, order: order, folder: folder, isSectionPage: isSectionPage)
        }

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(path)
            encoder.write(output)
            encoder.write(title)
            encoder.write(linkTitle)
            encoder.write(order)
            encoder.write(folder)
            encoder.write(isSectionPage)
            encoder.write(aliases)
        }

        init(path: String, _ facts: PageFacts.Value) {
            (self.path, output, title, linkTitle, order) = (path, facts.output, facts.title, facts.linkTitle, facts.order)
            (folder, isSectionPage, aliases) = (facts.folder, facts.isSectionPage, facts.aliases)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (path, output, title, linkTitle, order) = (try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read())
            (folder, isSectionPage, aliases) = (try decoder.read(), try decoder.read(), try decoder.read())
        }
    }

    struct Value: StoreCodable, Equatable {
        var pages: [Page]
        var examples: [String]
        var homePath: String?
        var siteTitle: String
        /// Each page's loading diagnostics and the pages refused, in path order.
        var diagnostics: [Diagnostic]

        var home: Page? { homePath.flatMap { path in pages.first { $0.path == path } } }

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(pages)
            encoder.write(examples)
            encoder.write(homePath)
            encoder.write(siteTitle)
            encoder.write(diagnostics)
        }

        init(pages: [Page], examples: [String], homePath: String?, siteTitle: String, diagnostics: [Diagnostic]) {
            (self.pages, self.examples, self.homePath, self.siteTitle, self.diagnostics) = (pages, examples, homePath, siteTitle, diagnostics)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (pages, examples, homePath, siteTitle, diagnostics) = (try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read())
        }

        /// The pages the navigation lists (all but the home page), in its order.
        var listed: [Navigation.Listed] {
            pages.filter { $0.output != "index.html" }
                .map { (order: $0.order ?? .max, title: $0.title, listed: $0.listed) }
                .sorted { ($0.order, $0.title, $0.listed.output) < ($1.order, $1.title, $1.listed.output) }
                .map(\.listed)
        }

        /// The outputs the build makes itself: pages, the index, the search
        /// index, each example's page and filmstrip.
        var generated: Set<String> { SiteInputs.generatedOutputs(pages: pages.map(\.output), examples: examples) }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let options = build.site.options
        let files = try build.value(PageFiles.self, "")
        let facts = try build.values(PageFacts.self, files)
        let exampleFiles = try build.value(ExampleFiles.self, "").chosen
        let valid = try build.values(ExampleValid.self, exampleFiles)
        let examples = zip(exampleFiles, valid).filter(\.1).map(\.0)
        let siteFolder = build.site.siteFolder, examplesFolder = build.site.examplesFolder
        var diagnostics: [Diagnostic] = []
        var pages: [(page: Page, draft: Bool)] = []
        var claimed: [String: String] = [:]
        for (path, fact) in zip(files, facts) {
            diagnostics.append(contentsOf: fact.diagnostics)
            guard fact.loaded else { continue }
            let source = siteFolder.path(of: path)
            // `guide/index.md` and `guide/README.md` would both be
            // `guide/index.html`; with pretty URLs, `guide.md` too.
            if let first = claimed[fact.output] {
                let folder = OutputPaths.parent(of: fact.output)
                diagnostics.append(.error("duplicate-section-page", at: SourceLocation(file: source, line: 1, column: 1),
                                          "'\(source)' and '\(first)' are both the page of "
                                              + (folder.isEmpty ? "the site's root" : "'\(folder)/'")
                                              + " (\(fact.output)); keep one of them"
                                              + (options.urls == .pretty ? " (with pretty URLs, 'a.md' is 'a/index.html' as 'a/index.md' is)" : "")))
                continue
            }
            claimed[fact.output] = source
            pages.append((Page(path: path, fact), fact.draft))
        }
        // A page where an example's page goes (`site/examples/a.md` beside
        // `examples/a.yml`) is an error, never silently replaced.
        let exampleOutputs = Dictionary(examples.flatMap { name in
            [(OutputPaths.examplePath(name), name), (OutputPaths.filmstripPath(name), name)]
        }) { first, _ in first }
        pages.removeAll { page, _ in
            guard let example = exampleOutputs[page.output] else { return false }
            let source = siteFolder.path(of: page.path)
            diagnostics.append(.error("output-collision", at: SourceLocation(file: source, line: 1, column: 1),
                                      "this page and the example '\(examplesFolder.path(of: example))' both become \(page.output); rename one",
                                      notes: [Diagnostic.Note(location: SourceLocation(file: examplesFolder.path(of: example), line: 1, column: 1),
                                                              message: "the example")]))
            return true
        }
        let published = pages.filter { !$0.draft || options.drafts }.map(\.page)
        let home = published.first { $0.output == "index.html" }
        return Value(pages: published, examples: examples, homePath: home?.path, siteTitle: home?.title ?? "Rowmotion", diagnostics: diagnostics)
    }
}

/// Each published page's output, by its path under the site folder (what
/// an edit of a title leaves as it is).
enum PageOutputs: StoredRule {
    static let name = "page-outputs"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String: String] {
        let shape = try build.value(SiteShape.self, "")
        return Dictionary(shape.pages.map { ($0.path, $0.output) }) { first, _ in first }
    }
}

/// The site's title: the home page's.
enum SiteTitle: StoredRule {
    static let name = "site-title"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> String {
        try build.value(SiteShape.self, "").siteTitle
    }
}

/// The files of the site folder that are not pages, published as they
/// are: their paths, and the errors of those a generated output takes.
enum StaticFileList: StoredRule {
    static let name = "static-files"

    struct Value: StoreCodable, Equatable {
        var paths: [String]
        var diagnostics: [Diagnostic]

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(paths)
            encoder.write(diagnostics)
        }

        init(paths: [String], diagnostics: [Diagnostic]) { (self.paths, self.diagnostics) = (paths, diagnostics) }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (paths, diagnostics) = (try decoder.read(), try decoder.read())
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let listing = try build.value(FolderListing.self, build.site.options.site)
        let generated = try build.value(SiteShape.self, "").generated
        let folder = build.site.siteFolder
        var paths: [String] = [], diagnostics: [Diagnostic] = []
        for path in listing.files where !path.hasSuffix(".md") {
            if generated.contains(path) || path.hasPrefix("assets/") {
                diagnostics.append(.error("static-file", at: SourceLocation(file: folder.path(of: path), line: 1, column: 1),
                                          "'\(path)' is also a page the site generates; rename the file"))
                continue
            }
            paths.append(path)
        }
        return Value(paths: paths, diagnostics: diagnostics)
    }
}

/// Every output of the site (pages, example pages and filmstrips, the
/// index, the search index, static files), sorted by bytes.
enum OutputSet: StoredRule {
    static let name = "outputs"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String] {
        let generated = try build.value(SiteShape.self, "").generated
        let statics = try build.value(StaticFileList.self, "").paths
        return generated.union(statics).sorted(by: Paths.precedes)
    }
}

/// The outputs by the folder they are in, as a file system that ignores
/// case names it (not stored: made from `OutputSet` when a new process asks).
enum OutputIndex: Rule {
    static let name = "output-index"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String: [String]] {
        var folders: [String: [String]] = [:]
        for output in try build.value(OutputSet.self, "") {
            folders[OutputPaths.folded(OutputParent.of(output)), default: []].append(output)
        }
        return folders
    }
    static func same(_ old: [String: [String]], _ new: [String: [String]]) -> Bool { false }
}

/// The outputs in one folder (named as folded: lowercased), sorted by
/// bytes: what a link into that folder is resolved against, so a page
/// added elsewhere leaves the pages linking here as they are.
enum OutputsInFolder: StoredRule {
    static let name = "outputs-in-folder"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String] {
        try build.value(OutputIndex.self, "")[argument] ?? []
    }
}

extension Derivation {
    /// The site's outputs as a page's links look them up, each look-up
    /// read as a dependency on the folder it looks in.
    func outputLookup() -> OutputLookup {
        OutputLookup { output throws(BuildStopped) in
            try self.value(OutputsInFolder.self, OutputPaths.folded(OutputParent.of(output)))
        }
    }
}

/// Whether an output exists, and the output a path names where case does
/// not count: the first by bytes of those folded to it.
struct OutputLookup: Sendable {
    /// The outputs in the folder of a path (sorted by bytes), its folder compared folded.
    let folder: @Sendable (String) throws(BuildStopped) -> [String]

    init(folder: @escaping @Sendable (String) throws(BuildStopped) -> [String]) { self.folder = folder }

    /// From a set (a build with every output at hand).
    init(_ outputs: Set<String>) {
        var folders: [String: [String]] = [:]
        for output in outputs.sorted(by: Paths.precedes) { folders[OutputPaths.folded(OutputParent.of(output)), default: []].append(output) }
        let index = folders
        folder = { path in index[OutputPaths.folded(OutputParent.of(path))] ?? [] }
    }

    func contains(_ output: String) throws(BuildStopped) -> Bool {
        try folder(output).contains { $0 == output }
    }

    /// The output `folded` (a lowercased path) names.
    func named(folded: String) throws(BuildStopped) -> String? {
        try folder(folded).first { OutputPaths.folded($0) == folded }
    }
}

/// The errors of outputs whose names collide where case does not count,
/// or that lie inside another output's file.
enum OutputNameChecks: StoredRule {
    static let name = "output-names"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [Diagnostic] {
        let shape = try build.value(SiteShape.self, "")
        let statics = try build.value(StaticFileList.self, "")
        let options = build.site.options
        let siteFolder = build.site.siteFolder, examplesFolder = build.site.examplesFolder
        let sourced = shape.pages.map { ($0.output, siteFolder.path(of: $0.path)) } + statics.paths.map { ($0, siteFolder.path(of: $0)) }
            + shape.examples.flatMap { [(OutputPaths.examplePath($0), examplesFolder.path(of: $0)),
                                        (OutputPaths.filmstripPath($0), examplesFolder.path(of: $0))] }
        var diagnostics = SiteInputs.caseCollisions(sourced)
        // With `--baseline`, the review's page and its folder of the baseline's filmstrips.
        let review = options.baseline == nil ? [:] : [OutputPaths.changes: "the review's page (--baseline)"]
        diagnostics += SiteInputs.filesInsideFiles(sourced, made: ["index.html": "the site's home page", OutputPaths.searchIndex: "the site's search index"]
                                                       .merging(review) { first, _ in first },
                                                   folders: options.baseline == nil ? [:] : [OutputPaths.reviewFolder: "the review's folder of the baseline's filmstrips (--baseline)"])
        return diagnostics
    }
}
