import ProjectFiles
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

    /// Files no page can run or style: pictures, sound, video, fonts, archives.
    static let inert: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "avif", "ico", "bmp", "tif", "tiff", "mp4", "webm",
                                     "mov", "m4v", "mp3", "ogg", "oga", "wav", "flac", "m4a", "woff", "woff2", "ttf", "otf", "eot",
                                     "pdf", "zip", "gz", "tgz"]

    /// The SHA-256 of each file a page could load as a script, a stylesheet
    /// or a document (any but the inert kinds), by its path.
    static func scriptKeys(_ files: [File]) -> [String: String] {
        var keys: [String: String] = [:]
        for file in files where !inert.contains((file.path as NSString).pathExtension.lowercased()) {
            keys[file.path] = Digest.sha256(file.bytes)
        }
        return keys
    }

    /// Every such file of the site folder, in path order (hidden ones,
    /// such as `.DS_Store`, are never inputs). A file whose path a
    /// generated output already takes is an error rather than a silent choice.
    static func load(_ site: InputFolder, generated: Set<String>, diagnostics: inout [Diagnostic]) -> [File] {
        var files: [File] = []
        for path in site.files where !path.hasSuffix(".md") {
            let location = SourceLocation(file: site.path(of: path), line: 1, column: 1)
            if generated.contains(path) || path.hasPrefix("assets/") {
                diagnostics.append(.error("static-file", at: location,
                                          "'\(path)' is also a page the site generates; rename the file"))
                continue
            }
            do {
                files.append(File(path: path, bytes: try site.read(path, limit: nil)))
            } catch {
                diagnostics.append(.error("unreadable-file", at: location, error.message))
            }
        }
        return files
    }
}
