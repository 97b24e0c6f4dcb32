import Diagnostics
import Foundation
import ProjectFiles

/// Where a build's outputs go as its rules make them, and how the site
/// they make takes its place once the build succeeds: every output is
/// put as soon as it is made (a site is never held whole in memory), and
/// nothing the site's readers see changes until `commit`.
///
/// - memory: every file kept (tests, the review's baseline, a build whose
///   caller writes it itself); with the files of the build before, so a
///   build that makes some again has them all.
/// - staging: a new site, written into a folder beside the output and
///   swapped in whole (`SiteWriter.Staging`): a clean build.
/// - patch: the site on disk is the one the graph's last build wrote (its
///   seal says so): a file whose bytes changed is written beside its old
///   one, and at `commit` every one is renamed over its old one and the
///   outputs the site no longer has are removed, so an edit costs what it
///   changed.
final class OutputSink: @unchecked Sendable {
    enum Mode {
        case memory
        case staging(SiteWriter.Staging)
        case patch(root: String, stamp: String)
    }

    let mode: Mode
    private let lock = NSLock()
    /// memory: every output's bytes. patch: each changed file's temporary,
    /// by its path.
    private var files: [String: [UInt8]]
    private var staged: [String: String] = [:]
    /// The paths whose bytes this build changed (or wrote anew).
    private var changed: Set<String> = []
    /// patch: the folder beside the site the changed files wait in, and the next one's name.
    private var aside: String?
    private var counter = 0

    /// patch: the folder beside the site at `root` that changed files
    /// wait in until `commit`, made when first needed (named as a staging
    /// folder is, so one a killed build left is removed as one).
    private func asideFolder(beside root: String) -> String? {
        lock.withLock {
            if let aside { return aside }
            let site = URL(fileURLWithPath: root)
            let path = site.deletingLastPathComponent().appendingPathComponent(".\(site.lastPathComponent).rowmotion-new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
            guard mkdir(path, 0o700) == 0 else { return nil }
            aside = path
            return path
        }
    }

    /// How many files were written into the staging folder (the rest were the old site's).
    private(set) var written = 0
    private var madeFolders: Set<String> = [""]
    private var putPaths: Set<String> = []

    init(_ mode: Mode, files: [String: [UInt8]] = [:]) {
        self.mode = mode
        self.files = files
    }

    /// Puts one output's bytes; the error when they cannot be written.
    func put(_ path: String, _ bytes: [UInt8]) -> Diagnostic? {
        switch mode {
        case .memory:
            lock.withLock {
                if files[path] != bytes { changed.insert(path) }
                files[path] = bytes
            }
            return nil
        case .staging(let staging):
            guard SiteFolder.isSafe(path) else { return staging.failure("refusing to write '\(path)' outside the site") }
            // Each folder made once; a file put twice (the same bytes: two
            // outputs of one name) is put again over the first.
            let (folderMade, again) = lock.withLock { (madeFolders.contains(OutputPaths.parent(of: path)), !putPaths.insert(path).inserted) }
            if !folderMade {
                do throws(Diagnostic) { try staging.makeFolders(for: [path]) } catch { return error }
                lock.withLock { _ = madeFolders.insert(OutputPaths.parent(of: path)) }
            }
            if again { unlink(staging.path + "/" + path) }
            guard let reused = staging.put(path, bytes) else { return staging.failure("cannot write '\(path)' in the site") }
            lock.withLock {
                changed.insert(path)
                if !reused && !again { written += 1 }
            }
            return nil
        case .patch(let root, _):
            let here = SourceLocation(file: root, line: 1, column: 1)
            guard SiteFolder.isSafe(path) else { return .error("output", at: here, "refusing to write '\(path)' outside the site") }
            // The old file's bytes (the site's seal said it is the last build's, read without a link).
            if let old = try? FileContents.read(root + "/" + path, limit: bytes.count + 1, followingLink: false), old == bytes {
                lock.withLock { _ = staged.removeValue(forKey: path).map { unlink($0) } }
                return nil
            }
            // Aside, in a folder of its own beside the site: the site is
            // not touched until `commit` (a reader of it meanwhile sees the
            // last build's files and nothing else).
            guard let aside = asideFolder(beside: root) else {
                return .error("output", at: here, "cannot make a folder beside the site for its new files: \(String(cString: strerror(errno)))")
            }
            let temporary = aside + "/" + String(lock.withLock { () -> Int in defer { counter += 1 }; return counter })
            guard WritePath.writeNewFile(bytes, to: temporary) else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                return .error("output", at: here, "cannot write '\(path)' in the site: \(reason)")
            }
            lock.withLock {
                if let earlier = staged.updateValue(temporary, forKey: path) { unlink(earlier) }
                changed.insert(path)
            }
            return nil
        }
    }

    /// memory: every file of the site, `outputs` alone.
    func files(of outputs: [String: Int]) -> [String: [UInt8]] {
        lock.withLock { files.filter { outputs[$0.key] != nil } }
    }

    /// The outputs this build changed, of `outputs` (the site's), and
    /// those of `before` (the last build's) it no longer has; sorted.
    func changes(_ outputs: [String: Int], before: [String: Int]?) -> [String] {
        lock.withLock {
            let made = changed.filter { outputs[$0] != nil }
            return (made + (before.map { Self.removed(from: $0, in: outputs) } ?? [])).sorted()
        }
    }

    /// The outputs of `before` that `outputs` does not have, by the bytes
    /// of their names (`café` respelled is another file to the file system,
    /// though a `String` takes it for the same).
    static func removed(from before: [String: Int], in outputs: [String: Int]) -> [String] {
        before.keys.filter { path in
            guard let index = outputs.index(forKey: path) else { return true }
            return !outputs[index].key.utf8.elementsEqual(path.utf8)
        }
    }

    /// patch: renames every changed file over its old one (only those the
    /// site has: a file made for an output it no longer has is dropped),
    /// and removes the outputs of `before` the site no longer has.
    func commit(outputs: [String: Int], before: [String: Int]) throws(Diagnostic) {
        guard case .patch(let root, let stamp) = mode else { return }
        let here = SourceLocation(file: root, line: 1, column: 1)
        guard SiteFolder.stamp(of: root) == stamp else {
            discard()
            throw .error("output", at: here, "the site at '\(root)' is no longer the one this build started from (another build replaced it); build again")
        }
        let site = Project(root: root, isGitWorkTree: false)
        let renames = lock.withLock { staged.sorted { $0.key < $1.key } }
        for (index, (path, temporary)) in renames.enumerated() {
            guard outputs[path] != nil else { unlink(temporary); continue }
            let target: String
            do throws(Diagnostic) { target = try WritePath.prepare(root + "/" + path, in: site, makingFolders: true) } catch {
                for (_, left) in renames[index...] { unlink(left) }
                throw error
            }
            if rename(temporary, target) != 0 {
                let reason = String(cString: strerror(errno))
                for (_, left) in renames[index...] { unlink(left) }
                throw .error("output", at: here, "cannot write '\(path)' in the site: \(reason)")
            }
        }
        lock.withLock { staged = [:] }
        removeAside()
        for path in Self.removed(from: before, in: outputs).sorted() {
            guard SiteFolder.isSafe(path) else { continue }
            let target = try WritePath.prepare(root + "/" + path, in: site, makingFolders: false)
            if unlink(target) != 0 && errno != ENOENT { throw .error("output", at: here, "cannot remove '\(path)': \(String(cString: strerror(errno)))") }
            // Its folders, once empty, go with it (a clean build would not make them).
            var emptied = OutputPaths.parent(of: path)
            while !emptied.isEmpty, rmdir(root + "/" + emptied) == 0 { emptied = OutputPaths.parent(of: emptied) }
        }
    }

    /// A build that is not written: what it put aside is removed, the site stays.
    func discard() {
        switch mode {
        case .memory: return
        case .staging(let staging): staging.discard()
        case .patch:
            lock.withLock {
                for temporary in staged.values { unlink(temporary) }
                staged = [:]
            }
            removeAside()
        }
    }

    /// The folder changed files waited in, removed with what is left in it.
    private func removeAside() {
        guard let folder = lock.withLock({ () -> String? in defer { aside = nil }; return aside }) else { return }
        SiteWriter.removeTree(URL(fileURLWithPath: folder))
    }
}
