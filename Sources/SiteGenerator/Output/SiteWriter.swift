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
    /// - Returns: how many files were written, and how many were reused.
    /// - Throws: a diagnostic naming the output folder.
    @discardableResult
    public static func write(_ files: [String: [UInt8]], to output: String, in project: Project = .ofWorkingFolder()) throws(Diagnostic) -> (written: Int, reused: Int) {
        let manager = FileManager.default
        let prepared = try WritePath.prepare(output, in: project)
        let target = URL(fileURLWithPath: project.parts(of: output) == nil ? Paths.real(prepared) : prepared)
        let parent = target.deletingLastPathComponent()
        let name = target.lastPathComponent
        let here = SourceLocation(file: output, line: 1, column: 1)
        func failure(_ message: String) -> Diagnostic { .error("output", at: here, message) }

        for path in files.keys where !SiteFolder.isSafe(path) {
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
        removeStaleFolders(of: name, in: parent)
        let unique = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let staging = parent.appendingPathComponent(".\(name).rowmotion-new-\(unique)")
        var written = 0, reused = 0
        do {
            // A new folder of its own (never one that was there).
            guard mkdir(staging.path, 0o777) == 0 else {
                throw failure("cannot make the staging folder '\(staging.lastPathComponent)': \(String(cString: strerror(errno)))")
            }
            // Folders first, each once; then the files, on every core.
            let paths = files.keys.sorted()
            // Each folder once, parents first, with mkdir(2) (a folder that
            // holds only folders is made on the way to them); split at the
            // `/` bytes, as the file system reads a path.
            let slash = UInt8(ascii: "/")
            let (stagingPath, targetPath) = (staging.path, target.path)
            var made: Set<Substring> = [""]
            for path in paths {
                var ends: [String.Index] = []
                for index in path.utf8.indices where path.utf8[index] == slash { ends.append(index) }
                for end in ends {
                    let folder = path[..<end]
                    guard made.insert(folder).inserted else { continue }
                    let full = stagingPath + "/" + folder
                    if mkdir(full, 0o777) != 0 {
                        let code = errno
                        var isFolder: ObjCBool = false
                        guard code == EEXIST, manager.fileExists(atPath: full, isDirectory: &isFolder), isFolder.boolValue else {
                            throw failure("cannot make the folder '\(folder)' in the site: \(String(cString: strerror(code)))")
                        }
                    }
                }
            }
            // Per file: nil when it could not be written, else whether it was
            // reused. Paths joined as text (every one is a safe relative
            // path, checked above): a URL per file cost 2 % of a build.
            let outcomes = Parallel.map(paths) { path -> Bool? in
                let bytes = files[path]!
                let destination = stagingPath + "/" + path
                let previous = targetPath + "/" + path
                // Only a plain file of the old site is reused, reached
                // through folders: a link there (which a committed `_site/`
                // could hold) is neither read nor kept.
                if exists, FolderWalk.isPlainFile(previous), !FolderWalk.passesThroughLink(path, under: targetPath),
                   let old = FileManager.default.contents(atPath: previous),
                   Self.same(old, bytes),
                   (try? FileManager.default.linkItem(atPath: previous, toPath: destination)) != nil {
                    return true
                }
                return writeFile(bytes, to: destination) ? false : nil
            }
            for (path, outcome) in zip(paths, outcomes) {
                guard let wasReused = outcome else { throw failure("cannot write '\(path)' in the site") }
                if wasReused { reused += 1 } else { written += 1 }
            }
            guard WritePath.writeNewFile(Array(markerText.utf8), to: staging.appendingPathComponent(marker).path) else {
                throw failure("cannot write the site's marker file")
            }
        } catch let diagnostic as Diagnostic {
            try? manager.removeItem(at: staging)
            throw diagnostic
        } catch {
            try? manager.removeItem(at: staging)
            throw failure("cannot write the site: \(error.localizedDescription)")
        }
        // One sync of the new folder's entries before it takes the site's
        // name, instead of one per file.
        sync(folder: staging.path)
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
        if exists { removeTree(retired) }
        return (written, reused)
    }

    /// Brings the site at `output`, the one whose marker has `stamp` (the
    /// last one written: `serve` keeps it), to `files` by writing only what
    /// changed: each file in `changed` a new file renamed over the old one,
    /// each in `removed` unlinked. Each page is replaced whole, never
    /// through a link (a folder on the way that is one is refused); a page
    /// open in a browser reads the old bytes or the new, never a mix. Not
    /// the whole site at once, as `write` is: a save during `serve` costs
    /// what it changed, and a build killed mid-way is a stale page or two,
    /// which the next build (its cache no longer matching) rewrites.
    ///
    /// - Throws: when the site is not that one any more, or a file cannot
    ///   be written; the caller then writes the whole site.
    public static func update(_ changed: [String: [UInt8]], removed: [String], at output: String, stamp: String?,
                              in project: Project = .ofWorkingFolder()) throws(Diagnostic) {
        let prepared = try WritePath.prepare(output, in: project, makingFolders: false)
        let root = project.parts(of: output) == nil ? Paths.real(prepared) : prepared
        let here = SourceLocation(file: output, line: 1, column: 1)
        func failure(_ message: String) -> Diagnostic { .error("output", at: here, message) }
        guard let stamp, SiteFolder.stamp(of: root) == stamp else { throw failure("the site at '\(output)' is not the one this server wrote") }
        let site = Project(root: root, isGitWorkTree: false)
        for path in changed.keys.sorted() + removed {
            guard SiteFolder.isSafe(path) else { throw failure("refusing to write '\(path)' outside the site") }
            let folder = OutputPaths.parent(of: path)
            // Every folder on the way made when missing, none a link, nor the file itself.
            let target = try WritePath.prepare(root + "/" + path, in: site, makingFolders: changed[path] != nil)
            guard let bytes = changed[path] else {
                if unlink(target) != 0 && errno != ENOENT { throw failure("cannot remove '\(path)': \(String(cString: strerror(errno)))") }
                // Its folders, once empty, go with it (a clean build would not make them).
                var emptied = folder
                while !emptied.isEmpty, rmdir(root + "/" + emptied) == 0 { emptied = OutputPaths.parent(of: emptied) }
                continue
            }
            let temporary = root + "/" + (folder.isEmpty ? "" : folder + "/") + ".rowmotion-new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            guard WritePath.writeNewFile(bytes, to: temporary), rename(temporary, target) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw failure("cannot write '\(path)' in the site: \(reason)")
            }
        }
    }

    /// Writes a new file with `open(2)` and `write(2)`, as both Darwin and
    /// glibc have them: Foundation's writers make each file atomic and
    /// fsync it, which a site written into a staging folder, synced once and
    /// swapped in whole does not need (and which made writing most of a
    /// clean build on a disk).
    public static func writeFile(_ bytes: [UInt8], to path: String) -> Bool {
        WritePath.writeNewFile(bytes, to: path, replacing: true)
    }

    /// Syncs a folder's entries to the disk, as `write` does once per site.
    public static func sync(folder path: String) {
        syncFolder(path)
    }

    /// Removes the staging and retired folders that builds of `name` killed
    /// mid-way left beside it: those whose process is gone (a build running
    /// now keeps its own).
    static func removeStaleFolders(of name: String, in parent: URL) {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: parent.path) else { return }
        for entry in entries {
            for kind in ["new", "old"] {
                let prefix = ".\(name).rowmotion-\(kind)-"
                guard entry.hasPrefix(prefix), let pid = Int32(entry.dropFirst(prefix.count).prefix { $0 != "-" }) else { continue }
                if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                    removeTree(parent.appendingPathComponent(entry))
                }
            }
        }
    }

    /// Removes a folder, making its folders writable first if a plain
    /// removal fails (a site someone made read-only).
    static func removeTree(_ url: URL) {
        let manager = FileManager.default
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
