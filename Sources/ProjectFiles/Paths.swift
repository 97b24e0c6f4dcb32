import Foundation

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
    /// text alone: no symbolic link is followed. (`standardizedFileURL`:
    /// `standardized` on a relative file URL drops the working folder on
    /// Linux, so `_site/../_site` was `/_site`.)
    public static func lexical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
