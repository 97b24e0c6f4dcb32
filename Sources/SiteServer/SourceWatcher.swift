import Foundation
import ProjectFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Notices changes under a few folders by comparing each file's stamp
/// between scans. Polling works the same on every file system (inotify
/// misses changes on some mounts) and costs a few milliseconds a scan for a
/// thousand files.
///
/// A file's times move in the kernel's ticks, not in nanoseconds: two saves
/// of the same size within one tick leave the same size and time, and a
/// watcher of times alone misses the second (seen: `serve` kept a page one
/// edit behind). As git does with files written just before its index, a
/// file modified within the last `racyWindow` seconds is stamped by its
/// bytes too.
public struct SourceWatcher: Sendable {
    /// What a scan saw of one file.
    public struct Stamp: Equatable, Sendable {
        public var size: Int64
        public var modified: Double
        /// The file's inode and change time: a save that renames a new file
        /// over the old one (as editors do) changes them.
        public var inode: UInt64 = 0
        public var changed: Double = 0
        /// The bytes' SHA-256, for a file modified too recently for its
        /// times to tell two saves apart.
        public var digest: String?

        /// The same file as far as both scans can tell: the same times and
        /// size, and the same bytes where both read them (a file leaves the
        /// racy window without changing).
        public static func == (a: Stamp, b: Stamp) -> Bool {
            a.size == b.size && a.modified == b.modified && a.inode == b.inode && a.changed == b.changed
                && (a.digest == nil || b.digest == nil || a.digest == b.digest)
        }
    }

    /// How recent a modification must be for the file's bytes to count.
    public static let racyWindow = 2.0

    public let folders: [String]

    public init(folders: [String]) {
        self.folders = folders
    }

    /// Every file under the folders, hidden ones (never inputs) left out,
    /// by path (an editor's backup, `page.md~`, is a file the build reads). Links are not
    /// followed (a build refuses them; their own change is seen).
    public func scan() -> [String: Stamp] {
        var stamps: [String: Stamp] = [:]
        let now = Date().timeIntervalSince1970
        for folder in folders {
            for entry in FolderWalk.entries(under: folder, enteringHidden: false) where !entry.isFolder {
                let path = (folder as NSString).appendingPathComponent(entry.path)
                if let stamp = Self.stamp(of: path, now: now) { stamps[path] = stamp }
            }
        }
        return stamps
    }

    /// What a scan would see of the entry at `path`, or nil when there is none (or it is a folder).
    public static func stamp(of path: String, now: Double = Date().timeIntervalSince1970) -> Stamp? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { return nil }
        #if os(Linux)
        let (modified, changed) = (status.st_mtim, status.st_ctim)
        #else
        let (modified, changed) = (status.st_mtimespec, status.st_ctimespec)
        #endif
        var stamp = Stamp(size: Int64(status.st_size), modified: Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9,
                          inode: UInt64(status.st_ino), changed: Double(changed.tv_sec) + Double(changed.tv_nsec) / 1e9)
        if status.st_mode & S_IFMT == S_IFREG, now - max(stamp.modified, stamp.changed) < racyWindow {
            stamp.digest = (try? FileContents.read(path, limit: 64 << 20, followingLink: false)).map { Digest.sha256($0) }
        }
        return stamp
    }

    /// The paths added, removed or changed between two scans, sorted.
    public static func changes(from old: [String: Stamp], to new: [String: Stamp]) -> [String] {
        var paths = Set<String>()
        for (path, stamp) in new where old[path] != stamp { paths.insert(path) }
        for path in old.keys where new[path] == nil { paths.insert(path) }
        return paths.sorted()
    }
}
