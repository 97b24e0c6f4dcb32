import ProjectFiles
import Reports
import Diagnostics
import Foundation
import ListDiff
import SnapshotFormat

/// A built site, not yet written: its files and what was found on the way.
public struct BuiltSite {
    public var files: [String: [UInt8]] = [:]
    /// Pages the site on disk holds as this build would write them, not
    /// read (`BuildOptions.keepsUnchangedPages`): the writer links them
    /// into the new site; `files` does not have them.
    public var kept: Set<String> = []
    /// Pages already written into `staging` as they were rendered
    /// (`BuildOptions.keepsUnchangedPages`); `files` does not have them.
    public var staged: Set<String> = []
    var staging: SiteWriter.Staging?
    /// How many of `staged` were written, and how many linked from the old site.
    var stagedCounts = (written: 0, reused: 0)

    /// Whether the site has `output`, in memory or on disk.
    public func has(_ output: String) -> Bool { files[output] != nil || kept.contains(output) || staged.contains(output) }
    /// How many files the site has, in memory or on disk.
    public var outputCount: Int { files.count + kept.count + staged.count }
    public var diagnostics: [Diagnostic] = []
    public var pageCount = 0
    public var exampleCount = 0
    /// Each page's source and output, in output order, with a hash of its text.
    public var pages: [(source: String, output: String, title: String, hash: String)] = []
    /// Each example's steps: label, batch count and row change counts, and
    /// how it animates (worked out when asked for).
    public var examples: [(name: String, title: String, output: String, steps: [StepSummary], animation: @Sendable () -> ExampleAnimation)] = []
    /// Every page's demo blocks as the review names and compares them
    /// (worked out when asked for).
    public var blocks: @Sendable () -> [BuildReport.Block] = { [] }
    /// With a cache: every input file's key, as `InputTree.digest` makes it.
    public var inputsKey: String?
    /// The SHA-256 of each theme file.
    public var theme: [String: String] = [:]
    /// Each page's raw HTML, as a key (nil for none), by its output (worked
    /// out when asked for).
    public var markup: @Sendable () -> [String: String] = { [:] }
    /// The SHA-256 of each static file a page could load as a script, a
    /// stylesheet or a document (every one but pictures, sound, video, fonts).
    public var scripts: [String: String] = [:]
    /// The theme's stylesheet, for a review drawn with a baseline's.
    public var stylesheet: String?
    /// With `--baseline`: what changed since it.
    public var changes: Changes?
    /// How many outputs were taken from the previous build unchanged.
    public var cachedCount = 0
    /// How many pages (example pages and the index included) this build
    /// rendered rather than took from the previous one.
    public var renderedCount = 0
    /// Whether every output came from the previous build, so nothing needs writing.
    public var unchanged = false
    var cache = BuildCache()
    /// With a memo that applied: the outputs whose bytes differ from its
    /// build's (added and removed ones included), sorted.
    public var changedOutputs: [String]?
    /// Whether the build ran to its end: its model (`BuildMemo`) replaced
    /// the one it was given.
    public internal(set) var isComplete = false
    /// Whether `cache` is what the cache file already holds.
    var cacheIsSaved = false
    /// After an edit of some pages' text (`FullBuild.edit`): what to write
    /// in place of the site on disk, and the cache.
    var edit: EditedSite?

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }


}

/// Markdown pages and snapshot sequences to a static site: load → render →
/// write. The same inputs give byte-identical output whatever the order of
/// files on disk or of the threads that render them.
public enum SiteBuilder {
    /// Builds the site in memory: load the inputs, render every output
    /// (reusing what the previous build made from the same key), check the
    /// links between them, and gather what `buildAndWrite` writes.
    ///
    /// With the `memo` of the last build (`serve` keeps it), only the
    /// inputs it lists as changed are read, and outputs whose key did not
    /// change come from its memory; the site returned carries the memo of
    /// this build.
    public static func build(_ options: BuildOptions) -> BuiltSite {
        var memo: BuildMemo?
        return build(options, memo: &memo)
    }

    /// The same, from the model of the last build (`serve` keeps it), given
    /// the input files changed since (`BuildMemo.changed`), and leaving the
    /// model of this one in its place (the last one's, when this build
    /// stopped early). Only those files are read; outputs whose key did not
    /// change come from the model, and an edit of pages' or examples'
    /// content renders only what depends on them (`rebuild`).
    ///
    /// The phases (`FullBuild`): list the inputs and key them; stop there
    /// when nothing changed; after an edit of some pages' text, make just
    /// those pages and their search entries again (`edit`); else load them; render the navigation; render the
    /// pages and example pages; assemble the index, redirects and search;
    /// check the links; keep what the next build needs.
    public static func build(_ options: BuildOptions, memo held: inout BuildMemo?) -> BuiltSite {
        var clock = PhaseClock(report: options.progress)
        if var owned = held.take() {
            // An edit of some pages' or examples' content: only what depends on them.
            if let site = rebuild(options, memo: &owned, clock: &clock) {
                held = owned
                return site
            }
            held = owned
        }
        var build = FullBuild(options: options, last: held, clock: clock)
        guard var listing = build.list() else { return build.site }
        if let unchanged = build.unchanged(listing) { return unchanged }
        if let edited = build.edit(listing) { return edited }
        listing.previous.readRest()
        guard let (inputs, assets) = build.load(listing) else { return build.site }
        let loadDiagnostics = build.site.diagnostics
        let (chromes, keys) = build.chromes(inputs, assets: assets, listing: listing)
        guard var rendered = build.render(inputs, chromes, keys: keys, listing: listing) else { return build.site }
        guard let assembled = build.assemble(inputs, chromes, &rendered) else { return build.site }
        let links = build.checkLinks(inputs, chromes, rendered)
        let site = build.finish(inputs, chromes, listing, rendered, assembled, links, loadDiagnostics: loadDiagnostics)
        held = build.memo
        return site
    }

    /// The previous build's site and diagnostics, when nothing changed since
    /// it and its site is intact: nothing to parse, render or write.
    static func unchangedSite(_ options: BuildOptions, previous: BuildCache, inputKey: String) -> BuiltSite? {
        guard previous.inputKey == inputKey, SiteFolder.isPlainFolder(options.out),
              FolderWalk.isPlainFile((options.out as NSString).appendingPathComponent(SiteWriter.marker)) else { return nil }
        // One walk of the site, each file stamped: exactly the files the
        // cache's build wrote (their names' bytes too: `café` respelled is
        // another file), none written since, no link anywhere.
        guard !previous.written.isEmpty, let seal = SiteFolder.seal(of: options.out), seal == SiteFolder.seal(of: previous.written) else { return nil }
        let outputs = previous.entryOutputs
        guard outputs.allSatisfy({ previous.written[$0] != nil }) else { return nil }
        var site = BuiltSite()
        site.unchanged = true
        site.pageCount = previous.pageCount
        site.exampleCount = previous.exampleCount
        site.cachedCount = outputs.count
        site.cache = previous
        site.cacheIsSaved = true
        site.diagnostics = previous.diagnostics
        return site
    }

    /// Whether every output came from the previous build and the site on
    /// disk has exactly these files, so there is nothing to write.
    static func matchesSiteOnDisk(_ site: BuiltSite, previous: BuildCache, out: String) -> Bool {
        let folder = URL(fileURLWithPath: out)
        let htmlOutputs = site.files.keys.filter { $0.hasSuffix(".html") }.count + site.kept.union(site.staged).filter { $0.hasSuffix(".html") }.count
        // Every file made in memory (the index, the search index, the
        // theme's assets, static files, redirects) has the bytes on disk it
        // would be written with: a static file's new bytes are written.
        return site.cachedCount == htmlOutputs && previous.entries == site.cache.entries
            && site.files.allSatisfy { path, bytes in
                let file = folder.appendingPathComponent(path).path
                return FolderWalk.isPlainFile(file) && FileManager.default.contents(atPath: file).map { SiteWriter.same($0, bytes) } == true
            }
            // A link in the site on disk (never one the writer made) means
            // it is not the site this build would write; nor does a file or
            // an empty folder it would not write (kept, it was adopted: the
            // cache stamped it as the build's).
            && SiteFolder.isPlainFolder(out) && Self.holdsOnly(site, folder: out)
    }

    /// Whether the site folder at `folder` holds the files of `site` and
    /// nothing else: as many files (its marker aside), each folder on the
    /// way to one, no link, no name that is not UTF-8.
    static func holdsOnly(_ site: BuiltSite, folder: String) -> Bool {
        // By their bytes: a `String` takes `café` composed and decomposed
        // for one name, which the file system keeps apart.
        var names = Set<[UInt8]>(minimumCapacity: site.outputCount)
        for name in site.files.keys { names.insert(Array(name.utf8)) }
        for name in site.kept.union(site.staged) { names.insert(Array(name.utf8)) }
        var files = 0
        var folders: [String] = [], parents = Set<String>()
        for entry in FolderWalk.entries(under: folder) where entry.path != SiteFolder.marker {
            if entry.isLink || entry.isBadName { return false }
            if entry.isFolder { folders.append(entry.path); continue }
            guard names.contains(Array(entry.path.utf8)) else { return false }
            files += 1
            var parent = OutputParent.of(entry.path)
            while !parent.isEmpty, parents.insert(parent).inserted { parent = OutputParent.of(parent) }
        }
        return files == site.outputCount && folders.allSatisfy { parents.contains($0) }
    }

    /// Builds and, when nothing failed (and, under `--strict`, nothing
    /// warned), writes the site atomically.
    public static func buildAndWrite(_ options: BuildOptions) -> (site: BuiltSite, written: (written: Int, reused: Int)?) {
        var memo: BuildMemo?
        return buildAndWrite(options, memo: &memo)
    }

    /// The same, leaving the build's model in `memo`: a process that ends
    /// after the build can let it go with the process rather than free it.
    public static func buildAndWrite(_ options: BuildOptions, memo: inout BuildMemo?) -> (site: BuiltSite, written: (written: Int, reused: Int)?) {
        var site = build(options, memo: &memo)
        let written = write(&site, options)
        return (site, written)
    }

    /// Writes a built site when nothing failed (and, under `--strict`,
    /// nothing warned), atomically, and its cache; nil when it was not
    /// written (the diagnostics say why, if it was tried).
    public static func write(_ site: inout BuiltSite, _ options: BuildOptions) -> (written: Int, reused: Int)? {
        var options = options
        let project = options.project ?? .ofWorkingFolder()
        options.project = project
        let failed = site.hasErrors || (options.strict && !site.diagnostics.isEmpty)
        let staging = site.staging
        site.staging = nil
        // A site not written leaves the old one as it was, and no staging folder.
        guard !failed else { staging?.discard(); return nil }
        var written = (written: 0, reused: site.cachedCount)
        // The cache, saved for the site it describes before that site takes
        // its place: one that cannot be saved through a link (a committed
        // `.build -> ../outside`) fails the build and leaves the old site;
        // one that cannot be saved otherwise is a miss next time.
        var cache = site.cache
        let saveCache = { (folder: String, stamps: [String: FileStamp]?) throws(Diagnostic) in
            // (The marker and the files keep their stamps as their folder is renamed.)
            var clock = PhaseClock(report: options.progress)
            cache.siteStamp = SiteFolder.stamp(of: folder)
            cache.written = stamps ?? SiteFolder.files(of: folder) ?? [:]
            clock.lap("stamp the site's files")
            if let path = options.cache, let problem = cache.save(to: path, in: project, clock: &clock) { throw problem }
            clock.lap("save the cache")
        }
        do throws(Diagnostic) {
            if let edit = site.edit {
                staging?.discard()
                var clock = PhaseClock(report: options.progress)
                written = try edit.write(options, in: project)
                clock.lap("write")
            } else if !site.unchanged {
                var clock = PhaseClock(report: options.progress)
                if let staging {
                    written = try SiteWriter.write(site.files, keeping: site.kept, into: staging, counted: site.stagedCounts, staged: site.staged,
                                                  beforeSwap: saveCache)
                } else {
                    written = try SiteWriter.write(site.files, keeping: site.kept, to: options.out, in: project, beforeSwap: saveCache)
                }
                clock.lap("write")
            } else {
                staging?.discard()
                // The site on disk is this build's: the next build may keep its pages.
                if !site.cacheIsSaved { try saveCache(options.out, nil) }
            }
        } catch {
            site.diagnostics.append(error)
            return nil
        }
        site.cache = cache
        return written
    }

    /// Brings the site on disk, `written` by the last build (`serve`'s),
    /// to `site` by writing only the files whose bytes changed and removing
    /// those it no longer has (`SiteWriter.update`); the cache file, which
    /// described the site as it was, is removed first. Returns the paths
    /// changed, sorted; throws when the site on disk is not that build's.
    public static func update(_ site: BuiltSite, changed paths: [String], options: BuildOptions, stamp: String?) throws(Diagnostic) {
        guard !paths.isEmpty else { return }
        let project = options.project ?? .ofWorkingFolder()
        var changed: [String: [UInt8]] = [:]
        var removed: [String] = []
        for path in paths {
            if let bytes = site.files[path] { changed[path] = bytes } else { removed.append(path) }
        }
        if let cache = options.cache, let path = try? WritePath.prepare(cache, in: project, makingFolders: false) { unlink(path) }
        try SiteWriter.update(changed, removed: removed, at: options.out, stamp: stamp, in: project)
    }

    /// The stamp of the site at `output` (see `SiteWriter.stamp`).
    public static func stamp(of output: String) -> String? { SiteFolder.stamp(of: output) }

    /// Saves the cache of the build `memo` holds, for the site on disk
    /// (its stamp taken now): what `serve` leaves for the next build when
    /// it stops, when that build's site is the one on disk.
    public static func saveCache(of memo: BuildMemo, options: BuildOptions) {
        guard let path = options.cache else { return }
        var cache = memo.cache
        cache.siteStamp = SiteFolder.stamp(of: options.out)
        // The files as `serve` left them (it wrote each one it changed).
        cache.written = SiteFolder.files(of: options.out) ?? [:]
        _ = cache.save(to: path, in: options.project ?? .ofWorkingFolder())
    }

    /// The cache file name for an output folder.
    public static func cacheName(for output: String) -> String { OutputPaths.cacheName(for: output) }

    /// Where the review page goes (`--baseline`).
    public static let changesPath = OutputPaths.changes

    /// What fails `--fail-on-changes`, in words.
    public static func gateReasons(_ changes: Changes) -> [String] { ChangesPage.gateReasons(changes) }

    /// What the review page's heading says of `changes`.
    public static func headline(_ changes: Changes) -> String { ChangesPage.headline(changes) }
}

extension BuiltSite {
    /// Takes in the rendered pages (the home page's content is returned for
    /// the index), with their cache entries; returns the examples the pages
    /// show.
    mutating func add(pages rendered: [RenderedPage], of inputs: SiteInputs, keys: OutputKeys,
                      cache: inout BuildCache) -> (referenced: Set<String>, homeContent: String) {
        var referenced = Set<String>()
        var homeContent = ""
        for (page, result) in zip(inputs.pages, rendered) {
            diagnostics.append(contentsOf: result.diagnostics)
            referenced.formUnion(result.examples)
            if page.output == "index.html" { homeContent = result.html; continue }
            // (A static file of the same name gives way to the page, as in memory.)
            if result.staged != nil || result.kept { files[page.output] = nil }
            switch result.staged {
            case .written?: staged.insert(page.output); stagedCounts.written += 1
            case .reused?: staged.insert(page.output); stagedCounts.reused += 1
            case nil: if result.kept { kept.insert(page.output) } else { files[page.output] = result.bytes }
            }
            if result.cached { cachedCount += 1 } else { renderedCount += 1 }
            cache.entries[page.output] = BuildCache.Entry(page, result, keys: keys)
        }
        return (referenced, homeContent)
    }

    /// Takes in the example pages and filmstrips, warning about examples no
    /// page shows and reporting each page's UIKit-rule violations.
    mutating func add(examplePages: [ExampleOutput], of inputs: SiteInputs, referenced: Set<String>, options: BuildOptions,
                      cache: inout BuildCache) {
        let gallery = inputs.theme.showsExampleGallery
        for (example, result) in zip(inputs.examples, examplePages) {
            diagnostics += Self.diagnostics(of: example, result, referenced: gallery || referenced.contains(example.name), options: options)
            add(examplePage: result, of: example, cache: &cache)
        }
    }

    /// An example page and its filmstrip, with their cache entries.
    mutating func add(examplePage result: ExampleOutput, of example: LoadedExample, cache: inout BuildCache) {
        let output = OutputPaths.examplePath(example.name), filmstrip = OutputPaths.filmstripPath(example.name)
        guard result.error == nil else { return }
        if result.kept {
            kept.formUnion([output, filmstrip])
            (files[output], files[filmstrip]) = (nil, nil)
        } else if let counts = result.staged {
            staged.formUnion([output, filmstrip])
            (files[output], files[filmstrip]) = (nil, nil)
            stagedCounts.written += counts.written
            stagedCounts.reused += counts.reused
        } else {
            files[output] = result.html
            files[filmstrip] = result.svg
        }
        if result.cached { cachedCount += 1 } else { renderedCount += 1 }
        if result.problems.isEmpty {
            // The page's ids, for links into it when the next build reuses it.
            cache.entries[output] = BuildCache.Entry(key: result.key, examples: [], document: Document(ids: result.ids))
            cache.entries[filmstrip] = BuildCache.Entry(key: result.key, examples: [])
            cache.entries[output]?.size = result.sizes.html
            cache.entries[filmstrip]?.size = result.sizes.svg
        } else {
            cache.entries[output] = nil
            cache.entries[filmstrip] = nil
        }
    }

    /// What an example's page reports: that no page shows it (in a
    /// `rowmotion` block, or in the home page's gallery), its error, its
    /// UIKit-rule violations.
    static func diagnostics(of example: LoadedExample, _ result: ExampleOutput, referenced: Bool, options: BuildOptions) -> [Diagnostic] {
        var found: [Diagnostic] = []
        if !referenced {
            found.append(.warning("unreferenced-example", at: SourceLocation(file: "\(options.examples)/\(example.name)", line: 1, column: 1),
                                  "no page shows this example in a rowmotion block"))
        }
        if let error = result.error { return found + [error] }
        return found + result.problems.map(\.diagnostic)
    }
}

/// The chrome of every page: links relative to it (absolute under another
/// base URL), and the navigation, rendered once per folder (`NavigationMemo`).
struct Chromes: Sendable {
    var siteTitle: String
    /// The base URL, when it is not `/`.
    var base: String?
    var stylesheet: String
    var script: String
    var navigation: Navigation
    var memo: NavigationMemo?

    init(options: BuildOptions, inputs: SiteInputs, stylesheet: String, script: String) {
        self.init(options: options, siteTitle: inputs.siteTitle, navigation: inputs.navigation, stylesheet: stylesheet, script: script)
    }

    init(options: BuildOptions, siteTitle: String, navigation: Navigation, stylesheet: String, script: String) {
        base = options.baseURL == "/" || options.baseURL.isEmpty ? nil
            : (options.baseURL.hasSuffix("/") ? options.baseURL : options.baseURL + "/")
        (self.siteTitle, self.stylesheet, self.script, self.navigation) = (siteTitle, stylesheet, script, navigation)
    }

    /// The chromes of `outputs` with their navigation rendered once per
    /// folder (`NavigationMemo`), holding at most `memory` of it.
    func memoizing(_ outputs: [String], theme: Theme, memory: OutputBudget) -> Chromes {
        var chromes = self
        chromes.memo = NavigationMemo(outputs: outputs, navigation: navigation, theme: theme, root: root(of:), memory: memory) { output in
            Chrome(siteTitle: siteTitle, root: root(of: output), stylesheet: stylesheet, script: script, nav: [])
        }
        return chromes
    }

    func root(of output: String) -> String { base ?? String(repeating: "../", count: OutputPaths.depth(of: output)) }

    func chrome(for output: String) -> Chrome {
        let root = root(of: output)
        guard let html = memo?.html[output] else {
            return Chrome(siteTitle: siteTitle, root: root, stylesheet: stylesheet, script: script, nav: navigation.items(current: output, root: root))
        }
        // The items are made only if the theme reads `nav` outside its partial.
        let navigation = navigation
        return Chrome(siteTitle: siteTitle, root: root, stylesheet: stylesheet, script: script, nav: [],
                      navigationHTML: html, navItems: LazyNavItems { navigation.items(current: output, root: root) })
    }
}

extension BuildCache.Entry {
    /// A page's entry: kept with its warnings, which a reuse reports again.
    init(_ page: LoadedPage, _ result: RenderedPage, keys: OutputKeys) {
        let shown = result.examples.sorted()
        self.init(key: result.key ?? keys.page(page, examples: shown), examples: shown, diagnostics: result.diagnostics)
        // A page taken from the cache keeps its entry's Document as it was, undecoded.
        stored = result.stored ?? .value(result.made)
        search = result.searchEntry.map { $0[...] }
        linkTargets = result.cached ? result.linkTargets : Array(Set(result.made.links.map(\.page))).sorted()
        size = result.staged != nil || result.kept ? result.byteCount : result.bytes.count
    }
}
