import Diagnostics
import Foundation
import ProjectFiles

/// A whole build, phase by phase (`SiteBuilder.build` runs them in order):
/// each phase a function of what the ones before it returned, adding what
/// it found to `site` and what the next build can keep to `memo`.
struct FullBuild {
    let options: BuildOptions
    /// The model of the last build, when it is one of these options' (`serve`'s).
    let last: BuildMemo?
    var clock: PhaseClock
    var site = BuiltSite()
    var memo = BuildMemo()

    init(options: BuildOptions, last: BuildMemo?, clock: PhaseClock) {
        self.options = options
        self.last = last.flatMap { $0.applies(to: options) ? $0 : nil }
        self.clock = clock
    }

    /// What listing the inputs found.
    struct Listing {
        var tree: InputTree
        /// The last build's cache (its model's, when there is one).
        var previous: BuildCache
        /// Each input file's stamp and digest, and when the stamps were taken.
        var stamps: [String: FileStamp]
        var stampsTakenAt: Double
        /// The cache's key for "nothing changed": the inputs' and the options'.
        var inputKey: String?
        /// What the site's input files weigh (what the site may make is a multiple of it).
        var inputBytes: @Sendable () -> Int
        /// From the cache alone (no model): the inputs whose stamp moved since it was written.
        var changed: Set<String>?
        /// The listing's seal (`InputTree.seal`) when every stamp had settled, for the cache.
        var inputsSeal: String?
        /// The header of the cache whose inputs and site have the seals of
        /// this listing and of the site on disk: nothing changed since it.
        var sealedSince: BuildCache.Header?
        /// The site's files as sealed, when the site on disk has the seal
        /// the cache's build recorded: that build's files, none written since.
        var siteFiles: SealedFiles?
    }

    /// 1. The inputs, listed before anything is read: the files git would
    /// track (a revision's, for a baseline), never through a link; what
    /// the build reads as one key (serve's live events carry it), only the
    /// files whose stamp moved since the cache was written read for it.
    mutating func list() -> Listing? {
        // Before the walk that stamps the files: a file modified near then is read again.
        let stampsTakenAt = Date().timeIntervalSince1970
        let (options, last) = (options, last)
        let project = options.project ?? .ofWorkingFolder()
        // The walk of the inputs and the read of the cache, at once. A build
        // that may stop at "nothing changed" reads the cache's header alone
        // first, and when it is sealed, walks the site beside the inputs:
        // the 20 MB after it are read only when something changed.
        enum Found { case cache(BuildCache), sealed(BuildCache.Header, siteFiles: SealedFiles?) }
        let (tree, found) = Parallel.both({
            options.inputs ?? last?.treeIfUnchanged() ?? InputTree.onDisk(options.inputFolders, in: project)
        }, { () -> Found in
            if let last { return .cache(last.cache) }
            if options.allowShortcut, options.inputs == nil, let header = BuildCache.header(from: options.cache, forSite: options.out, in: project) {
                // (A site folder replaced by a link is no site a build wrote: a clean build refuses it.)
                let site = SiteFolder.isPlainFolder(options.out) ? SiteFolder.sealed(options.out) : nil
                return .sealed(header, siteFiles: site?.key == header.siteSeal ? site : nil)
            }
            return .cache(BuildCache.load(from: options.cache, forSite: options.out, in: project, outputsOnly: options.allowShortcut))
        })
        site.diagnostics = InputFolders.problems(options, tree: tree)
        if site.hasErrors { return nil }
        let context = BuildCache.context(options)
        var previous: BuildCache
        var siteFiles: SealedFiles?
        switch found {
        case .cache(let cache): previous = cache
        case .sealed(let header, let sealedFiles):
            if sealedFiles != nil, let seal = header.cache.inputsSeal, tree.seal(of: options.inputFolders, context: context) == seal {
                clock.lap("list the inputs and the site")
                return Listing(tree: tree, previous: header.cache, stamps: [:], stampsTakenAt: stampsTakenAt, inputKey: header.cache.inputKey,
                               inputBytes: { 0 }, changed: [], sealedSince: header)
            }
            previous = BuildCache.load(from: options.cache, forSite: options.out, in: project, outputsOnly: true)
            // (The cache read now must be the one whose header was.)
            if previous.siteSeal == header.siteSeal { siteFiles = sealedFiles }
        }
        var stamps: [String: FileStamp] = [:]
        var stampsMoved: Set<String>?
        var inputsSeal: String?
        if last == nil, options.cache != nil {
            // Without a model, the files whose stamp did not move since the
            // cache was written keep their digest: only the others are read.
            let keyed = previous.key(tree, folders: options.inputFolders, racyWindow: options.racyWindow)
            (stamps, stampsMoved, memo.digests, memo.sizes) = (keyed.stamps, keyed.moved, keyed.digests, keyed.sizes)
            inputsSeal = tree.seal(of: options.inputFolders, context: context, settledBefore: Int64((stampsTakenAt - options.racyWindow) * 1e9))
        } else if let last {
            memo.sizes = last.sizes
            memo.digests = tree.fileDigests(of: options.inputFolders, known: last.digests, changed: last.changed, sizes: &memo.sizes)
        }
        if options.cache != nil || last != nil {
            memo.digestOrder = tree.digestOrder(of: options.inputFolders, digests: memo.digests)
            site.inputsKey = InputTree.digest(combining: memo.digests, order: memo.digestOrder)
        }
        let sizes = memo.sizes.count == memo.digests.count ? memo.sizes : [:]
        clock.lap("list and key the inputs")
        return Listing(tree: tree, previous: previous, stamps: stamps, stampsTakenAt: stampsTakenAt,
                       inputKey: site.inputsKey.map { ContentHash.key(context + [$0]) },
                       inputBytes: { sizes.isEmpty ? tree.byteCount(of: options.inputFolders) : sizes.values.reduce(0, +) }, changed: stampsMoved,
                       inputsSeal: inputsSeal, siteFiles: siteFiles)
    }

    /// 2. Nothing changed since the cache's build, and its site is intact:
    /// that site, with nothing to parse, render or write.
    mutating func unchanged(_ listing: Listing) -> BuiltSite? {
        if let header = listing.sealedSince {
            // The inputs' and the site's seals are the cache's: its header says it all.
            var site = BuiltSite()
            (site.unchanged, site.cacheIsSaved) = (true, true)
            (site.pageCount, site.exampleCount, site.cachedCount) = (header.cache.pageCount, header.cache.exampleCount, header.outputCount)
            (site.cache, site.diagnostics) = (header.cache, header.cache.diagnostics)
            return site
        }
        guard options.allowShortcut, let inputKey = listing.inputKey,
              var unchanged = SiteBuilder.unchangedSite(options, previous: listing.previous, inputKey: inputKey) else { return nil }
        clock.lap("check inputs")
        unchanged.inputsKey = site.inputsKey
        // Stamps of files read again (saved within the racy window) are
        // kept for next time, with the seal they make now they have settled.
        if unchanged.cache.files != listing.stamps || (listing.inputsSeal != nil && unchanged.cache.inputsSeal != listing.inputsSeal) {
            unchanged.cache.readRest()
            unchanged.cache.earlier = .init(unchanged.cache)
            (unchanged.cache.files, unchanged.cache.filesSeenAt, unchanged.cache.inputsSeal) = (listing.stamps, listing.stampsTakenAt, listing.inputsSeal)
            unchanged.cacheIsSaved = false
        }
        return unchanged
    }

    /// 3. Everything the build reads, read once (from the model where its
    /// files did not change): the theme, the examples, the pages, the
    /// static files; with the theme's assets.
    mutating func load(_ listing: Listing) -> (inputs: SiteInputs, assets: (stylesheet: String, script: String))? {
        if let last {
            let (digests, order, sizes) = (memo.digests, memo.digestOrder, memo.sizes)
            memo = last
            (memo.digests, memo.digestOrder, memo.sizes) = (digests, order, sizes)
        }
        var (changed, reuse) = (last?.changed, last != nil)
        // The command line's build takes a page whose stamp did not move
        // from the cache's record of it, unread (a report reads them all).
        if last == nil, options.keepsUnchangedPages, options.allowShortcut, let moved = listing.changed {
            memo.loaded.pages = Self.recordedPages(listing, options: options, digests: memo.digests)
            memo.loaded.examples = Self.recordedExamples(listing, options: options, digests: memo.digests)
            (changed, reuse) = (moved, true)
        }
        guard let inputs = SiteInputs.load(options, tree: listing.tree, memo: &memo.loaded, changed: changed, reuse: reuse,
                                           diagnostics: &site.diagnostics, clock: &clock) else { return nil }
        if inputs.pages.isEmpty, inputs.examples.isEmpty, !options.allowEmpty, !site.hasErrors {
            let here = FileManager.default.currentDirectoryPath
            site.diagnostics.append(.error("empty-site", at: SourceLocation(file: options.site, line: 1, column: 1),
                                           "found no pages in '\(options.site)' and no examples in '\(options.examples)' (from \(here)): "
                                               + "run in the project's folder or name the folders with --site and --examples; "
                                               + "--allow-empty builds an empty site on purpose"))
            return nil
        }
        for file in inputs.staticFiles { site.files[file.path] = file.bytes }
        let assets = ThemeAssets.themeAssets(inputs.theme)
        site.files.merge(assets.files) { _, new in new }
        return (inputs, (assets.stylesheet, assets.script))
    }

    /// The pages of the cache's records whose file is the one recorded
    /// (its digest, known from its stamp), each at the address these
    /// options give it; never the home page, whose content the index shows.
    static func recordedPages(_ listing: Listing, options: BuildOptions, digests: [String: String]) -> [String: LoadedFiles.Loaded<LoadedPage>] {
        let folder = listing.tree[options.site]
        var pages: [String: LoadedFiles.Loaded<LoadedPage>] = [:]
        for (path, record) in listing.previous.pages {
            let source = folder.path(of: path)
            // (By its bytes: a name respelled, `café` composed then
            // decomposed, is another file to the file system.)
            guard folder.holds(path), digests[source] == record.sourceKey, record.output != "index.html",
                  record.output == SiteLoading.outputPath(ofPage: path, urls: options.urls) else { continue }
            pages[path] = .init(value: record.page(source: source, path: path), diagnostics: record.diagnostics)
        }
        return pages
    }

    /// The examples of the cache's records whose file is the one recorded,
    /// each read only when something shown again asks for its sequence.
    static func recordedExamples(_ listing: Listing, options: BuildOptions, digests: [String: String]) -> [String: LoadedFiles.Loaded<LoadedExample>] {
        let folder = listing.tree[options.examples]
        var examples: [String: LoadedFiles.Loaded<LoadedExample>] = [:]
        for (name, record) in listing.previous.examples where folder.holds(name) && digests[folder.path(of: name)] == record.sourceKey {
            examples[name] = .init(value: LoadedExample(name: name, record: record, in: folder), diagnostics: record.diagnostics)
        }
        return examples
    }

    /// 4. The chrome of every page: links relative to it (absolute under
    /// another base URL), and the navigation, rendered once per folder,
    /// and again only when what it shows changed (a title, an order, the
    /// set of pages); with the key each output is built from. Without a
    /// model (a build from the command line), the navigation is rendered
    /// only for the outputs whose key the cache does not hold: one edited
    /// page of 10,000 renders one folder's navigation, not every folder's.
    mutating func chromes(_ inputs: SiteInputs, assets: (stylesheet: String, script: String), listing: Listing) -> (Chromes, OutputKeys) {
        var chromes = Chromes(options: options, inputs: inputs, stylesheet: assets.stylesheet, script: assets.script)
        let keys = OutputKeys(options: options, inputs: inputs)
        let extraOutputs = ["index.html"] + (options.baseline == nil ? [] : [OutputPaths.changes])
        let outputs = inputs.pages.map(\.output) + inputs.examples.map { OutputPaths.examplePath($0.name) } + extraOutputs
        let key = BuildMemo.NavigationKey(listed: inputs.listed, outputs: outputs, theme: inputs.theme.fileKeys, siteTitle: inputs.siteTitle)
        var shown = outputs
        if let kept = last?.navigation, kept.key == key {
            chromes.memo = kept.memo
        } else {
            if last == nil, !listing.previous.entries.isEmpty { shown = Self.notReusable(outputs, inputs: inputs, keys: keys, previous: listing.previous) }
            chromes = chromes.memoizing(shown, theme: inputs.theme,
                                        memory: OutputBudget(limit: min(options.siteByteLimit, OutputLimits.navigationMemoBytes), input: listing.inputBytes))
        }
        // Only a memo of every output is kept for the next build.
        if shown.count == outputs.count { memo.navigation = (key, chromes.memo!) }
        clock.lap("render the navigation")
        return (chromes, keys)
    }

    /// The outputs the cache cannot give as they are: a page or an example
    /// whose key it does not hold, and every other output.
    static func notReusable(_ outputs: [String], inputs: SiteInputs, keys: OutputKeys, previous: BuildCache) -> [String] {
        var reusable: Set<String> = []
        let pageReusable = Parallel.map(inputs.pages) { page in
            previous.entries[page.output].map { $0.key == keys.page(page, examples: $0.examples) } ?? false
        }
        for (page, isReusable) in zip(inputs.pages, pageReusable) where isReusable { reusable.insert(page.output) }
        for example in inputs.examples {
            let output = OutputPaths.examplePath(example.name)
            if previous.entries[output]?.key == keys.example(example) { reusable.insert(output) }
        }
        return outputs.filter { !reusable.contains($0) }
    }

    /// What rendering made: each page and example page (reused when its
    /// key did not change), and what the phases after it share.
    struct Rendered {
        var pages: [RenderedPage]
        var examplePages: [ExampleOutput]
        var keys: OutputKeys
        var reuse: Reuse
        /// What the site makes, against its limit.
        var budget: OutputBudget
        var cache: BuildCache
        var homeContent: String
    }

    /// 5. Every page, then every example's page and filmstrip, each
    /// reused from the last build when its key has not changed; past the
    /// site's limit (or a page past its own) the build stops with that
    /// error alone.
    mutating func render(_ inputs: SiteInputs, _ chromes: Chromes, keys: OutputKeys, listing: Listing) -> Rendered? {
        // The old site's walk, and the staging folder (the spare's walk) at once.
        let (options, last, previous) = (options, last, listing.previous)
        let opensStaging = options.keepsUnchangedPages && last == nil
        let (reuse, opened) = Parallel.both({
            Reuse(previous: previous, folder: URL(fileURLWithPath: options.out), memory: last?.files, keepingPages: opensStaging)
        }, { () -> Result<SiteWriter.Staging, Diagnostic>? in
            guard opensStaging else { return nil }
            do throws(Diagnostic) {
                return .success(try SiteWriter.Staging.open(options.out, in: options.project ?? .ofWorkingFolder(),
                                                            spare: options.cache.map(Paths.spare(forCache:))))
            } catch {
                return .failure(error)
            }
        })
        var cache = BuildCache()
        cache.earlier = .init(listing.previous)
        // Made up front for the examples whose page is rendered again (a
        // page that shows one whose page is reused makes its own).
        let players = PlayerParts(inputs.examples.filter { reuse.previous.entries[OutputPaths.examplePath($0.name)]?.key != keys.example($0) })
        let budget = OutputBudget(limit: options.siteByteLimit, input: listing.inputBytes)
        // The command line's build writes pages into the new site as it renders them.
        if let opened {
            do throws(Diagnostic) {
                var staging = try opened.get()
                staging.knowOldSite(reuse.onDiskStamps)
                site.staging = staging
                try staging.makeFolders(for: inputs.pages.map(\.output) + inputs.examples.flatMap { [OutputPaths.examplePath($0.name), OutputPaths.filmstripPath($0.name)] })
            } catch {
                site.diagnostics.append(error)
                return nil
            }
        }
        let (siteFolder, urls) = (listing.tree[options.site], options.urls)
        let pages = SiteRendering.renderPages(inputs, chrome: { chromes.chrome(for: inputs.pages[$0].output) },
                                              read: { SiteLoading.read($0, in: siteFolder, urls: urls) }, reuse: reuse, keys: keys,
                                              options: options, shared: players, budget: budget, sink: site.staging.map(Self.sink))
        if budget.isStopped {
            site.diagnostics += SiteRendering.limitErrors(pages.map { $0.diagnostics.first { $0.id == OutputLimits.pageTooLarge } },
                                                          budget: budget, folder: options.site)
            return nil
        }
        let (referenced, homeContent) = site.add(pages: pages, of: inputs, keys: keys, cache: &cache)
        clock.lap("render pages")
        let examplePages = SiteRendering.renderExamples(inputs, chrome: { chromes.chrome(for: OutputPaths.examplePath(inputs.examples[$0].name)) },
                                                        reuse: reuse, keys: keys, shared: players, budget: budget, urls: options.urls,
                                                        sink: site.staging.map(Self.sink))
        if budget.isStopped {
            site.diagnostics += SiteRendering.limitErrors(examplePages.map { $0.error?.id == OutputLimits.pageTooLarge ? $0.error : nil },
                                                          budget: budget, folder: options.examples)
            return nil
        }
        site.add(examplePages: examplePages, of: inputs, referenced: referenced, options: options, cache: &cache)
        clock.lap("render example pages")
        return Rendered(pages: pages, examplePages: examplePages, keys: keys, reuse: reuse, budget: budget, cache: cache, homeContent: homeContent)
    }

    /// Pages into the staging folder, each as soon as it is rendered.
    static func sink(_ staging: SiteWriter.Staging) -> SiteRendering.PageSink {
        { output, bytes in
            guard let reused = staging.put(output, bytes) else { return .failure(staging.failure("cannot write '\(output)' in the site")) }
            return .success(reused)
        }
    }

    /// What assembling the site made besides its pages.
    struct Assembled {
        var redirectDiagnostics: [Diagnostic]
        /// Each search entry's address and JSON, in address order.
        var searchURLs: [String]
        var searchJSON: [[UInt8]]
    }

    /// 6. What the report and the review read of the build, the review
    /// itself (with `--baseline`), the home page, the pages' old
    /// addresses, and the search index over the pages' Documents (a cached
    /// page's from the cache) and the examples' data.
    mutating func assemble(_ inputs: SiteInputs, _ chromes: Chromes, _ rendered: inout Rendered) -> Assembled? {
        site.pages = inputs.pages.map { ($0.source, $0.output, $0.title, $0.sourceKey) }.sorted { $0.output < $1.output }
        site.examples = SiteBuilder.exampleSummaries(inputs)
        site.blocks = { SiteRendering.shownBlocks(inputs) }
        site.theme = inputs.theme.fileKeys
        site.stylesheet = inputs.theme.assets["rowmotion.css"]
        site.markup = { SiteRendering.pageMarkup(inputs) }
        site.scripts = StaticFiles.scriptKeys(inputs.staticFiles)
        let budget = rendered.budget
        let changesLink = options.baseline.flatMap { baseline in
            site.compare(with: baseline, inputs: inputs, root: chromes.root(of: OutputPaths.changes), budget: budget)
        }

        let homeClean = !(inputs.home.map { page in site.diagnostics.contains { $0.location.file == page.source } } ?? false)
        switch SiteRendering.renderIndex(inputs, content: rendered.homeContent, chrome: chromes.chrome(for: "index.html"), reuse: rendered.reuse,
                                         keys: rendered.keys, homeClean: homeClean, changes: changesLink) {
        case .success(let index):
            site.files["index.html"] = index.bytes
            if index.cached { site.cachedCount += 1 } else { site.renderedCount += 1 }
            if homeClean { rendered.cache.entries["index.html"] = BuildCache.Entry(key: rendered.keys.index(inputs), examples: []) }
        case .failure(let error):
            site.diagnostics.append(error)
        }
        clock.lap("render the index")

        let beforeRedirects = site.diagnostics.count
        let fileCount = site.outputCount
        let redirects = Redirects.redirects(inputs, root: chromes.root(of:), budget: budget, fileRoom: OutputLimits.siteFiles - fileCount,
                                            diagnostics: &site.diagnostics)
        if fileCount + redirects.count > OutputLimits.siteFiles { budget.tooManyFiles() }
        if budget.isPastLimit || budget.isPastFileLimit {
            site.diagnostics += SiteRendering.limitErrors([], budget: budget, folder: options.site)
            return nil
        }
        let onDisk = site.kept.union(site.staged)
        site.files.merge(redirects.filter { !onDisk.contains($0.key) }) { existing, _ in existing }
        let redirectDiagnostics = Array(site.diagnostics[beforeRedirects...])

        // A page the cache gave brings its entry's JSON (its title and
        // headings are in its key); the others' are made from their Documents.
        let (built, results) = (site, rendered.pages)
        let indexedPages = inputs.pages.indices.filter { built.has(inputs.pages[$0].output) }
        let indexedExamples = inputs.examples.filter { built.has(OutputPaths.examplePath($0.name)) }
        let entries = (Parallel.map(indexedPages) { index -> (String, [UInt8]) in
            let (page, result) = (inputs.pages[index], results[index])
            if let json = result.searchEntry { return (RelativeURL.safe(page.output), json) }
            let entry = SearchIndex.Entry(output: page.output, title: page.title, document: result.document)
            return (entry.u, SearchIndex.json(entry))
        } + Parallel.map(indexedExamples) { example -> (String, [UInt8]) in
            let entry = SearchIndex.Entry(output: OutputPaths.examplePath(example.name), title: example.title,
                                          document: SiteRendering.exampleDocument(example))
            return (entry.u, SearchIndex.json(entry))
        }).sorted { $0.0 < $1.0 }
        let searchJSON = entries.map(\.1)
        site.files[OutputPaths.searchIndex] = SearchIndex.script(joining: searchJSON)
        clock.lap("search index")
        return Assembled(redirectDiagnostics: redirectDiagnostics, searchURLs: entries.map(\.0), searchJSON: searchJSON)
    }

    /// What checking the links found: each example description's broken
    /// links, each page's broken `#` links, and the ids the theme adds.
    struct LinkProblems {
        var descriptions: [[Diagnostic]]
        var fragments: [[Diagnostic]]
        var themeIDs: Set<String>
    }

    /// 7. Links in examples' descriptions, as a page's are checked, and
    /// links to an element, against the pages' Documents and the theme's ids.
    mutating func checkLinks(_ inputs: SiteInputs, _ chromes: Chromes, _ rendered: Rendered) -> LinkProblems {
        let descriptions = inputs.examples.map { LinkChecks.descriptionProblems(of: $0, inputs, options: options) }
        site.diagnostics += descriptions.flatMap { $0 }
        let themeIDs = LinkChecks.themeIDs(inputs.theme, chrome: chromes.chrome(for: "index.html"))
        // A page taken from the last build whose links lead to no page made
        // again has the problems it had (theme, titles and the set of pages
        // are in every page's key: a change there makes every page again).
        let remade = Set(zip(inputs.pages, rendered.pages).filter { !$1.cached }.map(\.0.output)
                         + zip(inputs.examples, rendered.examplePages).filter { !$1.cached }.map { OutputPaths.examplePath($0.0.name) })
        var known: [Int: [Diagnostic]] = [:]
        for (index, result) in rendered.pages.enumerated() where result.cached {
            guard let targets = result.linkTargets, !targets.contains(where: remade.contains),
                  let problems = rendered.reuse.previous.entries[inputs.pages[index].output]?.fragmentProblems else { continue }
            known[index] = problems
        }
        var fragments = LinkChecks.fragmentProblems(inputs, documents: rendered.pages.lazy.map(\.document), exampleIDs: rendered.examplePages.map(\.ids),
                                                    options: options, themeIDs: themeIDs,
                                                    only: known.isEmpty ? nil : Set(rendered.pages.indices).subtracting(known.keys))
        for (index, problems) in known { fragments[index] = problems }
        site.diagnostics += fragments.flatMap { $0 }
        clock.lap("check links")
        return LinkProblems(descriptions: descriptions, fragments: fragments, themeIDs: themeIDs)
    }

    /// 8. What the build made, for the writer and the report, its cache,
    /// and the model the next build (`serve`'s) starts from.
    mutating func finish(_ inputs: SiteInputs, _ chromes: Chromes, _ listing: Listing, _ rendered: Rendered, _ assembled: Assembled,
                         _ links: LinkProblems, loadDiagnostics: [Diagnostic]) -> BuiltSite {
        site.pageCount = inputs.pages.count
        site.exampleCount = inputs.examples.count
        site.cache = rendered.cache
        // What the next command-line build needs of each page it does not render.
        site.cache.pages = memo.loaded.pages.compactMapValues { loaded in loaded.value.map { PageRecord($0, diagnostics: loaded.diagnostics) } }
        site.cache.examples = memo.loaded.examples.compactMapValues { loaded in loaded.value.map { ExampleRecord($0, diagnostics: loaded.diagnostics) } }
        // An example taken from its record whose file changed before it was read fails the build.
        site.diagnostics += inputs.examples.compactMap(\.failure)
        // Each page's search entry and link problems, kept with its cache entry for the build that reuses it.
        let search = Dictionary(uniqueKeysWithValues: zip(assembled.searchURLs, assembled.searchJSON))
        for (page, problems) in zip(inputs.pages, links.fragments) {
            site.cache.entries[page.output]?.search = search[RelativeURL.safe(page.output)].map { $0[...] }
            // (Kept only beside the targets they were found against: the index's entry has none.)
            if site.cache.entries[page.output]?.linkTargets != nil { site.cache.entries[page.output]?.fragmentProblems = problems }
        }
        site.cache.pageCount = inputs.pages.count
        site.cache.exampleCount = inputs.examples.count
        site.cache.inputKey = listing.inputKey
        site.cache.globalKey = rendered.keys.global
        (site.cache.files, site.cache.filesSeenAt, site.cache.inputsSeal) = (listing.stamps, listing.stampsTakenAt, listing.inputsSeal)
        // (With a model, its keeper compares the outputs with what it wrote.)
        site.unchanged = last == nil && SiteBuilder.matchesSiteOnDisk(site, previous: listing.previous, out: options.out)
        // A theme problem shows up once per page: say it once.
        var seen = Set<Diagnostic>()
        site.diagnostics = site.diagnostics.filter { seen.insert($0).inserted }
        // A rebuild with the same inputs reports the same.
        site.cache.diagnostics = site.diagnostics
        memo.state = BuildMemo.State(inputs: inputs, keys: rendered.keys, chromes: chromes, rendered: rendered.pages, examplePages: rendered.examplePages,
                                     loadDiagnostics: loadDiagnostics, redirectDiagnostics: assembled.redirectDiagnostics,
                                     descriptionProblems: Dictionary(uniqueKeysWithValues: zip(inputs.examples.map(\.name), links.descriptions)),
                                     fragmentProblems: links.fragments, themeIDs: links.themeIDs,
                                     search: search,
                                     searchOrder: assembled.searchURLs, pages: site.pages, scripts: site.scripts)
        memo.options = BuildMemo.Identity(options)
        memo.tree = listing.tree
        memo.changed = []
        memo.files = site.files
        memo.cache = site.cache
        if let last {
            let files = site.files
            site.changedOutputs = (files.compactMap { path, bytes in last.files[path] == bytes ? nil : path }
                + last.files.keys.filter { files[$0] == nil }).sorted()
        }
        site.isComplete = true
        return site
    }
}
