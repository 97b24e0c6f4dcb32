/// A place in a source file: 1-based line and column, as swiftc prints them.
public struct SourceLocation: Hashable, Comparable, Sendable, Codable {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

extension SourceLocation: CustomStringConvertible {
    public var description: String { "\(file):\(line):\(column)" }
}
