/// A value the store keeps: written field by field in a fixed order and
/// read back the same way (the store file's format version names that
/// order; a file of another version is not read at all). Integers are
/// LEB128 varints, strings and bytes length-prefixed UTF-8.
public protocol StoreCodable: Sendable {
    func encode(to encoder: inout StoreEncoder)
    init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed)
}

/// Bytes a value is written to.
public struct StoreEncoder: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    public mutating func write(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    public mutating func write(_ value: Int) {
        // Zigzag: small negative numbers stay small.
        write(UInt64(bitPattern: Int64((value << 1) ^ (value >> (Int.bitWidth - 1)))))
    }

    public mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

    public mutating func write(_ value: String) {
        var value = value
        value.withUTF8 { write(bytes: $0) }
    }

    public mutating func write(bytes value: UnsafeBufferPointer<UInt8>) {
        write(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    public mutating func write(bytes value: [UInt8]) {
        value.withUnsafeBufferPointer { write(bytes: $0) }
    }

    public mutating func write<Value: StoreCodable>(_ value: Value) { value.encode(to: &self) }

    public mutating func write<Value: StoreCodable>(_ value: Value?) {
        write(value != nil)
        value?.encode(to: &self)
    }

    public mutating func write<Element: StoreCodable>(_ values: [Element]) {
        write(UInt64(values.count))
        for value in values { value.encode(to: &self) }
    }

    /// A dictionary, its keys in byte order (the same values, the same bytes).
    public mutating func write<Value: StoreCodable>(_ values: [String: Value]) {
        write(UInt64(values.count))
        for key in values.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            write(key)
            values[key]!.encode(to: &self)
        }
    }

}

/// Reads back what a `StoreEncoder` wrote, from a slice of the store file.
public struct StoreDecoder {
    /// The bytes are not a value of the type read: the store is not used.
    public struct Malformed: Error, Sendable {
        public init() {}
    }

    private let base: UnsafeRawBufferPointer
    private var offset: Int

    /// Reads `bytes`, which must outlive the decoder.
    public init(_ bytes: UnsafeRawBufferPointer) {
        base = bytes
        offset = 0
    }

    public var isAtEnd: Bool { offset == base.count }

    public mutating func read() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < base.count, shift < 64 else { throw Malformed() }
            let byte = base[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    public mutating func read() throws(Malformed) -> Int {
        let raw: UInt64 = try read()
        let value = Int64(bitPattern: raw)
        return Int((value >> 1) ^ -(value & 1))
    }

    public mutating func read() throws(Malformed) -> Bool {
        guard offset < base.count else { throw Malformed() }
        defer { offset += 1 }
        switch base[offset] {
        case 0: return false
        case 1: return true
        default: throw Malformed()
        }
    }

    /// A count of things still to read, each at least a byte: no count a
    /// file could claim makes a read allocate more than the file holds.
    public mutating func readCount() throws(Malformed) -> Int {
        let count: UInt64 = try read()
        guard count <= UInt64(base.count - offset) else { throw Malformed() }
        return Int(count)
    }

    public mutating func readBytes() throws(Malformed) -> UnsafeRawBufferPointer {
        let count = try readCount()
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: base[offset..<offset + count])
    }

    public mutating func read() throws(Malformed) -> [UInt8] { Array(try readBytes()) }

    public mutating func read() throws(Malformed) -> String {
        let bytes = try readBytes()
        return String(decoding: bytes, as: UTF8.self)
    }

    public mutating func read<Value: StoreCodable>(_: Value.Type = Value.self) throws(Malformed) -> Value { try Value(from: &self) }

    public mutating func read<Value: StoreCodable>() throws(Malformed) -> Value? {
        let present: Bool = try read()
        return present ? try Value(from: &self) : nil
    }

    public mutating func read<Element: StoreCodable>() throws(Malformed) -> [Element] {
        let count = try readCount()
        var values: [Element] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try Element(from: &self)) }
        return values
    }

    public mutating func read<Value: StoreCodable>() throws(Malformed) -> [String: Value] {
        let count = try readCount()
        var values: [String: Value] = [:]
        values.reserveCapacity(count)
        for _ in 0..<count {
            let key: String = try read()
            guard values.updateValue(try Value(from: &self), forKey: key) == nil else { throw Malformed() }
        }
        return values
    }

}

extension String: StoreCodable {
    public func encode(to encoder: inout StoreEncoder) { encoder.write(self) }
    public init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) { self = try decoder.read() }
}

extension Int: StoreCodable {
    public func encode(to encoder: inout StoreEncoder) { encoder.write(self) }
    public init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) { self = try decoder.read() }
}

extension Bool: StoreCodable {
    public func encode(to encoder: inout StoreEncoder) { encoder.write(self) }
    public init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) { self = try decoder.read() }
}

extension Array: StoreCodable where Element: StoreCodable {
    public func encode(to encoder: inout StoreEncoder) {
        encoder.write(UInt64(count))
        for element in self { element.encode(to: &encoder) }
    }

    public init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
        let count = try decoder.readCount()
        self = []
        reserveCapacity(count)
        for _ in 0..<count { append(try Element(from: &decoder)) }
    }
}

extension Optional: StoreCodable where Wrapped: StoreCodable {
    public func encode(to encoder: inout StoreEncoder) {
        encoder.write(self != nil)
        self?.encode(to: &encoder)
    }

    public init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
        let present: Bool = try decoder.read()
        self = present ? try Wrapped(from: &decoder) : nil
    }
}

extension Dictionary: StoreCodable where Key == String, Value: StoreCodable {
    public func encode(to encoder: inout StoreEncoder) { encoder.write(self) }
    public init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) { self = try decoder.read() }
}
