import Mustache

/// The bytes one swift-mustache render has made, counted as it makes them
/// through its public API alone: the render's values are handed out
/// wrapped (`metered(_:name:)`), and each wrapper counts what it writes,
/// text as it is written, a list's elements as they are iterated (each the
/// static expansion of its section's body); the escaping content type
/// counts what escaping adds. The counts bound the output from above;
/// past the limit the render is stopped (lists end, text writes nothing)
/// and the page fails as too large.
///
/// Each wrapper gives swift-mustache what the value itself would: its
/// names, its transforms (with their results wrapped), its sections and
/// its text, so a metered render writes the same bytes as a plain one
/// (`TemplateLibraryTests` holds the two together on random templates).
final class RenderMeter: @unchecked Sendable {
    /// The meter of the render on this thread, for the content type's escaping.
    @TaskLocal static var current: RenderMeter?

    let limit: Int
    let expansion: StaticExpansion
    /// One render's count, on the one thread that renders it.
    private(set) var counted = 0
    private(set) var isStopped = false

    init(limit: Int, expansion: StaticExpansion) {
        (self.limit, self.expansion) = (limit, expansion)
    }

    /// Counts `bytes`; false once the count is past the limit (and from
    /// then on).
    @discardableResult
    func count(_ bytes: Int) -> Bool {
        guard !isStopped else { return false }
        counted = StaticExpansion.saturated(counted + bytes)
        if counted > limit { isStopped = true }
        return !isStopped
    }

    /// `value` as a render reads it, counted as it is written; `name` is
    /// the name it was found by (`.` for a list's element), which tells a
    /// list the sections that may iterate it. Flags and numbers are
    /// handed out as they are: a tag that writes one counts
    /// `StaticExpansion.valueBytes`, and a flag must stay a flag for its
    /// section.
    func metered(_ value: Any, name: String) -> Any {
        // The types the contexts hand out most, compared exactly first: a
        // cast to an existential (`any BinaryInteger`) looks the conformance
        // up, and every name of every page comes through here.
        let type = type(of: value)
        if type == String.self { return MeteredText(text: value as! String, meter: self, name: name) }
        if type == Bool.self || type == Int.self { return value }
        if type == NavItem.self { return MeteredParent(parent: value as! NavItem, value: value, meter: self, name: name) }
        if let box = value as? OptionalBox {
            // An optional inside a value reads as what it holds; `nil`
            // writes its description, as swift-mustache writes it.
            guard let wrapped = box.wrapped else { return MeteredOther(value: value, meter: self, name: name) }
            return metered(wrapped, name: name)
        }
        switch value {
        case is Bool, is any BinaryInteger, is any BinaryFloatingPoint, is MustacheTemplate, is MustacheLambda:
            return value
        case let text as String:
            return MeteredText(text: text, meter: self, name: name)
        case let text as Substring:
            return MeteredText(text: String(text), meter: self, name: name)
        case let sequence as any MustacheSequence:
            return MeteredList(value: value, elements: Self.elements(of: sequence), meter: self, name: name)
        case let pair as (key: String, value: Any):
            return MeteredPair(pair: pair, value: value, meter: self)
        case let parent as any MustacheParent:
            return MeteredParent(parent: parent, value: value, meter: self, name: name)
        default:
            return MeteredOther(value: value, meter: self, name: name)
        }
    }

    static func elements<S: Sequence>(of sequence: S) -> [Any] {
        sequence.map { $0 as Any }
    }

    /// Text a wrapper writes: counted, or nothing once past the limit.
    func written(_ text: String) -> String {
        count(text.utf8.count) ? text : ""
    }

    /// A transform's result on `value`, wrapped as the value was.
    func transformed(_ value: Any, _ transform: String, name: String) -> Any? {
        guard let transformable = value as? MustacheTransformable, let result = transformable.transform(transform) else { return nil }
        return metered(result, name: name)
    }
}

/// An optional held by a value typed `Any` (swift-mustache unwraps one
/// before it writes it).
private protocol OptionalBox {
    var wrapped: Any? { get }
}

extension Optional: OptionalBox {
    fileprivate var wrapped: Any? { map { $0 as Any } }
}

/// Text: a name's value, or a transform's.
struct MeteredText: MustacheCustomRenderable, MustacheParent, MustacheTransformable {
    let text: String
    let meter: RenderMeter
    let name: String

    var renderText: String { meter.written(text) }
    var isNull: Bool { false }
    /// Text has no names of its own (swift-mustache's `Mirror` of a string
    /// has no labelled children): the lookup goes on outwards.
    func child(named: String) -> Any? { nil }
    func transform(_ transform: String) -> Any? { meter.transformed(text, transform, name: name) }
}

/// A list: each element is counted as the list hands it out.
struct MeteredList: MustacheSequence, MustacheCustomRenderable, MustacheParent, MustacheTransformable {
    /// The list as the context gave it, for its text and its transforms.
    let value: Any
    let elements: [Any]
    let meter: RenderMeter
    let name: String

    struct Iterator: IteratorProtocol {
        let list: MeteredList
        var index = 0

        /// The next element, counted; none once past the limit.
        mutating func next() -> Any? {
            guard index < list.elements.count, list.meter.count(list.meter.expansion.elementBytes(named: list.name)) else { return nil }
            defer { index += 1 }
            return list.meter.metered(list.elements[index], name: ".")
        }
    }

    func makeIterator() -> Iterator { Iterator(list: self) }

    var renderText: String { meter.written(String(describing: value)) }
    var isNull: Bool { false }
    /// A list has no names (its `Mirror`'s children are unlabelled).
    func child(named: String) -> Any? { nil }
    func transform(_ transform: String) -> Any? { meter.transformed(value, transform, name: name) }
}

/// A context or a dictionary: its names' values, wrapped.
struct MeteredParent: MustacheParent, MustacheCustomRenderable, MustacheTransformable {
    let parent: any MustacheParent
    let value: Any
    let meter: RenderMeter
    let name: String

    func child(named key: String) -> Any? { parent.child(named: key).map { meter.metered($0, name: key) } }
    var renderText: String { meter.written(String(describing: value)) }
    var isNull: Bool { false }
    func transform(_ transform: String) -> Any? { meter.transformed(value, transform, name: name) }
}

/// A dictionary's entry, as its `enumerated` and `sorted` transforms give
/// it: `key` and `value` (what swift-mustache's `Mirror` of the pair reads).
struct MeteredPair: MustacheParent, MustacheCustomRenderable {
    let pair: (key: String, value: Any)
    let value: Any
    let meter: RenderMeter

    func child(named key: String) -> Any? {
        switch key {
        case "key": return meter.metered(pair.key, name: key)
        case "value": return meter.metered(pair.value, name: key)
        default: return nil
        }
    }

    var renderText: String { meter.written(String(describing: value)) }
    var isNull: Bool { false }
}

/// Any other value: its description, counted; no names.
struct MeteredOther: MustacheParent, MustacheCustomRenderable, MustacheTransformable {
    let value: Any
    let meter: RenderMeter
    let name: String

    func child(named: String) -> Any? { nil }
    var renderText: String { meter.written(String(describing: value)) }
    var isNull: Bool { false }
    func transform(_ transform: String) -> Any? { meter.transformed(value, transform, name: name) }
}
