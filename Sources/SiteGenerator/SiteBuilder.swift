import Diagnostics
import SnapshotFormat
import Dispatch
import Foundation
import ListDiff

/// What `rowmotion build` is asked to do.
public struct BuildOptions: Sendable {
    public var site = "site"
    public var examples = "examples"
    public var templates = "templates"
    public var out = "_site"
    public var baseURL = "/"
    public var drafts = false
    public var strict = false
    /// Where the content-hash cache of the previous build lives (nil: none).
    public var cache: String?
    /// Whether a build whose inputs did not change at all may skip everything
    /// (off when the caller needs the full summary of a report).
    public var allowShortcut = true
    /// The input folders named on the command line, by flag (`site`,
    /// `examples`, `templates`): each must exist. Unnamed ones may be absent.
    public var namedFolders: [String: String] = [:]
    /// Told when each phase ends (name, milliseconds) and, while pages
    /// render, how many are done of how many.
    public var progress: (@Sendable (BuildEvent) -> Void)?

    public init() {}
}

/// What a build reports as it goes, for `--verbose` and progress lines.
public enum BuildEvent: Sendable {
    case phase(String, milliseconds: Double)
    case rendered(Int, of: Int)
}

/// Times the phases of a build.
struct PhaseClock {
    let report: (@Sendable (BuildEvent) -> Void)?
    var last = ContinuousClock.now

    mutating func lap(_ name: String) {
        let now = ContinuousClock.now
        let elapsed = last.duration(to: now)
        last = now
        report?(.phase(name, milliseconds: Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15))
    }
}

/// A built site, not yet written: its files and what was found on the way.
public struct BuiltSite {
    public var files: [String: [UInt8]] = [:]
    public var diagnostics: [Diagnostic] = []
    public var pageCount = 0
    public var exampleCount = 0
    /// Each page's source and output, in output order.
    public var pages: [(source: String, output: String, title: String)] = []
    /// Each example's steps: label, batch count and row change counts.
    public var examples: [(name: String, title: String, output: String, steps: [StepSummary])] = []
    /// How many outputs were taken from the previous build unchanged.
    public var cachedCount = 0
    /// Whether every output came from the previous build, so nothing needs writing.
    public var unchanged = false
    var cache = BuildCache()

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Markdown pages and snapshot sequences to a static site: load → render →
/// write. The same inputs give byte-identical output whatever the order of
/// files on disk or of the threads that render them.
public enum SiteBuilder {
    /// Builds the site in memory.
    public static func build(_ options: BuildOptions) -> BuiltSite {
        var site = BuiltSite()
        var clock = PhaseClock(report: options.progress)
        let manager = FileManager.default
        site.diagnostics = InputFolders.problems(options)
        if site.hasErrors { return site }
        // Nothing changed since a build without diagnostics, and its site is
        // intact: there is nothing to parse, render or write.
        let inputKey = options.cache.map { _ in
            BuildCache.inputKey(folders: [options.site, options.examples, options.templates],
                                extra: [BuildCache.format, options.baseURL, String(options.drafts)])
        }
        let previousBuild = BuildCache.load(from: options.cache)
        if options.allowShortcut, let inputKey, previousBuild.cleanInputKey == inputKey,
           manager.fileExists(atPath: (options.out as NSString).appendingPathComponent(SiteWriter.marker)),
           previousBuild.entries.keys.allSatisfy({ manager.fileExists(atPath: (options.out as NSString).appendingPathComponent($0)) }) {
            site.unchanged = true
            site.pageCount = previousBuild.pageCount
            site.exampleCount = previousBuild.exampleCount
            site.cachedCount = previousBuild.entries.count
            site.cache = previousBuild
            clock.lap("check inputs")
            return site
        }
        let templates = manager.fileExists(atPath: options.templates) ? options.templates : nil
        let theme: Theme
        do { theme = try Theme.load(projectTemplates: templates) } catch {
            site.diagnostics.append(error)
            return site
        }

        // Examples, by their path under examples/.
        let examplesURL = URL(fileURLWithPath: options.examples)
        // Each example is read and diffed once; every page that shows it reuses that.
        var examples: [Example] = []
        let found = manager.fileExists(atPath: options.examples) ? SequenceFiles.collect([options.examples]).found : []
        var exampleOutputs: [String: String] = [:]
        for path in found {
            let name = String(path.dropFirst(options.examples.count).drop { $0 == "/" })
            guard InputFolders.staysInside(path, folder: options.examples) else {
                site.diagnostics.append(InputFolders.outside(path, folder: options.examples))
                continue
            }
            // a.yml, a.yaml and a.json would all be examples/a.html.
            let output = (name as NSString).deletingPathExtension.lowercased()
            if let first = exampleOutputs[output] {
                site.diagnostics.append(.error("output-collision", at: SourceLocation(file: path, line: 1, column: 1),
                                               "this example and '\(first)' both become the page examples/\((name as NSString).deletingPathExtension).html; rename one",
                                               notes: [Diagnostic.Note(location: SourceLocation(file: first, line: 1, column: 1), message: "the other example")]))
                continue
            }
            exampleOutputs[output] = path
            let (sequence, diagnostics) = SnapshotReader.read(path: path)
            site.diagnostics.append(contentsOf: diagnostics)
            guard let sequence else { continue }
            do {
                let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
                examples.append(Example(name: name, sequence: sequence, changesets: try sequence.changesets(), sourceKey: BuildCache.key([text])))
            } catch {
                site.diagnostics.append(error)
            }
        }
        let byName = Dictionary(uniqueKeysWithValues: examples.map { ($0.name, $0) })
        clock.lap("load theme and examples")

        // Pages.
        var pages = loadPages(options, diagnostics: &site.diagnostics)
        pages.removeAll { $0.frontMatter.draft && !options.drafts }
        let home = pages.first { $0.output == "index.html" }
        let siteTitle = home?.title ?? "Rowmotion"
        let listed = pages.filter { $0.output != "index.html" }
            .sorted { ($0.frontMatter.order ?? .max, $0.title, $0.output) < ($1.frontMatter.order ?? .max, $1.title, $1.output) }
        let siteNavigation = Navigation(pages: listed.map { (output: $0.output, title: $0.title) })
        let generated = Set(pages.map(\.output) + ["index.html"]
                            + examples.flatMap { ["examples/" + htmlName($0.name), "examples/" + filmstripName($0.name)] })
        let staticFiles = StaticFiles.load(site: options.site, generated: generated, diagnostics: &site.diagnostics)
        for file in staticFiles { site.files[file.path] = file.bytes }
        let outputs = generated.union(staticFiles.map(\.path))

        let stylesheetText = theme.assets["rowmotion.css"] ?? ""
        let scriptText = theme.assets["rowmotion.js"] ?? ""
        let stylesheet = "assets/rowmotion.\(contentHash(stylesheetText)).css"
        let script = "assets/rowmotion.\(contentHash(scriptText)).js"
        site.files[stylesheet] = Array(stylesheetText.utf8)
        site.files[script] = Array(scriptText.utf8)

        // With the default base URL every link is relative, so pages open from
        // disk; another base (a GitHub Pages sub-path) makes them absolute.
        let base = options.baseURL == "/" || options.baseURL.isEmpty ? nil
            : (options.baseURL.hasSuffix("/") ? options.baseURL : options.baseURL + "/")
        func root(of output: String) -> String { base ?? String(repeating: "../", count: output.split(separator: "/").count - 1) }
        func plainChrome(for output: String) -> Chrome {
            let root = root(of: output)
            return Chrome(siteTitle: siteTitle, root: root, stylesheet: stylesheet, script: script,
                          nav: siteNavigation.items(current: output, root: root))
        }
        clock.lap("load pages")
        // The navigation rendered once per folder rather than once per page.
        let navigationOutputs = pages.map(\.output) + examples.map { "examples/" + htmlName($0.name) } + ["index.html"]
        let navigationMemo = NavigationMemo(outputs: navigationOutputs, navigation: siteNavigation, theme: theme, root: root(of:), chrome: plainChrome)
        func chrome(for output: String) -> Chrome {
            var chrome = plainChrome(for: output)
            chrome.navigationHTML = navigationMemo.html[output]
            return chrome
        }

        // Render pages on every core; each result lands in its own slot.
        clock.lap("render the navigation")
        // Everything every output depends on: the theme, the options, the
        // navigation (every page's title and order) and the list of examples.
        let previous = previousBuild
        let globalKey = BuildCache.key([BuildCache.format, options.baseURL, String(options.drafts), siteTitle]
            + Theme.templateNames.map { theme.texts[$0 + ".mustache"] ?? "" } + Theme.assetNames.map { theme.assets[$0] ?? "" }
            + pages.map { "\($0.output)|\($0.title)|\($0.frontMatter.order ?? -1)" } + examples.map(\.name))
        let exampleKeys = Dictionary(uniqueKeysWithValues: examples.map { ($0.name, $0.sourceKey) })
        @Sendable func pageKey(_ page: Page, examples shown: [String]) -> String {
            BuildCache.key([globalKey, page.output, page.sourceKey] + shown.map { "\($0)=\(exampleKeys[$0] ?? "missing")" })
        }
        let outputFolder = URL(fileURLWithPath: options.out)
        @Sendable func reusable(_ output: String, key: String) -> [UInt8]? {
            guard previous.entries[output]?.key == key,
                  let data = FileManager.default.contents(atPath: outputFolder.appendingPathComponent(output).path) else { return nil }
            return [UInt8](data)
        }
        let results = ResultSlots<RenderedPage>(count: pages.count)
        let toRender = pages
        let chromes = pages.map { chrome(for: $0.output) }
        let done = ResultSlots<Int>(count: 1)
        done[0] = 0
        DispatchQueue.concurrentPerform(iterations: toRender.count) { index in
            let page = toRender[index]
            let isHome = page.output == "index.html"
            if !isHome, let entry = previous.entries[page.output], let bytes = reusable(page.output, key: pageKey(page, examples: entry.examples)) {
                results[index] = RenderedPage(html: String(decoding: bytes, as: UTF8.self), diagnostics: [],
                                              examples: Set(entry.examples), links: entry.links, cached: true)
            } else {
                results[index] = render(page: page, theme: theme, examples: byName, examplesURL: examplesURL,
                                        outputs: outputs, chrome: chromes[index], options: options, isHome: isHome)
            }
            if let progress = options.progress {
                let count = done.increment(0)
                if count % 50 == 0 || count == toRender.count { progress(.rendered(count, of: toRender.count)) }
            }
        }
        clock.lap("render pages")
        var referenced = Set<String>()
        var homeContent = ""
        var cache = BuildCache()
        for (page, result) in zip(pages, results.values) {
            site.diagnostics.append(contentsOf: result.diagnostics)
            referenced.formUnion(result.examples)
            if page.output == "index.html" { homeContent = result.html; continue }
            site.files[page.output] = Array(result.html.utf8)
            if result.cached { site.cachedCount += 1 }
            if result.diagnostics.isEmpty {
                let shown = result.examples.sorted()
                cache.entries[page.output] = BuildCache.Entry(key: pageKey(page, examples: shown), examples: shown,
                                                              links: result.links)
            }
        }

        // Example pages, each with its filmstrip beside it, rendered on every
        // core (or reused), then gathered in name order.
        let exampleChromes = examples.map { chrome(for: "examples/" + htmlName($0.name)) }
        let exampleResults = ResultSlots<ExampleOutput>(count: examples.count)
        let toRenderExamples = examples
        DispatchQueue.concurrentPerform(iterations: toRenderExamples.count) { index in
            let example = toRenderExamples[index]
            let output = "examples/" + htmlName(example.name), filmstrip = "examples/" + filmstripName(example.name)
            let key = BuildCache.key([globalKey, output, example.sourceKey])
            if let bytes = reusable(output, key: key), let picture = reusable(filmstrip, key: key) {
                exampleResults[index] = ExampleOutput(key: key, html: bytes, svg: picture, problems: [], cached: true)
                return
            }
            do throws(Diagnostic) {
                let (html, svg, problems) = try examplePage(example, theme: theme, chrome: exampleChromes[index])
                exampleResults[index] = ExampleOutput(key: key, html: Array(html.utf8), svg: Array(svg.utf8), problems: problems)
            } catch {
                exampleResults[index] = ExampleOutput(key: key, error: error)
            }
        }
        for (example, result) in zip(examples, exampleResults.values) {
            let name = example.name
            let output = "examples/" + htmlName(name), filmstrip = "examples/" + filmstripName(name)
            let location = SourceLocation(file: "\(options.examples)/\(name)", line: 1, column: 1)
            if !referenced.contains(name) {
                site.diagnostics.append(.warning("unreferenced-example", at: location, "no page shows this example in a rowmotion block"))
            }
            if let error = result.error {
                site.diagnostics.append(error)
                continue
            }
            site.files[output] = result.html
            site.files[filmstrip] = result.svg
            if result.cached { site.cachedCount += 1 }
            if result.problems.isEmpty {
                cache.entries[output] = BuildCache.Entry(key: result.key, examples: [])
                cache.entries[filmstrip] = BuildCache.Entry(key: result.key, examples: [])
            }
            site.diagnostics += result.problems.map(\.diagnostic)
        }

        clock.lap("render example pages")
        // The home page: site/index.md, if any, and the example gallery.
        let chromeHome = chrome(for: "index.html")
        let cards = examples.map { example in
            CardView(title: example.sequence.title, href: "examples/" + htmlName(example.name),
                     stepCount: example.sequence.steps.count, sparkline: sparkline(example.changesets))
        }
        let indexKey = BuildCache.key([globalKey, "index.html", home?.sourceKey ?? ""] + examples.map(\.sourceKey))
        let homeClean = !(home.map { page in site.diagnostics.contains { $0.location.file == page.source } } ?? false)
        if let bytes = reusable("index.html", key: indexKey), homeClean {
            site.files["index.html"] = bytes
            site.cachedCount += 1
            cache.entries["index.html"] = BuildCache.Entry(key: indexKey, examples: [])
        } else {
            do {
                let index = IndexContext(chrome: chromeHome, title: home?.title ?? siteTitle, description: home?.frontMatter.description,
                                         content: homeContent, examples: cards)
                site.files["index.html"] = Array(try theme.render("index", index).utf8)
                if homeClean { cache.entries["index.html"] = BuildCache.Entry(key: indexKey, examples: []) }
            } catch {
                site.diagnostics.append(error)
            }
        }
        // Links to an element of a page, now that every page is final: the
        // ids are read from the HTML, so those of headings, of raw HTML in
        // the Markdown and of the theme all count.
        var targets: [String: (source: String, ids: Set<String>)] = [:]
        for page in pages { targets[page.output] = (page.source, elementIDs(in: site.files[page.output] ?? [])) }
        for example in examples {
            let output = "examples/" + htmlName(example.name)
            targets[output] = ("\(options.examples)/\(example.name)", elementIDs(in: site.files[output] ?? []))
        }
        for (page, result) in zip(pages, results.values) {
            site.diagnostics.append(contentsOf: brokenFragments(result.links, from: page, targets: targets))
        }
        site.pageCount = pages.count
        site.exampleCount = examples.count
        site.cache = cache
        site.cache.pageCount = pages.count
        site.cache.exampleCount = examples.count
        // Recorded only for a build with nothing to report.
        site.cache.cleanInputKey = site.diagnostics.isEmpty ? inputKey : nil
        // Nothing to write when every output came from the previous build and
        // the site on disk has exactly these files.
        let htmlOutputs = site.files.keys.filter { $0.hasSuffix(".html") }
        site.unchanged = site.cachedCount == htmlOutputs.count && previous.entries == cache.entries
            && site.files.allSatisfy { path, bytes in
                path.hasPrefix("assets/") ? FileManager.default.fileExists(atPath: outputFolder.appendingPathComponent(path).path) : true
            }
            && (FileManager.default.enumerator(atPath: outputFolder.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".html") || $0.hasSuffix(".svg") || $0.hasPrefix("assets/") && $0.contains(".") }.count == site.files.count
        site.pages = pages.map { ($0.source, $0.output, $0.title) }.sorted { $0.output < $1.output }
        site.examples = examples.map { example in
            (example.name, example.sequence.title, "examples/" + htmlName(example.name),
             zip(example.sequence.steps.dropFirst(), example.changesets).map { StepSummary(label: $0.label, changeset: $1) })
        }
        clock.lap("render the index")
        // A theme problem shows up once per page: say it once.
        var seen = Set<Diagnostic>()
        site.diagnostics = site.diagnostics.filter { seen.insert($0).inserted }
        return site
    }

    /// Builds and, when nothing failed (and, under `--strict`, nothing
    /// warned), writes the site atomically.
    public static func buildAndWrite(_ options: BuildOptions) -> (site: BuiltSite, written: (written: Int, reused: Int)?) {
        var site = build(options)
        let failed = site.hasErrors || (options.strict && !site.diagnostics.isEmpty)
        guard !failed else { return (site, nil) }
        if site.unchanged {
            if let path = options.cache { site.cache.save(to: path) }
            return (site, (0, site.cachedCount))
        }
        do {
            var clock = PhaseClock(report: options.progress)
            let written = try SiteWriter.write(site.files, to: options.out)
            clock.lap("write")
            if let path = options.cache { site.cache.save(to: path) }
            return (site, written)
        } catch {
            site.diagnostics.append(error)
            return (site, nil)
        }
    }

    // MARK: Pages

    struct Page: Sendable {
        var source: String
        var output: String
        var title: String
        var frontMatter: FrontMatter
        var body: String
        var bodyLineOffset: Int
        var sourceKey: String
    }

    struct RenderedPage: Sendable {
        var html = ""
        var diagnostics: [Diagnostic] = []
        var examples: Set<String> = []
        /// Its links to an element of a page (`page.md#id`, `#id`).
        var links: [FragmentLink] = []
        /// Taken from the previous build.
        var cached = false
    }

    static func loadPages(_ options: BuildOptions, diagnostics: inout [Diagnostic]) -> [Page] {
        let manager = FileManager.default
        guard manager.fileExists(atPath: options.site) else { return [] }
        let relative = (manager.enumerator(atPath: options.site)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".md") }.sorted()
        // Read on every core; each page's result lands in its own slot, and
        // pages and diagnostics are gathered in path order.
        let loaded = ResultSlots<(page: Page?, diagnostics: [Diagnostic])>(count: relative.count)
        DispatchQueue.concurrentPerform(iterations: relative.count) { index in
            var found: [Diagnostic] = []
            let page = loadPage(relative[index], site: options.site, diagnostics: &found)
            loaded[index] = (page, found)
        }
        var pages: [Page] = []
        for result in loaded.values {
            diagnostics.append(contentsOf: result.diagnostics)
            if let page = result.page { pages.append(page) }
        }
        return pages
    }

    /// One page of `site`, at `path` under it, or nil with its error.
    static func loadPage(_ path: String, site: String, diagnostics: inout [Diagnostic]) -> Page? {
        let file = (site as NSString).appendingPathComponent(path)
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard InputFolders.staysInside(file, folder: site) else {
            diagnostics.append(InputFolders.outside(file, folder: site))
            return nil
        }
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(file, limit: SnapshotLimits.standard.fileBytes)
        } catch {
            diagnostics.append(.error("unreadable-file", at: start, error.message))
            return nil
        }
        if let offset = SnapshotReader.firstInvalidUTF8Offset(bytes) {
            diagnostics.append(.error("invalid-utf8", at: SnapshotReader.location(ofOffset: offset, in: bytes, file: file),
                                      "the page is not valid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))"))
            return nil
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let (yaml, body, offset) = FrontMatter.split(text) else {
            diagnostics.append(.error("front-matter", at: start, "front matter starts with '---' but is never closed"))
            return nil
        }
        let matter = yaml.map { FrontMatter.read($0, file: file, diagnostics: &diagnostics) } ?? FrontMatter()
        let heading = firstHeading(in: body)
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return Page(source: file, output: String(path.dropLast(3)) + ".html",
                    title: matter.title ?? heading ?? name, frontMatter: matter, body: body, bodyLineOffset: offset,
                    sourceKey: BuildCache.key([text]))
    }

    /// An example, read and diffed.
    struct Example: Sendable {
        var name: String
        var sequence: SnapshotSequence
        var changesets: [Changeset<String, Record<String>>]
        /// A hash of the file's text, for the build cache.
        var sourceKey = ""
    }

    static func render(page: Page, theme: Theme, examples: [String: Example], examplesURL: URL,
                       outputs: Set<String>, chrome: Chrome, options: BuildOptions, isHome: Bool) -> RenderedPage {
        var result = RenderedPage()
        let directory = (page.output as NSString).deletingLastPathComponent
        var links: [FragmentLink] = []
        let content = MarkdownRenderer.render(page.body, lineOffset: page.bodyLineOffset, player: { block in
            let (spec, diagnostics) = DemoSpec.read(block, file: page.source, examples: examplesURL)
            result.diagnostics.append(contentsOf: diagnostics)
            guard let spec else { return nil }
            let example: Example
            switch spec.source {
            case .inline(let inline):
                do throws(Diagnostic) {
                    example = Example(name: "inline", sequence: inline, changesets: try inline.changesets(), sourceKey: "")
                } catch {
                    result.diagnostics.append(error)
                    return nil
                }
            case .example(let path):
                guard let loaded = examples[path] else {
                    result.diagnostics.append(.error("example-invalid", at: SourceLocation(file: page.source, line: block.firstLine, column: 1),
                                                     "the example '\(path)' has errors (see above)"))
                    return nil
                }
                example = loaded
                result.examples.insert(path)
            }
            do throws(Diagnostic) {
                if spec.compare == "strategies" { return try strategyPanes(example, spec: spec, theme: theme) }
                return try theme.render("player", playerView(example, spec: spec))
            } catch {
                result.diagnostics.append(error)
                return nil
            }
        }, link: { url, line in
            // Relative links to pages: `.md` becomes `.html`, and the target must exist.
            guard !url.contains(":"), !url.hasPrefix("/"), !url.isEmpty else { return nil }
            let parts = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let target = String(parts[0])
            let rewritten = target.hasSuffix(".md") ? String(target.dropLast(3)) + ".html" : target
            let resolved = rewritten.isEmpty ? page.output : normalize(directory.isEmpty ? rewritten : directory + "/" + rewritten)
            if !rewritten.isEmpty, !outputs.contains(resolved), !resolved.hasPrefix("assets/") {
                result.diagnostics.append(.warning("broken-link", at: SourceLocation(file: page.source, line: max(line, 1), column: 1),
                                                   "link to '\(target)', which no page of the site produces"))
            } else if parts.count == 2, !parts[1].isEmpty {
                // Its heading is checked once every page's headings are known.
                links.append(FragmentLink(page: resolved, fragment: String(parts[1]).removingPercentEncoding ?? String(parts[1]), line: line))
            }
            return rewritten == target ? nil : url.replacingOccurrences(of: target, with: rewritten)
        })
        result.links = links
        if isHome {
            result.html = content
            return result
        }
        do throws(Diagnostic) {
            result.html = try theme.render("page", PageContext(chrome: chrome, title: page.title, description: page.frontMatter.description, content: content))
        } catch {
            result.diagnostics.append(error)
        }
        return result
    }

    /// Links to an element that the page they lead to does not have.
    /// Pages and examples are checked; static files are not.
    static func brokenFragments(_ links: [FragmentLink], from page: Page,
                                targets: [String: (source: String, ids: Set<String>)]) -> [Diagnostic] {
        links.compactMap { link in
            guard let (source, ids) = targets[link.page], !ids.contains(link.fragment) else { return nil }
            let which = link.page == page.output ? "this page" : source
            return .warning("broken-link", at: SourceLocation(file: page.source, line: max(link.line, 1), column: 1),
                            "link to '#\(link.fragment)', which is not a heading or element id of \(which)"
                            + KeySuggestions.hint(for: link.fragment, in: ids.sorted()))
        }
    }

    /// The values of the `id` attributes in a page (`id="…"` or `id='…'`,
    /// after whitespace, so `data-id` and `aria-…id` do not count).
    static func elementIDs(in html: [UInt8]) -> Set<String> {
        var ids = Set<String>()
        var index = 1
        let count = html.count
        while index + 4 < count {
            // i d = quote, after a space, tab or newline
            if html[index] == UInt8(ascii: "i"), html[index + 1] == UInt8(ascii: "d"), html[index + 2] == UInt8(ascii: "="),
               [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t")].contains(html[index - 1]),
               html[index + 3] == UInt8(ascii: "\"") || html[index + 3] == UInt8(ascii: "'") {
                let quote = html[index + 3]
                var end = index + 4
                while end < count, html[end] != quote, html[end] != UInt8(ascii: ">") { end += 1 }
                if end < count, html[end] == quote { ids.insert(String(decoding: html[(index + 4)..<end], as: UTF8.self)) }
                index = end
            }
            index += 1
        }
        return ids
    }

    /// The text of the first `# ` heading line, without splitting the page.
    static func firstHeading(in body: String) -> String? {
        var rest = Substring(body)
        while !rest.isEmpty {
            let end = rest.firstIndex(of: "\n") ?? rest.endIndex
            let line = rest[..<end]
            if line.hasPrefix("# ") { return String(line.dropFirst(2)) }
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
        }
        return nil
    }

    /// `a/./b/../c` to `a/c`.
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", !parts.isEmpty { parts.removeLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    static func htmlName(_ exampleName: String) -> String {
        (exampleName as NSString).deletingPathExtension + ".html"
    }

    /// The example's filmstrip, beside its page.
    static func filmstripName(_ exampleName: String) -> String {
        (exampleName as NSString).deletingPathExtension + ".svg"
    }

    // MARK: Examples

    /// `compare: strategies`: the same example replayed side by side by
    /// ListDiff's minimal moves, the offset test most Heckel-style diffs use,
    /// deletes and inserts only, and `reloadData()`; each pane says how many
    /// moves it makes.
    static func strategyPanes(_ example: Example, spec: DemoSpec, theme: Theme) throws(Diagnostic) -> String {
        let panes: [(strategy: DiffStrategy?, name: String, label: String)] = [
            (.minimalMoves, "minimalMoves", "ListDiff: minimal moves"),
            (.offsets, "offsets", "Offsets (Heckel-style)"),
            (.deletesAndInserts, "deletesAndInserts", "Deletes and inserts only"),
            (nil, "reloadData", "reloadData()"),
        ]
        var html = "<div class=\"rowmotion-strategies\" data-rowmotion-compare=\"strategies\">\n"
        for pane in panes {
            var shown = example
            if let strategy = pane.strategy, strategy != .minimalMoves {
                shown.changesets = try example.sequence.changesets(strategy: strategy)
            }
            var paneSpec = spec
            paneSpec.compare = nil
            var view = playerView(shown, spec: paneSpec)
            let moves = pane.strategy == nil ? shown.changesets.map { _ in 0 } : shown.changesets.map(\.moveCount)
            view.strategy = pane.name
            view.strategyLabel = pane.label
            view.moves = moves.map(String.init).joined(separator: ",")
            let total = moves.reduce(0, +)
            view.moveSummary = pane.strategy == nil ? "no animation, every row reloaded"
                : "\(total) move\(total == 1 ? "" : "s") in \(moves.count) step\(moves.count == 1 ? "" : "s")"
            html += try theme.render("player", view)
        }
        return html + "</div>\n"
    }

    static func playerView(_ example: Example, spec: DemoSpec?) -> PlayerView {
        var sequence = example.sequence
        if let animation = spec?.animation { sequence.animations = RowAnimations(insert: animation, delete: animation, reload: animation) }
        return PlayerView(name: example.name, title: sequence.title, step: min(spec?.step ?? 0, sequence.steps.count - 1),
                          autoplay: spec?.autoplay ?? false, compare: spec?.compare,
                          initialHTML: staticList(sequence.steps[0].snapshot),
                          data: PlayerData.json(for: sequence, changesets: example.changesets, name: example.name))
    }

    /// The first snapshot as HTML, so a page shows the list before (and
    /// without) its script. Row text is escaped: it never becomes markup.
    static func staticList(_ snapshot: Snapshot<String, Record<String>>) -> String {
        var html = ""
        for section in snapshot.sections {
            let label = section.header.flatMap { $0.isEmpty ? nil : $0 } ?? "Section \(section.id)"
            html += "<div class=\"rowmotion-section\" role=\"list\" aria-label=\"\(HTMLText.escape(label))\" data-section-id=\"\(HTMLText.escape(section.id))\">"
            if let header = section.header { html += "<h3 class=\"rowmotion-header\" role=\"presentation\">\(HTMLText.escape(header))</h3>" }
            for row in section.rows {
                html += "<div class=\"rowmotion-row\" role=\"listitem\" data-item-id=\"\(HTMLText.escape(row.id))\">"
                let fields = row.fields.isEmpty ? [Field("id", .string(row.id))] : row.fields
                for (index, field) in fields.enumerated() {
                    html += "<span class=\"field\(index == 0 ? " primary" : "")\" data-field=\"\(HTMLText.escape(field.name))\">"
                        + HTMLText.escape(field.value.description) + "</span>"
                }
                html += "</div>"
            }
            if let footer = section.footer { html += "<p class=\"footer\" role=\"presentation\">\(HTMLText.escape(footer))</p>" }
            html += "</div>\n"
        }
        return html
    }

    /// The example's page, its filmstrip, and any UIKit rule problems its
    /// batches have.
    static func examplePage(_ example: Example, theme: Theme, chrome: Chrome) throws(Diagnostic) -> (html: String, svg: String, problems: [RuleViolation]) {
        let sequence = example.sequence
        let report = DiffReport(file: example.name, sequence: sequence, changesets: example.changesets)
        var problems: [String] = []
        let steps = report.steps.map { step -> StepView in
            problems.append(contentsOf: step.diagnostics)
            let rowCounts = step.changeset.rowCounts
            var counts: [String] = []
            for (label, count) in [("inserted", rowCounts.inserted), ("deleted", rowCounts.deleted),
                                   ("moved", rowCounts.moved), ("reloaded", rowCounts.reloaded)] where count > 0 {
                counts.append("\(count) \(label)")
            }
            let batches = step.changeset.stages.enumerated().map { number, stage in
                BatchView(number: number + 1, explanation: DiffReport.explanation(of: stage.role),
                          calls: DiffReport.calls(for: stage.batch, animations: sequence.animations).joined(separator: "\n"))
            }
            return StepView(number: step.to, label: step.label, counts: counts.isEmpty ? "no row changes" : counts.joined(separator: ", "),
                            deferred: batches.count > 1, batchCount: batches.count, batches: batches)
        }
        let description = sequence.description.map(MarkdownRenderer.renderData) ?? ""
        let context = ExampleContext(
            chrome: chrome, title: sequence.title, description: nil, descriptionHTML: description,
            player: playerView(example, spec: nil),
            initialLabel: sequence.steps[0].label, initialRows: sequence.steps[0].snapshot.rowCount, steps: steps,
            validation: problems.isEmpty ? "Every batch passes UIKit's batch-update rules."
                                         : "UIKit rule problems: " + problems.joined(separator: "; "),
            filmstrip: RelativeURL.safe((filmstripName(example.name) as NSString).lastPathComponent))
        return (try theme.render("example", context), Filmstrip().svg(for: report), report.violations)
    }

    /// A small inline SVG: per step, stacked bars of inserts, deletes, moves
    /// and reloads.
    static func sparkline(_ changesets: [Changeset<String, Record<String>>]) -> String {
        let counts = changesets.map { changeset -> [Int] in
            let rows = changeset.rowCounts
            return [rows.inserted, rows.deleted, rows.moved, rows.reloaded]
        }
        let tallest = max(counts.map { $0.reduce(0, +) }.max() ?? 1, 1)
        let width = max(counts.count * 8, 8), height = 24
        var svg = "<svg class=\"sparkline\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"changes per step\">"
        for (step, values) in counts.enumerated() {
            var top = height
            for (kind, value) in zip(["insert", "delete", "move", "reload"], values) where value > 0 {
                let barHeight = max(1, value * height / tallest)
                top -= barHeight
                svg += "<rect class=\"\(kind)\" x=\"\(step * 8)\" y=\"\(top)\" width=\"6\" height=\"\(barHeight)\"/>"
            }
        }
        return svg + "</svg>"
    }

    /// The cache file name for an output folder.
    public static func cacheName(for output: String) -> String { "site-" + BuildCache.key([output]) + ".cache" }

    /// FNV-1a, 64 bits, as 16 hex digits: a stable content hash for asset names.
    static func contentHash(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// One step of an example, counted.
public struct StepSummary: Sendable {
    public var label: String
    public var batches: Int
    public var inserted = 0, deleted = 0, moved = 0, reloaded = 0

    init(label: String, changeset: Changeset<String, Record<String>>) {
        self.label = label
        batches = changeset.stages.count
        let counts = changeset.rowCounts
        (inserted, deleted, moved, reloaded) = (counts.inserted, counts.deleted, counts.moved, counts.reloaded)
    }
}

extension BuiltSite {
    /// The machine-readable summary `rowmotion build --report` writes.
    public var reportJSON: String {
        func string(_ text: String) -> String { JSONText.string(text) }
        let pageList = pages.map { "{\"source\": \(string($0.source)), \"output\": \(string($0.output)), \"title\": \(string($0.title))}" }
        let exampleList = examples.map { example in
            let steps = example.steps.map { step in
                "{\"label\": \(string(step.label)), \"batches\": \(step.batches), \"inserted\": \(step.inserted), "
                    + "\"deleted\": \(step.deleted), \"moved\": \(step.moved), \"reloaded\": \(step.reloaded)}"
            }
            return "{\"example\": \(string(example.name)), \"title\": \(string(example.title)), \"output\": \(string(example.output)), "
                + "\"stepCount\": \(example.steps.count + 1), \"steps\": [\(steps.joined(separator: ", "))]}"
        }
        let diagnosticList = DiagnosticReport(diagnostics).sorted.map { diagnostic in
            "{\"severity\": \(string(diagnostic.severity.rawValue)), \"id\": \(string(diagnostic.id)), "
                + "\"file\": \(string(diagnostic.location.file)), \"line\": \(diagnostic.location.line), "
                + "\"column\": \(diagnostic.location.column), \"message\": \(string(diagnostic.message))}"
        }
        return "{\"pages\": [\(pageList.joined(separator: ",\n  "))],\n \"examples\": [\(exampleList.joined(separator: ",\n  "))],\n"
            + " \"diagnostics\": [\(diagnosticList.joined(separator: ",\n  "))]}\n"
    }
}

/// An example page and its filmstrip as one worker rendered (or reused) them.
struct ExampleOutput: Sendable {
    var key: String
    var html: [UInt8] = []
    var svg: [UInt8] = []
    var problems: [RuleViolation] = []
    var cached = false
    var error: Diagnostic?
}

/// Slots that parallel workers fill, one each, read once all have finished.
final class ResultSlots<Value>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    subscript(index: Int) -> Value? {
        get { lock.withLock { slots[index] } }
        set { lock.withLock { slots[index] = newValue } }
    }

    var values: [Value] { lock.withLock { slots.map { $0! } } }

    /// Adds one to an integer slot and returns the new value.
    func increment(_ index: Int) -> Int where Value == Int {
        lock.withLock {
            slots[index] = (slots[index] ?? 0) + 1
            return slots[index]!
        }
    }
}
