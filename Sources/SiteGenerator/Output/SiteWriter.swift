import Foundation
import SnapshotFormat

/// Writes a whole site at once: into a temporary folder beside the output,
/// then swapped in, so a failed or killed build leaves the previous site as
/// it was. A folder Rowmotion did not create (no marker file) is never
/// replaced. Files whose bytes did not change are hard-linked from the
/// previous site instead of written again: on a real disk, writing
/// dominates a build.
public enum SiteWriter {
    /// The file that marks a folder as Rowmotion's to replace.
    public static let marker = ".rowmotion-site"
    static let markerText = "This folder was written by `rowmotion build`, which replaces it whole on every build.\n"

    /// Writes `files` (paths relative to the site, `/`-separated) as the
    /// folder `output`.
    ///
    /// - Returns: how many files were written, and how many were reused.
    /// - Throws: a diagnostic naming the output folder.
    @discardableResult
    public static func write(_ files: [String: [UInt8]], to output: String) throws(Diagnostic) -> (written: Int, reused: Int) {
        let manager = FileManager.default
        let target = URL(fileURLWithPath: output).standardizedFileURL
        let parent = target.deletingLastPathComponent()
        let name = target.lastPathComponent
        let here = SourceLocation(file: output, line: 1, column: 1)
        func failure(_ message: String) -> Diagnostic { .error("output", at: here, message) }

        for path in files.keys where !isSafe(path) {
            throw failure("refusing to write '\(path)' outside the site")
        }
        var isFolder: ObjCBool = false
        let exists = manager.fileExists(atPath: target.path, isDirectory: &isFolder)
        if exists {
            guard isFolder.boolValue, manager.fileExists(atPath: target.appendingPathComponent(marker).path) else {
                throw failure("refusing to replace '\(output)': it exists and was not created by Rowmotion "
                              + "(no \(marker) file in it); remove it or choose another --out")
            }
        }
        let unique = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let staging = parent.appendingPathComponent(".\(name).rowmotion-new-\(unique)")
        var written = 0, reused = 0
        do {
            try manager.createDirectory(at: staging, withIntermediateDirectories: true)
            for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
                let destination = staging.appendingPathComponent(path)
                try manager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                let previous = target.appendingPathComponent(path)
                if exists, let old = manager.contents(atPath: previous.path), old.elementsEqual(bytes),
                   (try? manager.linkItem(at: previous, to: destination)) != nil {
                    reused += 1
                    continue
                }
                guard manager.createFile(atPath: destination.path, contents: Data(bytes)) else {
                    throw failure("cannot write '\(path)' in the site")
                }
                written += 1
            }
            guard manager.createFile(atPath: staging.appendingPathComponent(marker).path, contents: Data(markerText.utf8)) else {
                throw failure("cannot write the site's marker file")
            }
        } catch let diagnostic as Diagnostic {
            try? manager.removeItem(at: staging)
            throw diagnostic
        } catch {
            try? manager.removeItem(at: staging)
            throw failure("cannot write the site: \(error.localizedDescription)")
        }
        // Swap: the old site moves aside, the new one takes its name.
        let retired = parent.appendingPathComponent(".\(name).rowmotion-old-\(unique)")
        do {
            if exists { try manager.moveItem(at: target, to: retired) }
            try manager.moveItem(at: staging, to: target)
        } catch {
            if exists && !manager.fileExists(atPath: target.path) { try? manager.moveItem(at: retired, to: target) }
            try? manager.removeItem(at: staging)
            throw failure("cannot replace the site: \(error.localizedDescription)")
        }
        if exists { try? manager.removeItem(at: retired) }
        return (written, reused)
    }

    /// A relative path that stays inside the site.
    static func isSafe(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !path.isEmpty && !path.hasPrefix("/") && !parts.contains { $0.isEmpty || $0 == "." || $0 == ".." } && path != marker
    }
}
