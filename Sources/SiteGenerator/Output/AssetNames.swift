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

    /// FNV-1a, 64 bits, as 16 hex digits: a stable content hash for asset names.
    static func contentHash(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
