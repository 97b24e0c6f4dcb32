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

    public init(name: String, report: BuildReport) {
        (self.name, self.report) = (name, report)
    }
}
