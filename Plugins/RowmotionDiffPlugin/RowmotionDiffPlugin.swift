import PackagePlugin

/// `swift package rowmotion-diff FILE [--format json|text|svg] …`:
/// `rowmotion diff`, which only reads, so it asks for no permission.
@main
struct RowmotionDiffPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try ToolRunner.run(["diff"] + arguments, command: "swift package rowmotion-diff",
                           context: context, packageManager: packageManager)
    }
}
