import Foundation
import ProjectFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What marks a folder as a site Rowmotion wrote, and what says whether it
/// is still the one a build wrote: read by the writer, the cache and `serve`.
enum SiteFolder {
    /// The file every written site holds at its root.
    static let marker = ".rowmotion-site"

    /// Who wrote the site at `output`: the identity of its marker file
    /// (device, inode, change time), which the build cache records when it
    /// writes the site. A `_site/` and a cache a pull request committed
    /// come out of a checkout with new identities, so they are never taken
    /// for this machine's last build. Nil when there is no plain marker.
    static func stamp(of output: String) -> String? {
        let path = (output as NSString).appendingPathComponent(marker)
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if os(Linux)
        let changed = status.st_ctim
        #else
        let changed = status.st_ctimespec
        #endif
        return "\(status.st_dev):\(status.st_ino):\(changed.tv_sec).\(changed.tv_nsec)"
    }

    /// Each regular file of the site at `folder` (its marker aside) with its
    /// stamp, or nil when the site holds anything else: a link, a folder
    /// whose name is not UTF-8 (not walked into), a pipe, two names that
    /// compare equal as Swift strings.
    static func files(of folder: String) -> [String: FileStamp]? {
        var files: [String: FileStamp] = [:]
        for entry in FolderWalk.entries(under: folder, stamping: true, inParallel: true) where entry.path != marker {
            if entry.isBadName || entry.isLink { return nil }
            if entry.isFolder { continue }
            // Two names a `String` takes for one (canonically equivalent:
            // `K` and U+212A KELVIN SIGN), which the file system keeps apart:
            // a site that holds them is not one the build wrote.
            guard let stamp = entry.stamp, files[entry.path] == nil else { return nil }
            files[entry.path] = stamp
        }
        return files
    }

    /// Whether `path` is a folder itself, not a link to one: a site the
    /// writer made (a link in its place is refused by a clean build, and
    /// so never taken as the last build's site).
    static func isPlainFolder(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// One key for the files of the site at `folder` as `files(of:)` lists
    /// them (nil where it is nil): equal to `seal(of: written)` exactly
    /// when the site holds the files a build wrote, none written since.
    /// (No dictionary: a build with nothing to do compares 12,000 stamps.)
    static func seal(of folder: String) -> String? { sealed(folder)?.key }

    /// The files of the site at `folder`, as its seal reads them.
    static func sealed(_ folder: String) -> SealedFiles? {
        var files: [(path: String, stamp: FileStamp)] = []
        var folders: [String] = []
        for entry in FolderWalk.entries(under: folder, stamping: true, inParallel: true) where entry.path != marker {
            if entry.isBadName || entry.isLink { return nil }
            if entry.isFolder { folders.append(entry.path); continue }
            guard let stamp = entry.stamp else { return nil }
            files.append((entry.path, stamp))
        }
        return SealedFiles(sorting: files, folders: folders)
    }

    /// The same key for the stamps a build recorded of its site's files
    /// (its folders are those on the way to them: a build makes no other).
    static func seal(of written: [String: FileStamp]) -> String {
        var folders = Set<String>()
        for path in written.keys {
            var parent = OutputParent.of(path)
            while !parent.isEmpty, folders.insert(parent).inserted { parent = OutputParent.of(parent) }
        }
        return SealedFiles(sorting: written.map { (path: $0.key, stamp: $0.value) }, folders: Array(folders))!.key
    }

    /// A relative path that stays inside the site (and is not its marker).
    /// (Its parts read byte by byte: none empty, `.` or `..`.)
    static func isSafe(_ path: String) -> Bool {
        guard !path.isEmpty, path != marker else { return false }
        var (length, dots) = (0, 0)
        func partIsSafe() -> Bool { length > 0 && !(dots == length && length <= 2) }
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                guard partIsSafe() else { return false }
                (length, dots) = (0, 0)
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return partIsSafe()
    }
}

/// A site's files as its seal reads them: each file's path and what
/// `FileStamp.sameContent` compares, in the byte order of the paths; the
/// seal (`key`) is their hash, and the seal of the same files with some
/// of them written again (`key(with:)`) needs no sort.
struct SealedFiles: Sendable {
    private(set) var files: [(path: String, stamp: FileStamp)]
    /// Every folder (an empty one left in a site is not the build's), in byte order.
    private(set) var folders: [String]
    private(set) var key: String

    /// Nil for two paths of the same bytes (a walk that listed a file
    /// twice). The paths are laid end to end in one buffer and sorted there
    /// (12,000 strings sorted as values were most of a build after an edit's sealing).
    init?(sorting unsorted: [(path: String, stamp: FileStamp)], folders: [String]) {
        var names: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        spans.reserveCapacity(unsorted.count)
        for (path, _) in unsorted {
            spans.append((names.count, path.utf8.count))
            names += path.utf8
        }
        var order = Array(unsorted.indices)
        let distinct = names.withUnsafeBytes { bytes -> Bool in
            func compare(_ a: Int, _ b: Int) -> Int32 {
                let (x, y) = (spans[a], spans[b])
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(bytes.baseAddress! + x.start, bytes.baseAddress! + y.start, common)
                return order != 0 ? order : Int32(x.count < y.count ? -1 : x.count > y.count ? 1 : 0)
            }
            order.sort { compare($0, $1) < 0 }
            return zip(order, order.dropFirst()).allSatisfy { compare($0, $1) != 0 }
        }
        guard distinct else { return nil }
        files = order.map { unsorted[$0] }
        self.folders = folders.sorted(by: Paths.precedes)
        key = ""
        key = key(with: [:])
    }

    /// The seal of these files with those of `changed` at their new stamps.
    func key(with changed: [String: FileStamp]) -> String {
        var hasher = Digest.Hasher()
        for (path, stamp) in files {
            hasher.add(path)
            let stamp = changed.isEmpty ? stamp : changed[path] ?? stamp
            var fields = (stamp.size.littleEndian, stamp.modified.littleEndian, stamp.inode.littleEndian)
            withUnsafeBytes(of: &fields) { hasher.add($0) }
        }
        // (After the files, each folder's path: no file's is the empty part that ends them.)
        hasher.add("")
        for folder in folders { hasher.add(folder) }
        return hasher.key
    }
}
