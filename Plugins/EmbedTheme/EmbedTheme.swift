import Foundation
import PackagePlugin

/// Embeds templates/ (the default theme) into SiteGenerator at build time,
/// so the binary carries the theme wherever it is copied and git holds one
/// copy of it. Every file of templates/ is an input: editing one rebuilds;
/// the player's modules (templates/script/*.js) become one rowmotion.js.
@main
struct EmbedTheme: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templates = context.package.directoryURL.appending(path: "templates")
        let names = try FileManager.default.contentsOfDirectory(atPath: templates.path)
            .filter { !$0.hasPrefix(".") }
            .sorted()
        // The player's modules, bundled into rowmotion.js by the tool.
        let script = templates.appending(path: "script")
        let modules = ((try? FileManager.default.contentsOfDirectory(atPath: script.path)) ?? [])
            .filter { $0.hasSuffix(".js") && !$0.hasPrefix(".") }
            .sorted()
            .map { script.appending(path: $0) }
        let inputs = names.map { templates.appending(path: $0) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true } + modules
        let output = context.pluginWorkDirectoryURL.appending(path: "DefaultTheme+Files.swift")
        return [
            .buildCommand(
                displayName: "Embedding the default theme (\(inputs.count) files from templates/)",
                executable: try context.tool(named: "embed-theme").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }
}
