import ProjectFiles
import Reports
import Diagnostics
import Dispatch
import SnapshotFormat
import Foundation

/// What a build reports when it stops at the site's limit.
extension SiteRendering {
    /// The errors of a stopped build: the first output past a page's
    /// limit, else the site past its own (at the folder whose outputs were
    /// rendering).
    static func limitErrors(_ failures: [Diagnostic?], budget: OutputBudget, folder: String) -> [Diagnostic] {
        if let first = failures.lazy.compactMap({ $0 }).first { return [first] }
        let at = SourceLocation(file: folder, line: 1, column: 1)
        if budget.isPastFileLimit {
            return [.error("site-too-large", at: at, "the site's pages, aliases and files pass \(OutputLimits.siteFiles) files; "
                               + "a site is limited to \(OutputLimits.siteFiles) files")]
        }
        guard budget.isPastLimit else { return [] }
        let limit = ByteCount.describe(Int64(budget.limit))
        let rule = budget.input.map { "64 times its input (\(ByteCount.describe(Int64($0)))) and 64 MiB" } ?? limit
        return [.error("site-too-large", at: at,
                       "the site's pages, example pages, filmstrips and redirects pass \(limit); a site is limited to \(rule)")]
    }
}
