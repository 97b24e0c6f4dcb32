/// How one kind of value is derived: a named function of an argument and of
/// the values it reads through a `Derivation`, each read recorded as a
/// dependency (as a rule of swift-llbuild's BuildEngine records the keys it
/// asks for, or a Salsa query its inputs).
///
/// A rule must read the world only through the graph (other rules, and
/// inputs the build sets: `Input`), and must give the same value for the
/// same reads: the graph re-derives a value only when something it read
/// changed, and a value re-derived to one `same` as before changes nothing
/// downstream (early cutoff).
public protocol Rule: SendableMetatype {
    associatedtype Value: Sendable
    /// The rule's name: the store and `--verbose` know it by this.
    static var name: String { get }
    /// Derives the value for `argument`.
    /// - Throws: `BuildStopped` when the build stops (a limit passed, a
    ///   file changed while it ran): nothing derived then is kept.
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value
    /// Whether a value derived again is the one before it: nothing that read
    /// it is derived again. (Equatable values: `==`.)
    static func same(_ old: Value, _ new: Value) -> Bool
    /// Whether values are kept between processes in the store file; a
    /// value that is not (a parsed tree, compiled templates) is derived
    /// again when a new process needs it.
    static var isStored: Bool { get }
    static func encode(_ value: Value, to encoder: inout StoreEncoder)
    static func decode(_ decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) -> Value
}

extension Rule {
    public static var isStored: Bool { false }
    public static func encode(_ value: Value, to encoder: inout StoreEncoder) {}
    public static func decode(_ decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) -> Value { throw StoreDecoder.Malformed() }
}

extension Rule where Value: Equatable {
    public static func same(_ old: Value, _ new: Value) -> Bool { old == new }
}

/// A rule whose values are stored, encoded by the value itself.
public protocol StoredRule: Rule where Value: StoreCodable {}

extension StoredRule where Value: Equatable {
    public static func same(_ old: Value, _ new: Value) -> Bool { sameBytes(old, new) }
}

extension StoredRule {
    /// The same value is the same bytes stored: a `String` takes `café`
    /// composed and decomposed for one, which to a build (a file's name,
    /// a link) are two.
    public static func same(_ old: Value, _ new: Value) -> Bool { sameBytes(old, new) }

    static func sameBytes(_ old: Value, _ new: Value) -> Bool {
        var (a, b) = (StoreEncoder(), StoreEncoder())
        old.encode(to: &a)
        new.encode(to: &b)
        return a.bytes == b.bytes
    }

    public static var isStored: Bool { true }
    public static func encode(_ value: Value, to encoder: inout StoreEncoder) { value.encode(to: &encoder) }
    public static func decode(_ decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) -> Value { try Value(from: &decoder) }
}

/// A value the build sets from outside the graph before it derives
/// anything (a file's digest, the listing of a folder), as Salsa's inputs
/// are set: what reads it is derived again when the value set differs.
public protocol Input: Rule {
    /// Whether `value` says the input is gone (a file removed): a store
    /// keeps such an input only while a kept node read it.
    static func isGone(_ value: Value) -> Bool
}

extension Input {
    public static func isGone(_ value: Value) -> Bool { false }

    public static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        throw BuildStopped(reason: "the input \(name)(\(argument)) was read before it was set")
    }
}

/// Why a build stopped before its end; whatever it was deriving is left
/// as it was before the build.
public struct BuildStopped: Error, Sendable {
    public var reason: String
    /// What the stop carries for the caller (the diagnostics that say why).
    public var detail: (any Sendable)?

    public init(reason: String, detail: (any Sendable)? = nil) {
        self.reason = reason
        self.detail = detail
    }
}
