/// A scalar value of a record's field.
public enum FieldValue: Hashable, Sendable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
}

extension FieldValue: CustomStringConvertible {
    /// The value as a cell would show it.
    public var description: String {
        switch self {
        case .string(let value): return value
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return ""
        }
    }
}

/// One named field of a record.
public struct Field: Hashable, Sendable {
    public var name: String
    public var value: FieldValue

    public init(_ name: String, _ value: FieldValue) {
        self.name = name
        self.value = value
    }
}

/// A row made of named fields, as snapshot files describe rows.
///
/// Its change test follows the snapshot format: when a `version` is present
/// (on either side) it alone decides whether the row changed; otherwise any
/// field that differs does. `changedFields` names the fields that differ so a
/// page can highlight the one cell that changed.
public struct Record<ID: Hashable>: DiffableRow, Hashable {
    public var id: ID
    public var fields: [Field]
    public var version: FieldValue?
    public var moveHint: FieldValue?

    public init(id: ID, fields: [Field] = [], version: FieldValue? = nil, moveHint: FieldValue? = nil) {
        self.id = id
        self.fields = fields
        self.version = version
        self.moveHint = moveHint
    }

    /// The value of the field called `name`, if the record has one.
    public subscript(field name: String) -> FieldValue? {
        fields.first(where: { $0.name == name })?.value
    }

    public func hasChanges(comparedTo old: Record) -> Bool {
        if version != nil || old.version != nil { return version != old.version }
        return fields != old.fields
    }

    /// The names of the fields whose values differ from `old`'s, then of
    /// the fields `old` had and this record lacks.
    ///
    /// - Complexity: O(f + g) hashes for f and g fields (a plain scan below
    ///   sixteen fields a side, where it is faster).
    public func changedFields(comparedTo old: Record) -> [String] {
        if fields.count <= 16 && old.fields.count <= 16 {
            var names: [String] = []
            for field in fields where old[field: field.name] != field.value { names.append(field.name) }
            // A field that disappeared changed too; name it after the current ones.
            for field in old.fields where self[field: field.name] == nil { names.append(field.name) }
            return names
        }
        // The first field of a name counts, as `subscript(field:)` reads it.
        let oldValues = Dictionary(old.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let newValues = Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        var names: [String] = []
        for field in fields where oldValues[field.name] != field.value { names.append(field.name) }
        for field in old.fields where newValues[field.name] == nil { names.append(field.name) }
        return names
    }

    public func moveHintChanged(comparedTo old: Record) -> Bool {
        moveHint != old.moveHint
    }
}

extension Record: Sendable where ID: Sendable {}
