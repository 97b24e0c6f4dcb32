/// What a build compares against: a git revision (`--baseline REV`), whose
/// site's folders are read through the `git` command line into a temporary
/// folder and built (no site is written for it), or, named explicitly, the
/// report of an earlier build (`--baseline-report FILE`). A file can never
/// stand in for a revision: a pull request that adds a file called
/// `origin/main` compares against the real `origin/main` all the same.
public struct Baseline: Sendable {
    /// BASE as it was given.
    public var name: String
    public var report: BuildReport
    /// The baseline's own stylesheet (a revision's theme), which draws the
    /// review page: the pull request's could restyle the review of itself
    /// into saying anything. Nil for a report: the built-in one.
    public var stylesheet: String?

    public init(name: String, report: BuildReport, stylesheet: String? = nil) {
        (self.name, self.report, self.stylesheet) = (name, report, stylesheet)
    }
}
