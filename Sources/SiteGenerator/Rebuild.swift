import Diagnostics
import Foundation
import ProjectFiles

/// A save that changed only what some pages or examples say: everything
/// else the last build derived holds, and only what depends on the changed
/// files is made again.
extension SiteBuilder {
    /// The build after an edit of pages' or examples' content, from the
    /// last build's `memo`: the changed files read again; the pages they
    /// are, the pages that show a changed example, its page and filmstrip,
    /// the home page when it or an example changed, rendered again; the
    /// search entries of those; the `#` links from and into those checked
    /// again. Nil, the memo untouched, when the edit changed more than that
    /// (a file added, removed or renamed, a title, an order, an alias, a
    /// theme file, a static file) or when something it rendered reports an
    /// error: the full build, from the same memo, takes over.
    ///
    /// The memo is updated in place, so that an edit copies nothing of what
    /// it does not change (10,000 pages' worth of arrays and dictionaries,
    /// copied and freed, were most of a save's time).
    static func rebuild(_ options: BuildOptions, memo: inout BuildMemo, clock: inout PhaseClock) -> BuiltSite? {
        guard memo.applies(to: options), let changed = memo.changed, memo.state != nil, let tree = memo.treeIfUnchanged() else { return nil }
        let siteFolder = tree[options.site], examplesFolder = tree[options.examples]
        var pagePaths: [String] = [], exampleNames: [String] = []
        for path in changed.sorted() {
            guard let (folder, relative) = tree.folder(holding: path) else { return nil }
            if folder.name == siteFolder.name, relative.hasSuffix(".md"), memo.loaded.pages[relative]?.value != nil {
                pagePaths.append(relative)
            } else if folder.name == examplesFolder.name, memo.loaded.examples[relative]?.value != nil {
                exampleNames.append(relative)
            } else {
                return nil
            }
        }

        // The changed files, read again: each must still load, and say what
        // it said of the site's shape (its title, order, aliases, draft).
        let (pagesToRead, examplesToRead) = (pagePaths, exampleNames)
        let reloaded = Parallel.map(pagesToRead.count + examplesToRead.count) { task -> (page: LoadedPage?, example: LoadedExample?, found: [Diagnostic]) in
            if task < pagesToRead.count {
                var found: [Diagnostic] = []
                let page = SiteLoading.loadPage(pagesToRead[task], in: siteFolder, urls: options.urls, diagnostics: &found)
                return (page, nil, found)
            }
            let (example, found) = SiteInputs.loadExample(examplesToRead[task - pagesToRead.count], in: examplesFolder)
            return (nil, example, found)
        }
        var newPages: [(path: String, index: Int, page: LoadedPage, found: [Diagnostic])] = []
        for (path, result) in zip(pagePaths, reloaded) {
            guard let page = result.page, let old = memo.loaded.pages[path]?.value, let index = memo.state!.pageIndex[page.output],
                  page.output == old.output, page.title == old.title, page.frontMatter.navigationShape == old.frontMatter.navigationShape,
                  !result.found.contains(where: { $0.severity == .error }) else { return nil }
            newPages.append((path, index, page, result.found))
        }
        var newExamples: [(index: Int, example: LoadedExample, found: [Diagnostic])] = []
        for (name, result) in zip(exampleNames, reloaded.dropFirst(pagePaths.count)) {
            guard let example = result.example, let index = memo.state!.inputs.examples.firstIndex(where: { $0.name == name }),
                  !result.found.contains(where: { $0.severity == .error }) else { return nil }
            newExamples.append((index, example, result.found))
        }
        clock.lap("read the changed files")

        // Rendered again, before anything is kept: the pages edited or
        // showing an edited example, and the edited examples' pages.
        let changedExamples = Set(exampleNames)
        var dirtyPages = Dictionary(newPages.map { ($0.index, $0.page) }) { first, _ in first }
        if !changedExamples.isEmpty {
            for index in memo.state!.rendered.indices where dirtyPages[index] == nil && !memo.state!.rendered[index].examples.isDisjoint(with: changedExamples) {
                dirtyPages[index] = memo.state!.inputs.pages[index]
            }
        }
        var examplesByName = memo.state!.inputs.examplesByName, exampleKeys = memo.state!.keys
        for (_, example, _) in newExamples {
            examplesByName[example.name] = example
            exampleKeys.examples[example.name] = example.sourceKey
        }
        let (theme, chromes, exampleNamesFound) = (memo.state!.inputs.theme, memo.state!.chromes, memo.state!.inputs.exampleNames)
        let (outputs, folded) = (memo.state!.inputs.outputs, memo.state!.inputs.outputsByFoldedCase)
        let (byName, keys) = (examplesByName, exampleKeys)
        let shared = PlayerParts(newExamples.map(\.example))
        let dirty = dirtyPages.sorted { $0.key < $1.key }
        let pages = Parallel.map(dirty) { _, page in
            SiteRendering.render(page: page, theme: theme, example: { byName[$0] }, exampleNames: exampleNamesFound, outputs: outputs, foldedOutputs: folded,
                                 chrome: chromes.chrome(for: page.output), options: options, isHome: page.output == "index.html", shared: shared)
        }
        let remade = Parallel.map(newExamples) { _, example, _ -> ExampleOutput in
            let key = keys.example(example)
            do throws(Diagnostic) {
                let (html, svg, problems) = try SiteRendering.examplePage(example, theme: theme, chrome: chromes.chrome(for: OutputPaths.examplePath(example.name)),
                                                                          shared: shared, urls: options.urls)
                return .rendered(key: key, html: html, svg: svg, problems: problems)
            } catch {
                return ExampleOutput(key: key, error: error)
            }
        }
        guard !pages.contains(where: { $0.tooLarge || $0.diagnostics.contains { $0.severity == .error } }),
              !remade.contains(where: { $0.error != nil }) else { return nil }

        // From here on the memo becomes this build's: its parts are taken
        // out (so each is held once, and changed in place) and put back.
        var state = memo.state.take()!
        var site = BuiltSite()
        site.files = memo.files
        memo.files = [:]
        var cache = memo.cache
        memo.cache = BuildCache()
        var changedOutputs: [String] = []
        func put(_ output: String, _ bytes: [UInt8]) {
            if site.files[output] != bytes { changedOutputs.append(output) }
            site.files[output] = bytes
        }
        for path in changed {
            if let (folder, relative) = tree.folder(holding: path) {
                let bytes = try? folder.read(relative, limit: nil)
                memo.digests[path] = bytes.map { Digest.sha256($0) } ?? "unreadable"
                memo.sizes[path] = bytes?.count ?? 0
            }
        }
        site.inputsKey = InputTree.digest(combining: memo.digests, order: memo.digestOrder)
        var loadFound: [Diagnostic] = []
        for (path, index, page, found) in newPages {
            memo.loaded.pages[path] = .init(value: page, diagnostics: found)
            state.inputs.pages[index] = page
            if page.output == "index.html" { state.inputs.home = page }
            loadFound += found
        }
        for (index, example, found) in newExamples {
            memo.loaded.examples[example.name] = .init(value: example, diagnostics: found)
            state.inputs.examples[index] = example
            loadFound += found
        }
        state.inputs.examplesByName = examplesByName
        state.keys = keys
        for ((index, _), result) in zip(dirty, pages) {
            state.rendered[index] = result
            let page = state.inputs.pages[index]
            guard page.output != "index.html" else { continue }
            cache.entries[page.output] = BuildCache.Entry(page, result, keys: keys)
            put(page.output, result.bytes)
        }
        for ((index, example, _), result) in zip(newExamples, remade) {
            state.examplePages[index] = result
            put(OutputPaths.examplePath(example.name), result.html)
            put(OutputPaths.filmstripPath(example.name), result.svg)
            let clean = result.problems.isEmpty
            cache.entries[OutputPaths.examplePath(example.name)] = clean ? BuildCache.Entry(key: result.key, examples: [], document: Document(ids: result.ids)) : nil
            cache.entries[OutputPaths.filmstripPath(example.name)] = clean ? BuildCache.Entry(key: result.key, examples: []) : nil
        }
        site.renderedCount = dirty.count + remade.count
        // The home page, when its content or an example (its gallery) changed.
        let homeIndex = state.pageIndex["index.html"]
        if homeIndex.map({ dirtyPages[$0] != nil }) ?? false || !newExamples.isEmpty {
            site.renderedCount -= homeIndex.map { dirtyPages[$0] != nil ? 1 : 0 } ?? 0
            let reuse = Reuse(previous: cache, folder: URL(fileURLWithPath: options.out), memory: site.files)
            switch SiteRendering.renderIndex(state.inputs, content: homeIndex.map { state.rendered[$0].html } ?? "", chrome: chromes.chrome(for: "index.html"),
                                             reuse: reuse, keys: keys, homeClean: true) {
            case .success(let index):
                put("index.html", index.bytes)
                cache.entries["index.html"] = BuildCache.Entry(key: keys.index(state.inputs), examples: [])
                if !index.cached { site.renderedCount += 1 }
            case .failure(let error):
                site.diagnostics.append(error)
            }
        }
        site.cachedCount = state.inputs.pages.count - (homeIndex == nil ? 0 : 1) + state.inputs.examples.count + 1 - site.renderedCount
        // Still within the site's limit (the error, past it: nothing is written).
        let inputBytes = memo.sizes.values.reduce(0, +)
        let budget = OutputBudget(limit: options.siteByteLimit, input: { inputBytes })
        budget.take(site.files.values.reduce(0) { $0 + $1.count })
        if budget.isPastLimit { site.diagnostics += SiteRendering.limitErrors([], budget: budget, folder: options.site) }
        clock.lap("render what depends on them")

        // Their search entries.
        // (The home page's is the index's: there whenever the index is.)
        for (index, _) in dirty where site.files[state.inputs.pages[index].output] != nil {
            let page = state.inputs.pages[index]
            let entry = SearchIndex.Entry(output: page.output, title: page.title, document: state.rendered[index].document)
            state.search[entry.u] = SearchIndex.json(entry)
            cache.entries[page.output]?.search = state.search[entry.u]?[...]
        }
        for (_, example, _) in newExamples {
            let entry = SearchIndex.Entry(output: OutputPaths.examplePath(example.name), title: example.title,
                                          document: SiteRendering.exampleDocument(example))
            state.search[entry.u] = SearchIndex.json(entry)
        }
        put(OutputPaths.searchIndex, SearchIndex.script(joining: state.searchOrder.map { state.search[$0]! }))
        clock.lap("search index")

        // Links from the pages rendered again, and into them.
        let remadeOutputs = Set(dirty.map { state.inputs.pages[$0.key].output } + newExamples.map { OutputPaths.examplePath($0.example.name) })
        var checked = Set(dirty.map(\.key))
        for index in state.rendered.indices where state.rendered[index].document.links.contains(where: { remadeOutputs.contains($0.page) }) {
            checked.insert(index)
        }
        let found = LinkChecks.fragmentProblems(state.inputs, documents: state.rendered.lazy.map(\.document), exampleIDs: state.examplePages.map(\.ids),
                                                options: options, themeIDs: state.themeIDs,
                                                only: checked)
        for index in checked {
            state.fragmentProblems[index] = found[index]
            let output = state.inputs.pages[index].output
            if cache.entries[output]?.linkTargets != nil { cache.entries[output]?.fragmentProblems = found[index] }
        }
        for (_, example, _) in newExamples {
            state.descriptionProblems[example.name] = LinkChecks.descriptionProblems(of: example, state.inputs, options: options)
        }
        clock.lap("check links")

        // What the build reports, in the order a full build reports it.
        let changedSources = Set(pagePaths.map { siteFolder.path(of: $0) } + exampleNames.map { examplesFolder.path(of: $0) })
        state.loadDiagnostics = state.loadDiagnostics.filter { !changedSources.contains($0.location.file) } + loadFound
        let indexError = site.diagnostics
        site.diagnostics = state.loadDiagnostics
        var referenced = Set<String>()
        for index in state.rendered.indices {
            if !state.rendered[index].diagnostics.isEmpty { site.diagnostics += state.rendered[index].diagnostics }
            if !state.rendered[index].examples.isEmpty { referenced.formUnion(state.rendered[index].examples) }
        }
        for (example, result) in zip(state.inputs.examples, state.examplePages) {
            site.diagnostics += BuiltSite.diagnostics(of: example, result, referenced: state.inputs.theme.showsExampleGallery || referenced.contains(example.name), options: options)
        }
        site.diagnostics += indexError + state.redirectDiagnostics
        site.diagnostics += state.inputs.examples.flatMap { state.descriptionProblems[$0.name] ?? [] }
        site.diagnostics += state.fragmentProblems.flatMap { $0 }
        var seen = Set<Diagnostic>()
        site.diagnostics = site.diagnostics.filter { seen.insert($0).inserted }

        // The rest of what a build hands on, as the full build makes it.
        for (_, _, page, _) in newPages {
            if let at = state.pageOrder[page.output] { state.pages[at].hash = page.sourceKey }
        }
        site.pages = state.pages
        site.pageCount = state.inputs.pages.count
        site.exampleCount = state.inputs.examples.count
        cache.diagnostics = site.diagnostics
        cache.inputKey = site.inputsKey.map { ContentHash.key(BuildCache.context(options) + [$0]) }
        cache.globalKey = keys.global
        // (Its stamps are the first build's: no seal says they are today's.)
        cache.inputsSeal = nil
        site.cache = cache
        site.theme = state.inputs.theme.fileKeys
        site.stylesheet = state.inputs.theme.assets["rowmotion.css"]
        site.scripts = state.scripts
        let finalInputs = state.inputs
        site.blocks = { SiteRendering.shownBlocks(finalInputs) }
        site.markup = { SiteRendering.pageMarkup(finalInputs) }
        site.examples = SiteBuilder.exampleSummaries(finalInputs)
        site.changedOutputs = changedOutputs.sorted()
        site.isComplete = true

        memo.state = state
        memo.changed = []
        memo.files = site.files
        memo.cache = cache
        return site
    }

    /// Each example's steps for the report, and how it animates (worked out when asked for).
    static func exampleSummaries(_ inputs: SiteInputs)
        -> [(name: String, title: String, output: String, steps: [StepSummary], animation: @Sendable () -> ExampleAnimation)] {
        inputs.examples.map { example in
            (example.name, example.title, OutputPaths.examplePath(example.name), example.summaries,
             { ExampleAnimation(example) })
        }
    }
}
