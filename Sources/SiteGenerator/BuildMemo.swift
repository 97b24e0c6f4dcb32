import Diagnostics
import ProjectFiles

/// The last build's model, kept in memory by `serve` between saves: what it
/// read (the listing, each input's SHA-256, the theme, every page and
/// example loaded), what it derived (the navigation and its rendered
/// HTML), and what it made (every output's bytes and key, each page's
/// Document and warnings, each search entry). The next build is told which
/// input files changed since (the watcher knows); it reads and parses
/// those alone, and renders only the outputs whose key changed, the keys
/// being the dependency record: a page's key holds its source and the
/// examples it shows; every output's holds the theme, the options and the
/// navigation (every page's title and order, the set of pages and examples).
///
/// A memo is only as good as the list of changes it is given: `changed`
/// nil means "not known", and the build reads everything again (it still
/// renders only what changed, from the outputs in memory).
public struct BuildMemo: Sendable {
    /// Input files (as builds name them: `site/guide/a.md`) added, removed
    /// or changed since the build this memo holds; nil when not known.
    public var changed: Set<String>?

    /// What the build was asked, the parts that change what it reads or
    /// makes (a memo of other options is not used).
    var options: Identity?
    var tree: InputTree?
    /// Each input file's SHA-256, by its path as builds name it.
    var digests: [String: String] = [:]
    /// Each input file's size in bytes (what the site may make is a multiple of them).
    var sizes: [String: Int] = [:]
    /// Their paths in the order the inputs' key reads them.
    var digestOrder: [String] = []
    /// The theme, every page and example, the static files, as loaded.
    var loaded = LoadedFiles()
    /// The navigation's HTML per output, for the navigation, theme and
    /// outputs it was rendered from.
    var navigation: (key: NavigationKey, memo: NavigationMemo)?
    /// Every output's bytes, and the cache entries (keys, Documents, warnings) of the pages.
    var files: [String: [UInt8]] = [:]
    var cache = BuildCache()
    /// Each page's search entry as JSON, by output, with the key it was made from.
    var searchEntries: [String: (key: String, json: [UInt8])] = [:]

    /// What the last build made of its inputs, for a build that changes
    /// only some pages' or examples' content (`SiteBuilder.rebuild`).
    var state: State?

    public init() {}

    struct State: Sendable {
        var inputs: SiteInputs
        var keys: OutputKeys
        var chromes: Chromes
        /// Each page as rendered (or reused), in `inputs.pages`' order.
        var rendered: [RenderedPage]
        var examplePages: [ExampleOutput]
        /// What listing and loading reported.
        var loadDiagnostics: [Diagnostic]
        var redirectDiagnostics: [Diagnostic]
        /// Broken links of each example's description, by name.
        var descriptionProblems: [String: [Diagnostic]]
        /// Broken `#` links of each page, in `inputs.pages`' order.
        var fragmentProblems: [[Diagnostic]]
        var themeIDs: Set<String>
        /// Each search entry's JSON by its address, and the addresses in order.
        var search: [String: [UInt8]]
        var searchOrder: [String]
        /// What the build reported of its pages (`BuiltSite.pages`), and each one's place in it.
        var pages: [(source: String, output: String, title: String, hash: String)]
        var pageOrder: [String: Int] = [:]
        var scripts: [String: String]
        /// Each page's place in `inputs.pages`, by its output.
        var pageIndex: [String: Int] = [:]

        init(inputs: SiteInputs, keys: OutputKeys, chromes: Chromes, rendered: [RenderedPage], examplePages: [ExampleOutput],
             loadDiagnostics: [Diagnostic], redirectDiagnostics: [Diagnostic], descriptionProblems: [String: [Diagnostic]],
             fragmentProblems: [[Diagnostic]], themeIDs: Set<String>, search: [String: [UInt8]], searchOrder: [String],
             pages: [(source: String, output: String, title: String, hash: String)], scripts: [String: String], pageOrder: [String: Int]? = nil,
             pageIndex: [String: Int]? = nil) {
            (self.inputs, self.keys, self.chromes, self.rendered, self.examplePages) = (inputs, keys, chromes, rendered, examplePages)
            (self.loadDiagnostics, self.redirectDiagnostics, self.descriptionProblems) = (loadDiagnostics, redirectDiagnostics, descriptionProblems)
            (self.fragmentProblems, self.themeIDs, self.search, self.searchOrder) = (fragmentProblems, themeIDs, search, searchOrder)
            (self.pages, self.scripts) = (pages, scripts)
            self.pageOrder = pageOrder ?? Dictionary(uniqueKeysWithValues: pages.enumerated().map { ($1.output, $0) })
            self.pageIndex = pageIndex ?? Dictionary(uniqueKeysWithValues: inputs.pages.indices.map { (inputs.pages[$0].output, $0) })
        }
    }

    struct Identity: Equatable, Sendable {
        var site, examples, templates, out, baseURL: String
        var urls: String
        var drafts: Bool
        var hasBaseline: Bool

        init(_ options: BuildOptions) {
            (site, examples, templates, out, baseURL) = (options.site, options.examples, options.templates, options.out, options.baseURL)
            (urls, drafts, hasBaseline) = (options.urls.rawValue, options.drafts, options.baseline != nil)
        }
    }

    /// What a navigation memo was rendered from.
    struct NavigationKey: Equatable, Sendable {
        var listed: [Navigation.Listed]
        var outputs: [String]
        var theme: [String: String]
        var siteTitle: String
    }

    /// Whether this memo can stand for the build of `options`.
    func applies(to options: BuildOptions) -> Bool {
        options.inputs == nil && self.options == Identity(options)
    }

    /// The listing of the last build, when every change since was to a file
    /// it listed that is still a plain file: an edit changes no listing
    /// (an added, removed or renamed file is listed again, as git sees it).
    func treeIfUnchanged() -> InputTree? {
        guard let tree, let changed else { return nil }
        for path in changed {
            guard let (folder, relative) = tree.folder(holding: path), folder.contains(relative),
                  FolderWalk.isPlainFile(folder.diskPath(of: relative) ?? "") else { return nil }
        }
        return tree
    }
}
