import ProjectFiles
import Diagnostics
import Dispatch
import Foundation
import ListDiff
import SnapshotFormat

/// Everything a build reads, read once: the theme, every example read and
/// diffed, the pages with their front matter, the navigation they make, and
/// the static files. Loading is the first stage; nothing after it reads
/// `site/`, `examples/` or `templates/` again.
struct SiteInputs: Sendable {
    var theme: Theme
    /// Examples by name order, and by their path under `examples/`.
    var examples: [LoadedExample]
    var examplesByName: [String: LoadedExample]
    /// Every sequence file of the examples folder (those with errors too),
    /// which a demo block's `example:` names.
    var exampleNames: ExampleNames
    /// Pages that are not drafts (unless drafts are asked for), in path order.
    var pages: [LoadedPage]
    var home: LoadedPage?
    var siteTitle: String
    var navigation: Navigation
    /// The pages the navigation lists, as it was made from them.
    var listed: [Navigation.Listed]
    var staticFiles: [StaticFiles.File]
    /// Every path the site will have: pages, example pages and filmstrips,
    /// the index, static files.
    var outputs: Set<String>
    /// The same, by their lowercased path (the first in path order where
    /// two differ only in case): links written as Hugo writes them, its
    /// addresses lowercased (`/functions/fmt/errorf/` for `Errorf.md`), find
    /// their file, and are rewritten to its own case.
    var outputsByFoldedCase: [String: String] = [:]

    /// Loads every input; nil when the theme cannot be loaded (the
    /// diagnostics say why). Problems of single files are diagnostics, and
    /// those files are left out.
    ///
    /// With a `memo` of the last build, only the files it lists as changed
    /// are read again; the rest are taken from it. The memo is given what
    /// this load read, for the next.
    static func load(_ options: BuildOptions, tree: InputTree, memo: inout LoadedFiles, changed: Set<String>?, reuse: Bool,
                     diagnostics: inout [Diagnostic], clock: inout PhaseClock) -> SiteInputs? {
        // The theme, each example and each page need nothing of each other:
        // loaded as the tasks of one pool, so no core waits while the theme
        // loads (one task) or for the slowest example before pages start.
        // Which files are examples and pages is decided first, in path
        // order, and diagnostics keep that order whatever the threads do.
        let templates = tree[options.templates].exists ? tree[options.templates] : nil
        let (examplesFolder, siteFolder) = (tree[options.examples], tree[options.site])
        var planDiagnostics: [Diagnostic] = []
        let exampleFiles = exampleFiles(examplesFolder, diagnostics: &planDiagnostics)
        let pageFiles = siteFolder.files.filter { $0.hasSuffix(".md") }
        let previous = memo
        func kept<Value>(_ path: String, in folder: InputFolder, _ loaded: [String: LoadedFiles.Loaded<Value>]) -> LoadedFiles.Loaded<Value>? {
            reuse && !LoadedFiles.mayHaveChanged(folder.path(of: path), changed) ? loaded[path] : nil
        }
        let keptTheme = reuse && templates.map { !LoadedFiles.hasChanges(in: $0, changed) } ?? true ? previous.theme : nil
        let examplesToLoad = exampleFiles.filter { kept($0, in: examplesFolder, previous.examples) == nil }
        let pagesToLoad = pageFiles.filter { kept($0, in: siteFolder, previous.pages) == nil }
        enum Loaded {
            case theme(Result<Theme, Diagnostic>)
            case example(LoadedExample?, [Diagnostic])
            case page(LoadedPage?, [Diagnostic])
        }
        let loaded = Parallel.map(1 + examplesToLoad.count + pagesToLoad.count) { task -> Loaded in
            if task == 0 {
                if let keptTheme { return .theme(.success(keptTheme)) }
                do throws(Diagnostic) { return .theme(.success(try Theme.load(templates: templates))) } catch { return .theme(.failure(error)) }
            }
            if task <= examplesToLoad.count {
                let (example, found) = loadExample(examplesToLoad[task - 1], in: examplesFolder)
                return .example(example, found)
            }
            var found: [Diagnostic] = []
            let path = pagesToLoad[task - 1 - examplesToLoad.count]
            let page = SiteLoading.loadPage(path, in: siteFolder, urls: options.urls, diagnostics: &found)
            return .page(page, found)
        }
        guard case .theme(let loadedTheme) = loaded[0] else { return nil }
        let theme: Theme
        switch loadedTheme {
        case .success(let loaded): theme = loaded
        case .failure(let error):
            diagnostics.append(error)
            return nil
        }
        // Every example and page in path order, loaded now or kept.
        var fresh: [String: LoadedFiles.Loaded<LoadedExample>] = [:]
        var freshPages: [String: LoadedFiles.Loaded<LoadedPage>] = [:]
        for (index, result) in loaded.dropFirst().enumerated() {
            switch result {
            case .example(let example, let found): fresh[examplesToLoad[index]] = .init(value: example, diagnostics: found)
            case .page(let page, let found): freshPages[pagesToLoad[index - examplesToLoad.count]] = .init(value: page, diagnostics: found)
            case .theme: break
            }
        }
        memo.theme = theme
        memo.examples = Dictionary(uniqueKeysWithValues: exampleFiles.map { ($0, fresh[$0] ?? previous.examples[$0]!) })
        memo.pages = Dictionary(uniqueKeysWithValues: pageFiles.map { ($0, freshPages[$0] ?? previous.pages[$0]!) })
        diagnostics += planDiagnostics
        // (A copy of the built-in file, as this repository's own templates/ is, says nothing new.)
        for name in Theme.builtInOnly.sorted() where templates?.contains(name) ?? false
            && (try? templates?.read(name, limit: TemplateCheck.templateBytes)).map({ String(decoding: $0, as: UTF8.self) }) != DefaultTheme.files[name] {
            diagnostics.append(.warning("theme", at: SourceLocation(file: templates!.path(of: name), line: 1, column: 1),
                                        "this file is not used: the review page (changes.html) is drawn by the built-in template alone, "
                                            + "so that what it says of a pull request is never the pull request's; restyle it with rowmotion.css"))
        }
        var examples: [LoadedExample] = []
        for name in exampleFiles {
            let result = memo.examples[name]!
            diagnostics.append(contentsOf: result.diagnostics)
            if let example = result.value { examples.append(example) }
        }
        let loadedPages = pageFiles.map { name in (page: memo.pages[name]!.value, diagnostics: memo.pages[name]!.diagnostics) }
        var pages = SiteLoading.gatherPages(loadedPages, options: options, diagnostics: &diagnostics)
        // A page where an example's page goes (`site/examples/a.md` beside
        // `examples/a.yml`) is an error, never silently replaced.
        let exampleOutputs = Dictionary(examples.flatMap { example in
            [(OutputPaths.examplePath(example.name), example.name), (OutputPaths.filmstripPath(example.name), example.name)]
        }) { first, _ in first }
        pages.removeAll { page in
            guard let example = exampleOutputs[page.output] else { return false }
            diagnostics.append(.error("output-collision", at: SourceLocation(file: page.source, line: 1, column: 1),
                                      "this page and the example '\(examplesFolder.path(of: example))' both become \(page.output); rename one",
                                      notes: [Diagnostic.Note(location: SourceLocation(file: examplesFolder.path(of: example), line: 1, column: 1),
                                                              message: "the example")]))
            return true
        }
        clock.lap("load theme, examples and pages")

        pages.removeAll { $0.frontMatter.draft && !options.drafts }
        let home = pages.first { $0.output == "index.html" }
        let generated = generatedOutputs(pages: pages.map(\.output), examples: examples.map(\.name))
        // Kept while no file of the site folder but pages changed (and no page's output moved).
        let staticFiles: [StaticFiles.File]
        let sitePrefix = siteFolder.name.hasSuffix("/") ? siteFolder.name : siteFolder.name + "/"
        if reuse, let kept = previous.staticFiles, previous.staticGenerated == generated,
           changed?.allSatisfy({ $0.hasSuffix(".md") || !$0.hasPrefix(sitePrefix) }) ?? false {
            staticFiles = kept
            diagnostics += previous.staticDiagnostics
        } else {
            var found: [Diagnostic] = []
            staticFiles = StaticFiles.load(siteFolder, generated: generated, diagnostics: &found)
            diagnostics += found
            memo.staticDiagnostics = found
        }
        memo.staticGenerated = generated
        memo.staticFiles = staticFiles
        clock.lap("load static files")
        let listedEntries = listed(pages)
        let outputs = generated.union(staticFiles.map(\.path))
        let inputs = SiteInputs(theme: theme, examples: examples, examplesByName: Dictionary(uniqueKeysWithValues: examples.map { ($0.name, $0) }),
                                exampleNames: ExampleNames(examplesFolder.files.filter(SiteInputs.isSequence)), pages: pages, home: home,
                                siteTitle: home?.title ?? "Rowmotion",
                                navigation: Navigation(pages: listedEntries), listed: listedEntries,
                                staticFiles: staticFiles, outputs: outputs, outputsByFoldedCase: folded(outputs))
        let sourced = pages.map { ($0.output, $0.source) } + staticFiles.map { ($0.path, siteFolder.path(of: $0.path)) }
            + examples.flatMap { [(OutputPaths.examplePath($0.name), examplesFolder.path(of: $0.name)),
                                  (OutputPaths.filmstripPath($0.name), examplesFolder.path(of: $0.name))] }
        diagnostics += caseCollisions(sourced)
        // With `--baseline`, the review's page and its folder of the baseline's filmstrips.
        let review = options.baseline == nil ? [:] : [OutputPaths.changes: "the review's page (--baseline)"]
        diagnostics += filesInsideFiles(sourced, made: ["index.html": "the site's home page", OutputPaths.searchIndex: "the site's search index"]
                                            .merging(review) { first, _ in first },
                                        folders: options.baseline == nil ? [:] : [OutputPaths.reviewFolder: "the review's folder of the baseline's filmstrips (--baseline)"])
        clock.lap("check the outputs' names")
        return inputs
    }

    /// The outputs the build makes itself: the pages', the index, the
    /// search index, each example's page and filmstrip.
    static func generatedOutputs(pages: [String], examples: [String]) -> Set<String> {
        Set(pages + ["index.html", OutputPaths.searchIndex] + examples.flatMap { [OutputPaths.examplePath($0), OutputPaths.filmstripPath($0)] })
    }

    /// The pages the navigation lists (all but the home page), in its
    /// order, or (not `sorted`) in theirs: the navigation orders them itself,
    /// and lists them alike either way.
    static func listed(_ pages: [LoadedPage], sorted: Bool = true) -> [Navigation.Listed] {
        // (Sorted as small values: a page is a large one to move.)
        let entries = pages.filter { $0.output != "index.html" }
            .map { page in
                (order: page.frontMatter.navigationOrder ?? .max, title: page.title,
                 listed: Navigation.Listed(output: page.output, title: page.frontMatter.linkTitle ?? page.title, order: page.frontMatter.navigationOrder,
                                           folder: page.folder, isSectionPage: page.isSectionPage))
            }
        guard sorted else { return entries.map(\.listed) }
        return entries.sorted { ($0.order, $0.title, $0.listed.output) < ($1.order, $1.title, $1.listed.output) }.map(\.listed)
    }

    /// Each output by its lowercased path: the first in byte order of
    /// those folded to one name (no sort: outputs that fold alike are
    /// rare, and only they are compared).
    static func folded(_ outputs: Set<String>) -> [String: String] {
        var byFoldedCase: [String: String] = [:]
        byFoldedCase.reserveCapacity(outputs.count)
        for output in outputs {
            let folded = OutputPaths.folded(output)
            if let earlier = byFoldedCase[folded], earlier.utf8.lexicographicallyPrecedes(output.utf8) { continue }
            byFoldedCase[folded] = output
        }
        return byFoldedCase
    }

    /// Outputs whose paths differ only in case (`A.md` beside `a.md`): on
    /// a file system that ignores case (macOS's, Windows') one would
    /// replace the other, so each is an error at the second one's source.
    static func caseCollisions(_ outputs: [(output: String, source: String)]) -> [Diagnostic] {
        // Grouped by folded name; only a group of more than one is sorted
        // (by bytes: the first keeps its name), and groups go in byte order.
        var first: [String: Int] = [:], shared: [String: [Int]] = [:]
        first.reserveCapacity(outputs.count)
        for (index, output) in outputs.enumerated() {
            let folded = OutputPaths.folded(output.output)
            if let earlier = first[folded] { shared[folded, default: [earlier]].append(index) } else { first[folded] = index }
        }
        var problems: [Diagnostic] = []
        for (_, group) in shared.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            let sorted = group.map { outputs[$0] }.sorted { $0.output.utf8.lexicographicallyPrecedes($1.output.utf8) }
            let earlier = sorted[0]
            for (output, source) in sorted.dropFirst() {
                guard earlier.source != source, earlier.output != output else { continue }
                problems.append(.error("output-collision", at: SourceLocation(file: source, line: 1, column: 1),
                                       "this file becomes '\(output)' and '\(earlier.source)' becomes '\(earlier.output)': they differ only in case, "
                                           + "and where case does not count (macOS, Windows) one would replace the other; rename one",
                                       notes: [Diagnostic.Note(location: SourceLocation(file: earlier.source, line: 1, column: 1), message: "the other file")]))
            }
        }
        return problems
    }

    /// Outputs inside a folder that is another output's file (a static
    /// `site/b.html/y.txt` beside the page `site/b.md`): a path cannot be
    /// both, and the write failed unlocated. Each is an error at the inner
    /// one's source; `made` are outputs the build makes without a source.
    static func filesInsideFiles(_ outputs: [(output: String, source: String)], made: [String: String],
                                 folders: [String: String] = [:]) -> [Diagnostic] {
        // Folded, as where case does not count a folder `B.html` is `b.html`;
        // each owner the output's index (what it is said only for a problem),
        // looked up by the folders' prefixes of the paths, no text copied.
        enum Owner { case made(String), output(Int) }
        var owners: [Substring: Owner] = [:]
        owners.reserveCapacity(outputs.count + made.count)
        for (output, what) in made { owners[OutputPaths.folded(output)[...]] = .made(what) }
        let foldedOutputs = outputs.map { OutputPaths.folded($0.output) }
        for (index, folded) in foldedOutputs.enumerated() where owners[folded[...]] == nil { owners[folded[...]] = .output(index) }
        func says(_ owner: Owner) -> String {
            switch owner {
            case .made(let what): return "is " + what
            case .output(let index): return "'\(outputs[index].source)' becomes"
            }
        }
        var problems: [Diagnostic] = []
        for ((output, source), folded) in zip(outputs, foldedOutputs) {
            // In a folder the build writes itself, or where it goes.
            if let (folder, what) = folders.first(where: { folded == $0.key.lowercased() || folded.hasPrefix($0.key.lowercased() + "/") }) {
                problems.append(.error("output-collision", at: SourceLocation(file: source, line: 1, column: 1),
                                       "this file becomes '\(output)', " + (folded == folder.lowercased() ? "" : "inside '\(folder)', ")
                                           + "which is \(what); rename it"))
                continue
            }
            for slash in folded.utf8.indices where folded.utf8[slash] == UInt8(ascii: "/") {
                guard let owner = owners[folded[..<slash]] else { continue }
                problems.append(.error("output-collision", at: SourceLocation(file: source, line: 1, column: 1),
                                       "this file becomes '\(output)', inside '\(output[..<slash])', which \(says(owner)); "
                                           + "a path cannot be both a file and a folder: rename one"))
                break
            }
        }
        return problems
    }

    /// Whether a file of the examples folder is a snapshot sequence.
    static func isSequence(_ path: String) -> Bool {
        SnapshotReader.extensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// The example files to read, by their path under the examples folder:
    /// every sequence file in it, one per page it becomes, decided in path
    /// order (collisions and diagnostics do not depend on threads). Each is
    /// read and diffed once; every page that shows it reuses that.
    static func exampleFiles(_ folder: InputFolder, diagnostics: inout [Diagnostic]) -> [String] {
        var chosen: [String] = []
        var exampleOutputs: [String: String] = [:]
        for name in folder.files where isSequence(name) {
            let path = folder.path(of: name)
            // a.yml, a.yaml and a.json would all be examples/a.html.
            let output = (name as NSString).deletingPathExtension.lowercased()
            if let first = exampleOutputs[output] {
                diagnostics.append(.error("output-collision", at: SourceLocation(file: path, line: 1, column: 1),
                                          "this example and '\(first)' both become the page examples/\((name as NSString).deletingPathExtension).html; rename one",
                                          notes: [Diagnostic.Note(location: SourceLocation(file: first, line: 1, column: 1), message: "the other example")]))
                continue
            }
            exampleOutputs[output] = path
            chosen.append(name)
        }
        return chosen
    }

    /// One example read and diffed, or the diagnostics that say why not.
    @Sendable static func loadExample(_ name: String, in folder: InputFolder) -> (example: LoadedExample?, diagnostics: [Diagnostic]) {
        let bytes: Result<[UInt8], FileContents.Failure>
        do throws(FileContents.Failure) { bytes = .success(try folder.read(name, limit: SnapshotLimits.standard.fileBytes)) } catch { bytes = .failure(error) }
        return loadExample(name, bytes: bytes, in: folder)
    }

    /// One example from the bytes read of it (or why they could not be).
    static func loadExample(_ name: String, bytes read: Result<[UInt8], FileContents.Failure>, in folder: InputFolder)
        -> (example: LoadedExample?, diagnostics: [Diagnostic]) {
        let path = folder.path(of: name)
        // Read once: the sequence and its key come from the same bytes,
        // under the size limit.
        let bytes: [UInt8]
        switch read {
        case .success(let read): bytes = read
        case .failure(let error):
            return (nil, [.error(error.tooLarge ? "file-too-large" : "unreadable-file", at: SourceLocation(file: path, line: 1, column: 1), error.message)])
        }
        var (sequence, found) = SnapshotReader.read(bytes: bytes, file: path)
        guard let sequence else { return (nil, found) }
        // The description is Markdown: held to what libcmark can parse in linear time.
        if let description = sequence.description, CMarkInput.tooManyOpenBrackets(description) != nil {
            found.append(.error("markdown-too-complex", at: SourceLocation(file: path, line: 1, column: 1), CMarkInput.message("example's description")))
            return (nil, found)
        }
        do throws(Diagnostic) {
            return (LoadedExample(name: name, sequence: sequence, changesets: try sequence.changesets(),
                                  sourceKey: Digest.sha256(bytes)), found)
        } catch {
            found.append(error)
            return (nil, found)
        }
    }
}

/// What loading read, kept by `serve`'s model (`BuildMemo`) for the next
/// load, which reads again only the files that changed.
struct LoadedFiles: Sendable {
    var theme: Theme?
    /// Each page and example as loaded, by its path under its folder, with
    /// what loading it reported.
    var pages: [String: Loaded<LoadedPage>] = [:]
    var examples: [String: Loaded<LoadedExample>] = [:]
    var staticFiles: [StaticFiles.File]?
    var staticDiagnostics: [Diagnostic] = []
    /// The outputs the build generated, which a static file may not take.
    var staticGenerated: Set<String> = []

    struct Loaded<Value: Sendable>: Sendable {
        var value: Value?
        var diagnostics: [Diagnostic]
    }

    /// Whether `path` (an input as builds name it) may have changed: with no
    /// list of changes, every file may have.
    static func mayHaveChanged(_ path: String, _ changed: Set<String>?) -> Bool {
        changed?.contains(path) ?? true
    }

    /// Whether some changed input lies in `folder` (as builds name it).
    static func hasChanges(in folder: InputFolder, _ changed: Set<String>?) -> Bool {
        guard let changed else { return true }
        let prefix = folder.name.hasSuffix("/") ? folder.name : folder.name + "/"
        return changed.contains { $0 == folder.name || $0.hasPrefix(prefix) }
    }
}
