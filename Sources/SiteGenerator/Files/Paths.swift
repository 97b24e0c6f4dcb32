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
}
