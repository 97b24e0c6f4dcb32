import Diagnostics
import Foundation
import ProjectFiles
import SiteGenerator

/// `rowmotion serve`: builds the site, serves it on loopback, rebuilds when
/// a watched file changes, and tells open pages to reload (or shows them the
/// build's errors, while the last good site stays served).
public final class DevServer: Sendable {
    public struct Configuration: Sendable {
        public var build: BuildOptions
        public var host = "127.0.0.1"
        public var port: UInt16 = 8000
        public var limits = ServerLimits()
        /// Seconds between scans of the watched folders.
        public var pollInterval = 0.2

        public init(build: BuildOptions) {
            self.build = build
        }
    }

    /// What one build did.
    public struct Outcome: Sendable {
        public var diagnostics: [Diagnostic]
        /// Whether the site on disk is this build's.
        public var written: Bool
        /// Whether there is a site to serve at all (an earlier one, when
        /// this build failed).
        public var hasSite: Bool
        /// The site's files it changed, added or removed.
        public var changed: [String]
        /// The first site this server built: nothing changed, it is all new.
        public var first = false
        public var pageCount: Int
        /// Pages (example pages and the index included) rendered by this build, and taken from the last one.
        public var rendered: Int
        public var reused: Int
        public var milliseconds: Double
    }

    public let configuration: Configuration
    public let hub = LiveReloadHub()
    /// Called after each build, from the watching thread.
    public var onBuild: @Sendable (Outcome) -> Void {
        get { state.withLock { $0.onBuild } }
        set { state.withLock { $0.onBuild = newValue } }
    }

    private struct State {
        var onBuild: @Sendable (Outcome) -> Void = { _ in }
        /// The model of the last build (which failed, if it is not the
        /// site's on disk) and the input files changed since it.
        var memo: BuildMemo?
        var pending: Set<String>? = []
        var building = false
        var events: FileEvents?
        var servedOnce = false
        var builds = 0
        var stopped = false
        var server: EventLoopServer?
    }

    private let state = Locked(State())

    public init(_ configuration: Configuration) {
        var configuration = configuration
        // The project is asked of git once, not on every save.
        if configuration.build.project == nil { configuration.build.project = .ofWorkingFolder() }
        self.configuration = configuration
    }

    /// The folders whose files a build reads.
    public var watchedFolders: [String] {
        [configuration.build.site, configuration.build.examples, configuration.build.templates]
    }

    /// Builds and, when the build succeeded, writes the site and tells the
    /// open pages what changed; when it failed, tells them its errors.
    @discardableResult
    public func rebuild(changed paths: Set<String>? = nil) -> Outcome {
        let start = DispatchTime.now().uptimeNanoseconds
        var options = configuration.build
        // The last build's model, taken (each of its parts then held once,
        // and an edit changes them in place), told every change since it
        // was made (an edit seen while a build that stopped early ran is
        // still to read).
        var (memo, pending) = state.withLock { state -> (BuildMemo?, Set<String>?) in
            state.building = true
            state.pending = paths.flatMap { paths in state.pending.map { $0.union(paths) } }
            defer { state.memo = nil }
            return (state.memo, state.pending)
        }
        memo?.changed = pending
        // The site on disk is brought to this build's by writing only what
        // changed (a build after one that failed writes what that one made too).
        options.keepsUnchangedPages = true
        var site = SiteBuilder.build(options, memo: &memo)
        // (A build that failed is not written: what it put aside is removed.)
        let written = SiteBuilder.write(&site, options, memo: &memo) != nil
        let changed = written ? site.changedOutputs ?? site.outputs.keys.sorted() : []
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let hasSite = FileManager.default.fileExists(atPath: (options.out as NSString).appendingPathComponent(SiteWriter.marker))
        var outcome = Outcome(diagnostics: DiagnosticReport(site.diagnostics).sorted, written: written, hasSite: hasSite, changed: [],
                              pageCount: site.pageCount, rendered: site.renderedCount, reused: site.cachedCount,
                              milliseconds: milliseconds)
        let errors = outcome.diagnostics.filter { !written && ($0.severity == .error || configuration.build.strict) }
            .map { Self.relativeToProject($0.description) }
        let out = configuration.build.out
        let (status, onBuild) = state.withLock { state -> (LiveStatus, @Sendable (Outcome) -> Void) in
            state.building = false
            state.memo = memo
            // The changes are read: a build that failed keeps its graph, and
            // the next one writes what it made.
            state.pending = []
            if written {
                outcome.first = !state.servedOnce
                state.servedOnce = true
                outcome.changed = changed
                if !changed.isEmpty || outcome.first { state.builds += 1 }
            }
            return (LiveStatus(build: state.builds, changed: written ? changed : [], errors: !written && errors.isEmpty
                               ? ["\(out): error: the build failed"] : errors, inputs: site.inputsKey), state.onBuild)
        }
        hub.publish(status)
        onBuild(outcome)
        return outcome
    }

    /// Saves the cache of the site last written, for the next `rowmotion
    /// build` (each save wrote pages in place and removed the old one).
    /// Not while a build runs: it may be writing pages this cache would
    /// claim are the last build's.
    public func saveCache() {
        let options = configuration.build
        state.withLock { state in
            guard !state.building, let memo = state.memo else { return }
            SiteBuilder.saveCache(of: memo, options: options)
        }
    }

    /// A diagnostic for a page: paths under the working folder relative to
    /// it, so a page learns nothing of the machine's folders.
    static func relativeToProject(_ text: String, folder: String = FileManager.default.currentDirectoryPath) -> String {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return text.replacingOccurrences(of: prefix, with: "")
    }

    /// The number of the build being served.
    public var currentBuild: Int {
        state.withLock { $0.builds }
    }

    /// The paths whose bytes differ between two builds, added and removed
    /// ones included, sorted.
    static func changedFiles(from old: [String: [UInt8]], to new: [String: [UInt8]]) -> [String] {
        var changed = new.compactMap { path, bytes in old[path] == bytes ? nil : path }
        changed += old.keys.filter { new[$0] == nil }
        return changed.sorted()
    }

    /// Starts listening and returns the address pages are served at.
    ///
    /// - Throws: a message for the terminal when the address cannot be used.
    public func start() throws -> String {
        let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        // The site is served from where the build writes it, found as every
        // write is: inside the project never through a link (a pull request
        // can commit `_site -> .git`, or `-> /`); outside, the user's own.
        let out = configuration.build.out, project = configuration.build.project ?? .ofWorkingFolder()
        let prepared: String
        do throws(Diagnostic) { prepared = try WritePath.prepare(out, in: project, makingFolders: false) } catch { throw ServeError(error.description) }
        let root = URL(fileURLWithPath: project.parts(of: out) == nil ? Paths.real(prepared) : prepared)
        let files = SiteFileHandler(root: root, build: { [weak self] in self?.currentBuild ?? 0 })
        let server: EventLoopServer
        do {
            server = try EventLoopServer(host: host, port: configuration.port, limits: configuration.limits,
                                         livePath: LiveScript.livePath, hub: hub, handler: files.handle)
        } catch {
            throw ServeError(error.description)
        }
        server.start()
        state.withLock { $0.server = server }
        let name = host.contains(":") ? "[\(host)]" : host
        return "http://\(name):\(server.listener.port)/"
    }

    /// Whether `host` is reachable from this machine only.
    public static func isLoopback(_ host: String) -> Bool {
        Socket.isLoopback(host)
    }

    /// The watched folders' files as they are now. Taken before the first
    /// build and handed to `watch(from:)`: an edit saved while that build
    /// runs, or before the watch's thread starts, then differs from it and
    /// makes a build. (The watch took its first scan when its thread
    /// started: an edit saved in between was taken for what the first
    /// build had read, and never built; it happened under load.)
    public func scanSources() -> [String: SourceWatcher.Stamp] {
        // Events are heard from before the scan: none falls between the two.
        let events = FileEvents.make(folders: watchedFolders)
        state.withLock { $0.events = events }
        return SourceWatcher(folders: watchedFolders).scan()
    }

    /// Rebuilds after each change since `seen` (a scan taken before the
    /// build being served) until `stop()`: as the kernel tells of them
    /// (`FileEvents`), or, where it cannot, by scanning every
    /// `pollInterval`. Blocks: run it on a thread of its own.
    public func watch(from seen: [String: SourceWatcher.Stamp]) {
        let watcher = SourceWatcher(folders: watchedFolders)
        var seen = seen
        // What changed while the first build ran.
        let now = watcher.scan()
        if now != seen {
            let changed = SourceWatcher.changes(from: seen, to: now)
            seen = now
            rebuild(changed: Set(changed))
        }
        if let events = state.withLock({ $0.events }) {
            watch(events, seen: seen, watcher: watcher)
            return
        }
        while !isStopped {
            Thread.sleep(forTimeInterval: configuration.pollInterval)
            var now = watcher.scan()
            guard now != seen else { continue }
            // An editor saving several files, or writing one in steps:
            // wait until a scan sees no further change.
            while !isStopped {
                Thread.sleep(forTimeInterval: min(configuration.pollInterval, 0.1))
                let again = watcher.scan()
                if again == now { break }
                now = again
            }
            if isStopped { break }
            let changed = SourceWatcher.changes(from: seen, to: now)
            seen = now
            rebuild(changed: Set(changed))
        }
    }

    /// The watch on the kernel's events: each batch's files stamped again,
    /// and a build when a stamp moved (every file scanned when the batch
    /// cannot say which: a folder made or removed, an overflow).
    private func watch(_ events: FileEvents, seen: [String: SourceWatcher.Stamp], watcher: SourceWatcher) {
        var seen = seen
        while !isStopped {
            let batch = events.next(timeout: 0.25)
            guard !batch.isEmpty, !isStopped else { continue }
            var changed: [String] = []
            if batch.needsScan {
                let now = watcher.scan()
                changed = SourceWatcher.changes(from: seen, to: now)
                seen = now
            } else {
                let now = Date().timeIntervalSince1970
                for path in batch.paths.sorted() {
                    let stamp = SourceWatcher.stamp(of: path, now: now)
                    guard stamp != seen[path] else { continue }
                    seen[path] = stamp
                    changed.append(path)
                }
            }
            if !changed.isEmpty { rebuild(changed: Set(changed)) }
        }
    }

    private var isStopped: Bool {
        state.withLock { $0.stopped }
    }

    /// Closes the pages' live streams, stops the server and the watch loop.
    public func stop() {
        let server = state.withLock { state in
            state.stopped = true
            return state.server
        }
        server?.stop()
        hub.closeAll()
    }
}

/// A reason `serve` cannot go on, for the terminal.
public struct ServeError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
