import Dispatch
import Foundation
import ProjectFiles

/// The one build graph: every value a build derives, each a node named by
/// its rule and argument, with the nodes it read, the revision at which it
/// last changed and the revision at which it was last known to hold.
///
/// Modelled on Salsa's red-green algorithm (rust-analyzer's queries) with
/// swift-llbuild's persistent database: a build sets the inputs it sees
/// (what changed since the last build is the inputs whose value differs),
/// then asks for the values it needs. A value is taken as it is when
/// nothing it read changed since it was derived; else it is derived again,
/// and when it comes out the same (`Rule.same`), what read it is not
/// derived again (early cutoff). Before anything is asked, every node
/// reachable from a changed input through the nodes that read it is marked
/// (Hugo's identity graph does the same for its partial rebuilds): an
/// unmarked node that held at the last revision holds now, without a look
/// at what it read, so a build after one edit costs what the edit touches.
///
/// Values are asked for on every core: a node being derived by one thread
/// is waited for by the others that need it. Rules form no cycle.
public final class Graph: @unchecked Sendable {
    /// The rules this graph derives with, in the order given.
    let rules: [RuleEntry]
    private let ruleIndex: [ObjectIdentifier: UInt16]
    let ruleNames: [String: UInt16]

    /// Every node's state; guarded by `lock` (a condition: a thread that
    /// needs a node another is deriving waits for it).
    var table = NodeTable()
    let lock = NSCondition()

    /// The revision values are derived at now, and the one the last build
    /// left (equal when nothing changed since).
    public private(set) var revision: UInt32 = 1
    private(set) var baseRevision: UInt32 = 1

    /// (Loading a store.) The revision the stored build left.
    func setRevision(_ stored: UInt32) { (revision, baseRevision) = (stored, stored) }

    /// What this build derived, by rule name (for `--verbose` and tests).
    private var derivedCounts: [Int] = []
    /// Threads waiting for a node another is deriving (a node's end wakes them only when there are some).
    private var waiting = 0

    /// Nodes with at least this many dependencies check them on every core.
    static let parallelCheck = 16

    /// A graph of `rules` with nothing derived yet: what a clean build starts from.
    public init(rules: [any Rule.Type]) {
        self.rules = rules.map { RuleEntry($0) }
        var index: [ObjectIdentifier: UInt16] = [:], names: [String: UInt16] = [:]
        for (number, rule) in rules.enumerated() {
            precondition(names[rule.name] == nil, "two rules are named \(rule.name)")
            index[ObjectIdentifier(rule)] = UInt16(number)
            names[rule.name] = UInt16(number)
        }
        (ruleIndex, ruleNames) = (index, names)
    }

    // MARK: Setting the inputs

    /// What a build sets before it asks for anything.
    public struct InputChanges {
        fileprivate var values: [(rule: UInt16, argument: String, value: any Sendable)] = []
        fileprivate let graph: Graph

        /// Sets the input `rule(argument)` to `value`.
        public mutating func set<R: Input>(_ rule: R.Type, _ argument: String, _ value: R.Value) {
            values.append((graph.number(of: rule), argument, value))
        }
    }

    /// Sets the inputs, then starts a new revision when any of them changed
    /// (a new input, or a value not `same` as before) and marks every node
    /// that read them, directly or not. Returns how many inputs changed.
    @discardableResult
    public func setInputs(_ body: (inout InputChanges) -> Void) -> Int {
        var changes = InputChanges(graph: self)
        body(&changes)
        lock.lock()
        defer { lock.unlock() }
        var changed: [Int32] = []
        var updates: [(node: Int32, value: any Sendable, changed: Bool)] = []
        for (rule, argument, value) in changes.values {
            let key = NodeKey(rule: rule, argument: argument)
            guard let node = table.index[key] else {
                updates.append((table.add(key), value, true))
                continue
            }
            let old: (any Sendable)? = table.value[Int(node)] ?? (try? loadStored(node))
            let differs = old.map { !rules[Int(rule)].same($0, value) } ?? true
            updates.append((node, value, differs))
        }
        // Nodes forgotten since (`forget`) are derived again, and what reads them checked.
        let bumped = updates.contains { $0.changed } || !table.forced.isEmpty
        changed.append(contentsOf: table.forced)
        baseRevision = revision
        if bumped { revision += 1 }
        for (node, value, differs) in updates {
            let at = Int(node)
            table.value[at] = value
            table.stored[at] = nil
            table.deps[at] = []
            if differs {
                table.changedAt[at] = revision
                changed.append(node)
            }
            table.verifiedAt[at] = revision
        }
        derivedCounts = [Int](repeating: 0, count: rules.count)
        if bumped { promote(unmarkedBy: changed) }
        return changed.count
    }

    /// The arguments of every input of `rule` the graph holds (the files
    /// an earlier build read, so that one gone can be set as gone).
    public func arguments<R: Input>(of rule: R.Type) -> [String] {
        let number = number(of: rule)
        return lock.withLock { table.index.keys.filter { $0.rule == number }.map(\.argument) }
    }

    /// Every input of `rule` the graph holds, with its value, read at once.
    public func inputs<R: Input>(of rule: R.Type) -> [(argument: String, value: R.Value)] {
        let number = number(of: rule)
        lock.lock()
        defer { lock.unlock() }
        var found: [(argument: String, value: R.Value)] = []
        for node in 0..<table.count where table.rule[node] == number {
            let value: (any Sendable)? = table.value[node] ?? (try? loadStored(Int32(node)))
            if let value = value as? R.Value { found.append((table.argument[node], value)) }
        }
        return found
    }

    /// The value an input holds, if it was ever set.
    public func inputValue<R: Input>(_ rule: R.Type, _ argument: String) -> R.Value? {
        lock.lock()
        defer { lock.unlock() }
        guard let node = table.index[NodeKey(rule: number(of: rule), argument: argument)] else { return nil }
        let value: (any Sendable)? = table.value[Int(node)] ?? (try? loadStored(node))
        return value as? R.Value
    }

    /// Marks every node that read one of `changed`, through any number of
    /// nodes (each node's readers found once, from every node's reads);
    /// every other node that held at the last revision holds at this one.
    private func promote(unmarkedBy changed: [Int32]) {
        let count = table.count
        // Readers as one array per node, counted first (CSR).
        var starts = [Int32](repeating: 0, count: count + 1)
        for node in 0..<count {
            for dependency in table.deps[node] ?? [] { starts[Int(dependency) + 1] += 1 }
        }
        for node in 0..<count { starts[node + 1] += starts[node] }
        var fill = starts
        var readers = [Int32](repeating: 0, count: Int(starts[count]))
        for node in 0..<count {
            for dependency in table.deps[node] ?? [] {
                readers[Int(fill[Int(dependency)])] = Int32(node)
                fill[Int(dependency)] += 1
            }
        }
        var marked = [Bool](repeating: false, count: count)
        var queue = changed
        while let node = queue.popLast() {
            for index in Int(starts[Int(node)])..<Int(starts[Int(node) + 1]) {
                let reader = Int(readers[index])
                guard !marked[reader] else { continue }
                marked[reader] = true
                queue.append(Int32(reader))
            }
        }
        for node in 0..<count where !marked[node] && table.verifiedAt[node] == baseRevision && table.deps[node] != nil {
            table.verifiedAt[node] = revision
        }
    }

    // MARK: Asking for values

    /// The value of `rule(argument)`, derived when it does not hold.
    /// - Parameter environment: what every rule of this build may read
    ///   besides the graph (the options, where outputs go), constant for a build.
    public func value<R: Rule>(_ rule: R.Type, _ argument: String, environment: any Sendable) throws(BuildStopped) -> R.Value {
        let root = Derivation(graph: self, environment: environment)
        return try root.value(rule, argument)
    }

    /// Forgets what the nodes of `rules` derived at this revision were
    /// derived from, so that the next build derives them again: what
    /// deriving them did besides (a file put aside for a site that was
    /// then not written) is done again.
    public func forget(derivedNow rules: [any Rule.Type]) {
        let numbers = Set(rules.map { number(of: $0) })
        lock.withLock {
            for node in 0..<table.count where table.derivedAt[node] == revision && numbers.contains(table.rule[node]) {
                table.forced.insert(Int32(node))
                table.verifiedAt[node] = 0
            }
        }
    }

    /// Whether `rule(argument)` was derived by this build.
    public func derivedNow<R: Rule>(_ rule: R.Type, _ argument: String) -> Bool {
        lock.withLock { table.index[NodeKey(rule: number(of: rule), argument: argument)].map { table.derivedAt[Int($0)] == revision } ?? false }
    }

    /// How many nodes of each rule this build derived.
    public var derived: [String: Int] {
        lock.withLock {
            var counts: [String: Int] = [:]
            for (rule, count) in zip(rules, derivedCounts) where count > 0 { counts[rule.name] = count }
            return counts
        }
    }

    func number<R: Rule>(of rule: R.Type) -> UInt16 {
        guard let number = ruleIndex[ObjectIdentifier(rule)] else { preconditionFailure("the rule \(rule.name) is not one of this graph's") }
        return number
    }

    /// The node of `rule(argument)`, added when new.
    func node(_ rule: UInt16, _ argument: String) -> Int32 {
        let key = NodeKey(rule: rule, argument: argument)
        lock.lock()
        defer { lock.unlock() }
        return table.index[key] ?? table.add(key)
    }

    /// The nodes of `rule(arguments)`, added when new.
    func nodes(_ rule: UInt16, _ arguments: [String]) -> [Int32] {
        lock.lock()
        defer { lock.unlock() }
        return arguments.map { argument in
            let key = NodeKey(rule: rule, argument: argument)
            return table.index[key] ?? table.add(key)
        }
    }

    /// Whether `node` holds at this revision: checked, or derived, at it
    /// (an input always holds: it is what was set).
    private func holds(_ node: Int) -> Bool {
        table.verifiedAt[node] == revision || rules[Int(table.rule[node])].isInput
    }

    /// The value of `node`, made to hold first (`verify`); a value not
    /// stored that a new process has not derived yet is derived again for
    /// itself (the same value: nothing it read changed).
    func fetch(_ node: Int32, environment: any Sendable) throws(BuildStopped) -> any Sendable {
        try verify(node, environment: environment)
        let at = Int(node)
        lock.lock()
        while true {
            if let value = table.value[at] { lock.unlock(); return value }
            if table.stored[at] != nil {
                lock.unlock()
                return try decodeStored(node)
            }
            if !table.running[at] { break }
            waitForAnother()
        }
        table.running[at] = true
        lock.unlock()
        return try derive(node, environment: environment, forValueAlone: true)
    }

    /// Makes `node` hold at this revision: what it read is checked, in the
    /// order it read it, until one changed since the node held; then it is
    /// derived again. (Never derived: derived now.)
    func verify(_ node: Int32, environment: any Sendable) throws(BuildStopped) {
        let at = Int(node)
        lock.lock()
        while table.running[at] { waitForAnother() }
        if holds(at) { lock.unlock(); return }
        table.running[at] = true
        let (deps, verifiedAt, forced) = (table.deps[at], table.verifiedAt[at], table.forced.contains(node))
        lock.unlock()
        let mustDerive: Bool
        do throws(BuildStopped) {
            if let deps, !forced { mustDerive = try anyChanged(deps, since: verifiedAt, environment: environment) } else { mustDerive = true }
        } catch {
            release(at)
            throw error
        }
        if mustDerive {
            _ = try derive(node, environment: environment, forValueAlone: false)
            return
        }
        lock.lock()
        table.verifiedAt[at] = revision
        table.running[at] = false
        wake()
        lock.unlock()
    }

    /// (The lock held.) Waits until a node another thread derives is done.
    private func waitForAnother() {
        waiting += 1
        lock.wait()
        waiting -= 1
    }

    /// (The lock held.) Wakes the threads waiting for a node, if any.
    private func wake() {
        if waiting > 0 { lock.broadcast() }
    }

    /// Derives `node` (which this thread holds as running) and keeps its
    /// value; unless it is the same as before, it changed at this revision.
    private func derive(_ node: Int32, environment: any Sendable, forValueAlone: Bool) throws(BuildStopped) -> any Sendable {
        let at = Int(node)
        let (rule, argument) = lock.withLock { (rules[Int(table.rule[at])], table.argument[at]) }
        let derivation = Derivation(graph: self, environment: environment)
        let value: any Sendable
        do throws(BuildStopped) {
            value = try rule.derive(argument, derivation)
        } catch {
            release(at)
            throw error
        }
        lock.lock()
        let old: (any Sendable)? = forValueAlone ? nil : (table.value[at] ?? (try? loadStored(node)))
        let same = forValueAlone || (old.map { rule.same($0, value) } ?? false)
        table.deps[at] = derivation.recorded
        table.derivedAt[at] = revision
        table.forced.remove(node)
        table.value[at] = value
        if !same {
            table.changedAt[at] = revision
            table.stored[at] = nil
        }
        table.verifiedAt[at] = revision
        table.running[at] = false
        if derivedCounts.isEmpty { derivedCounts = [Int](repeating: 0, count: rules.count) }
        derivedCounts[Int(table.rule[at])] += 1
        wake()
        lock.unlock()
        return value
    }

    private func release(_ node: Int) {
        lock.lock()
        table.running[node] = false
        wake()
        lock.unlock()
    }

    /// Whether any of `deps` changed after `revision`, each made to hold
    /// first (in order, stopping at the first that changed; on every core
    /// for many, as a node that reads every page does).
    private func anyChanged(_ deps: [Int32], since revision: UInt32, environment: any Sendable) throws(BuildStopped) -> Bool {
        func changed(_ node: Int32) -> Bool { lock.withLock { table.changedAt[Int(node)] > revision } }
        if deps.count >= Self.parallelCheck {
            let results = Parallel.map(deps.count) { index -> BuildStopped? in
                do throws(BuildStopped) { try self.verify(deps[index], environment: environment); return nil } catch { return error }
            }
            if let stop = results.lazy.compactMap({ $0 }).first { throw stop }
            return deps.contains(where: changed)
        }
        for dependency in deps {
            try verify(dependency, environment: environment)
            if changed(dependency) { return true }
        }
        return false
    }

    // MARK: Stored values

    /// The value of `node` from the store it was loaded from, kept in memory.
    private func decodeStored(_ node: Int32) throws(BuildStopped) -> any Sendable {
        lock.lock()
        defer { lock.unlock() }
        do throws(StoreDecoder.Malformed) {
            return try loadStored(node)
        } catch {
            if ProcessInfo.processInfo.environment["ROWMOTION_DEBUG_STORE"] != nil { print("malformed: \(rules[Int(table.rule[Int(node)])].name)(\(table.argument[Int(node)]))") }
            throw BuildStopped(reason: Self.malformedStore)
        }
    }

    /// (The lock held.) Decodes a node's stored value and keeps it.
    private func loadStored(_ node: Int32) throws(StoreDecoder.Malformed) -> any Sendable {
        let at = Int(node)
        if let value = table.value[at] { return value }
        guard let stored = table.stored[at] else { throw StoreDecoder.Malformed() }
        let value = try stored.file.decode(stored.range, with: rules[Int(table.rule[at])])
        table.value[at] = value
        return value
    }

    /// The reason a build stops when a stored value does not read: the
    /// caller builds again from an empty graph.
    public static let malformedStore = "the build store does not read"
}

/// A node's name: its rule and its argument, compared by the argument's
/// bytes (a `String` takes `café` composed and decomposed for one; to a
/// file system, and so to a build, they are two files).
struct NodeKey: Hashable, Sendable {
    var rule: UInt16
    var argument: String

    static func == (a: NodeKey, b: NodeKey) -> Bool { a.rule == b.rule && a.argument.utf8.elementsEqual(b.argument.utf8) }

    func hash(into hasher: inout Hasher) {
        hasher.combine(rule)
        if argument.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            for byte in argument.utf8 { hasher.combine(byte) }
        }
    }
}

/// Every node's state, one array per field, indexed by node number.
struct NodeTable {
    var rule: [UInt16] = []
    var argument: [String] = []
    var changedAt: [UInt32] = []
    var verifiedAt: [UInt32] = []
    /// What the node read when it was last derived; nil when never derived.
    var deps: [[Int32]?] = []
    /// The revision at which it was last derived.
    var derivedAt: [UInt32] = []
    var value: [(any Sendable)?] = []
    /// Where its value is in the store file it was loaded from.
    var stored: [StoredValue?] = []
    var running: [Bool] = []
    var index: [NodeKey: Int32] = [:]
    /// Nodes to derive again whatever they read (`Graph.forget`).
    var forced: Set<Int32> = []

    var count: Int { rule.count }

    mutating func add(_ key: NodeKey) -> Int32 {
        let node = Int32(rule.count)
        rule.append(key.rule)
        argument.append(key.argument)
        changedAt.append(0)
        verifiedAt.append(0)
        deps.append(nil)
        derivedAt.append(0)
        value.append(nil)
        stored.append(nil)
        running.append(false)
        index[key] = node
        return node
    }
}

/// A value's bytes in a store file.
struct StoredValue {
    var file: StoreBytes
    var range: Range<Int>
}

/// One rule, its type erased: what the graph calls.
struct RuleEntry: Sendable {
    let name: String
    let isInput: Bool
    let isStored: Bool
    /// (An input.) Whether a value set says the input is gone: a store keeps only what reads it.
    let isGone: @Sendable (any Sendable) -> Bool
    let derive: @Sendable (String, Derivation) throws(BuildStopped) -> any Sendable
    let same: @Sendable (any Sendable, any Sendable) -> Bool
    let encode: @Sendable (any Sendable, inout StoreEncoder) -> Void
    let decode: @Sendable (inout StoreDecoder) throws(StoreDecoder.Malformed) -> any Sendable

    init<R: Rule>(_ rule: R.Type) {
        name = R.name
        isInput = R.self is any Input.Type
        isStored = R.isStored
        if let input = R.self as? any Input.Type {
            isGone = { value in Self.gone(input, value) }
        } else {
            isGone = { _ in false }
        }
        derive = { argument, build throws(BuildStopped) in try R.derive(argument, build) }
        same = { old, new in
            guard let old = old as? R.Value, let new = new as? R.Value else { return false }
            return R.same(old, new)
        }
        encode = { value, encoder in R.encode(value as! R.Value, to: &encoder) }
        decode = { decoder throws(StoreDecoder.Malformed) in try R.decode(&decoder) }
    }
}

extension RuleEntry {
    private static func gone<I: Input>(_ input: I.Type, _ value: any Sendable) -> Bool {
        (value as? I.Value).map(I.isGone) ?? false
    }
}

extension NSCondition {
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
