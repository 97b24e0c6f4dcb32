import ProjectFiles
/// Asset names that change when their bytes do.
enum ThemeAssets {
    /// The theme's stylesheet and script under names that change with
    /// their bytes, so a browser never keeps a stale copy.
    static func themeAssets(_ theme: Theme) -> (stylesheet: String, script: String, files: [String: [UInt8]]) {
        let stylesheetText = theme.assets["rowmotion.css"] ?? ""
        let scriptText = theme.assets["rowmotion.js"] ?? ""
        let stylesheet = "assets/rowmotion.\(contentHash(stylesheetText)).css"
        let script = "assets/rowmotion.\(contentHash(scriptText)).js"
        return (stylesheet, script, [stylesheet: Array(stylesheetText.utf8), script: Array(scriptText.utf8)])
    }

    /// The first 16 hex digits of the SHA-256: a stable content key for
    /// asset names that no file can be made to share with another (the
    /// review page loads the built-in script beside a project's own, by name).
    static func contentHash(_ text: String) -> String {
        String(Digest.sha256(text.utf8).prefix(16))
    }
}
