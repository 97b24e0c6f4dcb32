import ListDiff
import SeededRandom

/// A benchmark row: an identity and a payload compared with `==`.
struct BenchRow<ID: Hashable>: DiffableRow, Hashable {
    var id: ID
    var value: Int
}

enum IDKind: String {
    case int
    case uuid
}


/// One case: old and new row identities, flat, and how they split into sections.
struct Case {
    var name: String
    var oldIDs: [Int]
    var newIDs: [Int]
    /// Section sizes of old and new; one section when empty.
    var oldSections: [Int] = []
    var newSections: [Int] = []
    var kind: IDKind

    func measure(runs: Int, baseline: Bool) -> Result {
        switch kind {
        case .int: return measure(runs: runs, baseline: baseline, id: { $0 })
        case .uuid: return measure(runs: runs, baseline: baseline, id: uuidString)
        }
    }

    func measure<ID: Hashable>(runs: Int, baseline: Bool, id: (Int) -> ID) -> Result {
        let ids = Dictionary(uniqueKeysWithValues: Set(oldIDs + newIDs).map { ($0, id($0)) })
        let oldRows = oldIDs.map { BenchRow(id: ids[$0]!, value: $0) }
        let newRows = newIDs.map { BenchRow(id: ids[$0]!, value: $0) }
        let old = snapshot(oldRows, sizes: oldSections)
        let new = snapshot(newRows, sizes: newSections)

        var changeset: Changeset<Int, BenchRow<ID>>?
        let listDiff = medianMilliseconds(runs: runs) {
            changeset = try! Changeset(from: old, to: new)
        }
        // The baseline can take a minute per run at 100,000 rows: past one
        // second a run, the median of three runs (no warm-up) says enough.
        let stdlib = !baseline ? .nan : medianMilliseconds(runs: runs, slowRuns: 3, slowAfterMs: 1_000) {
            _ = newRows.difference(from: oldRows).inferringMoves()
        }
        // The hash floor: one dictionary of the old ids, every new id looked up.
        var found = 0
        let floor = medianMilliseconds(runs: runs) {
            var index: [ID: Int] = [:]
            index.reserveCapacity(oldRows.count)
            for (offset, row) in oldRows.enumerated() { index[row.id] = offset }
            found = 0
            for row in newRows where index[row.id] != nil { found += 1 }
        }
        precondition(found <= newRows.count)
        return Result(name: name, rows: oldIDs.count, listDiffMs: listDiff, stdlibMs: stdlib, floorMs: floor,
                      moves: changeset!.moveCount, minMoves: minimumMoves())
    }

    func snapshot<ID: Hashable>(_ rows: [BenchRow<ID>], sizes: [Int]) -> Snapshot<Int, BenchRow<ID>> {
        guard !sizes.isEmpty else { return Snapshot(sectionID: 0, rows: rows) }
        var sections: [Section<Int, BenchRow<ID>>] = []
        var start = 0
        for (index, size) in sizes.enumerated() {
            sections.append(Section(id: index, rows: Array(rows[start..<start + size])))
            start += size
        }
        return Snapshot(sections: sections)
    }

    /// The fewest moves any engine can report, computed independently of
    /// ListDiff: per section, kept rows minus a longest increasing
    /// subsequence (patience sorting); plus one per row that changes section.
    func minimumMoves() -> Int {
        func sectionOf(_ sizes: [Int], count: Int) -> [Int] {
            if sizes.isEmpty { return Array(repeating: 0, count: count) }
            return sizes.enumerated().flatMap { Array(repeating: $0.offset, count: $0.element) }
        }
        let oldSection = sectionOf(oldSections, count: oldIDs.count)
        let newSection = sectionOf(newSections, count: newIDs.count)
        var newPlace: [Int: (section: Int, index: Int)] = [:]
        for (index, id) in newIDs.enumerated() { newPlace[id] = (newSection[index], index) }
        var perSection: [Int: [Int]] = [:]
        var crossing = 0
        for (index, id) in oldIDs.enumerated() {
            guard let place = newPlace[id] else { continue }
            if place.section == oldSection[index] { perSection[place.section, default: []].append(place.index) } else { crossing += 1 }
        }
        return crossing + perSection.values.reduce(0) { $0 + $1.count - longestIncreasing($1) }
    }
}

func longestIncreasing(_ values: [Int]) -> Int {
    var tails: [Int] = []
    for value in values {
        var low = 0, high = tails.count
        while low < high {
            let mid = (low + high) / 2
            if tails[mid] < value { low = mid + 1 } else { high = mid }
        }
        if low == tails.count { tails.append(value) } else { tails[low] = value }
    }
    return tails.count
}

/// A UUID-shaped string derived from an integer (36 characters, so Swift
/// stores it on the heap as real UUID strings are).
func uuidString(_ value: Int) -> String {
    var generator = SeededGenerator(seed: UInt64(bitPattern: Int64(value)))
    let hex = Array("0123456789ABCDEF")
    var characters: [Character] = []
    for index in 0..<32 {
        if [8, 12, 16, 20].contains(index) { characters.append("-") }
        characters.append(hex[Int(generator.next() % 16)])
    }
    return String(characters)
}

/// The cases of issue 2: A and B (deletes, inserts, shuffles), C (reversed),
/// D (insert at front), E (last to front), F (first to end), S (swap); I (one
/// row inserted in the middle) and L (the last row deleted) of issue 32; and
/// A and B again with rows in sections of 100.
func makeCases(kind: IDKind) -> [Case] {
    var cases: [Case] = []
    func add(_ name: String, _ old: [Int], _ new: [Int]) {
        cases.append(Case(name: "\(name)/\(kind.rawValue)", oldIDs: old, newIDs: new, kind: kind))
    }
    let a = churn(count: 5_000, deletes: 1_000, inserts: 1_000, shuffles: 200, seed: 1)
    add("A", a.old, a.new)
    let b = churn(count: 100_000, deletes: 10_000, inserts: 10_000, shuffles: 2_000, seed: 2)
    add("B", b.old, b.new)
    let ten = Array(0..<10_000)
    add("C", ten, ten.reversed())
    add("D", ten, [10_000] + ten)
    add("E", ten, [9_999] + ten.dropLast())
    add("F", ten, Array(ten.dropFirst()) + [0])
    var swapped = ten
    swapped.swapAt(100, 9_000)
    add("S", ten, swapped)
    // Small edits inside the list, which the common prefix and suffix leave to a few rows.
    add("I", ten, Array(ten[..<5_000]) + [10_000] + Array(ten[5_000...]))
    add("L", ten, Array(ten.dropLast()))
    for (name, count, deletes, inserts, shuffles, seed) in [("A-sections", 5_000, 1_000, 1_000, 200, UInt64(3)),
                                                              ("B-sections", 100_000, 10_000, 10_000, 2_000, UInt64(4))] {
        cases.append(sectionedChurn(name: "\(name)/\(kind.rawValue)", count: count, deletes: deletes, inserts: inserts,
                                    shuffles: shuffles, seed: seed, kind: kind))
    }
    return cases
}

/// `count` rows; `deletes` removed and `inserts` added at random places, and
/// `shuffles` surviving rows moved to random places.
func churn(count: Int, deletes: Int, inserts: Int, shuffles: Int, seed: UInt64) -> (old: [Int], new: [Int]) {
    var generator = SeededGenerator(seed: seed)
    let old = Array(0..<count)
    var new = old
    for _ in 0..<deletes { new.remove(at: Int.random(in: 0..<new.count, using: &generator)) }
    for index in 0..<inserts { new.insert(count + index, at: Int.random(in: 0...new.count, using: &generator)) }
    for _ in 0..<shuffles {
        let row = new.remove(at: Int.random(in: 0..<new.count, using: &generator))
        new.insert(row, at: Int.random(in: 0...new.count, using: &generator))
    }
    return (old, new)
}

/// The same churn on rows in sections of 100: deletes, inserts and shuffles
/// land in random sections, and a shuffled row may change section.
func sectionedChurn(name: String, count: Int, deletes: Int, inserts: Int, shuffles: Int, seed: UInt64, kind: IDKind) -> Case {
    var generator = SeededGenerator(seed: seed)
    var sections: [[Int]] = stride(from: 0, to: count, by: 100).map { Array($0..<min($0 + 100, count)) }
    let old = sections
    func randomSection() -> Int {
        while true {
            let index = Int.random(in: 0..<sections.count, using: &generator)
            if !sections[index].isEmpty { return index }
        }
    }
    for _ in 0..<deletes {
        let section = randomSection()
        sections[section].remove(at: Int.random(in: 0..<sections[section].count, using: &generator))
    }
    for index in 0..<inserts {
        let section = Int.random(in: 0..<sections.count, using: &generator)
        sections[section].insert(count + index, at: Int.random(in: 0...sections[section].count, using: &generator))
    }
    for _ in 0..<shuffles {
        let from = randomSection()
        let row = sections[from].remove(at: Int.random(in: 0..<sections[from].count, using: &generator))
        let to = Int.random(in: 0..<sections.count, using: &generator)
        sections[to].insert(row, at: Int.random(in: 0...sections[to].count, using: &generator))
    }
    return Case(name: name, oldIDs: old.flatMap { $0 }, newIDs: sections.flatMap { $0 },
                oldSections: old.map(\.count), newSections: sections.map(\.count), kind: kind)
}
