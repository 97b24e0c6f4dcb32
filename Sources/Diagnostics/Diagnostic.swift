/// A problem found in an input file, printed the way swiftc prints its own
/// (`path:line:column: error: message`) so editors and CI annotate it.
public struct Diagnostic: Error, Hashable, Sendable, Codable {
    public enum Severity: String, Hashable, Sendable, Comparable, Codable {
        case error
        case warning

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    /// A further place the diagnostic refers to (the first of two duplicates).
    public struct Note: Hashable, Sendable, Codable {
        public var location: SourceLocation
        public var message: String

        public init(location: SourceLocation, message: String) {
            self.location = location
            self.message = message
        }
    }

    public var location: SourceLocation
    public var severity: Severity
    /// A stable identifier of the kind of problem, such as `duplicate-row-id`.
    public var id: String
    public var message: String
    public var notes: [Note]

    public init(_ severity: Severity, _ id: String, at location: SourceLocation, _ message: String, notes: [Note] = []) {
        self.location = location
        self.severity = severity
        self.id = id
        self.message = message
        self.notes = notes
    }

    public static func error(_ id: String, at location: SourceLocation, _ message: String, notes: [Note] = []) -> Diagnostic {
        Diagnostic(.error, id, at: location, message, notes: notes)
    }

    public static func warning(_ id: String, at location: SourceLocation, _ message: String, notes: [Note] = []) -> Diagnostic {
        Diagnostic(.warning, id, at: location, message, notes: notes)
    }
}

extension Diagnostic: CustomStringConvertible {
    /// swiftc's form: the diagnostic, then each note on a line of its own.
    /// Paths and messages carry text from input files: each stays on its
    /// line (`TerminalText`).
    public var description: String {
        var lines = ["\(TerminalText.escaped(location.description)): \(severity.rawValue): \(TerminalText.escaped(message))"]
        for note in notes {
            lines.append("\(TerminalText.escaped(note.location.description)): note: \(TerminalText.escaped(note.message))")
        }
        return lines.joined(separator: "\n")
    }
}

/// Every diagnostic of one or more files, with the question CI asks: did
/// anything fail?
public struct DiagnosticReport: Sendable {
    public private(set) var diagnostics: [Diagnostic] = []

    public init(_ diagnostics: [Diagnostic] = []) {
        self.diagnostics = diagnostics
    }

    public mutating func append(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }
    public mutating func append(contentsOf other: [Diagnostic]) { diagnostics.append(contentsOf: other) }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    public var hasWarnings: Bool { diagnostics.contains { $0.severity == .warning } }

    /// In file order, so a long report reads top to bottom.
    public var sorted: [Diagnostic] {
        diagnostics.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }.map(\.element)
    }
}
