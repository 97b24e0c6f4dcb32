import PackagePlugin

/// `swift package rowmotion-check [--strict] [PATH...]`: `rowmotion check`,
/// which only reads, so it asks for no permission.
@main
struct RowmotionCheckPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try ToolRunner.run(["check"] + arguments, command: "swift package rowmotion-check",
                           context: context, packageManager: packageManager)
    }
}
