import Foundation
import SystemPackage

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
        var existing = FilePath(lexical(path))
        var missing: [FilePath.Component] = []
        while let last = existing.lastComponent {
            existing.removeLastComponent()
            missing.insert(last, at: 0)
            if let resolved = realpath(existing.string, nil) {
                defer { free(resolved) }
                return FilePath(String(cString: resolved)).appending(missing).string
            }
        }
        return path
    }

    /// Whether `path` lies inside `folder` once links are followed; the
    /// folder itself counts only when `orIsIt` is set.
    public static func isInside(_ path: String, folder: String, orIsIt: Bool = false) -> Bool {
        isInside(path, realFolder: real(folder), orIsIt: orIsIt)
    }

    /// The same, for many paths under one folder: `realFolder` is
    /// `real(folder)`, worked out once.
    public static func isInside(_ path: String, realFolder root: String, orIsIt: Bool = false) -> Bool {
        let target = FilePath(real(path)), folder = FilePath(root)
        return target.starts(with: folder) && (orIsIt || target != folder)
    }

    /// `path` relative to `folder` when it lies inside it (links followed),
    /// else nil.
    public static func relative(_ path: String, inside folder: String) -> String? {
        guard let parts = parts(of: real(path), under: real(folder)), !parts.isEmpty else { return nil }
        return parts.joined(separator: "/")
    }

    /// The parts of `path` below `folder` (both absolute and normal), empty
    /// for the folder itself; nil when it is not inside it. Part by part:
    /// `/a/bc` is not inside `/a/b`.
    public static func parts(of path: String, under folder: String) -> [String]? {
        let target = FilePath(path), root = FilePath(folder)
        guard target.starts(with: root) else { return nil }
        return target.components.dropFirst(root.components.count).map(\.string)
    }

    /// `path` absolute (from the working folder) and without `.` or `..`
    /// parts, worked out from the text alone: no symbolic link is followed.
    public static func lexical(_ path: String) -> String {
        FilePath(FileManager.default.currentDirectoryPath).pushing(FilePath(path)).lexicallyNormalized().string
    }
}

extension Paths {
    /// Whether `a` comes before `b` in the byte order of their UTF-8 (the
    /// order a file system's names and the keys over them are sorted in):
    /// `memcmp` on their bytes where they are contiguous, as native strings
    /// are (a generic walk of the two views was a tenth of a one-edit build,
    /// sorting 12,000 paths four times).
    public static func precedes(_ a: String, _ b: String) -> Bool {
        let compared = a.utf8.withContiguousStorageIfAvailable { first in
            b.utf8.withContiguousStorageIfAvailable { second -> Bool in
                let common = min(first.count, second.count)
                let order = common == 0 ? 0 : memcmp(first.baseAddress!, second.baseAddress!, common)
                return order != 0 ? order < 0 : first.count < second.count
            }
        }
        return (compared ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Whether `a` and `b` are the same bytes (a `String` takes `café`
    /// composed and decomposed for one name, which a file system keeps apart).
    public static func sameBytes(_ a: String, _ b: String) -> Bool {
        let compared = a.utf8.withContiguousStorageIfAvailable { first in
            b.utf8.withContiguousStorageIfAvailable { second -> Bool in
                first.count == second.count && (first.count == 0 || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
            }
        }
        return (compared ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }
}
