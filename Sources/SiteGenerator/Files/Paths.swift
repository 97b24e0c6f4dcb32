import ProjectFiles
import Foundation

/// The tool's version, as `--version` prints it and the build cache records it.
public enum RowmotionVersion {
    public static let string = "0.1.0"
}

extension Paths {
    /// Where a build that writes `output` keeps its cache: one per output
    /// folder, since reused bytes come from that folder.
    public static func cache(forOutput output: String) -> String {
        ".build/rowmotion-cache/" + OutputPaths.cacheName(for: URL(fileURLWithPath: output).standardizedFileURL.path)
    }

    /// Where a build whose cache is `cache` keeps the site before the last
    /// one, to write the next site into (`SiteWriter.Staging`): beside the
    /// cache, out of the project's sight, on the same disk as the site
    /// unless `--out` is elsewhere (then it is not kept: a rename cannot
    /// move it there).
    public static func spare(forCache cache: String) -> String {
        (cache.hasSuffix(".cache") ? String(cache.dropLast(".cache".count)) : cache) + ".spare"
    }
}
