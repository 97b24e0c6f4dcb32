/// The graph as a file, as swift-llbuild keeps its build database: every
/// node a build reached (its rule, argument, revisions and what it read),
/// and the stored rules' values, each read only when a build asks for it.
///
/// The file is one blob: a magic line and format version, a header (the
/// identity the caller gives, the revision, the rules' names, the caller's
/// own metadata), a table of nodes of fixed size, what each node read, the
/// arguments, the values. A file of another format, identity or rule set,
/// or one that does not read whole, is no store: the build starts empty.
extension Graph {
    /// This format's number: bumped whenever the layout below changes.
    public static let storeFormat: UInt32 = 1
    static let magic = Array("rowmotion-graph\n".utf8)

    /// The file of the nodes reachable from `roots` (and every input set
    /// that is not gone), with `identity` (what must match for a build to
    /// take it: the tool, the options, the project) and `metadata` (the
    /// caller's, read back by `load`).
    public func storeBytes(identity: String, metadata: [UInt8], roots: [(rule: any Rule.Type, argument: String)]) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        // What is kept: the roots and all they read, and the inputs set.
        var keep = [Bool](repeating: false, count: table.count)
        var queue: [Int32] = []
        for (rule, argument) in roots {
            guard let node = table.index[NodeKey(rule: number(of: rule), argument: argument)] else { continue }
            queue.append(node)
        }
        for node in 0..<table.count where rules[Int(table.rule[node])].isInput && table.value[node].map({ !rules[Int(table.rule[node])].isGone($0) }) ?? true {
            queue.append(Int32(node))
        }
        while let node = queue.popLast() {
            guard !keep[Int(node)] else { continue }
            keep[Int(node)] = true
            for dependency in table.deps[Int(node)] ?? [] where !keep[Int(dependency)] { queue.append(dependency) }
        }
        // Kept nodes renumbered in order, so what each read is renumbered too.
        var renumbered = [Int32](repeating: -1, count: table.count)
        var kept: [Int] = []
        for node in 0..<table.count where keep[node] {
            renumbered[node] = Int32(kept.count)
            kept.append(node)
        }

        var header = StoreEncoder(capacity: 256)
        header.write(identity)
        header.write(UInt64(revision))
        header.write(rules.map(\.name))
        header.write(bytes: metadata)
        header.write(UInt64(kept.count))

        var records = [UInt8]()
        records.reserveCapacity(kept.count * NodeRecord.size)
        var deps: [UInt32] = []
        var arguments: [UInt8] = []
        var values: [UInt8] = []
        for node in kept {
            let depsStart = UInt32(deps.count)
            var derived = false
            if let read = table.deps[node] {
                derived = true
                for dependency in read where renumbered[Int(dependency)] >= 0 { deps.append(UInt32(renumbered[Int(dependency)])) }
            }
            let argumentStart = UInt32(arguments.count)
            arguments += table.argument[node].utf8
            let rule = rules[Int(table.rule[node])]
            var valueRange = 0..<0
            var hasValue = false
            if rule.isStored {
                if let stored = table.stored[node] {
                    let start = values.count
                    stored.file.bytes.withUnsafeBufferPointer { values.append(contentsOf: UnsafeBufferPointer(rebasing: $0[stored.range])) }
                    (valueRange, hasValue) = (start..<values.count, true)
                } else if let value = table.value[node] {
                    var encoder = StoreEncoder(capacity: 64)
                    rule.encode(value, &encoder)
                    let start = values.count
                    values += encoder.bytes
                    (valueRange, hasValue) = (start..<values.count, true)
                }
            }
            // A node whose value is stored but not known (never derived) is
            // kept as not derived: the next build derives it.
            let record = NodeRecord(rule: table.rule[node], flags: (derived && (hasValue || !rule.isStored) ? 1 : 0) | (hasValue ? 2 : 0),
                                    changedAt: table.changedAt[node], verifiedAt: table.verifiedAt[node],
                                    depsStart: depsStart, depsCount: UInt32(deps.count) - depsStart,
                                    argumentStart: argumentStart, argumentCount: UInt32(arguments.count) - argumentStart,
                                    valueStart: UInt32(valueRange.lowerBound), valueCount: UInt32(valueRange.count))
            record.append(to: &records)
        }

        var file = Self.magic
        append(Self.storeFormat, to: &file)
        append(UInt32(header.bytes.count), to: &file)
        file += header.bytes
        file += records
        append(UInt32(deps.count), to: &file)
        deps.withUnsafeBytes { raw in
            for index in 0..<deps.count { append(raw.load(fromByteOffset: index * 4, as: UInt32.self), to: &file) }
        }
        append(UInt32(arguments.count), to: &file)
        file += arguments
        append(UInt32(values.count), to: &file)
        file += values
        return file
    }

    /// The graph a store file holds, with its metadata; nil when the file
    /// is not one of this format, `identity` and rule set, or does not read.
    public static func load(_ bytes: [UInt8], identity: String, rules: [any Rule.Type]) -> (graph: Graph, metadata: [UInt8])? {
        let file = StoreBytes(bytes)
        let graph = Graph(rules: rules)
        guard let metadata = file.bytes.withUnsafeBytes({ raw in graph.read(raw, file: file, identity: identity) }) else { return nil }
        return (graph, metadata)
    }

    /// Reads the store file `raw` into this (empty) graph: its metadata,
    /// or nil when it does not read.
    private func read(_ raw: UnsafeRawBufferPointer, file: StoreBytes, identity: String) -> [UInt8]? {
        var offset = 0
        func take(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, offset + count <= raw.count else { return nil }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: raw[offset..<offset + count])
        }
        func number() -> UInt32? { take(4).map { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) } }
        guard let magic = take(Self.magic.count), magic.elementsEqual(Self.magic), number() == Self.storeFormat,
              let headerCount = number(), let headerBytes = take(Int(headerCount)) else { return nil }
        var header = StoreDecoder(headerBytes)
        guard let storedIdentity = try? header.read() as String, storedIdentity == identity,
              let storedRevision = try? header.read() as UInt64, storedRevision < UInt64(UInt32.max),
              let names = try? header.read() as [String], names == rules.map(\.name),
              let metadata = try? header.read() as [UInt8], let count = try? header.read() as UInt64,
              count <= UInt64(raw.count / NodeRecord.size), let recordBytes = take(Int(count) * NodeRecord.size) else { return nil }
        guard let depsCount = number(), let depsBytes = take(Int(depsCount) * 4),
              let argumentsCount = number(), let argumentBytes = take(Int(argumentsCount)),
              let valuesCount = number(), let valueBytes = take(Int(valuesCount)), offset == raw.count else { return nil }
        let valuesBase = raw.baseAddress!.distance(to: valueBytes.baseAddress ?? raw.baseAddress!)

        var table = NodeTable()
        table.rule.reserveCapacity(Int(count))
        table.index.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let record = NodeRecord(UnsafeRawBufferPointer(rebasing: recordBytes[index * NodeRecord.size..<(index + 1) * NodeRecord.size]))
            guard Int(record.rule) < rules.count, Int(record.depsStart) + Int(record.depsCount) <= Int(depsCount),
                  Int(record.argumentStart) + Int(record.argumentCount) <= argumentBytes.count,
                  Int(record.valueStart) + Int(record.valueCount) <= valueBytes.count,
                  record.changedAt <= storedRevision, record.verifiedAt <= storedRevision else { return nil }
            let argument = String(decoding: UnsafeRawBufferPointer(rebasing: argumentBytes[Int(record.argumentStart)..<Int(record.argumentStart + record.argumentCount)]),
                                  as: UTF8.self)
            let key = NodeKey(rule: record.rule, argument: argument)
            guard table.index[key] == nil else { return nil }
            let node = table.add(key)
            table.changedAt[Int(node)] = record.changedAt
            table.verifiedAt[Int(node)] = record.verifiedAt
            if record.flags & 1 != 0 {
                var read: [Int32] = []
                read.reserveCapacity(Int(record.depsCount))
                for at in Int(record.depsStart)..<Int(record.depsStart + record.depsCount) {
                    let dependency = UInt32(littleEndian: depsBytes.loadUnaligned(fromByteOffset: at * 4, as: UInt32.self))
                    guard dependency < UInt32(count) else { return nil }
                    read.append(Int32(dependency))
                }
                table.deps[Int(node)] = read
            }
            if record.flags & 2 != 0 {
                let start = valuesBase + Int(record.valueStart)
                table.stored[Int(node)] = StoredValue(file: file, range: start..<start + Int(record.valueCount))
            }
        }
        // An input's value is always stored (it is set, never derived).
        for node in 0..<table.count where rules[Int(table.rule[node])].isInput && table.stored[node] == nil { return nil }
        self.table = table
        setRevision(UInt32(storedRevision))
        return metadata
    }

    /// The stored values that do not read back as the bytes they were read
    /// from (decoded, then encoded again), as `rule(argument)`: each rule's
    /// codec must be its values' own.
    public func storedValueProblems() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        var problems: [String] = []
        for node in 0..<table.count {
            guard let stored = table.stored[node] else { continue }
            let rule = rules[Int(table.rule[node])]
            let name = "\(rule.name)(\(table.argument[node]))"
            guard let value = try? stored.file.decode(stored.range, with: rule) else { problems.append(name + ": does not read"); continue }
            var encoder = StoreEncoder()
            rule.encode(value, &encoder)
            if !encoder.bytes.elementsEqual(stored.file.bytes[stored.range]) { problems.append(name + ": reads back otherwise") }
        }
        return problems
    }

    private func append(_ value: UInt32, to bytes: inout [UInt8]) {
        var little = value.littleEndian
        withUnsafeBytes(of: &little) { bytes.append(contentsOf: $0) }
    }
}

/// A node as the store file keeps it: fixed-size fields, little-endian.
struct NodeRecord {
    static let size = 2 + 1 + 4 * 8
    var rule: UInt16
    /// 1: derived (what it read is recorded); 2: its value is stored.
    var flags: UInt8
    var changedAt, verifiedAt: UInt32
    var depsStart, depsCount: UInt32
    var argumentStart, argumentCount: UInt32
    var valueStart, valueCount: UInt32

    init(rule: UInt16, flags: UInt8, changedAt: UInt32, verifiedAt: UInt32, depsStart: UInt32, depsCount: UInt32,
         argumentStart: UInt32, argumentCount: UInt32, valueStart: UInt32, valueCount: UInt32) {
        (self.rule, self.flags, self.changedAt, self.verifiedAt) = (rule, flags, changedAt, verifiedAt)
        (self.depsStart, self.depsCount, self.argumentStart, self.argumentCount) = (depsStart, depsCount, argumentStart, argumentCount)
        (self.valueStart, self.valueCount) = (valueStart, valueCount)
    }

    init(_ raw: UnsafeRawBufferPointer) {
        func word(_ at: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        rule = UInt16(littleEndian: raw.loadUnaligned(as: UInt16.self))
        flags = raw[2]
        (changedAt, verifiedAt, depsStart, depsCount) = (word(3), word(7), word(11), word(15))
        (argumentStart, argumentCount, valueStart, valueCount) = (word(19), word(23), word(27), word(31))
    }

    func append(to bytes: inout [UInt8]) {
        var rule = self.rule.littleEndian
        withUnsafeBytes(of: &rule) { bytes.append(contentsOf: $0) }
        bytes.append(flags)
        for word in [changedAt, verifiedAt, depsStart, depsCount, argumentStart, argumentCount, valueStart, valueCount] {
            var little = word.littleEndian
            withUnsafeBytes(of: &little) { bytes.append(contentsOf: $0) }
        }
    }
}

/// A store file's bytes, shared by the values read from it.
final class StoreBytes: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func decode(_ range: Range<Int>, with rule: RuleEntry) throws(StoreDecoder.Malformed) -> any Sendable {
        let result = bytes.withUnsafeBytes { raw -> Result<any Sendable, StoreDecoder.Malformed> in
            var decoder = StoreDecoder(UnsafeRawBufferPointer(rebasing: raw[range]))
            do throws(StoreDecoder.Malformed) {
                let value = try rule.decode(&decoder)
                return decoder.isAtEnd ? .success(value) : .failure(StoreDecoder.Malformed())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
