import Diagnostics
import SnapshotFormat
import Foundation

/// The files of `site/` that are not Markdown pages — images, downloads, a
/// JSON Schema — published as they are, at the same path under the output.
enum StaticFiles {
    struct File: Sendable {
        /// The path under `site/` and under the output.
        var path: String
        var bytes: [UInt8]
    }

    /// Every such file of `site`, in path order. Hidden files and folders
    /// (`.DS_Store`, `.git`) are skipped; a file whose path a generated
    /// output already takes, or that leads outside `site/` through a
    /// symbolic link, is an error rather than a silent choice.
    /// `walked`: the site folder's entries as `FolderWalk` found them (the
    /// pages' walk; its folders may be left out), or nil to walk it here.
    static func load(site: String, walked: [String]? = nil, generated: Set<String>, diagnostics: inout [Diagnostic]) -> [File] {
        let manager = FileManager.default
        guard manager.fileExists(atPath: site) else { return [] }
        let rootURL = URL(fileURLWithPath: site)
        let paths = (walked ?? FolderWalk.paths(under: site))
            .filter { path in !path.hasSuffix(".md") && !path.split(separator: "/").contains { $0.hasPrefix(".") } }
            .sorted()
        var files: [File] = []
        for path in paths {
            let fileURL = rootURL.appendingPathComponent(path)
            // Named as pages are: under the folder as it was given.
            let location = SourceLocation(file: (site as NSString).appendingPathComponent(path), line: 1, column: 1)
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: fileURL.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            guard Paths.isInside(fileURL.path, folder: site) else {
                diagnostics.append(.error("static-file", at: location, "this file leads outside \(site)/ through a symbolic link; copy it in instead"))
                continue
            }
            if generated.contains(path) || path.hasPrefix("assets/") {
                diagnostics.append(.error("static-file", at: location,
                                          "'\(path)' is also a page the site generates; rename the file"))
                continue
            }
            do {
                files.append(File(path: path, bytes: try FileContents.read(fileURL.path, limit: nil)))
            } catch {
                diagnostics.append(.error("unreadable-file", at: location, error.message))
            }
        }
        return files
    }
}
