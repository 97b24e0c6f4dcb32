import Diagnostics
import ListDiff

/// One step of an example, counted.
public struct StepSummary: Equatable, Sendable {
    public var label: String
    public var batches: Int
    public var inserted = 0, deleted = 0, moved = 0, reloaded = 0

    init(label: String, batches: Int, inserted: Int, deleted: Int, moved: Int, reloaded: Int) {
        (self.label, self.batches, self.inserted, self.deleted, self.moved, self.reloaded) = (label, batches, inserted, deleted, moved, reloaded)
    }

    init(label: String, changeset: Changeset<String, Record<String>>) {
        self.label = label
        batches = changeset.stages.count
        let counts = changeset.rowCounts
        (inserted, deleted, moved, reloaded) = (counts.inserted, counts.deleted, counts.moved, counts.reloaded)
    }
}

/// What `rowmotion build --report` writes: every page, every example with
/// its steps counted and its animation recorded, every diagnostic, and,
/// with `--baseline`, what changed since it. A contract type: tests decode
/// the file into it, and `--baseline` reads an earlier one back.
public struct BuildReport: Codable, Equatable, Sendable {
    /// The layout of this file; a baseline of another format is refused.
    public static let currentFormat = 3
    public var format = BuildReport.currentFormat
    /// The Rowmotion that wrote it.
    public var version = RowmotionVersion.string

    public struct Page: Codable, Equatable, Sendable {
        public var source: String
        public var output: String
        public var title: String
        /// A hash of the page's Markdown, to tell whether its text changed.
        public var hash: String
        /// A hash of its raw HTML, which can script or restyle the page's
        /// players; nil when it has none.
        public var markup: String?
    }

    public struct Example: Codable, Equatable, Sendable {
        public var example: String
        public var title: String
        public var output: String
        /// Snapshots, the first one's included.
        public var stepCount: Int
        public var steps: [Step]
        public var animation: ExampleAnimation
        /// A key of its title and description when the theme writes values
        /// unescaped (see `Page.markup`); nil otherwise.
        public var markup: String?
    }

    /// A demo block of a page, as the review names and compares it.
    public struct Block: Codable, Equatable, Sendable {
        /// The page's path under `site/` and the block's number in it,
        /// counting from 1: `guide/intro.md#2`.
        public var name: String
        /// The page's Markdown file, as the pull request's files list it.
        public var page: String
        /// Where the page is in the site.
        public var output: String
        public var title: String
        /// The example file it shows (its path under `examples/`); nil for
        /// a sequence written in the block.
        public var shows: String?
        /// The snapshot shown first, whether it plays on load, and the pane
        /// it is compared with (`reloadData`, `strategies`).
        public var step: Int
        public var autoplay: Bool
        public var compare: String?
        /// How it animates as the block shows it: nil when that is exactly
        /// how the example's own page shows `shows` (its changes are the
        /// example's), always set for a sequence written in the block.
        public var animation: ExampleAnimation?
        /// Snapshots, and each step counted, when `animation` is set.
        public var stepCount: Int
        public var steps: [Step]
    }

    public struct Step: Codable, Equatable, Sendable {
        public var label: String
        public var batches: Int
        public var inserted: Int
        public var deleted: Int
        public var moved: Int
        public var reloaded: Int
    }

    public struct Problem: Codable, Equatable, Sendable {
        public var severity: String
        public var id: String
        public var file: String
        public var line: Int
        public var column: Int
        public var message: String
    }

    public var pages: [Page]
    public var examples: [Example]
    /// Every demo block of every page, in page and block order.
    public var blocks: [Block] = []
    /// Every theme file by its SHA-256, the project's or the built-in one's:
    /// any of them can change how every example moves.
    public var theme: [String: String] = [:]
    /// The static files a page could load as a script, a stylesheet or a
    /// document, by their SHA-256.
    public var scripts: [String: String] = [:]
    public var diagnostics: [Problem]
    /// With `--baseline`: what changed since it.
    public var changes: Changes?
}
