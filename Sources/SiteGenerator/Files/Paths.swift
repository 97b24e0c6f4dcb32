import Foundation

/// The tool's version, as `--version` prints it and the build cache records it.
public enum RowmotionVersion {
    public static let string = "0.1.0"
}

/// Paths as the file system resolves them, and the one question every
/// reader of user folders asks: does this path, symbolic links followed,
/// stay inside that folder? (Sources under `site/` and `examples/`, example
/// references in pages, static files, the files `serve` hands out, and
/// `--out` against the inputs all ask it here.)
public enum Paths {
    /// `path` absolute, standardized, with every symbolic link followed
    /// (the parts that do not exist yet kept as written).
    public static func real(_ path: String) -> String {
        // realpath(3), in Darwin's libc and glibc alike, resolves an
        // existing path in one call; the parts that do not exist yet are
        // taken off, resolved as far as they go, and put back as written.
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        var existing = URL(fileURLWithPath: path).standardizedFileURL.path
        var missing: [String] = []
        while true {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                var result = String(cString: resolved)
                for part in missing { result = (result as NSString).appendingPathComponent(part) }
                return result
            }
            guard existing != "/", !existing.isEmpty else { return path }
            missing.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
    }

    /// Whether `path` lies inside `folder` once links are followed; the
    /// folder itself counts only when `orIsIt` is set.
    public static func isInside(_ path: String, folder: String, orIsIt: Bool = false) -> Bool {
        isInside(path, realFolder: real(folder), orIsIt: orIsIt)
    }

    /// The same, for many paths under one folder: `realFolder` is
    /// `real(folder)`, worked out once.
    public static func isInside(_ path: String, realFolder root: String, orIsIt: Bool = false) -> Bool {
        let target = real(path)
        return (orIsIt && target == root) || target.hasPrefix(root == "/" ? "/" : root + "/")
    }

    /// `path` relative to `folder` when it lies inside it (links followed),
    /// else nil.
    public static func relative(_ path: String, inside folder: String) -> String? {
        let root = real(folder), target = real(path)
        let prefix = root == "/" ? "/" : root + "/"
        return target.hasPrefix(prefix) ? String(target.dropFirst(prefix.count)) : nil
    }

    /// `path` absolute and without `.` or `..` parts, worked out from the
    /// text alone: no symbolic link is followed.
    public static func lexical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardized.path
    }

    /// The project an input folder belongs to, which nothing a build reads
    /// may lead out of: the git work tree that holds the current folder (or
    /// the current folder itself, outside git) when the input folder is
    /// written below it, else the folder that holds the input folder. Both
    /// are found from the text of the paths and from `.git`, which a pull
    /// request cannot add, never from what the input folder leads to.
    public static func project(of folder: String) -> String {
        let written = lexical(folder)
        let here = lexical(FileManager.default.currentDirectoryPath)
        var top = here
        while true {
            if FileManager.default.fileExists(atPath: (top as NSString).appendingPathComponent(".git")) { break }
            let up = (top as NSString).deletingLastPathComponent
            if up == top || up.isEmpty { top = here; break }
            top = up
        }
        if written == top || written.hasPrefix(top == "/" ? "/" : top + "/") { return top }
        return (written as NSString).deletingLastPathComponent
    }

    /// Where a build that writes `output` keeps its cache: one per output
    /// folder, since reused bytes come from that folder.
    public static func cache(forOutput output: String) -> String {
        ".build/rowmotion-cache/" + OutputPaths.cacheName(for: URL(fileURLWithPath: output).standardizedFileURL.path)
    }
}
