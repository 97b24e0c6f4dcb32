import Foundation
import SystemPackage

/// The project a build reads and writes: the git work tree that holds the
/// working folder, or the working folder itself outside git. Its files are
/// a pull request's, so nothing a build does inside it follows a symbolic
/// link; a folder named on the command line outside it is the user's own
/// choice and is taken as the system resolves it.
public struct Project: Sendable, Equatable {
    /// The project's folder, absolute, every symbolic link resolved.
    public var root: String
    /// Whether `root` is a git work tree, whose inputs are the files git
    /// would track.
    public var isGitWorkTree: Bool

    public init(root: String, isGitWorkTree: Bool) {
        (self.root, self.isGitWorkTree) = (root, isGitWorkTree)
    }

    /// The project of the working folder, asked of git (`git rev-parse
    /// --show-toplevel`, which a pull request cannot redirect: it can add
    /// no `.git`), else the working folder.
    /// Asked once per working folder and process (a git process per build
    /// was a fifth of a build with nothing to do on 10,000 pages).
    public static func ofWorkingFolder() -> Project {
        let here = FileManager.default.currentDirectoryPath
        if let known = asked.withLock({ $0[here] }) { return known }
        var project = Project(root: Paths.real(here), isGitWorkTree: false)
        if mayBeInGitWorkTree(project.root), let top = Git.run(["rev-parse", "--show-toplevel"], in: here), top.status == 0 {
            let root = top.text.trimmingCharacters(in: .newlines)
            if !root.isEmpty { project = Project(root: Paths.real(root), isGitWorkTree: true) }
        }
        asked.withLock { $0[here] = project }
        return project
    }

    private static let asked = Locked<[String: Project]>([:])

    /// Whether git could find a repository for `folder` (real): a `.git`
    /// in it or a folder above it, or the environment naming one. When
    /// neither, git is not asked (a process per build was a tenth of a
    /// build with nothing to do outside git).
    public static func mayBeInGitWorkTree(_ folder: String) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        if environment["GIT_DIR"] != nil || environment["GIT_WORK_TREE"] != nil { return true }
        var current = FilePath(folder)
        while true {
            var status = stat()
            if lstat(current.appending(".git").string, &status) == 0 { return true }
            guard current.removeLastComponent() else { return false }
        }
    }

    /// Where `path` (as given: relative to the working folder, or absolute)
    /// lies: inside the project, as its `/`-separated parts below the root
    /// (empty for the root itself), worked out from the text alone; nil
    /// when it is outside.
    public func parts(of path: String) -> [String]? {
        let absolute = Paths.lexical(path)
        let here = Paths.lexical(FileManager.default.currentDirectoryPath)
        // The working folder may be written through a link the root was
        // resolved past (macOS's /tmp): compare in the root's terms.
        let written = absolute == here || absolute.hasPrefix(here == "/" ? "/" : here + "/")
            ? Paths.real(here) + String(absolute.dropFirst(here.count)) : absolute
        return Paths.parts(of: written, under: root)
    }
}
