import Foundation
import SystemPackage

/// Every entry under a folder, by path relative to it: what
/// `FileManager.enumerator(atPath:)` lists (folders and files, hidden ones
/// too; symbolic links listed, not followed), read with `opendir(3)` and
/// `readdir(3)`, which Darwin's libc and glibc both have. Foundation's
/// enumerator standardizes every path it hands out, which took most of a
/// no-change rebuild of a large site. A root that is itself a link is
/// followed (Foundation's enumerator lists nothing under one on Linux).
public enum FolderWalk {
    public struct Entry: Equatable, Sendable {
        /// `/`-separated, relative to the folder walked.
        public var path: String
        /// A folder (not a link to one).
        public var isFolder: Bool
        /// A symbolic link (to anything).
        public var isLink = false
        /// A regular file (not a link to one, a pipe, a socket or a device).
        public var isFile = false
        /// Whether its name's bytes are not UTF-8 (`path` shows them with
        /// U+FFFD, and names no file).
        public var isBadName = false
        /// A regular file's stamp, taken as it was listed (`stamping`
        /// walks only); nil for anything else.
        public var stamp: FileStamp?
        /// A stamped file's permission bits and owner, as listed.
        public var permissions: UInt32?
        public var owner: UInt32?

        public init(path: String, isFolder: Bool, isLink: Bool = false) {
            (self.path, self.isFolder, self.isLink) = (path, isFolder, isLink)
        }
    }

    /// The entries under `folder` in no particular order; none when it
    /// cannot be read. Folders that cannot be read are listed, not entered;
    /// hidden ones (`.git`) neither listed nor entered unless `enteringHidden`.
    /// `stamping` asks each entry that is not a folder for its stamp with
    /// `fstatat(2)` beside its folder's descriptor (a name to look up, not
    /// a path): the one `stat` a build of an unchanged site makes per file.
    /// `inParallel` walks each folder of the top one as a task of its own
    /// (a site's ten thousand files are stamped on every core).
    public static func entries(under folder: String, enteringHidden: Bool = true, stamping: Bool = false, inParallel: Bool = false) -> [Entry] {
        guard inParallel else { return walk([(folder, "")], enteringHidden: enteringHidden, stamping: stamping, descending: true) }
        let top = walk([(folder, "")], enteringHidden: enteringHidden, stamping: stamping, descending: false)
        let folders = top.filter { $0.isFolder && !$0.isBadName }.map(\.path)
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        let inner = Parallel.map(folders) { name in
            walk([(base + name, name)], enteringHidden: enteringHidden, stamping: stamping, descending: true)
        }
        return top + inner.joined()
    }

    /// The entries under each of `pending` (a folder's path, and its path
    /// relative to the walk's root), and under their folders when `descending`.
    private static func walk(_ pending: [(absolute: String, relative: String)], enteringHidden: Bool, stamping: Bool, descending: Bool) -> [Entry] {
        var entries: [Entry] = []
        var pending = pending
        while let (absolute, relative) = pending.popLast() {
            guard let directory = opendir(absolute) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let (name, isBadName) = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                        String(validatingCString: $0).map { ($0, false) } ?? (String(cString: $0), true)
                    }
                }
                guard name != ".", name != "..", enteringHidden || !name.hasPrefix(".") else { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                let full = absolute.hasSuffix("/") ? absolute + name : absolute + "/" + name
                var isFolder = false, isLink = false, isFile = false, stamp: FileStamp?, permissions: UInt32?, owner: UInt32?
                let type = Int(entry.pointee.d_type)
                switch type {
                case Int(DT_DIR): isFolder = true
                case Int(DT_LNK): isLink = true
                case Int(DT_REG) where !stamping: isFile = true
                default:
                    // File systems that do not say, and files to stamp: ask
                    // without following links.
                    guard type == Int(DT_UNKNOWN) || (stamping && !isBadName) else { break }
                    var status = stat()
                    let asked = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                        pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                            fstatat(dirfd(directory), $0, &status, AT_SYMLINK_NOFOLLOW)
                        }
                    }
                    if asked == 0 {
                        isFolder = (status.st_mode & S_IFMT) == S_IFDIR
                        isLink = (status.st_mode & S_IFMT) == S_IFLNK
                        isFile = (status.st_mode & S_IFMT) == S_IFREG
                        if stamping {
                            stamp = FileStamp(status)
                            (permissions, owner) = (UInt32(status.st_mode) & 0o7777, UInt32(status.st_uid))
                        }
                    }
                }
                var found = Entry(path: path, isFolder: isFolder, isLink: isLink)
                found.isBadName = isBadName
                found.stamp = stamp
                (found.permissions, found.owner) = (permissions, owner)
                found.isFile = isFile
                entries.append(found)
                if descending, isFolder, !found.isBadName { pending.append((full, path)) }
            }
        }
        return entries
    }

    /// The paths of the entries under `folder`, sorted.
    public static func paths(under folder: String) -> [String] {
        entries(under: folder).map(\.path).sorted()
    }

    /// Whether `path` is a regular file itself, not a link to one (nor a
    /// folder, pipe or device): what a writer or server of the output may
    /// read, since a link in the output could lead anywhere.
    public static func isPlainFile(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path`, or any folder on the way to it from `root`, is a
    /// symbolic link. `relative` is `/`-separated, under `root`.
    public static func passesThroughLink(_ relative: String, under root: String) -> Bool {
        var current = FilePath(root)
        for part in FilePath(relative).components {
            current.append(part)
            var status = stat()
            guard lstat(current.string, &status) == 0 else { return false }
            if (status.st_mode & S_IFMT) == S_IFLNK { return true }
        }
        return false
    }
}
