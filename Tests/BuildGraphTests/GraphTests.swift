@testable import BuildGraph
import Foundation
import ProjectFiles
import SeededRandom
import Testing

/// A spreadsheet of the graph's own: cells set from outside, formulas over
/// them, and a count of every derivation, so a test sees what was derived.
final class Tally: Sendable {
    let counts = Locked<[String: Int]>([:])
    func note(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }
    func take() -> [String: Int] { counts.withLock { counts in defer { counts = [:] }; return counts } }
}

extension Derivation {
    var tally: Tally { environment as! Tally }
}

/// A number set from outside.
enum Cell: Input, StoredRule {
    typealias Value = Int
    static let name = "cell"
}

/// The sum of the cells named in its argument (`a+b+c`).
enum Sum: StoredRule {
    static let name = "sum"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Int {
        build.tally.note("sum(\(argument))")
        return try build.values(Cell.self, argument.split(separator: "+").map(String.init)).reduce(0, +)
    }
}

/// Whether a cell is even: re-derived when the cell changes, and often the same.
enum Parity: StoredRule {
    static let name = "parity"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Bool {
        build.tally.note("parity(\(argument))")
        return try build.value(Cell.self, argument) % 2 == 0
    }
}

/// Words of a cell's parity: reads only `Parity`.
enum Words: StoredRule {
    static let name = "words"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> String {
        build.tally.note("words(\(argument))")
        return try build.value(Parity.self, argument) ? "even" : "odd"
    }
}

/// `x` when the cell `flag` is not 0, else `y`: what it reads depends on a value.
enum Choose: StoredRule {
    static let name = "choose"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Int {
        build.tally.note("choose")
        return try build.value(Cell.self, build.value(Cell.self, "flag") != 0 ? "x" : "y")
    }
}

/// Not stored: a new process derives it again when asked for its value.
enum Doubled: Rule {
    static let name = "doubled"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Int {
        build.tally.note("doubled(\(argument))")
        return try build.value(Cell.self, argument) * 2
    }
    static func same(_ old: Int, _ new: Int) -> Bool { old == new }
}

/// Reads a value that is not stored.
enum Quadrupled: StoredRule {
    static let name = "quadrupled"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Int {
        build.tally.note("quadrupled(\(argument))")
        return try build.value(Doubled.self, argument) * 2
    }
}

/// Stops the build when its cell is negative.
enum Checked: StoredRule {
    static let name = "checked"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Int {
        build.tally.note("checked(\(argument))")
        let value = try build.value(Cell.self, argument)
        if value < 0 { throw BuildStopped(reason: "negative") }
        return value
    }
}

let allRules: [any Rule.Type] = [Cell.self, Sum.self, Parity.self, Words.self, Choose.self, Doubled.self, Quadrupled.self, Checked.self]

func set(_ graph: Graph, _ cells: [String: Int]) {
    graph.setInputs { inputs in
        for (name, value) in cells.sorted(by: { $0.key < $1.key }) { inputs.set(Cell.self, name, value) }
    }
}

@Suite("The build graph")
struct GraphTests {
    @Test func aValue_isDerivedOnce_untilSomethingItReadChanges() throws {
        let (graph, tally) = (Graph(rules: allRules), Tally())
        set(graph, ["a": 1, "b": 2, "c": 3])
        #expect(try graph.value(Sum.self, "a+b", environment: tally) == 3)
        #expect(try graph.value(Sum.self, "a+b", environment: tally) == 3)
        #expect(tally.take() == ["sum(a+b)": 1])
        // The same values set again: no new revision, nothing derived.
        let revision = graph.revision
        set(graph, ["a": 1, "b": 2, "c": 3])
        #expect(graph.revision == revision)
        #expect(try graph.value(Sum.self, "a+b", environment: tally) == 3)
        // A cell it does not read changes: still nothing derived.
        set(graph, ["c": 30])
        #expect(try graph.value(Sum.self, "a+b", environment: tally) == 3)
        #expect(tally.take().isEmpty)
        set(graph, ["b": 20])
        #expect(try graph.value(Sum.self, "a+b", environment: tally) == 21)
        #expect(tally.take() == ["sum(a+b)": 1])
    }

    @Test func aValueDerivedToTheSameAgain_leavesWhatReadsItAlone() throws {
        let (graph, tally) = (Graph(rules: allRules), Tally())
        set(graph, ["a": 2])
        #expect(try graph.value(Words.self, "a", environment: tally) == "even")
        _ = tally.take()
        set(graph, ["a": 4])
        #expect(try graph.value(Words.self, "a", environment: tally) == "even")
        #expect(tally.take() == ["parity(a)": 1])
        set(graph, ["a": 5])
        #expect(try graph.value(Words.self, "a", environment: tally) == "odd")
        #expect(tally.take() == ["parity(a)": 1, "words(a)": 1])
    }

    @Test func whatAValueReads_isWhatItReadLastTime() throws {
        let (graph, tally) = (Graph(rules: allRules), Tally())
        set(graph, ["flag": 1, "x": 10, "y": 20])
        #expect(try graph.value(Choose.self, "", environment: tally) == 10)
        _ = tally.take()
        set(graph, ["y": 21])
        #expect(try graph.value(Choose.self, "", environment: tally) == 10)
        #expect(tally.take().isEmpty)
        set(graph, ["flag": 0])
        #expect(try graph.value(Choose.self, "", environment: tally) == 21)
        set(graph, ["x": 11])
        #expect(try graph.value(Choose.self, "", environment: tally) == 21)
        #expect(tally.take() == ["choose": 1])
    }

    @Test func valuesAskedForOnEveryCore_areEachDerivedOnce() throws {
        let (graph, tally) = (Graph(rules: allRules), Tally())
        let names = (0..<2_000).map { "c\($0)" }
        set(graph, Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) }))
        // Every sum reads the shared cell c0 and one of its own.
        let root = Derivation(graph: graph, environment: tally)
        let sums = try root.values(Sum.self, names.map { "c0+\($0)" })
        #expect(sums == names.indices.map { $0 })
        let counts = tally.take()
        #expect(counts.count == names.count && counts.values.allSatisfy { $0 == 1 })
        set(graph, ["c0": 1])
        #expect(try root.values(Sum.self, names.map { "c0+\($0)" }) == names.indices.map { $0 == 0 ? 2 : $0 + 1 })
        #expect(tally.take().count == names.count)
    }

    @Test func aStoppedBuild_keepsNothingItWasDeriving() throws {
        let (graph, tally) = (Graph(rules: allRules), Tally())
        set(graph, ["a": -1])
        #expect(throws: BuildStopped.self) { try graph.value(Checked.self, "a", environment: tally) }
        #expect(throws: BuildStopped.self) { try graph.value(Checked.self, "a", environment: tally) }
        #expect(tally.take() == ["checked(a)": 2])
        set(graph, ["a": 3])
        #expect(try graph.value(Checked.self, "a", environment: tally) == 3)
    }

    @Test func aStoredGraph_readsBackAsItWas_andDerivesOnlyWhatAnEditTouches() throws {
        let (graph, tally) = (Graph(rules: allRules), Tally())
        set(graph, ["a": 2, "b": 3, "flag": 0, "x": 1, "y": 2])
        #expect(try graph.value(Sum.self, "a+b", environment: tally) == 5)
        #expect(try graph.value(Words.self, "a", environment: tally) == "even")
        #expect(try graph.value(Quadrupled.self, "b", environment: tally) == 12)
        #expect(try graph.value(Choose.self, "", environment: tally) == 2)
        let roots: [(rule: any Rule.Type, argument: String)] = [(Sum.self, "a+b"), (Words.self, "a"), (Quadrupled.self, "b"), (Choose.self, "")]
        let bytes = graph.storeBytes(identity: "test", metadata: [1, 2, 3], roots: roots)
        _ = tally.take()

        let (loaded, metadata) = try #require(Graph.load(bytes, identity: "test", rules: allRules))
        #expect(metadata == [1, 2, 3])
        set(loaded, ["a": 2, "b": 3, "flag": 0, "x": 1, "y": 2])
        #expect(try loaded.value(Sum.self, "a+b", environment: tally) == 5)
        #expect(try loaded.value(Words.self, "a", environment: tally) == "even")
        #expect(try loaded.value(Quadrupled.self, "b", environment: tally) == 12)
        #expect(tally.take().isEmpty)
        // A value not stored is derived again only for its value, and changes nothing.
        #expect(try loaded.value(Doubled.self, "b", environment: tally) == 6)
        #expect(tally.take() == ["doubled(b)": 1])
        set(loaded, ["a": 4, "y": 5])
        #expect(try loaded.value(Words.self, "a", environment: tally) == "even")
        #expect(try loaded.value(Choose.self, "", environment: tally) == 5)
        #expect(try loaded.value(Sum.self, "a+b", environment: tally) == 7)
        #expect(tally.take() == ["parity(a)": 1, "choose": 1, "sum(a+b)": 1])
        // Saved again, it keeps what it read, and the values it did not decode.
        let again = loaded.storeBytes(identity: "test", metadata: [], roots: roots)
        let (third, _) = try #require(Graph.load(again, identity: "test", rules: allRules))
        set(third, ["a": 4, "b": 3, "flag": 0, "x": 1, "y": 5])
        #expect(try third.value(Quadrupled.self, "b", environment: tally) == 12)
        #expect(try third.value(Sum.self, "a+b", environment: tally) == 7)
        #expect(tally.take().isEmpty)
    }

    @Test func aStoreOfAnotherIdentityOrCutShort_isNoStore() throws {
        let (graph, tally) = (Graph(rules: allRules), Tally())
        set(graph, ["a": 2, "b": 3])
        _ = try graph.value(Sum.self, "a+b", environment: tally)
        let bytes = graph.storeBytes(identity: "tool 1", metadata: [], roots: [(Sum.self, "a+b")])
        #expect(Graph.load(bytes, identity: "tool 2", rules: allRules) == nil)
        #expect(Graph.load(bytes, identity: "tool 1", rules: Array(allRules.dropLast())) == nil)
        for cut in stride(from: 0, to: bytes.count - 1, by: 7) {
            #expect(Graph.load(Array(bytes[..<cut]), identity: "tool 1", rules: allRules) == nil, "cut at \(cut)")
        }
    }

    /// Random graphs of sums over random cells, edited at random: every
    /// value after every edit is the one a graph that starts empty derives,
    /// from memory and from the store.
    @Test func randomEdits_alwaysGiveWhatAnEmptyGraphGives() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["ROWMOTION_FUZZ_SEED"] ?? "") ?? 1
        print("randomEdits_alwaysGiveWhatAnEmptyGraphGives: seed \(seed) (ROWMOTION_FUZZ_SEED)")
        var random = SeededGenerator(seed: seed)
        let cells = (0..<12).map { "k\($0)" }
        let formulas = (0..<30).map { _ in (0..<Int.random(in: 1...4, using: &random)).map { _ in cells.randomElement(using: &random)! }.joined(separator: "+") }
        var values = Dictionary(uniqueKeysWithValues: cells.map { ($0, Int.random(in: -5...5, using: &random)) })
        var graph = Graph(rules: allRules)
        let tally = Tally()
        let roots = formulas.map { (rule: Sum.self as any Rule.Type, argument: $0) } + cells.map { (rule: Words.self as any Rule.Type, argument: $0) }
        for step in 0..<200 {
            for _ in 0..<Int.random(in: 1...3, using: &random) { values[cells.randomElement(using: &random)!] = Int.random(in: -5...5, using: &random) }
            if step % 7 == 3 {
                let bytes = graph.storeBytes(identity: "fuzz", metadata: [], roots: roots)
                graph = try #require(Graph.load(bytes, identity: "fuzz", rules: allRules)?.graph)
            }
            set(graph, values)
            let fresh = Graph(rules: allRules)
            set(fresh, values)
            let asked = formulas.shuffled(using: &random).prefix(20)
            for formula in asked {
                #expect(try graph.value(Sum.self, formula, environment: tally) == fresh.value(Sum.self, formula, environment: tally), "seed \(seed), step \(step)")
            }
            for cell in cells.shuffled(using: &random).prefix(6) {
                #expect(try graph.value(Words.self, cell, environment: tally) == fresh.value(Words.self, cell, environment: tally), "seed \(seed), step \(step)")
            }
        }
    }
}
