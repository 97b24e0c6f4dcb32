import ProjectFiles
import ArgumentParser
import Foundation
import SiteGenerator
import SiteServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site, serve it on loopback, and rebuild and reload open pages as you edit.",
        discussion: """
            Watches the site, examples and templates folders. A change rebuilds the site (pages whose inputs \
            did not change come from the cache) and reloads the open pages it changed. A build with errors \
            prints them here and shows them over the open pages, and the last good site stays served. \
            The reload script is added to pages as they are served, never to the files written. Ctrl-C stops.
            """)

    @OptionGroup var siteOptions: SiteOptions

    @Option(help: ArgumentHelp("The folder to write the site to (and serve from).", valueName: "folder"))
    var out = "_site"

    @Option(help: "The port to listen on (0: any free port).")
    var port: UInt16 = 8000

    @Option(help: "The IPv4 or IPv6 address to listen on. Keep it on loopback: the server is for writing docs, not for hosting them.")
    var host = "127.0.0.1"

    @Flag(help: "Open the site in a browser (xdg-open or open) once it is served.")
    var open = false

    @Flag(help: "Print how long each phase of every build took.")
    var verbose = false

    func run() async throws {
        var build = siteOptions.buildOptions(out: out)
        build.cache = Paths.cache(forOutput: out)
        if verbose {
            build.progress = { event in
                if case let .phase(name, milliseconds) = event {
                    FileHandle.standardOutput.write(Data("  \(name): \(String(format: "%.1f", milliseconds)) ms\n".utf8))
                }
            }
        }
        var configuration = DevServer.Configuration(build: build)
        configuration.host = host
        configuration.port = port
        let server = DevServer(configuration)
        let console = Console()
        server.onBuild = { outcome in console.describe(outcome) }

        // Ctrl-C or a TERM: close the pages' live streams, stop listening, exit 0.
        // Handled from before the first line is printed: a signal sent as
        // soon as `serving` appears must not find it ignored but unwatched.
        let stopped = StopSignal()
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                server.stop()
                stopped.fire()
            }
            source.resume()
            sources.append(source)
        }
        // Listen first: a port in use fails before anything is written.
        let address: String
        do {
            address = try server.start()
        } catch {
            FileHandle.standardError.write(Data("rowmotion: error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        if !DevServer.isLoopback(host) {
            FileHandle.standardError.write(Data(("rowmotion: warning: listening on \(host), beyond this machine: anyone who can reach it "
                + "can read the site and its build errors; use 127.0.0.1 (the default) unless you mean to share it\n").utf8))
        }
        let sourcesBeforeTheBuild = server.scanSources()
        server.rebuild()
        console.line("serving \(out) at \(address) (watching \(server.watchedFolders.joined(separator: ", ")); Ctrl-C stops)")
        if open { Self.openBrowser(address) }

        let watching = Thread { server.watch(from: sourcesBeforeTheBuild) }
        watching.start()
        // Run by the SwiftPM plugin: when the plugin is gone (its `swift
        // package` interrupted), nobody reads this output any more, and the
        // server would hold its port forever. Stop with it.
        var orphanCheck: (any DispatchSourceTimer)?
        if ProcessInfo.processInfo.environment["ROWMOTION_STOP_WITH_PARENT"] == "1" {
            let parent = getppid()
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + 1, repeating: 1)
            timer.setEventHandler {
                if getppid() != parent {
                    server.stop()
                    stopped.fire()
                }
            }
            timer.resume()
            orphanCheck = timer
        }
        await stopped.wait()
        orphanCheck?.cancel()
        server.saveCache()
        console.line("stopped")
        _ = sources
    }

    /// Called on the main thread before anything runs concurrently. On
    /// Linux libdispatch reads signals through a signalfd, which sees only
    /// signals blocked in every thread; otherwise the kernel may hand one to
    /// a thread where it is ignored (seen: SIGTERM lost under load). Blocked
    /// before any other thread starts, so every thread inherits it.
    static func blockStopSignals() {
        #if os(Linux)
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGINT)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        #endif
    }

    static func openBrowser(_ address: String) {
        for opener in ["/usr/bin/xdg-open", "/usr/bin/open"] where FileManager.default.isExecutableFile(atPath: opener) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: opener)
            process.arguments = [address]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            // xdg-open on a machine with no desktop fails after it starts:
            // say so rather than leave the user waiting for a window.
            process.terminationHandler = { done in
                guard done.terminationStatus != 0 else { return }
                FileHandle.standardError.write(Data("rowmotion: \(opener) could not open a browser (exit \(done.terminationStatus)); open \(address) yourself\n".utf8))
            }
            if (try? process.run()) != nil { return }
        }
        FileHandle.standardError.write(Data("rowmotion: no browser opener found (xdg-open); open \(address) yourself\n".utf8))
    }
}

/// The first Ctrl-C or TERM, awaited by `serve`: later signals, and a
/// signal that comes before anyone waits, are kept, never lost or doubled.
final class StopSignal: Sendable {
    private struct State {
        var fired = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    func fire() {
        let waiter = state.withLock { state in
            defer { (state.fired, state.waiter) = (true, nil) }
            return state.fired ? nil : state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let fired = state.withLock { state in
                if !state.fired { state.waiter = continuation }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }
}

/// What `serve` prints: a line per build, and the build's diagnostics.
struct Console: Sendable {
    func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func describe(_ outcome: DevServer.Outcome) {
        report(outcome.diagnostics)
        let time = String(format: "%.0f ms", outcome.milliseconds)
        guard outcome.written else {
            line(outcome.hasSite ? "build failed (\(time)); still serving the last good site"
                 : "build failed (\(time)); there is no site to serve until a build succeeds")
            return
        }
        let rendered = outcome.rendered
        // The first build changes nothing: it is what there is to serve.
        if outcome.first {
            let pages = rendered + outcome.reused
            line("built in \(time): \(pages) page\(pages == 1 ? "" : "s"), \(rendered) rendered, \(outcome.reused) from the cache")
            return
        }
        line("built in \(time): \(outcome.changed.count) file\(outcome.changed.count == 1 ? "" : "s") changed, "
             + "\(rendered) page\(rendered == 1 ? "" : "s") rendered, \(outcome.reused) from the cache")
    }
}
