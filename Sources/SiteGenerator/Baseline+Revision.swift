import Reports
import Diagnostics
import Foundation
import SnapshotFormat

/// A git revision as a baseline: its folders read through `git` into a
/// temporary folder and built by the whole pipeline (no site written).
extension Baseline {
    /// The revision `revision`, built. Every failure is one diagnostic at it.
    public static func load(revision: String, options: BuildOptions) throws(Diagnostic) -> Baseline {
        Baseline(name: revision, report: try buildRevision(revision, options: options))
    }

    // MARK: - A git revision

    static func buildRevision(_ revision: String, options: BuildOptions) throws(Diagnostic) -> BuildReport {
        guard let top = Git.run(["rev-parse", "--show-toplevel"]), top.status == 0 else {
            throw Self.error(revision, "this folder is not in a git repository, so the revision '\(revision)' cannot be read; "
                             + "to compare with a report written by --report, use --baseline-report FILE")
        }
        let root = top.text.trimmingCharacters(in: .newlines)
        guard !revision.hasPrefix("-"), let commit = Git.run(["rev-parse", "--verify", "--quiet", "--end-of-options", "\(revision)^{commit}"]),
              commit.status == 0 else {
            throw Self.error(revision, "the git repository has no revision '\(revision)'"
                             + (FileManager.default.fileExists(atPath: revision)
                                ? " (a file of that name is not read: use --baseline-report FILE for a report)" : ""))
        }
        let sha = commit.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-baseline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        // Each input folder as the revision has it, at the same path under the temporary folder.
        var baseOptions = BuildOptions()
        baseOptions.baseURL = options.baseURL
        baseOptions.urls = options.urls
        baseOptions.drafts = options.drafts
        baseOptions.allowShortcut = false
        var wanted: [String] = []
        for (folder, keyPath) in [(options.site, \BuildOptions.site), (options.examples, \BuildOptions.examples),
                                  (options.templates, \BuildOptions.templates)] {
            guard let inRepository = Paths.relative(folder, inside: root) else {
                throw Self.error(revision, "'\(folder)' is outside the git repository at \(root), so the revision cannot say what it held")
            }
            baseOptions[keyPath: keyPath] = temporary.appendingPathComponent(inRepository.isEmpty ? "." : inRepository).path
            wanted.append(inRepository.isEmpty ? "." : inRepository)
        }
        do {
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        } catch {
            throw Self.error(revision, "cannot make a temporary folder for the revision: \(FileError.reason(error, path: temporary.path))")
        }
        do throws(Git.Failure) {
            try Git.checkOut(sha, paths: wanted, repository: root, into: temporary.path)
        } catch {
            throw Self.error(revision, "could not read \(wanted.joined(separator: ", ")) at \(revision): \(error.message)")
        }
        baseOptions.out = temporary.appendingPathComponent(".rowmotion-unused-output").path
        let site = SiteBuilder.build(baseOptions)
        var report = site.report
        // Sources as this checkout names them, not by the temporary folder.
        for index in report.pages.indices {
            report.pages[index].source = report.pages[index].source.replacingOccurrences(of: temporary.path + "/", with: "")
        }
        return report
    }
}
