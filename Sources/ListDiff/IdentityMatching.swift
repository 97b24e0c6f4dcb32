/// What to do when one snapshot holds two rows with the same identity.
public enum DuplicatePolicy: Hashable, Sendable {
    /// Throw `ListDiffError.duplicateRowID` naming the id and both positions.
    case reject
    /// Pair equal identities by occurrence: the k-th old row with a given id
    /// is the k-th new row with that id. For content identity (rows whose
    /// whole content is their identity), where repeats are legitimate.
    case pairByOccurrence
}

/// The pairing of two snapshots by identity, reduced to integers: everything
/// after this pass is independent of the row and section types.
///
/// Rows are numbered flat, section by section: row `r` of section `s` is
/// `sectionStarts[s] + r`.
@usableFromInline
struct IdentityMap {
    @usableFromInline var oldSectionStarts: [Int]
    @usableFromInline var newSectionStarts: [Int]
    /// For each old section, its new index, or -1 when deleted.
    @usableFromInline var oldSectionToNew: [Int]
    /// For each new section, its old index, or -1 when inserted.
    @usableFromInline var newSectionToOld: [Int]
    /// The section of each old row (flat) and of each new row.
    @usableFromInline var oldSectionOf: [Int32]
    @usableFromInline var newSectionOf: [Int32]
    /// For each old row (flat), its new flat index, or -1 when deleted.
    @usableFromInline var oldToNew: [Int32]
    /// For each new row (flat), its old flat index, or -1 when inserted.
    @usableFromInline var newToOld: [Int32]
    /// Old flat indexes of kept rows whose content changed, ascending.
    @usableFromInline var changedRows: [Int32]
    /// Old flat indexes of kept rows whose move hint changed, ascending.
    @usableFromInline var hintChangedRows: [Int32]
    /// Old indexes of kept sections whose header or footer changed, ascending.
    @usableFromInline var changedSections: [Int]

    @usableFromInline
    init(oldSectionStarts: [Int], newSectionStarts: [Int]) {
        self.oldSectionStarts = oldSectionStarts
        self.newSectionStarts = newSectionStarts
        oldSectionToNew = Array(repeating: -1, count: oldSectionStarts.count - 1)
        newSectionToOld = Array(repeating: -1, count: newSectionStarts.count - 1)
        oldToNew = Array(repeating: -1, count: oldSectionStarts.last!)
        newToOld = Array(repeating: -1, count: newSectionStarts.last!)
        oldSectionOf = IdentityMap.sectionOfEachRow(starts: oldSectionStarts)
        newSectionOf = IdentityMap.sectionOfEachRow(starts: newSectionStarts)
        changedRows = []
        hintChangedRows = []
        changedSections = []
    }

    @usableFromInline var oldRowCount: Int { oldToNew.count }
    @usableFromInline var newRowCount: Int { newToOld.count }
    @usableFromInline var oldSectionCount: Int { oldSectionToNew.count }
    @usableFromInline var newSectionCount: Int { newSectionToOld.count }

    @usableFromInline
    func oldPath(ofFlat flat: Int) -> RowPath {
        let section = Int(oldSectionOf[flat])
        return RowPath(section: section, row: flat - oldSectionStarts[section])
    }

    @usableFromInline
    func newPath(ofFlat flat: Int) -> RowPath {
        let section = Int(newSectionOf[flat])
        return RowPath(section: section, row: flat - newSectionStarts[section])
    }

    @usableFromInline
    static func sectionOfEachRow(starts: [Int]) -> [Int32] {
        var result = [Int32](repeating: 0, count: starts.last!)
        for section in 1..<max(starts.count - 1, 1) where starts[section] < starts[section + 1] {
            for flat in starts[section]..<starts[section + 1] { result[flat] = Int32(section) }
        }
        return result
    }
}

@usableFromInline
func sectionStarts<SectionID, Row>(of snapshot: Snapshot<SectionID, Row>) -> [Int] {
    var starts: [Int] = []
    starts.reserveCapacity(snapshot.sections.count + 1)
    var total = 0
    for section in snapshot.sections {
        starts.append(total)
        total += section.rows.count
    }
    starts.append(total)
    precondition(total < Int(Int32.max), "ListDiff handles up to 2^31 - 1 rows")
    return starts
}

/// An open-addressing table from row identities to flat row indexes, built
/// once per diff. Cheaper than a `Dictionary` because it never grows and
/// stores one integer per slot; the identities' own seeded hashes keep
/// probing short whatever the ids. A slot holds a row's flat index plus
/// one in its low 32 bits (zero is empty) and the high 32 bits of the
/// row's hash above them: a probe compares two ids only when those bits
/// agree, so rows that merely share a slot cost no id comparison (for
/// text ids, a call into the string comparison and `memcmp` each, 17 % of
/// a diff of 5,000 string ids in sections before the tags). Its slots are
/// its own memory, read and written without bounds or uniqueness checks
/// (a slot index is always masked into range), and freed with it.
@usableFromInline
struct PositionTable: ~Copyable {
    @usableFromInline let slots: UnsafeMutablePointer<Int>
    @usableFromInline let mask: Int

    @inlinable
    init(capacityFor count: Int) {
        var size = 16
        while size < count * 2 { size <<= 1 }
        slots = .allocate(capacity: size)
        slots.initialize(repeating: 0, count: size)
        mask = size - 1
    }

    @inlinable
    deinit { slots.deallocate() }

    /// The low 32 bits; where `Int` has only 32 (watchOS), all of them:
    /// then no tag is kept and every probe compares ids, as before tags.
    @inlinable static var rowBits: Int { Int(truncatingIfNeeded: UInt64(0xFFFF_FFFF)) }

    /// The bits of a hash a slot keeps beside its row.
    @inlinable
    static func tag(_ hash: Int) -> Int { hash & ~rowBits }

    /// Adds the row `flat` with hash `hash`, unless a row with the same
    /// tag for which `same` holds is there already: then returns that row
    /// and adds nothing.
    @inlinable
    func insert(_ flat: Int, hash: Int, unlessSameAs same: (Int) -> Bool) -> Int? {
        let tag = PositionTable.tag(hash)
        var slot = hash & mask
        while true {
            let entry = slots[slot]
            if entry == 0 {
                slots[slot] = tag | (flat + 1)
                return nil
            }
            if entry & ~PositionTable.rowBits == tag, case let row = (entry & PositionTable.rowBits) - 1, same(row) { return row }
            slot = (slot + 1) & mask
        }
    }

    /// The row with hash `hash` for which `same` holds, if one was added.
    @inlinable
    func first(hash: Int, where same: (Int) -> Bool) -> Int? {
        let tag = PositionTable.tag(hash)
        var slot = hash & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if entry & ~PositionTable.rowBits == tag, case let row = (entry & PositionTable.rowBits) - 1, same(row) { return row }
            slot = (slot + 1) & mask
        }
    }
}

/// Pairs the rows and sections of two snapshots by identity and records
/// which kept rows and sections changed.
///
/// Under `.reject`, the rows that keep their place at the start and the
/// end of each kept section are paired by comparing ids, position by
/// position; only the rows between are hashed.
///
/// - Throws: `ListDiffError.duplicateSectionID`, or
///   `ListDiffError.duplicateRowID` under `.reject` for an id repeated on
///   one side among the rows between the ends, or between them and the
///   ends. An id repeated only among rows that keep their place at the
///   ends on both sides is not looked for: no call names those rows.
/// - Complexity: O(n + m) `==` calls on identities and hashes of the rows
///   between each kept section's common prefix and suffix (with a few rows
///   between, a comparison per row and pair instead), plus one `hasChanges`
///   and one `moveHintChanged` call per kept row, n and m the row counts
///   of `old` and `new`.
@inlinable
func matchIdentities<SectionID, Row>(
    old: Snapshot<SectionID, Row>, new: Snapshot<SectionID, Row>, duplicates: DuplicatePolicy
) throws(ListDiffError) -> IdentityMap {
    var map = IdentityMap(oldSectionStarts: sectionStarts(of: old), newSectionStarts: sectionStarts(of: new))
    try matchSections(old: old, new: new, into: &map)
    try matchRows(old: old, new: new, duplicates: duplicates, into: &map)
    return map
}

@inlinable
func matchSections<SectionID, Row>(
    old: Snapshot<SectionID, Row>, new: Snapshot<SectionID, Row>, into map: inout IdentityMap
) throws(ListDiffError) {
    var newIndex: [SectionID: Int] = [:]
    newIndex.reserveCapacity(new.sections.count)
    for (index, section) in new.sections.enumerated() {
        if let first = newIndex.updateValue(index, forKey: section.id) {
            throw .duplicateSectionID(id: String(describing: section.id), side: .new, first: first, second: index)
        }
    }
    var oldIndex: [SectionID: Int] = [:]
    oldIndex.reserveCapacity(old.sections.count)
    for (index, section) in old.sections.enumerated() {
        if let first = oldIndex.updateValue(index, forKey: section.id) {
            throw .duplicateSectionID(id: String(describing: section.id), side: .old, first: first, second: index)
        }
        guard let target = newIndex[section.id] else { continue }
        map.oldSectionToNew[index] = target
        map.newSectionToOld[target] = index
        if new.sections[target].hasChanges(comparedTo: section) { map.changedSections.append(index) }
    }
}

@inlinable
func matchRows<SectionID, Row>(
    old: Snapshot<SectionID, Row>, new: Snapshot<SectionID, Row>, duplicates: DuplicatePolicy,
    into map: inout IdentityMap
) throws(ListDiffError) {
    let seed = IntegerHash.seed()
    // The usual case, one section on each side, reads ids straight out of the
    // row buffers; copying them out costs a retain and a release per string.
    if old.sections.count == 1 && new.sections.count == 1 {
        let failure: ListDiffError? = old.sections[0].rows.withUnsafeBufferPointer { oldRows in
            new.sections[0].rows.withUnsafeBufferPointer { newRows in
                do throws(ListDiffError) {
                    try matchRows(old: RowBuffer(rows: oldRows, seed: seed), new: RowBuffer(rows: newRows, seed: seed),
                                  duplicates: duplicates, into: &map)
                    return nil
                } catch { return error }
            }
        }
        if let failure { throw failure }
    } else if _isPOD(Row.ID.self) {
        // Several sections, ids that are plain bytes (integers, UUIDs): they
        // are copied out once into one flat array per side, read in place
        // after that (a row found through its section on every comparison
        // and hash costs more than the copy). Ids that hold references
        // (strings) would cost a retain and a release each to copy.
        let oldIDs = flatIDs(of: old), newIDs = flatIDs(of: new)
        let failure: ListDiffError? = oldIDs.withUnsafeBufferPointer { oldIDs in
            newIDs.withUnsafeBufferPointer { newIDs in
                do throws(ListDiffError) {
                    try matchRows(old: IDBuffer(ids: oldIDs, seed: seed), new: IDBuffer(ids: newIDs, seed: seed),
                                  duplicates: duplicates, into: &map)
                    return nil
                } catch { return error }
            }
        }
        if let failure { throw failure }
    } else {
        // Sections read in place: the array's subscript would copy a
        // section, and a row, for each hash (a retain and a release of
        // the rows' storage and of a text id each).
        let failure: ListDiffError? = old.sections.withUnsafeBufferPointer { oldSections in
            new.sections.withUnsafeBufferPointer { newSections in
                do throws(ListDiffError) {
                    try matchRows(old: SectionedRows(oldSections, sectionOf: map.oldSectionOf, starts: map.oldSectionStarts),
                                  new: SectionedRows(newSections, sectionOf: map.newSectionOf, starts: map.newSectionStarts),
                                  duplicates: duplicates, into: &map)
                    return nil
                } catch { return error }
            }
        }
        if let failure { throw failure }
    }
    try recordChanges(old: old, new: new, into: &map)
}

/// Row identities by flat index, compared and hashed where they lie.
@usableFromInline
protocol RowIdentities {
    associatedtype ID: Hashable
    var count: Int { get }
    func hash(at flat: Int) -> Int
    func id(at flat: Int, equals other: Self, at otherFlat: Int) -> Bool
    func id(at flat: Int) -> ID
    /// The first row of `other` in `range` whose id is the id at `flat`.
    func firstIndex(ofIDAt flat: Int, in other: Self, among range: Range<Int>) -> Int?
}

extension RowIdentities {
    @inlinable
    func firstIndex(ofIDAt flat: Int, in other: Self, among range: Range<Int>) -> Int? {
        for index in range where id(at: flat, equals: other, at: index) { return index }
        return nil
    }
}

/// The rows of a one-section snapshot.
@usableFromInline
struct RowBuffer<Row: DiffableRow>: RowIdentities {
    @usableFromInline let rows: UnsafeBufferPointer<Row>
    @usableFromInline let seed: Int
    @inlinable init(rows: UnsafeBufferPointer<Row>, seed: Int) { (self.rows, self.seed) = (rows, seed) }
    @inlinable var count: Int { rows.count }
    @inlinable
    func hash(at flat: Int) -> Int {
        if Row.ID.self == Int.self { return IntegerHash.mix(unsafeBitCast(rows[flat].id, to: Int.self), seed: seed) }
        return rows[flat].id.hashValue
    }
    @inlinable func id(at flat: Int, equals other: Self, at otherFlat: Int) -> Bool { sameID(rows[flat].id, other.rows[otherFlat].id) }
    @inlinable func id(at flat: Int) -> Row.ID { rows[flat].id }

    /// For text ids, rows are first told apart by their first eight bytes
    /// (`TextID`), the target's read once: this runs once per kept row.
    @inlinable
    func firstIndex(ofIDAt flat: Int, in other: Self, among range: Range<Int>) -> Int? {
        if Row.ID.self == String.self, let head = TextID.asciiHead(unsafeBitCast(rows[flat].id, to: String.self)) {
            let target = unsafeBitCast(rows[flat].id, to: String.self)
            for index in range {
                let candidate = unsafeBitCast(other.rows[index].id, to: String.self)
                if let otherHead = TextID.asciiHead(candidate), otherHead != head { continue }
                if candidate == target { return index }
            }
            return nil
        }
        for index in range where id(at: flat, equals: other, at: index) { return index }
        return nil
    }
}

/// Two ids equal, as `==` says; text ids that are not the same string
/// are first told apart by their first bytes (`TextID.equal`).
@inlinable @inline(__always)
func sameID<ID: Hashable>(_ a: ID, _ b: ID) -> Bool {
    if ID.self == String.self {
        let a = unsafeBitCast(a, to: String.self), b = unsafeBitCast(b, to: String.self)
        return TextID.identical(a, b) || TextID.equal(a, b)
    }
    return a == b
}

/// Text ids compared cheaply first. A string comparison is a call into the
/// standard library and `memcmp` (10 % of a diff of 5,000 string ids whose
/// rows' neighbours changed); two texts whose first eight bytes are ASCII
/// and differ are different ids without it. Only ASCII bytes decide: Swift
/// compares strings by canonical equivalence, so texts whose bytes differ
/// can be equal ("é" as one scalar or as "e" and an accent, "\u{212A}" and
/// "K"), and their lengths in bytes say nothing either. An ASCII character
/// is its own decomposition and no mark moves before it, so two texts that
/// begin with different ASCII bytes decompose differently.
@usableFromInline
enum TextID {
    /// The same storage (or the same small string): equal, nothing read.
    @inlinable @inline(__always)
    static func identical(_ a: String, _ b: String) -> Bool {
        MemoryLayout<String>.size == 16 && unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self)
    }

    @inlinable
    static func equal(_ a: String, _ b: String) -> Bool {
        if let first = asciiHead(a), let second = asciiHead(b), first != second { return false }
        return a == b
    }

    /// The first eight bytes of a text, read in place as one word, when
    /// there are eight and all are ASCII (byte by byte measured 4× slower
    /// over 10,000 ids: the loads of the next ids' bytes no longer
    /// overlapped); nil otherwise, or where the text is not contiguous
    /// UTF-8 (a bridged string).
    @inlinable @inline(__always)
    static func asciiHead(_ text: String) -> UInt64? {
        guard text.utf8.count >= 8 else { return nil }
        let head = text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress!).loadUnaligned(as: UInt64.self) }
        guard let head, head & 0x8080_8080_8080_8080 == 0 else { return nil }
        return head
    }
}

/// The hash the position tables use: an id's own `hashValue`, except for
/// `Int` ids, whose bits are mixed with a seed drawn once per diff from
/// `Hasher` (random per process) by splitmix64's finalizer, a bijection
/// whose low bits depend on every bit of the id: a few multiplications
/// instead of SipHash, with ids an adversary picks no likelier to collide
/// in the table's low bits than random ones, since the seed is unknown.
@usableFromInline
enum IntegerHash {
    @inlinable
    static func seed() -> Int {
        var hasher = Hasher()
        hasher.combine(0x5EED)
        return hasher.finalize()
    }

    @inlinable
    static func mix(_ id: Int, seed: Int) -> Int {
        var z = UInt64(bitPattern: Int64(id ^ seed))
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: z ^ (z >> 31))
    }
}

/// Every row's id, section after section.
@inlinable
func flatIDs<SectionID, Row>(of snapshot: Snapshot<SectionID, Row>) -> [Row.ID] {
    var ids: [Row.ID] = []
    var count = 0
    for section in snapshot.sections { count += section.rows.count }
    ids.reserveCapacity(count)
    for section in snapshot.sections {
        for row in section.rows { ids.append(row.id) }
    }
    return ids
}

/// Ids in one flat buffer (a snapshot of several sections, copied out).
@usableFromInline
struct IDBuffer<ID: Hashable>: RowIdentities {
    @usableFromInline let ids: UnsafeBufferPointer<ID>
    @usableFromInline let seed: Int
    @inlinable init(ids: UnsafeBufferPointer<ID>, seed: Int) { (self.ids, self.seed) = (ids, seed) }
    @inlinable var count: Int { ids.count }
    @inlinable
    func hash(at flat: Int) -> Int {
        if ID.self == Int.self { return IntegerHash.mix(unsafeBitCast(ids[flat], to: Int.self), seed: seed) }
        return ids[flat].hashValue
    }
    @inlinable func id(at flat: Int, equals other: Self, at otherFlat: Int) -> Bool { sameID(ids[flat], other.ids[otherFlat]) }
    @inlinable func id(at flat: Int) -> ID { ids[flat] }
}

/// The rows of a snapshot of several sections.
@usableFromInline
struct SectionedRows<SectionID: Hashable, Row: DiffableRow>: RowIdentities {
    @usableFromInline let sections: UnsafeBufferPointer<Section<SectionID, Row>>
    @usableFromInline let sectionOf: [Int32]
    @usableFromInline let starts: [Int]

    @inlinable
    init(_ sections: UnsafeBufferPointer<Section<SectionID, Row>>, sectionOf: [Int32], starts: [Int]) {
        self.sections = sections
        self.sectionOf = sectionOf
        self.starts = starts
    }

    @inlinable var count: Int { starts[starts.count - 1] }

    @inlinable
    func hash(at flat: Int) -> Int {
        let section = Int(sectionOf[flat])
        // Hashed where it lies: the array's subscript would copy the row
        // (a retain and a release of a text id each, 10 % of a diff).
        return sections[section].rows.withUnsafeBufferPointer { $0[flat - starts[section]].id.hashValue }
    }

    @inlinable
    func id(at flat: Int, equals other: Self, at otherFlat: Int) -> Bool {
        let section = Int(sectionOf[flat]), otherSection = Int(other.sectionOf[otherFlat])
        return sameID(sections[section].rows[flat - starts[section]].id,
                      other.sections[otherSection].rows[otherFlat - other.starts[otherSection]].id)
    }

    @inlinable
    func id(at flat: Int) -> Row.ID {
        let section = Int(sectionOf[flat])
        return sections[section].rows[flat - starts[section]].id
    }
}

/// The rows the hash tables see: those of each kept section between its
/// common prefix and suffix (rows that keep their place at the start and
/// the end, paired by position with a comparison each), and every row of
/// a deleted or inserted section. Flat ranges, ascending.
@usableFromInline
struct RowRanges {
    @usableFromInline var oldMiddle: [Range<Int>] = []
    @usableFromInline var newMiddle: [Range<Int>] = []
    /// Rows paired by position, new side (the old side's are their pairs).
    @usableFromInline var newTrimmed: [Range<Int>] = []
    @usableFromInline var trimmedCount = 0
    /// The rows the ends pair: runs of `count` rows from `old` and `new`.
    @usableFromInline var pairs: [(old: Int, new: Int, count: Int)] = []

    @inlinable init() {}

    @inlinable var middleCount: Int {
        var count = 0
        for range in oldMiddle { count += range.count }
        for range in newMiddle { count += range.count }
        return count
    }
}

/// Finds the common prefix and suffix of each kept section's rows, which
/// pair by position, and the ranges left for hashing. Every row is read
/// once at most on each side.
@inlinable
func trimCommonEnds<Identities: RowIdentities>(
    old oldIDs: Identities, new newIDs: Identities, map: IdentityMap
) -> RowRanges {
    var ranges = RowRanges()
    // Per new section: its middle, once its old section has been trimmed.
    var newMiddleOf = [[Range<Int>]?](repeating: nil, count: map.newSectionCount)
    var newTrimmedOf = [[Range<Int>]](repeating: [], count: map.newSectionCount)
    for section in 0..<map.oldSectionCount {
        let oldStart = map.oldSectionStarts[section], oldEnd = map.oldSectionStarts[section + 1]
        let target = map.oldSectionToNew[section]
        guard target >= 0 else {
            if oldStart < oldEnd { ranges.oldMiddle.append(oldStart..<oldEnd) }
            continue
        }
        let newStart = map.newSectionStarts[target], newEnd = map.newSectionStarts[target + 1]
        let shorter = min(oldEnd - oldStart, newEnd - newStart)
        var prefix = 0
        while prefix < shorter && newIDs.id(at: newStart + prefix, equals: oldIDs, at: oldStart + prefix) { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix && newIDs.id(at: newEnd - 1 - suffix, equals: oldIDs, at: oldEnd - 1 - suffix) { suffix += 1 }
        if prefix > 0 { ranges.pairs.append((oldStart, newStart, prefix)) }
        if suffix > 0 { ranges.pairs.append((oldEnd - suffix, newEnd - suffix, suffix)) }
        if prefix > 0 { newTrimmedOf[target].append(newStart..<(newStart + prefix)) }
        ranges.trimmedCount += prefix + suffix
        let oldMiddle = (oldStart + prefix)..<(oldEnd - suffix), newMiddle = (newStart + prefix)..<(newEnd - suffix)
        // Between the ends, a few rows moved, inserted or deleted in a long
        // run that kept its order (a row taken from the end to the front):
        // the rows that keep their order pair by comparing ids too.
        if oldMiddle.count + newMiddle.count >= 32, !oldMiddle.isEmpty, !newMiddle.isEmpty,
           let runs = orderedRuns(old: oldIDs, oldMiddle, new: newIDs, newMiddle, edits: 8) {
            var newGaps: [Range<Int>] = []
            var oldAt = oldMiddle.lowerBound, newAt = newMiddle.lowerBound
            for run in runs {
                if oldAt < run.old { ranges.oldMiddle.append(oldAt..<run.old) }
                if newAt < run.new { newGaps.append(newAt..<run.new) }
                ranges.pairs.append(run)
                newTrimmedOf[target].append(run.new..<(run.new + run.count))
                ranges.trimmedCount += run.count
                (oldAt, newAt) = (run.old + run.count, run.new + run.count)
            }
            if oldAt < oldMiddle.upperBound { ranges.oldMiddle.append(oldAt..<oldMiddle.upperBound) }
            if newAt < newMiddle.upperBound { newGaps.append(newAt..<newMiddle.upperBound) }
            newMiddleOf[target] = newGaps
        } else {
            if !oldMiddle.isEmpty { ranges.oldMiddle.append(oldMiddle) }
            newMiddleOf[target] = newMiddle.isEmpty ? [] : [newMiddle]
        }
        if suffix > 0 { newTrimmedOf[target].append((newEnd - suffix)..<newEnd) }
    }
    for section in 0..<map.newSectionCount {
        if let middle = newMiddleOf[section] {
            ranges.newMiddle += middle
        } else if map.newSectionStarts[section] < map.newSectionStarts[section + 1] {
            ranges.newMiddle.append(map.newSectionStarts[section]..<map.newSectionStarts[section + 1])
        }
        ranges.newTrimmed += newTrimmedOf[section]
    }
    return ranges
}

/// The rows of `old[oldRange]` and `new[newRange]` that keep their order,
/// as runs (old start, new start, count), when at most `edits` rows are
/// inserted or deleted between them (a moved row is one of each): Myers'
/// greedy algorithm, which compares ids and hashes none, giving up past
/// `edits`, after comparing about twice as many ids as there are rows
/// (then hashing them costs less), or when a round reaches less than its
/// share of the way (rows that churn: short runs). With unique ids the runs pair each row
/// with the row of its id, so the diff is the same as by hashing.
@inlinable
func orderedRuns<Identities: RowIdentities>(
    old oldIDs: Identities, _ oldRange: Range<Int>, new newIDs: Identities, _ newRange: Range<Int>, edits limit: Int
) -> [(old: Int, new: Int, count: Int)]? {
    let n = oldRange.count, m = newRange.count
    let offset = limit + 1, width = 2 * limit + 3
    // On the stack: each round's furthest x per diagonal, the round before
    // it kept for the way back (row d holds them before round d).
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: (limit + 2) * width) { rounds in
        for index in 0..<width { rounds.initializeElement(at: index, to: 0) }
        var budget = 2 * (n + m) + 64
        for d in 0...limit {
            let before = d * width, now = (d + 1) * width
            // Diagonals this round does not reach keep their furthest x.
            for index in 0..<width { rounds.initializeElement(at: now + index, to: rounds[before + index]) }
            var reach = 0
            for k in stride(from: -d, through: d, by: 2) {
                let down = k == -d || (k != d && rounds[before + offset + k - 1] < rounds[before + offset + k + 1])
                var x = down ? rounds[before + offset + k + 1] : rounds[before + offset + k - 1] + 1
                var y = x - k
                let start = x
                while x < n && y < m && newIDs.id(at: newRange.lowerBound + y, equals: oldIDs, at: oldRange.lowerBound + x) {
                    x += 1
                    y += 1
                }
                budget -= x - start + 1
                rounds[now + offset + k] = x
                reach = max(reach, x + y)
                if x >= n && y >= m {
                    // Back from the end, a round at a time: each round's snake is a run.
                    var runs: [(old: Int, new: Int, count: Int)] = []
                    var (atX, atK) = (x, k)
                    for round in stride(from: d, through: 1, by: -1) {
                        let row = round * width
                        let down = atK == -round || (atK != round && rounds[row + offset + atK - 1] < rounds[row + offset + atK + 1])
                        let previousK = down ? atK + 1 : atK - 1
                        let previousX = rounds[row + offset + previousK]
                        let startX = down ? previousX : previousX + 1
                        if atX > startX { runs.append((oldRange.lowerBound + startX, newRange.lowerBound + startX - atK, atX - startX)) }
                        (atX, atK) = (previousX, previousK)
                    }
                    if atX > 0 { runs.append((oldRange.lowerBound, newRange.lowerBound, atX)) }
                    return runs.reversed()
                }
                if budget < 0 { return nil }
            }
            // A few changes leave long runs: each round reaches far. Rows that
            // churn leave short ones, and the rounds would be spent for nothing.
            if d > 1 && reach * 2 * (limit + 1) < (n + m) * (d - 1) { return nil }
        }
        return nil
    }
}

@inlinable
func matchRows<Identities: RowIdentities>(
    old oldIDs: Identities, new newIDs: Identities, duplicates: DuplicatePolicy, into map: inout IdentityMap
) throws(ListDiffError) {
    let pairing = duplicates == .pairByOccurrence
    // Under `.reject`, rows that keep their place at both ends of a section
    // cost a comparison each and no hash (an insert at the top of 10,000
    // rows hashes one id). Pairing by occurrence pairs every row by hash.
    var ranges = RowRanges()
    if !pairing {
        ranges = trimCommonEnds(old: oldIDs, new: newIDs, map: map)
        // Trimmed, the rows between must each be compared with the ends
        // for repeats: worth it while those comparisons cost less than
        // hashing the ends would (a hash costs several comparisons).
        let middle = ranges.middleCount
        let pairs = middle.multipliedReportingOverflow(by: ranges.trimmedCount)
        if ranges.trimmedCount == 0 || pairs.overflow || pairs.partialValue > 8 * (middle + ranges.trimmedCount) {
            ranges = RowRanges()
        }
    }
    if ranges.trimmedCount == 0 {
        if oldIDs.count > 0 { ranges.oldMiddle = [0..<oldIDs.count] }
        if newIDs.count > 0 { ranges.newMiddle = [0..<newIDs.count] }
    }
    for run in ranges.pairs {
        for offset in 0..<run.count {
            map.oldToNew[run.old + offset] = Int32(run.new + offset)
            map.newToOld[run.new + offset] = Int32(run.old + offset)
        }
    }
    var newMiddleCount = 0
    for range in ranges.newMiddle { newMiddleCount += range.count }
    let table = PositionTable(capacityFor: newMiddleCount)
    // Under `.pairByOccurrence`: for each new row, the next new row with the
    // same id; for a first occurrence, the next occurrence not yet paired.
    var nextOccurrence = pairing ? [Int32](repeating: -1, count: newIDs.count) : []
    var unpaired = pairing ? [Int32](repeating: -1, count: newIDs.count) : []
    var lastOccurrence = pairing ? [Int32](repeating: -1, count: newIDs.count) : []

    for range in ranges.newMiddle {
        for flat in range {
            guard let first = table.insert(flat, hash: newIDs.hash(at: flat), unlessSameAs: { newIDs.id(at: $0, equals: newIDs, at: flat) }) else {
                if pairing { unpaired[flat] = Int32(flat); lastOccurrence[flat] = Int32(flat) }
                continue
            }
            guard pairing else {
                throw .duplicateRowID(id: String(describing: newIDs.id(at: flat)), side: .new,
                                      first: map.newPath(ofFlat: first), second: map.newPath(ofFlat: flat))
            }
            nextOccurrence[Int(lastOccurrence[first])] = Int32(flat)
            lastOccurrence[first] = Int32(flat)
        }
    }
    if ranges.trimmedCount > 0 {
        try rejectDuplicates(betweenMiddleAndEnds: ranges, old: oldIDs, new: newIDs, map: map)
    }

    // Rows found in no new row, with their hashes (every one was looked up).
    var deleted: [(flat: Int, hash: Int)] = []
    // The new row the previous old row matched (-1 before the first: then
    // the first new row is tried), and the direction its run goes.
    var last = -1, step = 1
    let firstNew = ranges.newMiddle.first?.lowerBound ?? 0
    // Predictions that failed in a row, and rows left before predicting
    // again: in a list that reverses, every prediction fails and costs a
    // comparison of two different ids, so after 8 failures the next 64
    // rows skip it (then 128, 256, … while it keeps failing).
    var misses = 0, pause = 0, nextPause = 64
    for range in ranges.oldMiddle {
        for flat in range {
            var match = -1, hash = 0
            // Rows mostly keep their neighbours: try the row after the previous
            // match before hashing (a run costs one hash, not one per row).
            var tried = false
            if !pairing && pause == 0 {
                tried = true
                // The run's direction first: a list sorted the other way
                // round is one descending run, matched without a hash.
                let ahead = last < 0 ? firstNew : last + step, behind = last < 0 ? -1 : last - step
                if ahead >= 0 && ahead < newIDs.count && newIDs.id(at: ahead, equals: oldIDs, at: flat) {
                    match = ahead
                } else if behind >= 0 && behind < newIDs.count && newIDs.id(at: behind, equals: oldIDs, at: flat) {
                    match = behind
                } else if last >= 0, case let skip = ahead + step, skip >= 0 && skip < newIDs.count,
                          newIDs.id(at: skip, equals: oldIDs, at: flat) {
                    // One row inserted in between.
                    match = skip
                }
            } else if pause > 0 {
                pause -= 1
            }
            if match >= 0 {
                misses = 0
                nextPause = 64
            } else {
                if tried {
                    misses += 1
                    if misses == 8 { (misses, pause, nextPause) = (0, nextPause, min(nextPause * 2, 1 << 16)) }
                }
                hash = oldIDs.hash(at: flat)
                match = table.first(hash: hash, where: { newIDs.id(at: $0, equals: oldIDs, at: flat) }) ?? -1
                if match >= 0 && pairing {
                    let next = Int(unpaired[match])
                    if next >= 0 { unpaired[match] = nextOccurrence[next] }
                    match = next
                }
            }
            guard match >= 0 else {
                deleted.append((flat, hash))
                continue
            }
            if map.newToOld[match] >= 0 {
                let other = Int(map.newToOld[match])
                throw .duplicateRowID(id: String(describing: oldIDs.id(at: flat)), side: .old,
                                      first: map.oldPath(ofFlat: min(other, flat)), second: map.oldPath(ofFlat: max(other, flat)))
            }
            map.oldToNew[flat] = Int32(match)
            map.newToOld[match] = Int32(flat)
            if last >= 0 && abs(match - last) == 1 { step = match - last }
            last = match
        }
    }
    if !pairing && deleted.count > 1 {
        try rejectDuplicates(amongDeleted: deleted, ids: oldIDs, map: map)
    }
}

/// A row of the middle whose id is also the id of a row kept in place at
/// an end is a repeated id on its side: each is compared with the ends
/// (trimming happens only when they are few: a small edit).
///
/// What this does not look for: an id repeated among the rows that keep
/// their place at the ends on both sides, which no call names.
@inlinable
func rejectDuplicates<Identities: RowIdentities>(
    betweenMiddleAndEnds ranges: RowRanges, old oldIDs: Identities, new newIDs: Identities, map: IdentityMap
) throws(ListDiffError) {
    let middle = ranges.middleCount
    guard middle > 0 else { return }
    func newDuplicate(_ a: Int, _ b: Int) -> ListDiffError {
        .duplicateRowID(id: String(describing: newIDs.id(at: a)), side: .new,
                        first: map.newPath(ofFlat: min(a, b)), second: map.newPath(ofFlat: max(a, b)))
    }
    func oldDuplicate(_ a: Int, _ b: Int) -> ListDiffError {
        .duplicateRowID(id: String(describing: oldIDs.id(at: a)), side: .old,
                        first: map.oldPath(ofFlat: min(a, b)), second: map.oldPath(ofFlat: max(a, b)))
    }
    // Few rows between the ends (the caller trims only then): compare
    // each id among them with every row kept at an end. The rows kept at
    // the ends have the same ids on both sides (each is paired with its
    // id's row), so each id is compared with one side's: a row moved
    // between the ends, in the middle on both sides, is compared once.
    // (Ids are matched across the sides only while few: that costs the
    // square of their number.)
    let pairUp = middle <= 64
    var ids: [(new: Int?, old: Int?)] = []
    for range in ranges.newMiddle {
        for flat in range { ids.append((flat, nil)) }
    }
    for range in ranges.oldMiddle {
        for flat in range {
            if pairUp, let index = ids.firstIndex(where: { $0.old == nil && $0.new.map { newIDs.id(at: $0, equals: oldIDs, at: flat) } == true }) {
                ids[index].old = flat
            } else {
                ids.append((nil, flat))
            }
        }
    }
    for id in ids {
        let (side, flat) = id.new.map { (newIDs, $0) } ?? (oldIDs, id.old!)
        for trimmed in ranges.newTrimmed {
            if let end = side.firstIndex(ofIDAt: flat, in: newIDs, among: trimmed) {
                throw id.new != nil ? newDuplicate(flat, end) : oldDuplicate(flat, Int(map.newToOld[end]))
            }
        }
    }
}

/// Asks each kept row whether its content and its move hint changed.
@inlinable
func recordChanges<SectionID, Row>(
    old: Snapshot<SectionID, Row>, new: Snapshot<SectionID, Row>, into map: inout IdentityMap
) throws(ListDiffError) {
    if old.sections.count == 1 && new.sections.count == 1 {
        // Rows compared in place, as in `matchRows`.
        old.sections[0].rows.withUnsafeBufferPointer { oldRows in
            new.sections[0].rows.withUnsafeBufferPointer { newRows in
                for new in 0..<newRows.count {
                    let old = Int(map.newToOld[new])
                    guard old >= 0 else { continue }
                    if newRows[new].hasChanges(comparedTo: oldRows[old]) { map.changedRows.append(Int32(old)) }
                    if newRows[new].moveHintChanged(comparedTo: oldRows[old]) { map.hintChangedRows.append(Int32(old)) }
                }
            }
        }
    } else {
        // Sections and rows read in place: the arrays' subscripts would copy
        // each row (a retain and a release of a text id each).
        old.sections.withUnsafeBufferPointer { oldSections in
            for section in new.sections.indices {
                let start = map.newSectionStarts[section]
                new.sections[section].rows.withUnsafeBufferPointer { newRows in
                    for index in newRows.indices {
                        let flat = Int(map.newToOld[start + index])
                        guard flat >= 0 else { continue }
                        let oldSection = Int(map.oldSectionOf[flat])
                        let oldIndex = flat - map.oldSectionStarts[oldSection]
                        let (changed, hintChanged) = oldSections[oldSection].rows.withUnsafeBufferPointer { oldRows in
                            (newRows[index].hasChanges(comparedTo: oldRows[oldIndex]),
                             newRows[index].moveHintChanged(comparedTo: oldRows[oldIndex]))
                        }
                        if changed { map.changedRows.append(Int32(flat)) }
                        if hintChanged { map.hintChangedRows.append(Int32(flat)) }
                    }
                }
            }
        }
    }
    // Old order, as the planner walks them.
    map.changedRows.sort()
    map.hintChangedRows.sort()
}

/// Rows that exist only in the old snapshot were never looked up against
/// each other; a second, small table catches duplicates among them, with
/// the hashes their lookups computed.
@inlinable
func rejectDuplicates<Identities: RowIdentities>(
    amongDeleted deleted: [(flat: Int, hash: Int)], ids: Identities, map: IdentityMap
) throws(ListDiffError) {
    let table = PositionTable(capacityFor: deleted.count)
    for (flat, hash) in deleted {
        if let first = table.insert(flat, hash: hash, unlessSameAs: { ids.id(at: $0, equals: ids, at: flat) }) {
            throw .duplicateRowID(id: String(describing: ids.id(at: flat)), side: .old,
                                  first: map.oldPath(ofFlat: first), second: map.oldPath(ofFlat: flat))
        }
    }
}
