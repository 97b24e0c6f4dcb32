import ProjectFiles
import Diagnostics
import Dispatch
import Foundation
import SnapshotFormat

/// Writes a whole site at once: into a temporary folder beside the output,
/// then swapped in, so a failed or killed build leaves the previous site as
/// it was. A folder Rowmotion did not create (no marker file) is never
/// replaced. Files whose bytes did not change are hard-linked from the
/// previous site instead of written again: on a real disk, writing
/// dominates a build.
public enum SiteWriter {
    /// Whether a file's old bytes are `bytes`, compared as memory (the
    /// generic compare, element by element through `Data`'s iterator, was
    /// a tenth of a build over an existing site).
    static func same(_ old: Data, _ bytes: [UInt8]) -> Bool {
        old.count == bytes.count && old.withUnsafeBytes { old in
            bytes.withUnsafeBytes { new in old.count == 0 || memcmp(old.baseAddress!, new.baseAddress!, old.count) == 0 }
        }
    }

    /// The file that marks a folder as Rowmotion's to replace.
    public static let marker = SiteFolder.marker

    /// The stamp of the site at `output` (see `SiteFolder.stamp`).
    public static func stamp(of output: String) -> String? { SiteFolder.stamp(of: output) }
    static let markerText = "This folder was written by `rowmotion build`, which replaces it whole on every build.\n"

    /// Writes `files` (paths relative to the site, `/`-separated) as the
    /// folder `output`. Inside the project, no folder on the way to it, nor
    /// the output itself, may be a symbolic link (`WritePath`); outside it,
    /// a link named as --out is followed (the folder it leads to is
    /// replaced, the link stays), as the user asked.
    ///
    /// `beforeSwap` is given the new site's folder and, when the write
    /// knows them, its files' stamps.
    ///
    /// `kept` are files of the old site to keep as they are, unread: each
    /// is linked into the new one (the build fails if one is gone).
    ///
    /// - Returns: how many files were written, and how many were reused.
    /// - Throws: a diagnostic naming the output folder.
    @discardableResult
    public static func write(_ files: [String: [UInt8]], keeping kept: Set<String> = [], to output: String,
                             in project: Project = .ofWorkingFolder(),
                             beforeSwap: (_ folder: String, _ stamps: [String: FileStamp]?) throws(Diagnostic) -> Void = { _, _ in }) throws(Diagnostic) -> (written: Int, reused: Int) {
        let staging = try Staging.open(output, in: project)
        return try write(files, keeping: kept, into: staging, beforeSwap: beforeSwap)
    }

    /// Writes `files` into `staging` (which may hold pages already, put
    /// there as they were rendered: `written` and `reused` count them),
    /// links `kept` into it from the old site, and swaps it in; removes it
    /// when anything fails. `beforeSwap` is given the new site's folder
    /// once it is whole, before it takes the site's place: what it throws
    /// leaves the old site (the build's cache is saved there, with the new
    /// site's stamps, so a cache that cannot be saved replaces nothing).
    @discardableResult
    static func write(_ files: [String: [UInt8]], keeping kept: Set<String> = [], into staging: Staging,
                      counted: (written: Int, reused: Int) = (0, 0), staged: Set<String> = [],
                      beforeSwap: (_ folder: String, _ stamps: [String: FileStamp]?) throws(Diagnostic) -> Void = { _, _ in }) throws(Diagnostic) -> (written: Int, reused: Int) {
        var (written, reused) = counted
        do throws(Diagnostic) {
            for path in files.keys where !SiteFolder.isSafe(path) {
                throw staging.failure("refusing to write '\(path)' outside the site")
            }
            for path in kept where !SiteFolder.isSafe(path) || files[path] != nil {
                throw staging.failure("refusing to keep '\(path)' from the old site")
            }
            guard kept.isEmpty || staging.exists else { throw staging.failure("cannot keep the old site's pages: there is no old site") }
            let paths = (Array(files.keys) + kept).sorted()
            try staging.makeFolders(for: paths)
            // Per file, on every core: nil when it could not be written,
            // else whether it was reused.
            let outcomes = Parallel.map(paths) { path -> Bool? in
                // A kept file was a plain file of the old site when the
                // build walked it: linked, never read.
                guard let bytes = files[path] else { return staging.link(path) ? true : nil }
                return staging.put(path, bytes)
            }
            for (path, outcome) in zip(paths, outcomes) {
                guard let wasReused = outcome else { throw staging.failure("cannot write '\(path)' in the site") }
                if wasReused { reused += 1 } else { written += 1 }
            }
            let site = staged.union(files.keys).union(kept)
            try staging.finish(site: site)
            try beforeSwap(staging.path, kept.isEmpty ? nil : staging.stamps(of: site, kept: kept))
            // The old site is the next build's staging folder when most of
            // it is this one's (its files linked, not written); else it
            // would be written over as a new folder is, and it is removed
            // rather than kept beside the site.
            try staging.swap(keepingOld: written * 2 <= written + reused)
        } catch {
            staging.discard()
            throw error
        }
        return (written, reused)
    }

    /// A site being written: a folder beside the output, filled, then
    /// swapped in whole (`swap`) or removed (`discard`). A build writes
    /// its pages into it as it renders them, so that they are not all held.
    ///
    /// With a `spare` (the command line's builds: a folder beside the
    /// cache), the site before the old one is kept there by each swap and
    /// is the next build's staging folder: a file it holds that is the old
    /// site's own (the same inode: it was linked from there) stays as it
    /// is, any other is replaced or removed, so that writing a site costs
    /// what changed since, not a link per file and the old site removed.
    /// Its contents are trusted for nothing: a file is left only when it
    /// *is* the old site's file, or when its bytes, read now, are the ones
    /// to write; anything but folders and plain files of this user with the
    /// modes a new folder and file get (a link a pull request committed
    /// there, a folder made read-only) makes it unusable. Names are
    /// compared as the file system compares them, byte for byte: Swift's
    /// `String` takes canonically equivalent names for one (`K` and U+212A
    /// KELVIN SIGN), which would let a planted twin of a page stay. Nothing
    /// is ever written through a name already there (`O_EXCL`, `link`):
    /// what the spare held is removed first, and when it cannot be, the
    /// build fails rather than write into a file the old site may share.
    struct Staging: Sendable {
        /// A name as the file system compares it.
        typealias Name = [UInt8]

        /// The output as it was named (diagnostics name it), its real path, and the staging folder's.
        let output: String
        let target: String
        let path: String
        /// Whether there is an old site (to reuse files from, and to replace).
        let exists: Bool
        let unique: String
        /// Where the old site is kept when it is swapped out, checked for
        /// links on the way; nil to remove it.
        var spare: String? = nil
        /// The files (with their stamps) and folders the staging folder
        /// held when it was opened: a spare's.
        var present: [Name: FileStamp] = [:]
        var presentFolders: Set<Name> = []
        /// The old site's files with their stamps, as the build walked it.
        var old: [Name: FileStamp] = [:]

        func failure(_ message: String) -> Diagnostic { .error("output", at: SourceLocation(file: output, line: 1, column: 1), message) }

        /// Inside the project, no folder on the way to the output, nor the
        /// output itself, may be a symbolic link (`WritePath`); outside it,
        /// a link named as --out is followed (the folder it leads to is
        /// replaced, the link stays), as the user asked. An existing output
        /// must be a site Rowmotion wrote (its marker).
        static func open(_ output: String, in project: Project, spare: String? = nil) throws(Diagnostic) -> Staging {
            let manager = FileManager.default
            let prepared = try WritePath.prepare(output, in: project)
            let target = URL(fileURLWithPath: project.parts(of: output) == nil ? Paths.real(prepared) : prepared)
            let parent = target.deletingLastPathComponent()
            let name = target.lastPathComponent
            // First, what builds killed mid-way left (a site killed between
            // its swap's two renames is put back).
            removeStaleFolders(of: name, in: parent)
            var isFolder: ObjCBool = false
            let exists = manager.fileExists(atPath: target.path, isDirectory: &isFolder)
            let unique = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            var staging = Staging(output: output, target: target.path, path: parent.appendingPathComponent(".\(name).rowmotion-new-\(unique)").path,
                                  exists: exists, unique: unique)
            if exists {
                guard isFolder.boolValue, manager.fileExists(atPath: target.appendingPathComponent(marker).path) else {
                    throw staging.failure("refusing to replace '\(output)': it exists and was not created by Rowmotion "
                                          + "(no \(marker) file in it); remove it or choose another --out")
                }
            }
            staging.spare = spare.flatMap { try? WritePath.prepare($0, in: project, makingFolders: false) }
            // The spare, taken (a rename: a build running beside this one
            // takes it or does not), when there is an old site to compare
            // it with; else a new folder of its own (never one that was there).
            if exists, let spare = staging.spare, rename(spare, staging.path) == 0 {
                if let (files, folders) = staging.listSpare() {
                    (staging.present, staging.presentFolders) = (files, folders)
                    return staging
                }
                removeTree(URL(fileURLWithPath: staging.path))
            }
            guard mkdir(staging.path, 0o777) == 0 else {
                throw staging.failure("cannot make the staging folder '\((staging.path as NSString).lastPathComponent)': \(String(cString: strerror(errno)))")
            }
            return staging
        }

        /// Lists the spare just renamed to `path`: a folder (not a link) of
        /// this user's, holding only folders and plain files of this user's,
        /// with UTF-8 names and the modes a new folder and a new file get
        /// here (a probe of each, made and removed); its files with their
        /// stamps and its folders. Nil when it is anything else.
        func listSpare() -> (files: [Name: FileStamp], folders: Set<Name>)? {
            var status = stat()
            let user = UInt32(geteuid())
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, UInt32(status.st_uid) == user else { return nil }
            let probe = path + "/.rowmotion-probe-\(unique)"
            guard mkdir(probe, 0o777) == 0 else { return nil }
            let madeFolder = lstat(probe, &status) == 0 ? UInt32(status.st_mode) & 0o7777 : nil
            rmdir(probe)
            guard WritePath.writeNewFile([], to: probe) else { return nil }
            let madeFile = lstat(probe, &status) == 0 ? UInt32(status.st_mode) & 0o7777 : nil
            unlink(probe)
            guard let madeFolder, let madeFile else { return nil }
            var files: [Name: FileStamp] = [:], folders: Set<Name> = []
            for entry in FolderWalk.entries(under: path, stamping: true) {
                guard !entry.isBadName, !entry.isLink else { return nil }
                if entry.isFolder {
                    // Walked into only when it can be read: one that cannot
                    // would hide its files from the removal of what is not the site.
                    guard lstat(path + "/" + entry.path, &status) == 0, UInt32(status.st_mode) & 0o7777 == madeFolder,
                          UInt32(status.st_uid) == user else { return nil }
                    folders.insert(Array(entry.path.utf8))
                } else if let stamp = entry.stamp, entry.permissions == madeFile, entry.owner == user {
                    files[Array(entry.path.utf8)] = stamp
                } else {
                    return nil
                }
            }
            return (files, folders)
        }

        /// Clears the way for `relative`: what the spare held there (a
        /// file, or a folder and everything in it) is removed. Each path
        /// is put once, so nothing this build wrote is removed. False when
        /// something is still there.
        func clear(_ name: Name, at destination: String) -> Bool {
            if present[name] != nil {
                if unlink(destination) != 0 && errno != ENOENT { return false }
            } else if presentFolders.contains(name) {
                removeTree(URL(fileURLWithPath: destination))
            } else {
                return true
            }
            var status = stat()
            return lstat(destination, &status) != 0 && errno == ENOENT
        }

        /// The old site's files with their stamps, as the build walked it
        /// (`holdsOldFile`); none, and no spare file is kept by its inode.
        mutating func knowOldSite(_ stamps: [String: FileStamp]) {
            old = Dictionary(stamps.map { (Array($0.key.utf8), $0.value) }, uniquingKeysWith: { first, _ in first })
        }

        /// Whether the staging folder holds, at `name`, the old site's
        /// own file there (the same inode: the spare's file was linked from
        /// it), so that it is the same bytes. Both as walked: the old site's
        /// walk found no link in it (`SiteFolder.files`), nor did the spare's.
        func holdsOldFile(_ name: Name) -> Bool {
            guard let there = present[name], let old = old[name] else { return false }
            return there.inode == old.inode
        }

        /// The folders of `paths` (safe relative paths), each once,
        /// parents first, with mkdir(2) (a folder that holds only folders
        /// is made on the way to them); split at the `/` bytes, as the
        /// file system reads a path. One already made, or the spare's, is fine.
        func makeFolders(for paths: [String]) throws(Diagnostic) {
            let slash = UInt8(ascii: "/")
            var made: Set<Name> = [[]]
            for path in paths {
                let bytes = Array(path.utf8)
                for end in bytes.indices where bytes[end] == slash {
                    let folder = Array(bytes[..<end])
                    guard made.insert(folder).inserted, !presentFolders.contains(folder) else { continue }
                    let full = self.path + "/" + String(decoding: folder, as: UTF8.self)
                    // A file the spare held where this site has a folder (not
                    // yet made in its place by an earlier call).
                    var status = stat()
                    if present[folder] != nil, lstat(full, &status) == 0, status.st_mode & S_IFMT != S_IFDIR, unlink(full) != 0 {
                        throw failure("cannot make the folder '\(String(decoding: folder, as: UTF8.self))' in the site: \(String(cString: strerror(errno)))")
                    }
                    if mkdir(full, 0o777) != 0 {
                        let code = errno
                        guard code == EEXIST, lstat(full, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                            throw failure("cannot make the folder '\(String(decoding: folder, as: UTF8.self))' in the site: \(String(cString: strerror(code)))")
                        }
                    }
                }
            }
        }

        /// Puts a file in (its folder made): the spare's file kept when its
        /// bytes, read now, are these; else the old site's file linked when
        /// its bytes are these; else written as a new file. Nil when it
        /// could not be; else whether it was reused. Paths joined as text
        /// (every one is a safe relative path): a URL per file cost 2 % of a build.
        func put(_ relative: String, _ bytes: [UInt8]) -> Bool? {
            let destination = path + "/" + relative
            let previous = target + "/" + relative
            let name = Array(relative.utf8)
            // The spare's own file (this build's folder, which no one else
            // writes; plain, as its walk found it) is compared itself: the
            // old site may have been replaced since this build walked it.
            // (Read only when its size, as walked, is this one's.)
            if present[name]?.size == Int64(bytes.count), let held = FileManager.default.contents(atPath: destination), SiteWriter.same(held, bytes) {
                return true
            }
            guard clear(name, at: destination) else { return nil }
            // Only a plain file of the old site is reused, reached
            // through folders: a link there (which a committed `_site/`
            // could hold) is neither read nor kept.
            if exists, old[name].map({ $0.size == Int64(bytes.count) }) ?? true, FolderWalk.isPlainFile(previous),
               !FolderWalk.passesThroughLink(relative, under: target),
               let old = FileManager.default.contents(atPath: previous), SiteWriter.same(old, bytes),
               Foundation.link(previous, destination) == 0 {
                return true
            }
            return WritePath.writeNewFile(bytes, to: destination) ? false : nil
        }

        /// Links the old site's file in, unread (left as it is when the
        /// spare holds it already).
        func link(_ relative: String) -> Bool {
            let name = Array(relative.utf8), destination = path + "/" + relative
            if holdsOldFile(name) { return true }
            guard clear(name, at: destination), Foundation.link(target + "/" + relative, destination) == 0 else { return false }
            // The file the walk found, not one another build put there since.
            var status = stat()
            guard let walked = old[name], lstat(destination, &status) == 0, UInt64(status.st_ino) == walked.inode else {
                unlink(destination)
                return false
            }
            return true
        }

        /// The stamps of the new site's files (`site`), without walking it:
        /// a kept file is the old site's, whose stamp its walk took; any
        /// other is asked. Nil when one is not a plain file.
        func stamps(of site: Set<String>, kept: Set<String>) -> [String: FileStamp]? {
            var stamps: [String: FileStamp] = [:]
            stamps.reserveCapacity(site.count)
            var asked: [String] = []
            for file in site {
                if kept.contains(file), let stamp = old[Array(file.utf8)] { stamps[file] = stamp } else { asked.append(file) }
            }
            for (file, stamp) in zip(asked, Parallel.map(asked) { FileStamp.of(path + "/" + $0) }) {
                guard let stamp else { return nil }
                stamps[file] = stamp
            }
            return stamps
        }

        /// Removes what the spare held that `site` (every path of the new
        /// site) does not, writes the marker and syncs the folder's entries
        /// once (instead of each file).
        func finish(site: Set<String>) throws(Diagnostic) {
            if !present.isEmpty || !presentFolders.isEmpty {
                var files: Set<Name> = [], folders: Set<Name> = []
                for file in site {
                    let bytes = Array(file.utf8)
                    files.insert(bytes)
                    for end in bytes.indices.reversed() where bytes[end] == UInt8(ascii: "/") {
                        guard folders.insert(Array(bytes[..<end])).inserted else { break }
                    }
                }
                let marker = Array(SiteWriter.marker.utf8)
                for file in present.keys where file != marker && !files.contains(file) && !folders.contains(file) {
                    let full = path + "/" + String(decoding: file, as: UTF8.self)
                    // (Gone with a folder removed on the way: ENOENT, ENOTDIR.)
                    if unlink(full) != 0 && errno != ENOENT && errno != ENOTDIR {
                        throw failure("cannot remove '\(String(decoding: file, as: UTF8.self))' from the staging folder: \(String(cString: strerror(errno)))")
                    }
                }
                // The shallowest first: a removed folder goes with what is in it.
                for folder in presentFolders.sorted(by: { $0.count < $1.count }) where !folders.contains(folder) && !files.contains(folder) {
                    let full = path + "/" + String(decoding: folder, as: UTF8.self)
                    var status = stat()
                    if lstat(full, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                        removeTree(URL(fileURLWithPath: full))
                        if lstat(full, &status) == 0 { throw failure("cannot remove '\(String(decoding: folder, as: UTF8.self))' from the staging folder") }
                    }
                }
                unlink(path + "/" + SiteWriter.marker)
            }
            guard WritePath.writeNewFile(Array(markerText.utf8), to: path + "/" + marker) else {
                throw failure("cannot write the site's marker file")
            }
            sync(folder: path)
        }

        /// Swaps: the old site moves aside, the new one takes its name, and
        /// the old one is removed, or, `keepingOld`, becomes the spare.
        func swap(keepingOld: Bool = false) throws(Diagnostic) {
            let manager = FileManager.default
            let targetURL = URL(fileURLWithPath: target)
            let retired = targetURL.deletingLastPathComponent().appendingPathComponent(".\(targetURL.lastPathComponent).rowmotion-old-\(unique)")
            do {
                if exists { try manager.moveItem(at: targetURL, to: retired) }
                try manager.moveItem(at: URL(fileURLWithPath: path), to: targetURL)
            } catch {
                if exists && !manager.fileExists(atPath: target) { try? manager.moveItem(at: retired, to: targetURL) }
                throw failure("cannot replace the site: \(error.localizedDescription)")
            }
            guard exists else { return }
            if keepingOld, let spare, rename(retired.path, spare) == 0 { return }
            removeTree(retired)
        }

        /// Removes the folder and everything in it (the old site stays).
        func discard() {
            removeTree(URL(fileURLWithPath: path))
        }
    }

    /// Brings the site at `output`, the one whose marker has `stamp` (the
    /// last one written: `serve` keeps it, and the command line's build
    /// after an edit), to `files` by writing only what changed: each file
    /// in `changed` written as a new file beside the old one, then all
    /// renamed over them (a write that fails leaves the site as it was),
    /// each in `removed` unlinked. Each page is replaced whole, never
    /// through a link (a folder on the way that is one is refused); a page
    /// open in a browser reads the old bytes or the new, never a mix. Not
    /// the whole site at once, as `write` is: a save during `serve` costs
    /// what it changed, and a build killed mid-way is a stale page or two,
    /// which the next build (its cache no longer matching) rewrites.
    ///
    /// - Throws: when the site is not that one any more, or a file cannot
    ///   be written.
    public static func update(_ changed: [String: [UInt8]], removed: [String], at output: String, stamp: String?,
                              in project: Project = .ofWorkingFolder()) throws(Diagnostic) {
        let prepared = try WritePath.prepare(output, in: project, makingFolders: false)
        let root = project.parts(of: output) == nil ? Paths.real(prepared) : prepared
        let here = SourceLocation(file: output, line: 1, column: 1)
        func failure(_ message: String) -> Diagnostic { .error("output", at: here, message) }
        guard let stamp, SiteFolder.stamp(of: root) == stamp else { throw failure("the site at '\(output)' is no longer the one this build started from (another build replaced it); build again") }
        let site = Project(root: root, isGitWorkTree: false)
        // Every new file written beside its old one first, then all renamed
        // over them: a write that fails (a full disk) leaves the site as it was.
        var staged: [(temporary: String, target: String, path: String)] = []
        func discard() { for file in staged { unlink(file.temporary) } }
        for path in changed.keys.sorted() {
            guard SiteFolder.isSafe(path) else { discard(); throw failure("refusing to write '\(path)' outside the site") }
            let folder = OutputPaths.parent(of: path)
            // Every folder on the way made when missing, none a link, nor the file itself.
            let target: String
            do throws(Diagnostic) { target = try WritePath.prepare(root + "/" + path, in: site, makingFolders: true) } catch { discard(); throw error }
            let temporary = root + "/" + (folder.isEmpty ? "" : folder + "/") + ".rowmotion-new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            guard WritePath.writeNewFile(changed[path]!, to: temporary) else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                discard()
                throw failure("cannot write '\(path)' in the site: \(reason)")
            }
            staged.append((temporary, target, path))
        }
        for (index, file) in staged.enumerated() where rename(file.temporary, file.target) != 0 {
            let reason = String(cString: strerror(errno))
            for left in staged[index...] { unlink(left.temporary) }
            throw failure("cannot write '\(file.path)' in the site: \(reason)")
        }
        for path in removed {
            guard SiteFolder.isSafe(path) else { throw failure("refusing to write '\(path)' outside the site") }
            let folder = OutputPaths.parent(of: path)
            let target = try WritePath.prepare(root + "/" + path, in: site, makingFolders: false)
            if unlink(target) != 0 && errno != ENOENT { throw failure("cannot remove '\(path)': \(String(cString: strerror(errno)))") }
            // Its folders, once empty, go with it (a clean build would not make them).
            var emptied = folder
            while !emptied.isEmpty, rmdir(root + "/" + emptied) == 0 { emptied = OutputPaths.parent(of: emptied) }
        }
    }

    /// Syncs a folder's entries to the disk, as `write` does once per site.
    public static func sync(folder path: String) {
        syncFolder(path)
    }

    /// Removes the staging and retired folders that builds of `name` killed
    /// mid-way left beside it: those whose process is gone (a build running
    /// now keeps its own). When the site itself is missing, a retired one
    /// (a build killed between its swap's renames) is put back first: a
    /// plain folder with the site's marker, never a link.
    static func removeStaleFolders(of name: String, in parent: URL) {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: parent.path) else { return }
        var siteExists = manager.fileExists(atPath: parent.appendingPathComponent(name).path)
        for entry in entries.sorted() {
            for kind in ["new", "old"] {
                let prefix = ".\(name).rowmotion-\(kind)-"
                guard entry.hasPrefix(prefix), let pid = Int32(entry.dropFirst(prefix.count).prefix { $0 != "-" }) else { continue }
                guard pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
                let folder = parent.appendingPathComponent(entry)
                var status = stat()
                if kind == "old", !siteExists, lstat(folder.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
                   FolderWalk.isPlainFile(folder.appendingPathComponent(marker).path),
                   rename(folder.path, parent.appendingPathComponent(name).path) == 0 {
                    siteExists = true
                    continue
                }
                removeTree(folder)
            }
        }
    }

    /// Removes a folder, making its folders writable first if a plain
    /// removal fails (a site someone made read-only).
    static func removeTree(_ url: URL) {
        let manager = FileManager.default
        // One walk, its files unlinked on every core (never following a
        // link: `unlink` removes the link itself), then its folders, the
        // deepest first: a retired site of 12,000 files one by one through
        // Foundation was a tenth of a one-page rebuild.
        let root = url.path
        let entries = FolderWalk.entries(under: root)
        let removed = Parallel.map(entries.filter { !$0.isFolder }) { unlink(root + "/" + $0.path) == 0 || errno == ENOENT }
        if !removed.contains(false) {
            let folders = entries.filter(\.isFolder).map(\.path).sorted { $0.utf8.count > $1.utf8.count }
            if folders.allSatisfy({ rmdir(root + "/" + $0) == 0 }), rmdir(root) == 0 { return }
        }
        if (try? manager.removeItem(at: url)) != nil { return }
        var folders = [url.path]
        for entry in FolderWalk.entries(under: url.path) where entry.isFolder {
            folders.append(url.appendingPathComponent(entry.path).path)
        }
        for folder in folders { try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        try? manager.removeItem(at: url)
    }


}

/// `fsync(2)` of a folder, so its entries are on the disk before it is
/// renamed into place (nothing to report if the file system cannot).
private func syncFolder(_ path: String) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    _ = close(descriptor)
}
