import BuildGraph
import Diagnostics
import Foundation
import ListDiff
import ProjectFiles
import Reports
import SnapshotFormat

/// A built site, not yet written: its files (in memory, or put in a folder
/// beside the site until it is written) and what was found on the way.
public struct BuiltSite {
    /// The site's files, when they are kept in memory (`SiteBuilder.build`
    /// with no cache; the command line's builds put them on disk).
    public var files: [String: [UInt8]] = [:]
    public var diagnostics: [Diagnostic] = []
    public var pageCount = 0
    public var exampleCount = 0
    /// Each page's source and output, in output order, with a hash of its text.
    public var pages: [(source: String, output: String, title: String, hash: String)] { report.pages.map { ($0.source, $0.output, $0.title, $0.hash) } }
    /// The SHA-256 of each theme file.
    public var theme: [String: String] { report.theme }
    /// The theme's stylesheet, for a review drawn with a baseline's.
    public var stylesheet: String?
    /// With `--baseline`: what changed since it.
    public var changes: Changes?
    /// How many pages (example pages and the index included) this build
    /// rendered, and how many it took as the last build made them.
    public var renderedCount = 0
    public var cachedCount = 0
    /// Every output of the site, with its size.
    public var outputs: [String: Int] = [:]
    /// The outputs whose bytes this build changed (added ones included)
    /// and those it removed, sorted; nil before the build's first site.
    public var changedOutputs: [String]?
    /// Whether the site on disk is already this build's (nothing to write).
    public var unchanged = false
    /// A key of every input the build read (serve's live events carry it).
    public var inputsKey: String?
    /// How many values of each rule the build derived (`--verbose` lists them).
    public var derived: [String: Int] = [:]

    /// What the report reads, worked out when first asked for.
    var reportParts: @Sendable () -> BuildReport = { BuildReport(pages: [], examples: [], diagnostics: []) }
    /// The graph and where its outputs went, for `SiteBuilder.write`.
    var state: BuildState?

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Whether the site has `output`.
    public func has(_ output: String) -> Bool { outputs[output] != nil }
    /// How many files the site has.
    public var outputCount: Int { outputs.count }
}

/// What a build leaves for its write: the graph, the sink its outputs
/// went to, the options' store and the site the graph described before.
struct BuildState: @unchecked Sendable {
    var graph: Graph
    var sink: OutputSink
    var environment: SiteEnvironment
    /// What the site on disk held before (nil: none of the graph's).
    var before: SiteStore.Record?
    var stampsTakenAt: Double
    /// Whether anything was derived or set anew (else the store holds).
    var changedGraph: Bool
}

/// The last build's graph, kept in memory by `serve` (and tests) between
/// builds, with what the site on disk holds; `changed` names the input
/// files changed since it, when known.
public struct BuildMemo: @unchecked Sendable {
    public var changed: Set<String>?
    var graph: Graph?
    var fingerprint = ""
    var tree: InputTree?
    /// The outputs' bytes, for a graph whose outputs are kept in memory.
    var files: [String: [UInt8]] = [:]
    /// What the site on disk holds, when it is this graph's.
    var site: SiteStore.Record?

    public init() {}

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

/// Markdown pages and snapshot sequences to a static site, as one graph
/// of derivations (`SiteOutputs.rules`): the inputs listed and keyed, set
/// as the graph's inputs, the site asked for. A clean build is the graph
/// empty; `serve` keeps it in memory, the command line on disk beside the
/// site; the review runs it over a revision's tree. The same inputs give
/// byte-identical output whatever the order of files or of threads.
public enum SiteBuilder {
    public static func build(_ options: BuildOptions) -> BuiltSite {
        var memo: BuildMemo?
        return build(options, memo: &memo)
    }

    /// Builds the site from the graph of the last build (`serve` keeps it
    /// in `memo`; the command line's is in its store), leaving this build's
    /// in `memo`. Outputs are kept in memory unless the options put them
    /// on disk (`keepsUnchangedPages`); either way nothing is written
    /// until `write`.
    public static func build(_ options: BuildOptions, memo held: inout BuildMemo?) -> BuiltSite {
        var options = options
        let project = options.project ?? .ofWorkingFolder()
        options.project = project
        var clock = PhaseClock(report: options.progress)
        let stampsTakenAt = Date().timeIntervalSince1970
        // 1. The inputs, listed before anything is read: the files git would track.
        var memo = held.flatMap { $0.fingerprint == options.fingerprint ? $0 : nil }
        let tree = options.inputs ?? memo?.treeIfUnchanged() ?? InputTree.onDisk(options.inputFolders, in: project)
        let problems = InputFolders.problems(options, tree: tree)
        if problems.contains(where: { $0.severity == .error }) {
            var site = BuiltSite()
            site.diagnostics = problems
            return site
        }
        clock.lap("list the inputs")

        // 2. The graph: the one in memory, else the store's while it and
        // the site are its build's, else an empty one (a clean build).
        let rules = SiteOutputs.rules(adding: options.extraOutputs)
        var graph = memo?.graph
        var before = memo?.site
        if graph == nil, let path = options.cache, let stored = SiteStore.load(path, options: options, project: project, rules: rules) {
            (graph, before) = (stored.graph, stored.record)
        }
        clock.lap(graph == nil ? "no graph to start from" : "read the graph")
        var site = run(options, graph: graph ?? Graph(rules: rules), before: before, tree: tree, memo: memo, stampsTakenAt: stampsTakenAt, clock: &clock)
        if site.diagnostics.contains(where: { $0.message == Graph.malformedStore }) {
            // A store whose values do not read: built again from nothing.
            before = nil
            site = run(options, graph: Graph(rules: rules), before: nil, tree: tree, memo: nil, stampsTakenAt: stampsTakenAt, clock: &clock)
        }
        if let state = site.state {
            if memo == nil { memo = BuildMemo() }
            memo!.graph = state.graph
            memo!.fingerprint = options.fingerprint
            memo!.tree = tree
            memo!.changed = []
            if case .memory = state.sink.mode { memo!.files = state.sink.files(of: site.outputs) }
            // (What the site on disk holds is known once it is written.)
            memo!.site = before
        }
        held = memo
        return site
    }

    /// One build of `graph` over `tree`.
    static func run(_ options: BuildOptions, graph: Graph, before: SiteStore.Record?, tree: InputTree, memo: BuildMemo?, stampsTakenAt: Double,
                    clock: inout PhaseClock) -> BuiltSite {
        let project = options.project!
        var site = BuiltSite()
        // The inputs keyed: a file whose stamp is the one the graph saw
        // keeps its digest; the rest are read (and kept for the rules).
        let keyed = key(tree, options: options, graph: graph, memo: memo, stampsTakenAt: before?.stampsTakenAt ?? 0)
        let changedInputs = graph.setInputs { inputs in
            for folder in options.inputFolders {
                inputs.set(FolderListing.self, folder, FolderListing.Value(tree[folder], origin: tree.origin))
            }
            for (path, state) in keyed.files { inputs.set(SourceFile.self, path, state) }
        }
        site.inputsKey = keyed.key
        clock.lap("key the inputs (\(changedInputs) changed)")

        // 3. Where outputs go.
        let sink: OutputSink
        if options.keepsUnchangedPages, options.inputs == nil {
            if let before, let stamp = SiteFolder.stamp(of: options.out), stamp == before.siteStamp {
                // (What builds killed mid-way left beside the site goes first.)
                let site = URL(fileURLWithPath: options.out)
                SiteWriter.removeStaleFolders(of: site.lastPathComponent, in: site.deletingLastPathComponent())
                sink = OutputSink(.patch(root: options.out, stamp: stamp))
            } else {
                do throws(Diagnostic) {
                    sink = OutputSink(.staging(try SiteWriter.Staging.open(options.out, in: project, spare: options.cache.map(Paths.spare(forCache:)))))
                } catch {
                    site.diagnostics = [error]
                    return site
                }
            }
        } else {
            // The outputs of the build before: the memo's, or the site's on disk that the store describes.
            var files = memo?.files ?? [:]
            if memo == nil, let before {
                for path in before.outputs.keys {
                    guard let bytes = try? FileContents.read(options.out + "/" + path, limit: nil, followingLink: false) else { continue }
                    files[path] = bytes
                }
            }
            sink = OutputSink(.memory, files: files)
        }
        let budget = OutputBudget(limit: options.siteByteLimit, input: { tree.byteCount(of: options.inputFolders) })
        let environment = SiteEnvironment(options: options, tree: tree, sink: sink, budget: budget, read: keyed.bytes)

        // 4. The site, asked for: its shape first (each page's place in the
        // order outputs count against the site's limit), then all of it.
        let value: Site.Value
        do throws(BuildStopped) {
            let shape = try graph.value(SiteShape.self, "", environment: environment)
            environment.places.withLock { places in
                for (index, page) in shape.pages.enumerated() { places[page.output] = index }
            }
            value = try graph.value(Site.self, "", environment: environment)
        } catch {
            discard(BuildState(graph: graph, sink: sink, environment: environment, before: before, stampsTakenAt: stampsTakenAt, changedGraph: true),
                    options: options)
            site.diagnostics = stopDiagnostics(error, budget: budget, options: options)
            return site
        }
        clock.lap("derive the site")
        let derived = graph.derived
        site.derived = derived
        site.diagnostics = value.diagnostics
        (site.pageCount, site.exampleCount, site.outputs) = (value.pageCount, value.exampleCount, value.outputs)
        // (The home page is rendered once, into the index.)
        let home = (try? graph.value(SiteShape.self, "", environment: environment))?.homePath
        let homeRendered = home.map { graph.derivedNow(PageRender.self, $0) } ?? false
        site.renderedCount = ["page-render", "example-page", "index-page"].reduce(0) { $0 + (derived[$1] ?? 0) }
            - (homeRendered && derived["index-page"] != nil ? 1 : 0)
        site.cachedCount = value.stopped ? 0 : max(0, value.pageCount - (home == nil ? 0 : 1) + value.exampleCount + 1 - site.renderedCount)
        if value.stopped {
            discard(BuildState(graph: graph, sink: sink, environment: environment, before: before, stampsTakenAt: stampsTakenAt, changedGraph: true),
                    options: options)
            return site
        }
        site.changedOutputs = sink.changes(value.outputs, before: before?.outputs ?? memo.flatMap { $0.site?.outputs })
        site.unchanged = before != nil && site.changedOutputs?.isEmpty == true && before?.outputs == value.outputs
        // (A site with nothing to write has nothing in memory, unless the caller reads it all.)
        if case .memory = sink.mode, !site.unchanged || !options.allowShortcut { site.files = sink.files(of: value.outputs) }
        if options.baseline != nil, let review = try? graph.value(ReviewPage.self, "", environment: environment) {
            site.changes = review.changes
        }
        site.stylesheet = (try? graph.value(ThemeLoad.self, "", environment: environment))?.theme?.assets["rowmotion.css"]
        let reportEnvironment = environment
        site.reportParts = { (try? graph.value(CurrentReport.self, "", environment: reportEnvironment)) ?? BuildReport(pages: [], examples: [], diagnostics: []) }
        site.state = BuildState(graph: graph, sink: sink, environment: environment, before: before, stampsTakenAt: stampsTakenAt,
                                changedGraph: changedInputs > 0 || !derived.isEmpty)
        return site
    }

    /// The diagnostics of a build that stopped.
    static func stopDiagnostics(_ stop: BuildStopped, budget: OutputBudget, options: BuildOptions) -> [Diagnostic] {
        if let diagnostic = stop.detail as? Diagnostic { return [diagnostic] }
        if stop.reason == OutputBudget.stopped {
            return SiteRendering.limitErrors([budget.firstFailure], budget: budget, folder: options.site)
        }
        return [.error("build", at: SourceLocation(file: options.site, line: 1, column: 1), stop.reason)]
    }

    /// Each input file's state for the graph, and a key of them all.
    struct Keyed {
        var files: [(path: String, state: SourceFile.Value)] = []
        var bytes: [String: [UInt8]] = [:]
        var key: String
    }

    /// The inputs of `tree` keyed against what `graph` saw: a file whose
    /// stamp did not move keeps its digest (with `memo`, told what changed,
    /// only those files are read); every input the graph saw that is gone
    /// is set as gone.
    static func key(_ tree: InputTree, options: BuildOptions, graph: Graph, memo: BuildMemo?, stampsTakenAt: Double) -> Keyed {
        var recorded: [String: FileStamp] = [:]
        let inputs = graph.inputs(of: SourceFile.self)
        let known = inputs.map(\.argument)
        recorded.reserveCapacity(inputs.count)
        for (path, value) in inputs {
            guard !value.digest.isEmpty, var stamp = value.stamp else { continue }
            stamp.digest = value.digest
            recorded[path] = stamp
        }
        // Told what changed (serve's watcher), the rest holds whatever the stamps say.
        var racy = Int64((stampsTakenAt - options.racyWindow) * 1e9)
        if let changed = memo?.changed, memo?.tree != nil {
            for path in changed { recorded[path] = nil }
            racy = .max
        }
        let keyed = tree.key(of: options.inputFolders, recorded: recorded, modifiedBefore: racy, keepingBytes: true)
        var result = Keyed(key: InputTree.digest(combining: keyed.digests))
        result.bytes = keyed.bytes
        result.files.reserveCapacity(keyed.digests.count + 8)
        for (path, digest) in keyed.digests { result.files.append((path, SourceFile.Value(digest: digest, stamp: keyed.stamps[path]))) }
        // (Gone by the bytes of its name: `café` respelled is another file.)
        let listed = Set(keyed.digests.keys.map { Array($0.utf8) })
        for path in known where !listed.contains(Array(path.utf8)) { result.files.append((path, SourceFile.Value(digest: "", stamp: nil))) }
        return result
    }

    /// Builds and, when nothing failed (and, under `--strict`, nothing
    /// warned), writes the site atomically.
    public static func buildAndWrite(_ options: BuildOptions) -> (site: BuiltSite, written: (written: Int, reused: Int)?) {
        var memo: BuildMemo?
        return buildAndWrite(options, memo: &memo)
    }

    /// The same, leaving the build's graph in `memo`.
    public static func buildAndWrite(_ options: BuildOptions, memo: inout BuildMemo?) -> (site: BuiltSite, written: (written: Int, reused: Int)?) {
        var site = build(options, memo: &memo)
        let written = write(&site, options, memo: &memo)
        return (site, written)
    }

    public static func write(_ site: inout BuiltSite, _ options: BuildOptions) -> (written: Int, reused: Int)? {
        var memo: BuildMemo?
        return write(&site, options, memo: &memo)
    }

    /// Writes a built site when nothing failed (and, under `--strict`,
    /// nothing warned), and its graph's store; nil when it was not written
    /// (the diagnostics say why, if it was tried). The site on disk takes
    /// its new files at once: a clean build's folder swapped in whole, an
    /// edit's changed files renamed over their old ones.
    public static func write(_ site: inout BuiltSite, _ options: BuildOptions, memo: inout BuildMemo?) -> (written: Int, reused: Int)? {
        var options = options
        let project = options.project ?? .ofWorkingFolder()
        options.project = project
        let failed = site.hasErrors || (options.strict && !site.diagnostics.isEmpty)
        guard let state = site.state else { return nil }
        guard !failed else { discard(state, options: options); return nil }
        var clock = PhaseClock(report: options.progress)
        let outputs = site.outputs
        let changed = site.changedOutputs ?? outputs.keys.sorted()
        do throws(Diagnostic) {
            if site.unchanged, case .memory = state.sink.mode, let before = state.before {
                // The site on disk is this build's: its store is saved again only when its stamps moved.
                if state.changedGraph { try record(&site, state: state, options: options, project: project, stamps: before.written, memo: &memo) }
                return (0, outputs.count)
            }
            switch state.sink.mode {
            case .memory:
                guard options.inputs == nil else { return (0, 0) }
                // Written whole, through a folder beside the site, swapped in.
                return try SiteWriter.write(site.files, to: options.out, in: project) { folder, stamps throws(Diagnostic) in
                    try record(&site, state: state, options: options, project: project, folder: folder, stamps: stamps, memo: &memo)
                }
            case .staging(let staging):
                try staging.finish(site: Set(outputs.keys))
                let written = state.sink.written
                clock.lap("finish the site's folder")
                try record(&site, state: state, options: options, project: project, folder: staging.path, stamps: nil, memo: &memo, clock: &clock)
                try staging.swap(keepingOld: true)
                clock.lap("swap the site in")
                return (written, outputs.count - written)
            case .patch:
                guard let before = state.before else { return nil }
                try state.sink.commit(outputs: outputs, before: before.outputs)
                if state.changedGraph || !changed.isEmpty || before.outputs != outputs {
                    try record(&site, state: state, options: options, project: project, stamps: restamped(before.written, changed, outputs, options), memo: &memo)
                } else if var kept = memo {
                    kept.site = before
                    memo = kept
                }
                clock.lap("write")
                return (changed.count, outputs.count - changed.filter { outputs[$0] != nil }.count)
            }
        } catch {
            discard(state, options: options)
            site.diagnostics.append(error)
            return nil
        }
    }

    /// A site not written: what its build put aside is removed, and what
    /// put it there is derived again next time.
    static func discard(_ state: BuildState, options: BuildOptions) {
        state.sink.discard()
        if case .memory = state.sink.mode { return }
        state.graph.forget(derivedNow: SiteOutputs.producers + options.extraOutputs)
    }

    /// The stamps of the site's files after an edit: the old ones, those
    /// changed stamped again, those removed left out.
    /// (Nil, and the site is walked, when an output was removed: its name
    /// may be another's respelled, which a `String` key takes for it.)
    static func restamped(_ old: [String: FileStamp], _ changed: [String], _ outputs: [String: Int], _ options: BuildOptions) -> [String: FileStamp]? {
        var stamps = old
        for path in changed {
            guard outputs[path] != nil, outputs.index(forKey: path).map({ outputs[$0].key.utf8.elementsEqual(path.utf8) }) == true,
                  let stamp = FileStamp.of(options.out + "/" + path) else { return nil }
            stamps[path] = stamp
        }
        return stamps
    }

    /// Records what the site on disk holds after this build (its stamp and
    /// its files' stamps, taken in `folder` before it takes the site's
    /// place, or given) and saves the graph's store with it: one that
    /// cannot be saved through a link fails the build before the site is
    /// replaced; one that cannot be saved otherwise is a miss next time.
    static func record(_ site: inout BuiltSite, state: BuildState, options: BuildOptions, project: Project, folder: String? = nil,
                       stamps: [String: FileStamp]?, memo: inout BuildMemo?) throws(Diagnostic) {
        var clock = PhaseClock(report: nil)
        try record(&site, state: state, options: options, project: project, folder: folder, stamps: stamps, memo: &memo, clock: &clock)
    }

    static func record(_ site: inout BuiltSite, state: BuildState, options: BuildOptions, project: Project, folder: String? = nil,
                       stamps: [String: FileStamp]?, memo: inout BuildMemo?, clock: inout PhaseClock) throws(Diagnostic) {
        let at = folder ?? options.out
        guard let siteStamp = SiteFolder.stamp(of: at), let written = stamps ?? SiteFolder.files(of: at) else { return }
        clock.lap("stamp the site's files")
        let record = SiteStore.Record(siteStamp: siteStamp, written: written, stampsTakenAt: state.stampsTakenAt, outputs: site.outputs)
        if var kept = memo {
            kept.site = record
            memo = kept
        }
        guard let path = options.cache else { return }
        if let problem = SiteStore.save(state.graph, record: record, to: path, options: options, project: project) { throw problem }
        clock.lap("save the store")
    }

    /// The stamp of the site at `output` (see `SiteWriter.stamp`).
    public static func stamp(of output: String) -> String? { SiteFolder.stamp(of: output) }

    /// Saves the store of the graph `memo` holds, for the site on disk:
    /// what `serve` leaves for the next build when it stops.
    public static func saveCache(of memo: BuildMemo, options: BuildOptions) {
        guard let path = options.cache, let graph = memo.graph, let site = memo.site, SiteFolder.stamp(of: options.out) == site.siteStamp else { return }
        let project = options.project ?? .ofWorkingFolder()
        _ = SiteStore.save(graph, record: site, to: path, options: options, project: project)
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
