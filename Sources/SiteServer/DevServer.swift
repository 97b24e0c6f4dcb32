import FlyingFox
import FlyingSocks
import Foundation
import SiteGenerator
import SnapshotFormat

/// `rowmotion serve`: builds the site, serves it on loopback, rebuilds when
/// a watched file changes, and tells open pages to reload (or shows them the
/// build's errors, while the last good site stays served).
public final class DevServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var build: BuildOptions
        public var host = "127.0.0.1"
        public var port: UInt16 = 8000
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
        /// The site's files it changed, added or removed.
        public var changed: [String]
        public var pageCount: Int
        public var reused: Int
        public var milliseconds: Double
    }

    public let configuration: Configuration
    public let hub = LiveReloadHub()
    /// Called after each build, from the watching thread.
    public var onBuild: @Sendable (Outcome) -> Void = { _ in }

    private let lock = NSLock()
    private var lastFiles: [String: [UInt8]] = [:]
    private var builds = 0
    private var stopped = false
    private var server: HTTPServer?
    private var serverTask: Task<Void, any Error>?

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// The folders whose files a build reads.
    public var watchedFolders: [String] {
        [configuration.build.site, configuration.build.examples, configuration.build.templates]
    }

    /// Builds and, when the build succeeded, writes the site and tells the
    /// open pages what changed; when it failed, tells them its errors.
    @discardableResult
    public func rebuild() -> Outcome {
        let start = DispatchTime.now().uptimeNanoseconds
        var options = configuration.build
        // The full file list says which pages changed; rendering still
        // comes from the cache.
        options.allowShortcut = false
        let (site, written) = SiteBuilder.buildAndWrite(options)
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        var outcome = Outcome(diagnostics: DiagnosticReport(site.diagnostics).sorted, written: written != nil, changed: [],
                              pageCount: site.pageCount, reused: site.cachedCount, milliseconds: milliseconds)
        let failed = written == nil
        let errors = outcome.diagnostics.filter { failed && ($0.severity == .error || configuration.build.strict) }.map(\.description)
        let status: LiveStatus = lock.withLock {
            if !failed {
                outcome.changed = Self.changedFiles(from: lastFiles, to: site.files)
                lastFiles = site.files
                if !outcome.changed.isEmpty { builds += 1 }
            }
            return LiveStatus(build: builds, changed: outcome.changed, errors: failed && errors.isEmpty
                              ? ["\(configuration.build.out): error: the build failed"] : errors)
        }
        hub.publish(status)
        onBuild(outcome)
        return outcome
    }

    /// The number of the build being served.
    public var currentBuild: Int {
        lock.withLock { builds }
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
    public func start() async throws -> String {
        let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        let address: sockaddr_in
        do { address = try sockaddr_in.inet(ip4: host, port: configuration.port) } catch {
            throw ServeError("'\(configuration.host)' is not an IPv4 address to listen on (try 127.0.0.1)")
        }
        let root = URL(fileURLWithPath: configuration.build.out).standardizedFileURL
        let server = HTTPServer(address: address, timeout: 30, logger: .disabled)
        await server.appendRoute(HTTPRoute(method: .GET, path: LiveScript.socketPath),
                                 to: WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: hub)))
        await server.appendRoute("*", to: SiteFileHandler(root: root, build: { [weak self] in self?.currentBuild ?? 0 }))
        let failure = RunFailure()
        let task = Task {
            do { try await server.run() } catch {
                failure.record(error)
                throw error
            }
        }
        // Listening, or the reason it cannot (the run ends at once then).
        let deadline = Date().addingTimeInterval(10)
        while await !server.isListening {
            if let error = failure.error {
                throw ServeError("cannot listen on \(host):\(configuration.port): \(Self.plain(error))")
            }
            guard Date() < deadline else {
                task.cancel()
                throw ServeError("cannot listen on \(host):\(configuration.port): no answer after 10 s")
            }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        lock.withLock {
            self.server = server
            self.serverTask = task
        }
        var port = configuration.port
        if case let .ip4(_, listening)? = await server.listeningAddress { port = listening }
        return "http://\(host):\(port)/"
    }

    /// A socket error in words a terminal user knows.
    static func plain(_ error: any Error) -> String {
        switch error {
        case let error as ServeError: return error.description
        case SocketError.failed(_, EADDRINUSE, _): return "the address is already in use (choose another --port)"
        case let SocketError.failed(_, _, message): return message
        default: return "\(error)"
        }
    }

    /// Scans the watched folders until `stop()`, rebuilding after each
    /// change. Blocks: run it on a thread of its own.
    public func watch() {
        let watcher = SourceWatcher(folders: watchedFolders)
        var seen = watcher.scan()
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
            seen = now
            rebuild()
        }
    }

    private var isStopped: Bool {
        lock.withLock { stopped }
    }

    /// Closes the pages' sockets, stops the server and the watch loop.
    public func stop() async {
        let (server, task) = lock.withLock {
            stopped = true
            return (self.server, self.serverTask)
        }
        hub.closeAll()
        await server?.stop(timeout: 0.3)
        _ = await task?.result
    }
}

/// The error the server's run ended with, if it ended.
private final class RunFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?

    var error: (any Error)? { lock.withLock { stored } }

    func record(_ error: any Error) {
        lock.withLock { stored = error }
    }
}

/// A reason `serve` cannot go on, for the terminal.
public struct ServeError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
