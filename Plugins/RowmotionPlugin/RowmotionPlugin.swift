import PackagePlugin

/// `swift package --allow-writing-to-package-directory rowmotion build`
/// (or `init`, `serve`, `check`, `diff`, …) in any package that depends on
/// Rowmotion. `rowmotion-check` and `rowmotion-diff` need no permission.
@main
struct RowmotionPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try ToolRunner.run(arguments.isEmpty ? ["build"] : arguments,
                           command: "swift package --allow-writing-to-package-directory rowmotion",
                           context: context, packageManager: packageManager)
    }
}
