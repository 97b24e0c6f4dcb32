/// What the sequence file's reader takes, as `rowmotion check` reads it:
/// SnapshotFormat's `SnapshotLimits.standard`, and the ranges its
/// `Presentation` reads. This module may not depend on SnapshotFormat, so
/// the figures are written here once more, and a test
/// (`SequenceRecorderTests.theRecordersLimits_areTheReaders`) holds them
/// equal to the reader's. The recorder refuses, where a value is recorded,
/// what would pass them.
enum ReaderLimits {
    /// Bytes in one sequence file.
    static let fileBytes = 64 << 20
    /// Rows in one snapshot, across its sections.
    static let rowsPerSnapshot = 1_000_000
    /// Members of one row's object in the file: its fields and its id.
    static let fieldsPerRow = 1_000
    /// UTF-8 bytes in one row or section id.
    static let idBytes = 1_024
    /// UTF-8 bytes in one field name.
    static let keyBytes = 256
    /// The options' sizes, in points, and timing.
    static let heights = 120.0...4000.0
    static let widths = 240.0...2000.0
    static let durations = 0.05...10.0
    static let dampings = 0.05...1.0
    static let velocities = -50.0...50.0
    /// A grid's items per line, and its spacing in points.
    static let columns = 1.0...12.0
    static let spacings = 0.0...64.0
}
