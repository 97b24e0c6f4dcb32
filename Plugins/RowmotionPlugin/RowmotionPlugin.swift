import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory rowmotion build`
/// (or `check`, `diff`, …) in any package that depends on Rowmotion.
///
/// The tool is built through the package manager rather than declared as a
/// plugin dependency, which would build it a second time in release builds.
@main
struct RowmotionPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let configuration: PackageManager.BuildConfiguration =
            ProcessInfo.processInfo.environment["ROWMOTION_PLUGIN_CONFIGURATION"] == "debug" ? .debug : .release
        // Building the tool takes a minute or two the first time: say so
        // rather than sit silent.
        print("rowmotion: building the tool (\(configuration == .debug ? "debug" : "release"); the first time takes a minute or two)…")
        let result = try packageManager.build(.product("rowmotion"), parameters: .init(configuration: configuration, logging: .concise))
        guard result.succeeded,
              let tool = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "rowmotion" }) else {
            Diagnostics.error("could not build rowmotion:\n\(result.logText)")
            throw PluginFailure.buildFailed
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments.isEmpty ? ["build"] : arguments
        process.currentDirectoryURL = context.package.directoryURL
        // How the user runs it, for the commands the tool suggests (`init`'s next step).
        var environment = ProcessInfo.processInfo.environment
        environment["ROWMOTION_COMMAND"] = "swift package --allow-writing-to-package-directory rowmotion"
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PluginFailure.toolFailed(process.terminationStatus) }
    }
}

enum PluginFailure: Error, CustomStringConvertible {
    case buildFailed
    case toolFailed(Int32)

    var description: String {
        switch self {
        case .buildFailed: return "rowmotion did not build"
        case .toolFailed(let status): return "rowmotion exited with status \(status)"
        }
    }
}
