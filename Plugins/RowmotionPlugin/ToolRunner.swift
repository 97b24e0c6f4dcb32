import Foundation
import PackagePlugin

/// What every Rowmotion command plugin does: build the `rowmotion` tool
/// through the package manager (declaring it a plugin dependency would build
/// it a second time in release builds) and run it in the package's folder
/// with the user's arguments, its output passed straight through.
///
/// Shared by the plugins as one file (the other plugins' folders link to it).
enum ToolRunner {
    /// `command` is how the user runs the plugin, for the commands the tool
    /// suggests (`init`'s next step).
    static func run(_ arguments: [String], command: String, context: PluginContext, packageManager: PackageManager) throws {
        let configuration: PackageManager.BuildConfiguration =
            ProcessInfo.processInfo.environment["ROWMOTION_PLUGIN_CONFIGURATION"] == "debug" ? .debug : .release
        // Building the tool takes a minute or two the first time: say so at
        // once rather than sit silent (a progress message: what a plugin
        // writes to its output is shown only when it exits). Once it is
        // built, the package manager only checks it is up to date: nothing
        // is said unless that turns into a rebuild that takes a while.
        let name = configuration == .debug ? "debug" : "release"
        let stamp = context.pluginWorkDirectoryURL.appendingPathComponent("rowmotion-tool-\(name)")
        var slowBuild: (any DispatchSourceTimer)?
        if toolIsBuilt(stamp: stamp, package: context.package.directoryURL, configuration: name) {
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + 4)
            timer.setEventHandler { Progress.say("rowmotion: rebuilding the tool (\(name))…") }
            timer.resume()
            slowBuild = timer
        } else {
            Progress.say("rowmotion: building the tool (\(name); the first time takes a minute or two)…")
        }
        // Then the time it has taken, every 15 seconds, so a long first
        // build is seen to be working (the package manager shows nothing of it).
        let started = Date()
        let ticking = DispatchSource.makeTimerSource(queue: .global())
        ticking.schedule(deadline: .now() + 15, repeating: 15)
        ticking.setEventHandler { Progress.say("rowmotion: still building the tool (\(name)): \(Int(Date().timeIntervalSince(started))) s so far…") }
        ticking.resume()
        let result = try packageManager.build(.product("rowmotion"), parameters: .init(configuration: configuration, logging: .concise))
        ticking.cancel()
        slowBuild?.cancel()
        if Date().timeIntervalSince(started) >= 15 {
            Progress.say("rowmotion: the tool \(result.succeeded ? "built" : "failed to build") in \(Int(Date().timeIntervalSince(started))) s")
        }
        guard result.succeeded,
              let tool = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "rowmotion" }) else {
            if siteTraitIsOff(result.logText) {
                Diagnostics.error(siteTraitAdvice(rowmotionLine(in: context)))
                throw PluginFailure.siteTraitOff
            }
            Diagnostics.error("could not build rowmotion:\n\(result.logText)")
            throw PluginFailure.buildFailed
        }
        try? FileManager.default.createDirectory(at: context.pluginWorkDirectoryURL, withIntermediateDirectories: true)
        try? Data(tool.url.path.utf8).write(to: stamp)
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        var environment = ProcessInfo.processInfo.environment
        environment["ROWMOTION_COMMAND"] = command
        process.environment = environment
        // The package manager shows what a plugin writes only once it has
        // exited, which for `serve` is never: its lines (the address, each
        // rebuild) go out as progress messages, which are shown at once. A
        // server whose plugin is gone stops too (ROWMOTION_STOP_WITH_PARENT).
        var relay: LineRelay?
        if arguments.first == "serve" {
            // Its diagnostics too (standard error): a broken file must show
            // while it serves. One pipe for both, read by one relay: the
            // lines keep the order the tool wrote them in (a build's errors,
            // then "build failed").
            let output = Pipe()
            relay = LineRelay(output.fileHandleForReading)
            process.standardOutput = output
            process.standardError = output
            environment["ROWMOTION_STOP_WITH_PARENT"] = "1"
            process.environment = environment
        }
        try process.run()
        // If `swift package` itself goes (killed, or its terminal closed),
        // this plugin is left behind, and the server with it: stop it.
        var orphanCheck: (any DispatchSourceTimer)?
        if relay != nil {
            let parent = getppid()
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + 1, repeating: 1)
            timer.setEventHandler { if getppid() != parent, process.isRunning { process.terminate() } }
            timer.resume()
            orphanCheck = timer
        }
        process.waitUntilExit()
        orphanCheck?.cancel()
        relay?.finish()
        guard process.terminationStatus == 0 else { throw PluginFailure.toolFailed(process.terminationStatus) }
    }
}

/// Every progress message this plugin sends, one at a time. The package
/// manager reads a plugin's messages as a length, then the text, written by
/// two writes with no lock of its own: two threads sending at once
/// interleave them, and from then on it shows nothing the plugin sends
/// (seen: `serve`'s errors and its "build failed" line, relayed from two
/// pipes by two threads, silenced every later rebuild).
enum Progress {
    private static let sending = NSLock()

    static func say(_ line: String) {
        sending.withLock { Diagnostics.progress(line) }
    }
}

/// Passes a child's output on as progress messages, a line at a time, as it comes.
final class LineRelay: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    private var pending = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
        handle.readabilityHandler = { [weak self] handle in self?.take(handle.availableData) }
    }

    private func take(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        if data.isEmpty {
            handle.readabilityHandler = nil
        }
        pending.append(data)
        while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
            pending.removeSubrange(pending.startIndex...end)
            Progress.say(line)
        }
    }

    /// Sends what is left once the child has exited.
    func finish() {
        handle.readabilityHandler = nil
        take(handle.readDataToEndOfFile())
        lock.lock()
        defer { lock.unlock() }
        if !pending.isEmpty { Progress.say(String(decoding: pending, as: UTF8.self)) }
        pending.removeAll()
    }
}

extension ToolRunner {
    /// Whether a build of the tool is there already: the one this plugin
    /// last ran (its path kept in `stamp`), or one in the package's usual
    /// build folder (another of the plugins, or `swift build`, built it).
    static func toolIsBuilt(stamp: URL, package: URL, configuration: String) -> Bool {
        let manager = FileManager.default
        if let path = try? String(contentsOf: stamp, encoding: .utf8), manager.isExecutableFile(atPath: path) { return true }
        return manager.isExecutableFile(atPath: package.appendingPathComponent(".build/\(configuration)/rowmotion").path)
    }

    /// The site generator's packages are built only with Rowmotion's `Site`
    /// trait (on by default); a dependency line with `traits: []` leaves
    /// them out, and the tool cannot build. The build log says so only as a
    /// missing module.
    static func siteTraitIsOff(_ log: String) -> Bool {
        ["CYaml", "Yams", "ArgumentParser", "Mustache", "TOMLKit", "Crypto"].contains { log.contains("no such module '\($0)'") }
    }

    /// Rowmotion's line in the package's manifest as it would be written
    /// (`.package(path: "../rowmotion")`, `.package(url: "…")`), without
    /// its requirement, which the manifest keeps; nil when it is not found.
    static func rowmotionLine(in context: PluginContext) -> String? {
        guard let dependency = context.package.dependencies.first(where: { $0.package.products.contains { $0.name == "ListDiff" } }) else { return nil }
        switch dependency.package.origin {
        case .local(let path):
            return ".package(path: \"\(relativePath(from: context.package.directoryURL.path, to: path))\""
        case .repository(let url, _, _):
            return ".package(url: \"\(url)\", …"
        default:
            return nil
        }
    }

    /// `path` as written from `folder`: `../rowmotion` beside it, else as it is.
    static func relativePath(from folder: String, to path: String) -> String {
        let (from, to) = (folder.split(separator: "/"), path.split(separator: "/"))
        let shared = zip(from, to).prefix { $0 == $1 }.count
        guard path.hasPrefix("/"), shared > 0 else { return path }
        let parts = Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared).map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// What to change, in the words of the package's own line (`line`,
    /// from `rowmotionLine`): a path dependency is not shown a URL.
    static func siteTraitAdvice(_ line: String?) -> String {
        let start = line ?? ".package(…"
        let (plain, lean) = (start + "),", start + ", traits: []),")
        let width = max(plain.count, lean.count) + 4
        func padded(_ text: String) -> String { text + String(repeating: " ", count: width - text.count) }
        return """
            the rowmotion tool needs Rowmotion's Site trait, which this package's dependency on Rowmotion turns off (traits: []).
            To use the plugins, remove `traits: []` from that line in Package.swift, keeping the rest of it (its \(line?.hasPrefix(".package(path:") == true ? "path" : "URL and version")):
                \(padded(plain))// the plugins, ListDiff and SequenceRecorder
            rather than
                \(padded(lean))// ListDiff and SequenceRecorder only, no plugins
            """
    }
}

enum PluginFailure: Error, CustomStringConvertible {
    case buildFailed
    case siteTraitOff
    case toolFailed(Int32)

    var description: String {
        switch self {
        case .siteTraitOff: return "rowmotion needs the Site trait (see above)"
        case .buildFailed: return "rowmotion did not build"
        case .toolFailed(let status): return "rowmotion exited with status \(status)"
        }
    }
}
