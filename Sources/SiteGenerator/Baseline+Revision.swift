import ProjectFiles
import Reports
import Diagnostics
import Foundation
import SnapshotFormat

/// A git revision as a baseline: its folders read through `git` and built
/// by the same graph as every build, in memory (no site written).
extension Baseline {
    /// The revision `revision`, built. Every failure is one diagnostic at it.
    public static func load(revision: String, options: BuildOptions) throws(Diagnostic) -> Baseline {
        let built = try buildRevision(revision, options: options)
        return Baseline(name: revision, report: built.report, stylesheet: built.stylesheet)
    }

    // MARK: - A git revision

    static func buildRevision(_ revision: String, options: BuildOptions) throws(Diagnostic) -> BuiltSite {
        let project = options.project ?? .ofWorkingFolder()
        guard project.isGitWorkTree else {
            throw Self.error(revision, "this folder is not in a git repository, so the revision '\(revision)' cannot be read; "
                             + "to compare with a report written by --report, use --baseline-report FILE")
        }
        guard let commit = Git.commit(revision, root: project.root) else {
            throw Self.error(revision, "the git repository has no revision '\(revision)'"
                             + (FileManager.default.fileExists(atPath: revision)
                                ? " (a file of that name is not read: use --baseline-report FILE for a report)" : ""))
        }
        // The revision's own tree, in memory: nothing of the work tree is
        // read for it, and its files are named as this checkout names them.
        var withProject = options
        withProject.project = project
        let inputs: InputTree
        do throws(Git.Failure) {
            inputs = try InputTree.atRevision(commit, named: revision, folders: options.inputFolders, in: project)
        } catch {
            throw Self.error(revision, "could not read \(options.inputFolders.joined(separator: ", ")) at \(revision): \(error.message)")
        }
        return SiteBuilder.build(withProject.forRevision(inputs))
    }
}
