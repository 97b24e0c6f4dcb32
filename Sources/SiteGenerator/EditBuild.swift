import Diagnostics
import Foundation
import ProjectFiles

/// A command-line build after an edit of some pages' text: the pages the
/// edit touched rendered again, their search entries, and nothing else,
/// from the cache alone (no model parsed or rebuilt for 10,000 pages).
extension FullBuild {
    /// The most pages an edit renders this way; a larger change is a build.
    static let editedPagesAtMost = 32

    /// 2½. The site after an edit that changed only what some pages say:
    /// each edited file a page (not the home page, not a draft) whose
    /// title, order, aliases and place are what the cache recorded, so
    /// that no other page's navigation, key or address moves. Its page and
    /// its search entry are made again; the links from it, and into it
    /// when its ids changed, are checked. Nil, and the build goes on as a
    /// whole, unless every fact this depends on is the cache's: the site on
    /// disk is the cache's build's (`Listing.siteFiles`), its options and
    /// its other inputs are that build's (the inputs' key, recomputed from
    /// the recorded digests), and the edit leaves what the build reported
    /// as it was (the edited pages and the pages linking into them say
    /// nothing, before and after; every example keeps a page that shows it).
    mutating func edit(_ listing: Listing) -> BuiltSite? {
        let previous = listing.previous
        // Why the build goes on as a whole (`--verbose` says).
        let progress = options.progress
        func whole(_ reason: String) -> BuiltSite? {
            progress?(.note("built whole: " + reason))
            return nil
        }
        // (A build from the model, or not the command line's, or with no cache: nothing to say.)
        guard last == nil, options.keepsUnchangedPages, options.editsInPlace, options.allowShortcut, options.baseline == nil,
              let file = previous.unread else { return nil }
        guard let siteFiles = listing.siteFiles, let global = previous.globalKey, let siteStamp = previous.siteStamp else {
            return whole("the site on disk is not the one the cache describes")
        }
        guard listing.stamps.count == previous.files.count else { return whole("a file was added or removed") }

        // The files whose bytes changed: no file added or removed (by the
        // bytes of its name: `café` respelled is another file).
        var edited: [String] = []
        for (path, stamp) in listing.stamps {
            guard let index = previous.files.index(forKey: path), Paths.sameBytes(previous.files[index].key, path) else { return whole("a file was added or removed") }
            if previous.files[index].value.digest != stamp.digest { edited.append(path) }
        }
        // The recorded digests are the build's, under these options.
        // (Every path of the order is recorded: the files are the cache's.)
        let recordedKey = InputTree.digest(order: memo.digestOrder) { previous.files[$0]?.digest ?? "" }
        guard previous.inputKey == ContentHash.key(BuildCache.context(options) + [recordedKey]) else { return whole("the options or the other inputs are not the cache's build's") }
        guard !edited.isEmpty, edited.count <= Self.editedPagesAtMost else { return whole("no page's text changed, or too many did") }
        let tree = listing.tree
        let (siteFolder, examplesFolder) = (tree[options.site], tree[options.examples])
        var editedPaths: [String] = []
        for path in edited.sorted() {
            guard let (folder, relative) = tree.folder(holding: path), folder.name == siteFolder.name, relative.hasSuffix(".md") else { return whole("a file other than a page changed") }
            editedPaths.append(relative)
        }
        let paths = editedPaths

        // Two things at once: the site's shape from the cache's page records
        // (each page's address and navigation entry, the rest of each record
        // unread), and what rendering the edited pages needs besides (the
        // theme, the pages themselves, the examples' names).
        let (drafts, urls, templates) = (options.drafts, options.urls, tree[options.templates].exists ? tree[options.templates] : nil)
        let (lines, own) = (previous.unreadLines, previous.ownLines)
        let (recorded, side) = Parallel.both({ () -> RecordedShape? in
            RecordedShape(file, lines: lines[.page] ?? [:], siteFolder: siteFolder, drafts: drafts)
        }, { () -> (theme: Theme, loaded: [LoadedPage?], exampleFiles: [String], exampleNames: ExampleNames)? in
            guard let theme = try? Theme.load(templates: templates) else { return nil }
            let loaded = paths.map { path -> LoadedPage? in
                var found: [Diagnostic] = []
                let page = SiteLoading.loadPage(path, in: siteFolder, urls: urls, diagnostics: &found)
                return found.isEmpty ? page : nil
            }
            var ignored: [Diagnostic] = []
            return (theme, loaded, SiteInputs.exampleFiles(examplesFolder, diagnostics: &ignored),
                    ExampleNames(examplesFolder.files.filter(SiteInputs.isSequence)))
        })
        guard let shape = recorded, let (theme, loaded, exampleFiles, exampleNames) = side else { return whole("the cache's records or the theme do not read") }
        let (pageLines, exampleLines, entryLines) = (lines[.page] ?? [:], lines[.example] ?? [:], lines[.entry] ?? [:])
        clock.lap("the site's shape, the theme and the edited pages")

        // Each edited page still says what reaches beyond it as its record
        // does (title, order, aliases, draft, place), and nothing to warn about.
        var editedPages: [(page: LoadedPage, record: PageRecord, entry: BuildCache.Entry, line: BuildCache.Line)] = []
        for (path, page) in zip(paths, loaded) {
            guard let page, let line = pageLines[path], var record = PageRecord(line, in: file), record.diagnostics.isEmpty,
                  page.sourceKey == memo.digests[page.source] else { return whole("an edited page warns, or changed again") }
            guard record.output != "index.html", !record.draft else { return whole("the home page or a draft changed") }
            record.sourceKey = page.sourceKey
            guard PageRecord(page, diagnostics: []) == record, let line = entryLines[page.output], Paths.sameBytes(line.key, page.output),
                  let entry = Self.entry(line, in: file),
                  entry.diagnostics.isEmpty, entry.linkTargets != nil, entry.fragmentProblems == [], entry.search != nil,
                  entry.stored != nil, entry.size != nil else { return whole("a page's title, order, aliases or place changed, or it warned") }
            editedPages.append((page, record, entry, line))
        }
        let assets = ThemeAssets.themeAssets(theme)
        let outputs = SiteInputs.generatedOutputs(pages: shape.outputs, examples: exampleFiles).union(siteFolder.files.filter { !$0.hasSuffix(".md") })
        let folded = SiteInputs.folded(outputs)
        let editedOutputs = editedPages.map(\.page.output)
        let chromes = Chromes(options: options, siteTitle: shape.homeTitle ?? "Rowmotion", navigation: shape.navigation,
                              stylesheet: assets.stylesheet, script: assets.script)
            .memoizing(editedOutputs + ["index.html"], theme: theme,
                       memory: OutputBudget(limit: min(options.siteByteLimit, OutputLimits.navigationMemoBytes), input: listing.inputBytes))
        let digests = memo.digests
        // An example from its record, its sequence read when a player asks
        // (nil, as for one with errors, when its file is not the record's).
        let examples = Locked<[String: LoadedExample]>([:])
        let example: @Sendable (String) -> LoadedExample? = { name in
            if let known = examples.withLock({ $0[name] }) { return known }
            guard let line = exampleLines[name], Paths.sameBytes(line.key, name), case let fields = line.fields(in: file), fields.count == 3,
                  let record = ExampleRecord(json: file[fields[2]]),
                  record.sourceKey == digests[examplesFolder.path(of: name)] else { return nil }
            let loaded = LoadedExample(name: name, record: record, in: examplesFolder)
            examples.withLock { $0[name] = loaded }
            return loaded
        }
        clock.lap("the edited pages' chrome")

        let options = options
        let rendered = Parallel.map(editedPages) { page, _, _, _ in
            SiteRendering.render(page: page, theme: theme, example: example, exampleNames: exampleNames, outputs: outputs, foldedOutputs: folded,
                                 chrome: chromes.chrome(for: page.output), options: options, isHome: false)
        }
        guard !rendered.contains(where: { !$0.diagnostics.isEmpty || $0.tooLarge }),
              examples.withLock({ $0.values.allSatisfy { $0.failure == nil } }) else { return whole("an edited page warns") }
        clock.lap("render the edited pages")

        // Every example keeps a page that shows it (or none loses its warning).
        let shownBefore = editedPages.map { Set($0.entry.examples) }, shownNow = rendered.map(\.examples)
        if shownBefore != shownNow {
            let editedSet = Set(editedOutputs)
            var before = Set<String>(), now = Set<String>()
            for line in entryLines.values {
                guard let shown = Self.entry(line, in: file)?.examples, !shown.isEmpty else { continue }
                before.formUnion(shown)
                if !editedSet.contains(line.key) { now.formUnion(shown) }
            }
            now.formUnion(shownNow.joined())
            guard before == now else { return whole("an example gained or lost its last page") }
        }

        // The links from the edited pages, and into them where their ids changed.
        let themeIDs = LinkChecks.themeIDs(theme, chrome: chromes.chrome(for: "index.html"))
        // A page as its record has it (the few links lead to, or come from).
        func pageOf(_ output: String) -> LoadedPage? {
            guard let path = shape.paths[output], let line = pageLines[path], let record = PageRecord(line, in: file) else { return nil }
            return record.page(source: siteFolder.path(of: path), path: path)
        }
        let examplePages = Dictionary(exampleFiles.map { (OutputPaths.examplePath($0), $0) }) { first, _ in first }
        let newDocuments = Dictionary(zip(editedOutputs, rendered.map(\.made))) { first, _ in first }
        var targets: [String: (source: String, ids: Set<String>)] = [:]
        func target(_ output: String) -> Bool {
            if targets[output] != nil { return true }
            if let document = newDocuments[output], let page = pageOf(output) {
                targets[output] = (page.source, themeIDs.union(document.ids))
            } else if let page = pageOf(output) {
                guard let line = entryLines[output], let entry = Self.entry(line, in: file),
                      let document = entry.document else { return false }
                targets[output] = (page.source, themeIDs.union(document.ids))
            } else if let name = examplePages[output] {
                guard let line = entryLines[output], let entry = Self.entry(line, in: file),
                      let document = entry.document else { return false }
                targets[output] = ("\(options.examples)/\(name)", Set(document.ids))
            }
            // (Anything else, a static file, is not checked.)
            return true
        }
        var hints = LinkChecks.FragmentHints()
        for ((page, _, _, _), result) in zip(editedPages, rendered) {
            guard result.made.links.allSatisfy({ target($0.page) }),
                  LinkChecks.brokenFragments(result.made.links, from: page, targets: targets, hints: &hints).isEmpty else { return whole("a link from an edited page is broken") }
        }
        let movedIDs = zip(editedPages, rendered).filter { Set($0.0.entry.document?.ids ?? []) != Set($0.1.made.ids) }.map(\.0.page.output)
        if !movedIDs.isEmpty {
            let moved = Set(movedIDs)
            // The home page's links too (its content is the index's, which keeps no Document).
            if let home = pageOf("index.html") {
                guard case .success(let page) = SiteLoading.read(home, in: siteFolder, urls: urls) else { return whole("the home page does not read") }
                let result = SiteRendering.render(page: page, theme: theme, example: example, exampleNames: exampleNames, outputs: outputs,
                                                  foldedOutputs: folded, chrome: chromes.chrome(for: "index.html"), options: options, isHome: true)
                let into = result.made.links.filter { moved.contains($0.page) }
                guard into.allSatisfy({ target($0.page) }), LinkChecks.brokenFragments(into, from: page, targets: targets, hints: &hints).isEmpty
                else { return whole("a link into an edited page broke") }
                // Its links' warnings are not kept apart from the index's: one it had may be one this edit mends.
                guard into.isEmpty || !previous.diagnostics.contains(where: { $0.location.file == home.source })
                else { return whole("the home page, linking into an edited page, warned") }
            }
            // (The home page's entry is the index's, checked above.)
            for line in entryLines.values where !moved.contains(line.key) && newDocuments[line.key] == nil && line.key != "index.html" {
                let fields = line.fields(in: file)
                guard fields.count == 9 else { return whole("the cache's records do not read") }
                let field = file[fields[6]]
                // `-`: the page's targets are not known.
                guard field.first == UInt8(ascii: "+") else { if pageOf(line.key) != nil { return whole("a page's links are not recorded") } else { continue } }
                let linked = String(decoding: field.dropFirst(), as: UTF8.self).split(separator: "\u{1F}").map(String.init)
                guard linked.contains(where: moved.contains) else { continue }
                guard let page = pageOf(line.key), let entry = Self.entry(line, in: file),
                      entry.fragmentProblems == [], let document = entry.document else { return whole("a page linking into an edited one warns") }
                let into = document.links.filter { moved.contains($0.page) }
                guard into.allSatisfy({ target($0.page) }), LinkChecks.brokenFragments(into, from: page, targets: targets, hints: &hints).isEmpty
                else { return whole("a link into an edited page broke") }
            }
        }
        clock.lap("check links")

        // The search index with the edited pages' entries, as the site holds it otherwise.
        var changedFiles: [String: [UInt8]] = [:]
        var entries: [(page: LoadedPage, entry: BuildCache.Entry)] = []
        var searchEdits: [(old: ArraySlice<UInt8>, new: [UInt8])] = []
        let keysFound = Dictionary(rendered.flatMap(\.examples).compactMap { name in example(name).map { (name, $0.sourceKey) } }) { first, _ in first }
        let keys = OutputKeys(global: global, examples: keysFound)
        for ((page, _, old, _), result) in zip(editedPages, rendered) {
            var entry = BuildCache.Entry(page, result, keys: keys)
            let search = SearchIndex.json(SearchIndex.Entry(output: page.output, title: page.title, document: result.made))
            entry.search = search[...]
            entry.fragmentProblems = []
            entries.append((page, entry))
            if !BuildCache.sameBytes(old.search, entry.search) { searchEdits.append((old.search!, search)) }
            if result.bytes.count != old.size || !Self.siteFile(page.output, of: options.out, is: result.bytes) { changedFiles[page.output] = result.bytes }
        }
        if !searchEdits.isEmpty {
            guard let index = Self.spliced(OutputPaths.searchIndex, of: options.out, searchEdits) else { return whole("the search index is not the last build's") }
            changedFiles[OutputPaths.searchIndex] = index
        }
        // Still within the site's limit (past it, the whole build says so).
        let before = previous.written.values.reduce(0) { $0 + Int($1.size) }
        let after = before + changedFiles.reduce(0) { total, file in total + file.value.count - Int(previous.written[file.key]?.size ?? 0) }
        guard after <= OutputLimits.siteBytes(forInput: listing.inputBytes(), atMost: options.siteByteLimit) else { return whole("the site passes its limit") }
        clock.lap("search index")

        var site = BuiltSite()
        site.diagnostics = previous.diagnostics
        (site.pageCount, site.exampleCount) = (previous.pageCount, previous.exampleCount)
        site.renderedCount = rendered.count
        site.cachedCount = shape.outputs.count - (shape.paths["index.html"] == nil ? 0 : 1) + exampleFiles.count + 1 - rendered.count
        site.inputsKey = self.site.inputsKey
        var cache = previous
        (cache.inputKey, cache.files, cache.filesSeenAt, cache.inputsSeal) = (listing.inputKey, listing.stamps, listing.stampsTakenAt, listing.inputsSeal)
        var replacing: [(range: Range<Int>, bytes: [UInt8])] = own.map { ($0, []) }
        for (page, entry) in entries {
            cache.entries[page.output] = entry
            cache.pages[page.path] = PageRecord(page, diagnostics: [])
            var line: [UInt8] = [], record: [UInt8] = []
            cache.appendLine(.entry, page.output, to: &line)
            cache.appendLine(.page, page.path, to: &record)
            // (A name the cache's lines cannot hold is not kept: the whole build leaves it out too.)
            guard !line.isEmpty, !record.isEmpty else { return whole("a page's record cannot be kept") }
            replacing += [(entryLines[page.output]!.line, line), (pageLines[page.path]!.line, record)]
        }
        // Every input whose stamp moved (the edited ones, and any saved again as it was).
        for record in previous.records where record.kind == .file {
            guard let now = listing.stamps[record.key], previous.files[record.key] != now else { continue }
            var line: [UInt8] = []
            cache.appendLine(.file, record.key, to: &line)
            replacing.append((record.line, line))
        }
        site.edit = EditedSite(files: changedFiles, siteStamp: siteStamp, siteFiles: siteFiles, cache: cache, file: file, replacing: replacing,
                               outputs: previous.outputs)
        // What this read, held with the site: a process that ends after the
        // build lets it go with the process (freed here, 10,000 pages'
        // records, lines and navigation were a tenth of the build).
        site.edit?.held = [lines, shape, chromes, outputs, folded, listing.tree, memo]
        site.cache = previous
        site.cacheIsSaved = true
        return site
    }

    /// The entry on a line of the cache file `file`.
    static func entry(_ line: BuildCache.Line, in file: [UInt8]) -> BuildCache.Entry? {
        file.withUnsafeBufferPointer { BuildCache.entry(line.fields(in: file), $0, file: file) }
    }

    /// Whether the site at `out` holds `bytes` at `output` (never read
    /// through a link: the site's seal said it holds none).
    static func siteFile(_ output: String, of out: String, is bytes: [UInt8]) -> Bool {
        (try? FileContents.read(out + "/" + output, limit: bytes.count + 1, followingLink: false)) == bytes
    }

    /// The file `output` of the site at `out`, a script of JSON entries
    /// (`SearchIndex.script`), with each old entry replaced by the new:
    /// each old one must be there once, a whole entry (a string inside an
    /// entry escapes its quotes, so no entry holds another's JSON), else nil.
    static func spliced(_ output: String, of out: String, _ edits: [(old: ArraySlice<UInt8>, new: [UInt8])]) -> [UInt8]? {
        guard var bytes = try? FileContents.read(out + "/" + output, limit: OutputLimits.siteBytes, followingLink: false) else { return nil }
        for (old, new) in edits {
            let found = bytes.withUnsafeBufferPointer { file in
                old.withUnsafeBufferPointer { entry -> [Int] in
                    // (memchr for its first byte, then memcmp: memmem is not POSIX.)
                    var found: [Int] = []
                    guard let base = file.baseAddress, let first = entry.first else { return [] }
                    var start = 0
                    while start + entry.count <= file.count, let hit = memchr(base + start, Int32(first), file.count - start - entry.count + 1) {
                        let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                        if memcmp(base + at, entry.baseAddress!, entry.count) == 0 { found.append(at) }
                        start = at + 1
                    }
                    return found
                }
            }
            guard found.count == 1, let at = found.first, at > 0, [UInt8(ascii: "["), UInt8(ascii: ",")].contains(bytes[at - 1]),
                  at + old.count < bytes.count, [UInt8(ascii: "]"), UInt8(ascii: ",")].contains(bytes[at + old.count]) else { return nil }
            bytes.replaceSubrange(at..<at + old.count, with: new)
        }
        return bytes
    }
}

/// The site's pages as the cache's records give them, read only as far
/// as the navigation and the site's addresses need: each page's output and
/// navigation entry (drafts left out unless they are built), in path order.
struct RecordedShape: Sendable {
    var outputs: [String]
    /// Each page's path under the site folder, by its output.
    var paths: [String: String]
    var navigation: Navigation
    /// The home page's title (the site's).
    var homeTitle: String?

    /// Nil unless every page file of `siteFolder` has its record.
    init?(_ file: [UInt8], lines: [String: BuildCache.Line], siteFolder: InputFolder, drafts: Bool) {
        let pageFiles = siteFolder.files.filter { $0.hasSuffix(".md") }
        guard lines.count == pageFiles.count else { return nil }
        var listed: [Navigation.Listed] = [], outputs: [String] = [], paths: [String: String] = [:], homeTitle: String?
        outputs.reserveCapacity(pageFiles.count)
        paths.reserveCapacity(pageFiles.count)
        listed.reserveCapacity(pageFiles.count)
        // Each line read on every core, in chunks; gathered in path order.
        let entries = Parallel.map(BuildCache.chunks(pageFiles.count, ProcessInfo.processInfo.activeProcessorCount * 2)) { range in
            file.withUnsafeBufferPointer { bytes in
                pageFiles[range].map { path -> (listed: Navigation.Listed, title: String, draft: Bool)? in
                    guard let line = lines[path], Paths.sameBytes(line.key, path) else { return nil }
                    return PageRecord.navigationEntry(line.fields(in: file), bytes)
                }
            }
        }.joined()
        var read = true
        for (path, entry) in zip(pageFiles, entries) {
            guard let entry else { read = false; break }
            guard !entry.draft || drafts else { continue }
            let output = entry.listed.output
            outputs.append(output)
            paths[output] = path
            if output == "index.html" { homeTitle = entry.title } else { listed.append(entry.listed) }
        }
        guard read else { return nil }
        (self.outputs, self.paths, self.homeTitle) = (outputs, paths, homeTitle)
        // (In path order: the navigation orders its entries itself.)
        navigation = Navigation(pages: listed)
    }
}

/// What a build after an edit writes (`FullBuild.edit`): the site's files
/// whose bytes changed, each replaced in place (the rest of the site is the
/// cache's build's, as its seal said), then the cache with the lines of
/// what changed replaced.
struct EditedSite: Sendable {
    var files: [String: [UInt8]]
    /// The site's stamp the edit was built against (`SiteFolder.stamp`),
    /// and its files as sealed then.
    var siteStamp: String
    var siteFiles: SealedFiles
    /// The cache to write: the earlier one with this build's values.
    var cache: BuildCache
    /// The earlier cache file, and its lines to replace.
    var file: [UInt8]
    var replacing: [(range: Range<Int>, bytes: [UInt8])]
    /// Every output with an entry.
    var outputs: [String]
    /// What the build read to make this, kept with it (see `FullBuild.edit`).
    var held: [any Sendable] = []

    /// Writes the files, then the cache (with the files' new stamps);
    /// how many files were written and how many kept.
    func write(_ options: BuildOptions, in project: Project) throws(Diagnostic) -> (written: Int, reused: Int) {
        try SiteWriter.update(files, removed: [], at: options.out, stamp: siteStamp, in: project)
        let counts = (written: files.count, reused: cache.written.count - files.count)
        guard let path = options.cache else { return counts }
        var replacing = replacing
        // Each file written, stamped now: its `out` line, and the site's seal.
        var stamps: [String: FileStamp] = [:]
        for output in files.keys.sorted() {
            guard let stamp = FileStamp.of(options.out + "/" + output) else { continue }
            stamps[output] = stamp
            if let record = cache.records.first(where: { $0.kind == .written && $0.key == output }) {
                var line: [UInt8] = [], stamped = BuildCache()
                stamped.written[output] = stamp
                stamped.appendLine(.written, output, to: &line)
                replacing.append((record.line, line))
            }
        }
        // The first three lines (format, inputs, seals) anew; the diagnostics' as they were.
        var header = 0
        for _ in 0..<3 { header = (file[header...].firstIndex(of: 10) ?? file.count - 1) + 1 }
        replacing.append((0..<header, cache.headerLines(outputs: outputs, siteSeal: siteFiles.key(with: stamps))))
        let parts = BuildCache.patch(file, replacing: replacing, trailer: cache.trailerLines)
        do throws(Diagnostic) {
            try BuildCache.write(parts: parts, to: path, in: project)
        } catch {
            // One that cannot be saved otherwise is a miss next time.
            if error.id == "symbolic-link" { throw error }
        }
        return counts
    }
}
