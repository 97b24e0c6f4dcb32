/// A parsed value that remembers where it was written: what both the YAML
/// and the JSON readers produce, so one pass turns either into snapshots.
public struct LocatedValue: Sendable {
    public enum Kind: Sendable {
        case string(String)
        case integer(Int)
        case number(Double)
        case bool(Bool)
        case null
        case array([LocatedValue])
        case object([Member])
    }

    /// One key of an object, with where the key itself was written.
    public struct Member: Sendable {
        public var key: String
        public var keyLocation: SourceLocation
        public var value: LocatedValue

        public init(key: String, keyLocation: SourceLocation, value: LocatedValue) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    public var kind: Kind
    public var location: SourceLocation

    public init(kind: Kind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// What the value is, as a diagnostic names it.
    public var typeName: String {
        switch kind {
        case .string: return "a string"
        case .integer, .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        case .array: return "a list"
        case .object: return "a mapping"
        }
    }

    /// The scalar as text, for ids: strings as they are, numbers written out.
    public var scalarText: String? {
        switch kind {
        case .string(let text): return text
        case .integer(let value): return String(value)
        case .number(let value): return value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .bool, .null, .array, .object: return nil
        }
    }
}

extension LocatedValue {
    /// The same tree with every location moved down by `lines` (for YAML
    /// that sits inside another file, such as front matter).
    public func shifted(by lines: Int) -> LocatedValue {
        guard lines != 0 else { return self }
        var copy = self
        copy.location.line += lines
        switch kind {
        case .array(let elements):
            copy.kind = .array(elements.map { $0.shifted(by: lines) })
        case .object(let members):
            copy.kind = .object(members.map { member in
                var moved = member
                moved.keyLocation.line += lines
                moved.value = member.value.shifted(by: lines)
                return moved
            })
        default: break
        }
        return copy
    }

    /// The members of an object, or nil.
    public var members: [Member]? {
        if case .object(let members) = kind { return members }
        return nil
    }
}
