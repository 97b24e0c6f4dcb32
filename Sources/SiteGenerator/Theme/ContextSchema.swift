/// What a template may name, read off the context types themselves.
///
/// Every context is `Decodable`, and the compiler writes its `init(from:)`:
/// a decoder that only listens (`SchemaRecorder`) hears each stored
/// property's name and type, so a field added to a context is a name
/// templates may use without anyone listing it. What a context answers
/// besides its stored properties, or instead of them, is the little its
/// `TemplateContext` conformance says. The same decoding gives a sample of
/// each context with every optional filled, on which a test asks the
/// context's hand-written `child(named:)` for every name of the schema: a
/// field the switch forgets fails it, where Mustache would have rendered
/// it as nothing.

import Mustache

/// What a name gives a template.
indirect enum ContextShape: Hashable, Sendable {
    /// Text, a number or a flag: inside its section, names are looked up
    /// in the contexts around it.
    case scalar
    /// A list: its section is entered once per element.
    case list(ContextShape)
    /// A context type with names of its own.
    case object(ContextTypeKey)
    /// A value with names nobody lists (a page's front matter): any name.
    case open
}

/// A context type, as a key of the schema (types are not Hashable).
struct ContextTypeKey: Hashable, Sendable, CustomStringConvertible {
    let id: ObjectIdentifier
    let type: Any.Type

    init(_ type: Any.Type) {
        id = ObjectIdentifier(type)
        self.type = type
    }

    /// The type's name, for messages (made only then: a schema makes keys
    /// thousands of times).
    var description: String { String(describing: type) }

    static func == (left: Self, right: Self) -> Bool { left.id == right.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A type templates are rendered with, or reach from one.
protocol TemplateContext: MustacheParent, Decodable {
    /// Names answered besides the stored properties (computed ones), or
    /// instead of a stored property of that name, with the type each gives.
    static var computedNames: [String: any Decodable.Type] { get }
    /// Stored properties that are not names: working state, or the chrome
    /// whose names this context answers as its own (`flattened`).
    static var hiddenNames: Set<String> { get }
    /// Stored properties whose names this context answers as its own.
    static var flattenedNames: Set<String> { get }
}

extension TemplateContext {
    static var computedNames: [String: any Decodable.Type] { [:] }
    static var hiddenNames: Set<String> { [] }
    static var flattenedNames: Set<String> { [] }
}

/// A value whose names are not listed anywhere (front matter).
protocol OpenTemplateValue {}

/// The names of every context type reachable from some root types.
struct ContextSchema: Sendable {
    /// Each context type's names and what they give.
    private(set) var names: [ContextTypeKey: [String: ContextShape]] = [:]
    /// The shape of each root type.
    private(set) var roots: [ContextTypeKey: ContextShape] = [:]

    init(roots types: [any TemplateContext.Type]) {
        let recorder = SchemaRecorder()
        for type in types { roots[ContextTypeKey(type)] = recorder.shape(of: type) }
        names = recorder.templateNames()
    }

    func shape(of type: any TemplateContext.Type) -> ContextShape {
        roots[ContextTypeKey(type)] ?? .open
    }

    /// What `name` gives in a value of shape `shape`; nil when it has no such name.
    func lookup(_ name: String, in shape: ContextShape) -> ContextShape? {
        switch shape {
        case .open: return .open
        case .scalar, .list: return nil
        case .object(let key): return names[key]?[name]
        }
    }

    /// The names of the schema that a context's `child(named:)` does not
    /// answer, as `Type.name`: on a sample of each type reached from
    /// `types`, with every optional filled (a nil optional and a missing
    /// name look the same to Mustache). A type with no sample (one that
    /// holds itself) is named alone.
    static func unansweredNames(roots types: [any TemplateContext.Type]) -> [String] {
        let recorder = SchemaRecorder()
        for type in types { _ = recorder.shape(of: type) }
        let names = recorder.templateNames()
        var missing: [String] = []
        for key in recorder.order {
            guard let sample = recorder.samples[key] as? any TemplateContext else {
                missing.append("\(key) (no sample)")
                continue
            }
            for name in (names[key] ?? [:]).keys.sorted() where sample.child(named: name) == nil {
                missing.append("\(key).\(name)")
            }
        }
        return missing
    }
}

/// Decodes context types with made-up values, writing down what each
/// asked for. Used once per theme load (a few dozen calls), never while
/// pages render.
final class SchemaRecorder {
    /// Stored properties by type, as `init(from:)` asked for them.
    var stored: [ContextTypeKey: [(name: String, shape: ContextShape)]] = [:]
    var types: [ContextTypeKey: any TemplateContext.Type] = [:]
    var samples: [ContextTypeKey: Any] = [:]
    var order: [ContextTypeKey] = []
    private var inProgress: Set<ContextTypeKey> = []

    /// The shape of a type, recording it (and what it reaches) if it is a context.
    func shape(of type: any Decodable.Type) -> ContextShape {
        if type is OpenTemplateValue.Type { return .open }
        if let list = type as? any SchemaList.Type { return .list(shape(of: list.schemaElement)) }
        if let optional = type as? any SchemaOptional.Type { return shape(of: optional.schemaWrapped) }
        guard let context = type as? any TemplateContext.Type else { return .scalar }
        let key = ContextTypeKey(context)
        if stored[key] == nil && !inProgress.contains(key) {
            inProgress.insert(key)
            types[key] = context
            order.append(key)
            samples[key] = try? context.init(from: RecordingDecoder(recorder: self, key: key))
            inProgress.remove(key)
        }
        return .object(key)
    }

    /// A value of `type` for a sample: empty text, zero, false, an empty
    /// list, or a context decoded again.
    func sample<T: Decodable>(of type: T.Type) throws -> T {
        if let value = Scalars.sample(of: type) { return value }
        if let list = type as? any SchemaList.Type { return list.schemaEmpty as! T }
        if let context = type as? any TemplateContext.Type {
            let key = ContextTypeKey(context)
            if let sample = samples[key] as? T { return sample }
            // A context that holds itself (through an optional) has no
            // finite sample with every optional filled.
            if inProgress.contains(key) {
                throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "\(key) holds itself"))
            }
        }
        return try T(from: RecordingDecoder(recorder: self, key: nil))
    }

    func record(_ name: String, _ type: any Decodable.Type, in key: ContextTypeKey) {
        let shape = shape(of: type)
        stored[key, default: []].append((name, shape))
    }

    /// Each type's names as templates see them: stored properties less the
    /// hidden ones, the flattened ones' names, then the computed names.
    func templateNames() -> [ContextTypeKey: [String: ContextShape]] {
        var result: [ContextTypeKey: [String: ContextShape]] = [:]
        func namesOf(_ key: ContextTypeKey, seen: Set<ContextTypeKey>) -> [String: ContextShape] {
            if let done = result[key] { return done }
            guard let type = types[key], !seen.contains(key) else { return [:] }
            var names: [String: ContextShape] = [:]
            for (name, shape) in stored[key] ?? [] where !type.hiddenNames.contains(name) {
                if type.flattenedNames.contains(name), case .object(let inner) = shape {
                    names.merge(namesOf(inner, seen: seen.union([key]))) { mine, _ in mine }
                } else {
                    names[name] = shape
                }
            }
            for (name, computed) in type.computedNames { names[name] = self.shape(of: computed) }
            result[key] = names
            return names
        }
        // Computed names can reach types no stored property does.
        var done = 0
        while done < order.count {
            let key = order[done]
            _ = namesOf(key, seen: [])
            done += 1
        }
        return result
    }
}

enum Scalars {
    static func sample<T>(of type: T.Type) -> T? {
        switch type {
        case is String.Type: return ("" as! T)
        case is Int.Type: return (0 as! T)
        case is Bool.Type: return (false as! T)
        case is Double.Type: return (0.0 as! T)
        default: return nil
        }
    }
}

protocol SchemaList {
    static var schemaElement: any Decodable.Type { get }
    static var schemaEmpty: Any { get }
}

extension Array: SchemaList where Element: Decodable {
    static var schemaElement: any Decodable.Type { Element.self }
    static var schemaEmpty: Any { [Element]() }
}

protocol SchemaOptional {
    static var schemaWrapped: any Decodable.Type { get }
}

extension Optional: SchemaOptional where Wrapped: Decodable {
    static var schemaWrapped: any Decodable.Type { Wrapped.self }
}

/// The decoder `SchemaRecorder` hands to `init(from:)`.
struct RecordingDecoder: Decoder {
    let recorder: SchemaRecorder
    /// The context type being decoded; nil for other types (a wrapper).
    let key: ContextTypeKey?
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RecordingContainer<Key>(recorder: recorder, key: key))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { EmptyList() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SampleValue(recorder: recorder) }
}

struct RecordingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: SchemaRecorder
    let key: ContextTypeKey?
    var codingPath: [any CodingKey] = []
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey name: Key) throws -> T {
        if let key { recorder.record(name.stringValue, type, in: key) }
        return try recorder.sample(of: type)
    }

    /// Optionals are filled, so the sample answers for them too.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey name: Key) throws -> T? {
        try decode(type, forKey: name)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(RecordingContainer<NestedKey>(recorder: recorder, key: nil))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { EmptyList() }
    func superDecoder() throws -> any Decoder { RecordingDecoder(recorder: recorder, key: nil) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RecordingDecoder(recorder: recorder, key: nil) }
}

struct EmptyList: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] = []
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { true }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "a schema's lists are empty"))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "a schema's lists are empty"))
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { self }
    mutating func superDecoder() throws -> any Decoder {
        throw DecodingError.valueNotFound(Never.self, .init(codingPath: codingPath, debugDescription: "a schema's lists are empty"))
    }
}

struct SampleValue: SingleValueDecodingContainer {
    let recorder: SchemaRecorder
    var codingPath: [any CodingKey] = []

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try recorder.sample(of: type) }
}
