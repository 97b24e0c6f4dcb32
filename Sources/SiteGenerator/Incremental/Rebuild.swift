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
    /// again. Nil when the edit changed more than that (a file added,
    /// removed or renamed, a title, an order, an alias, a theme file, a
    /// static file), or when something it rendered reports an error: the
    /// full build, from the same memo, takes over.
    static func rebuild(_ options: BuildOptions, memo last: BuildMemo, clock: inout PhaseClock) -> BuiltSite? {
        guard last.applies(to: options), let changed = last.changed, let state = last.state, let tree = last.treeIfUnchanged() else { return nil }
        let siteFolder = tree[options.site], examplesFolder = tree[options.examples]
        var pagePaths: [String] = [], exampleNames: [String] = []
        for path in changed.sorted() {
            guard let (folder, relative) = tree.folder(holding: path) else { return nil }
            if folder.name == siteFolder.name, relative.hasSuffix(".md"), last.pages[relative]?.value != nil {
                pagePaths.append(relative)
            } else if folder.name == examplesFolder.name, last.examples[relative]?.value != nil {
                exampleNames.append(relative)
            } else {
                return nil
            }
        }
        let (pagesToRead, examplesToRead) = (pagePaths, exampleNames)
        var memo = last
        // The listing is the same: only the changed files' digests move.
        for path in changed {
            guard let (folder, relative) = tree.folder(holding: path) else { return nil }
            memo.digests[path] = (try? folder.read(relative, limit: nil)).map { Digest.sha256($0) } ?? "unreadable"
        }
        var site = BuiltSite()
        site.inputsKey = InputTree.digest(combining: memo.digests, order: memo.digestOrder)

        // The changed files, read again: each must still load, and say what
        // it said of the site's shape (its title, order, aliases, draft).
        let reloaded = Parallel.map(pagesToRead.count + examplesToRead.count) { task -> (page: LoadedPage?, example: LoadedExample?, found: [Diagnostic]) in
            if task < pagesToRead.count {
                var found: [Diagnostic] = []
                let page = SiteLoading.loadPage(pagesToRead[task], in: siteFolder, urls: options.urls, diagnostics: &found)
                return (page, nil, found)
            }
            let (example, found) = SiteInputs.loadExample(examplesToRead[task - pagesToRead.count], in: examplesFolder)
            return (nil, example, found)
        }
        var inputs = state.inputs, keys = state.keys
        let pageIndex = Dictionary(uniqueKeysWithValues: inputs.pages.enumerated().map { ($1.output, $0) })
        var dirtyPages = Set<Int>()
        var loadFound: [Diagnostic] = []
        for (path, result) in zip(pagePaths, reloaded) {
            guard let page = result.page, let old = last.pages[path]?.value, let index = pageIndex[page.output],
                  page.output == old.output, page.title == old.title, page.frontMatter.navigationShape == old.frontMatter.navigationShape,
                  !result.found.contains(where: { $0.severity == .error }) else { return nil }
            memo.pages[path] = .init(value: page, diagnostics: result.found)
            inputs.pages[index] = page
            if page.output == "index.html" { inputs.home = page }
            loadFound += result.found
            dirtyPages.insert(index)
        }
        let exampleIndex = Dictionary(uniqueKeysWithValues: inputs.examples.enumerated().map { ($1.name, $0) })
        var dirtyExamples = Set<Int>()
        for (name, result) in zip(exampleNames, reloaded.dropFirst(pagePaths.count)) {
            guard let example = result.example, let index = exampleIndex[name],
                  !result.found.contains(where: { $0.severity == .error }) else { return nil }
            memo.examples[name] = .init(value: example, diagnostics: result.found)
            inputs.examples[index] = example
            inputs.examplesByName[name] = example
            keys.examples[name] = example.sourceKey
            loadFound += result.found
            dirtyExamples.insert(index)
        }
        // Pages that show a changed example.
        let changedExamples = Set(exampleNames)
        for (index, result) in state.rendered.enumerated() where !result.examples.isDisjoint(with: changedExamples) { dirtyPages.insert(index) }
        clock.lap("read the changed files")

        // Rendered again: the dirty pages, then the changed examples' pages.
        let (current, currentKeys) = (inputs, keys)
        var rendered = state.rendered
        let shared = PlayerParts(dirtyExamples.sorted().map { inputs.examples[$0] })
        let dirty = dirtyPages.sorted()
        let pages = Parallel.map(dirty) { index in
            let page = current.pages[index]
            return SiteRendering.render(page: page, theme: current.theme, examples: current.examplesByName, exampleNames: current.exampleNames,
                                        outputs: current.outputs, foldedOutputs: current.outputsByFoldedCase, chrome: state.chromes.chrome(for: page.output),
                                        options: options, isHome: page.output == "index.html", shared: shared)
        }
        var examplePages = state.examplePages
        let changedExampleIndices = dirtyExamples.sorted()
        let remade = Parallel.map(changedExampleIndices) { index -> ExampleOutput in
            let example = current.examples[index]
            let key = currentKeys.example(example)
            do throws(Diagnostic) {
                let (html, svg, problems) = try SiteRendering.examplePage(example, theme: current.theme, chrome: state.chromes.chrome(for: OutputPaths.examplePath(example.name)),
                                                                          shared: shared, urls: options.urls)
                return ExampleOutput(key: key, html: html, svg: svg, problems: problems)
            } catch {
                return ExampleOutput(key: key, error: error)
            }
        }
        guard !pages.contains(where: { $0.tooLarge || $0.diagnostics.contains { $0.severity == .error } }),
              !remade.contains(where: { $0.error != nil }) else { return nil }
        site.files = last.files
        site.cache = last.cache
        for (index, result) in zip(dirty, pages) {
            rendered[index] = result
            let page = inputs.pages[index]
            site.cache.entries[page.output] = page.output == "index.html" ? nil : BuildCache.Entry(page, result, keys: keys)
            if page.output != "index.html" { site.files[page.output] = result.bytes }
        }
        var cache = site.cache
        for (index, result) in zip(changedExampleIndices, remade) {
            examplePages[index] = result
            site.add(examplePage: result, of: inputs.examples[index], cache: &cache)
        }
        site.cache = cache
        // The home page, when its content or an example (its gallery) changed.
        if dirtyPages.contains(where: { inputs.pages[$0].output == "index.html" }) || !dirtyExamples.isEmpty {
            let homeContent = inputs.pages.firstIndex { $0.output == "index.html" }.map { rendered[$0].html } ?? ""
            let reuse = Reuse(previous: last.cache, folder: URL(fileURLWithPath: options.out), memory: last.files)
            guard case .success(let index) = SiteRendering.renderIndex(inputs, content: homeContent, chrome: state.chromes.chrome(for: "index.html"),
                                                                       reuse: reuse, keys: keys, homeClean: true) else { return nil }
            site.files["index.html"] = index.bytes
            site.cache.entries["index.html"] = BuildCache.Entry(key: keys.index(inputs), examples: [])
            if !index.cached { site.renderedCount += 1 }
        }
        // Still within the site's limit.
        guard site.files.values.reduce(0, { $0 + $1.count }) <= options.siteByteLimit else { return nil }
        site.renderedCount += dirty.filter { inputs.pages[$0].output != "index.html" }.count
        site.cachedCount = inputs.pages.filter { $0.output != "index.html" }.count + inputs.examples.count + 1 - site.renderedCount
        clock.lap("render what depends on them")

        // Their search entries.
        var search = state.search
        for index in dirty where inputs.pages[index].output != "index.html" {
            let page = inputs.pages[index]
            let entry = SearchIndex.Entry(output: page.output, title: page.title, document: rendered[index].document)
            search[entry.u] = SearchIndex.json(entry)
        }
        for index in changedExampleIndices {
            let example = inputs.examples[index]
            let entry = SearchIndex.Entry(output: OutputPaths.examplePath(example.name), title: example.sequence.title,
                                          document: SiteRendering.exampleDocument(example))
            search[entry.u] = SearchIndex.json(entry)
        }
        site.files[OutputPaths.searchIndex] = SearchIndex.script(joining: state.searchOrder.map { search[$0]! })
        clock.lap("search index")

        // Links from the pages rendered again, and into them.
        let remadeOutputs = Set(dirty.map { inputs.pages[$0].output } + changedExampleIndices.map { OutputPaths.examplePath(inputs.examples[$0].name) })
        var checked = Set(dirty)
        for (index, result) in rendered.enumerated() where result.document.links.contains(where: { remadeOutputs.contains($0.page) }) { checked.insert(index) }
        var fragmentProblems = state.fragmentProblems
        let found = LinkChecks.fragmentProblems(inputs, rendered: rendered, files: site.files, options: options, themeIDs: state.themeIDs, only: checked)
        for index in checked { fragmentProblems[index] = found[index] }
        var descriptionProblems = state.descriptionProblems
        for index in changedExampleIndices {
            descriptionProblems[inputs.examples[index].name] = LinkChecks.descriptionProblems(of: inputs.examples[index], inputs, options: options)
        }
        clock.lap("check links")

        // What the build reports, in the order a full build reports it.
        let changedSources = Set(pagePaths.map { siteFolder.path(of: $0) } + exampleNames.map { examplesFolder.path(of: $0) })
        site.diagnostics = state.loadDiagnostics.filter { !changedSources.contains($0.location.file) } + loadFound
        for result in rendered where !result.diagnostics.isEmpty { site.diagnostics += result.diagnostics }
        let referenced = rendered.reduce(into: Set<String>()) { $0.formUnion($1.examples) }
        for (example, result) in zip(inputs.examples, examplePages) {
            site.diagnostics += BuiltSite.diagnostics(of: example, result, referenced: referenced.contains(example.name), options: options)
        }
        site.diagnostics += state.redirectDiagnostics
        site.diagnostics += inputs.examples.flatMap { descriptionProblems[$0.name] ?? [] }
        site.diagnostics += fragmentProblems.flatMap { $0 }
        var seen = Set<Diagnostic>()
        site.diagnostics = site.diagnostics.filter { seen.insert($0).inserted }

        site.pageCount = inputs.pages.count
        site.exampleCount = inputs.examples.count
        site.cache.diagnostics = site.diagnostics
        site.cache.inputKey = site.inputsKey.map {
            ContentHash.key([BuildCache.format, options.baseURL, String(options.drafts), options.urls.rawValue, $0])
        }
        // The rest of what a build hands on, as the full build makes it.
        site.pages = state.pages
        for index in dirtyPages where pagePaths.contains(inputs.pages[index].path) {
            let page = inputs.pages[index]
            if let at = state.pageOrder[page.output] { site.pages[at].hash = page.sourceKey }
        }
        site.theme = inputs.theme.fileKeys
        site.stylesheet = inputs.theme.assets["rowmotion.css"]
        site.scripts = state.scripts
        let finalInputs = inputs
        site.blocks = { SiteRendering.shownBlocks(finalInputs) }
        site.markup = { SiteRendering.pageMarkup(finalInputs) }
        site.examples = inputs.examples.map { example in
            (example.name, example.sequence.title, OutputPaths.examplePath(example.name),
             zip(example.sequence.steps.dropFirst(), example.changesets).map { StepSummary(label: $0.label, changeset: $1) },
             { ExampleAnimation(example) })
        }

        memo.state = BuildMemo.State(inputs: inputs, keys: keys, chromes: state.chromes, rendered: rendered, examplePages: examplePages,
                                     loadDiagnostics: state.loadDiagnostics.filter { !changedSources.contains($0.location.file) } + loadFound,
                                     redirectDiagnostics: state.redirectDiagnostics, descriptionProblems: descriptionProblems,
                                     fragmentProblems: fragmentProblems, themeIDs: state.themeIDs, search: search, searchOrder: state.searchOrder,
                                     pages: site.pages, scripts: site.scripts, pageOrder: state.pageOrder)
        memo.changed = []
        memo.files = site.files
        memo.cache = site.cache
        site.memo = memo
        return site
    }
}
