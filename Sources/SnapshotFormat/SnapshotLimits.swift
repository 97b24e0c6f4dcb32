
/// How large a snapshot sequence may be. Each limit is far above what a list
/// on a phone shows and low enough that a hostile file is refused, with its
/// location, before it costs more than seconds and a few hundred megabytes.
/// README ("Limits") gives the reasons; `rowmotion` uses `standard`.
public struct SnapshotLimits: Hashable, Sendable {
    /// Bytes in one sequence file (or Markdown page). A million rows of a few
    /// short fields is about 40 MB.
    public var fileBytes: Int
    /// Rows in one snapshot, across its sections: the engine is measured up
    /// to a million.
    public var rowsPerSnapshot: Int
    /// Fields in one row: a cell shows a handful; the player draws each.
    public var fieldsPerRow: Int
    /// UTF-8 bytes in one row or section id: ids are keys, written into
    /// every page attribute and JSON object that names the row.
    public var idBytes: Int
    /// UTF-8 bytes in one key or field name: names are typed by people,
    /// and each is compared, suggested and written into every row's data.
    public var keyBytes: Int

    public init(fileBytes: Int = 64 << 20, rowsPerSnapshot: Int = 1_000_000, fieldsPerRow: Int = 1_000, idBytes: Int = 1_024,
                keyBytes: Int = 256) {
        self.fileBytes = fileBytes
        self.rowsPerSnapshot = rowsPerSnapshot
        self.fieldsPerRow = fieldsPerRow
        self.idBytes = idBytes
        self.keyBytes = keyBytes
    }

    public static let standard = SnapshotLimits()
}
