import Diagnostics
import ListDiff

/// One step of an example, counted.
public struct StepSummary: Sendable {
    public var label: String
    public var batches: Int
    public var inserted = 0, deleted = 0, moved = 0, reloaded = 0

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
    public static let currentFormat = 2
    public var format = BuildReport.currentFormat
    /// The Rowmotion that wrote it.
    public var version = RowmotionVersion.string

    public struct Page: Codable, Equatable, Sendable {
        public var source: String
        public var output: String
        public var title: String
        /// A hash of the page's Markdown, to tell whether its text changed.
        public var hash: String
    }

    public struct Example: Codable, Equatable, Sendable {
        public var example: String
        public var title: String
        public var output: String
        /// Snapshots, the first one's included.
        public var stepCount: Int
        public var steps: [Step]
        public var animation: ExampleAnimation
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
    public var diagnostics: [Problem]
    /// With `--baseline`: what changed since it.
    public var changes: Changes?
}
