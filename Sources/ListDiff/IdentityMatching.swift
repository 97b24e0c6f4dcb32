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

/// An open-addressing table from row identities to flat row indexes (plus
/// one; zero is empty), built once per diff. Cheaper than a `Dictionary`
/// because it never grows and stores one integer per slot; the identities'
/// own seeded hashes keep probing short whatever the ids.
@usableFromInline
struct PositionTable {
    @usableFromInline var slots: [Int]
    @usableFromInline let mask: Int

    @inlinable
    init(capacityFor count: Int) {
        var size = 16
        while size < count * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        mask = size - 1
    }
}

/// Pairs the rows and sections of two snapshots by identity and records
/// which kept rows and sections changed.
///
/// - Throws: `ListDiffError.duplicateSectionID`, or
///   `ListDiffError.duplicateRowID` under `.reject`.
/// - Complexity: O(n + m) hashes and `==` calls on identities, plus one
///   `hasChanges` and one `moveHintChanged` call per kept row, n and m the
///   row counts of `old` and `new`.
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
    // The usual case, one section on each side, reads ids straight out of the
    // row buffers; copying them out costs a retain and a release per string.
    if old.sections.count == 1 && new.sections.count == 1 {
        let failure: ListDiffError? = old.sections[0].rows.withUnsafeBufferPointer { oldRows in
            new.sections[0].rows.withUnsafeBufferPointer { newRows in
                do throws(ListDiffError) {
                    try matchRows(old: RowBuffer(rows: oldRows), new: RowBuffer(rows: newRows),
                                  duplicates: duplicates, into: &map)
                    return nil
                } catch { return error }
            }
        }
        if let failure { throw failure }
    } else {
        try matchRows(old: SectionedRows(old, sectionOf: map.oldSectionOf, starts: map.oldSectionStarts),
                      new: SectionedRows(new, sectionOf: map.newSectionOf, starts: map.newSectionStarts),
                      duplicates: duplicates, into: &map)
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
}

/// The rows of a one-section snapshot.
@usableFromInline
struct RowBuffer<Row: DiffableRow>: RowIdentities {
    @usableFromInline let rows: UnsafeBufferPointer<Row>
    @inlinable init(rows: UnsafeBufferPointer<Row>) { self.rows = rows }
    @inlinable var count: Int { rows.count }
    @inlinable func hash(at flat: Int) -> Int { rows[flat].id.hashValue }
    @inlinable func id(at flat: Int, equals other: Self, at otherFlat: Int) -> Bool { rows[flat].id == other.rows[otherFlat].id }
    @inlinable func id(at flat: Int) -> Row.ID { rows[flat].id }
}

/// The rows of a snapshot of several sections.
@usableFromInline
struct SectionedRows<SectionID: Hashable, Row: DiffableRow>: RowIdentities {
    @usableFromInline let sections: [Section<SectionID, Row>]
    @usableFromInline let sectionOf: [Int32]
    @usableFromInline let starts: [Int]

    @inlinable
    init(_ snapshot: Snapshot<SectionID, Row>, sectionOf: [Int32], starts: [Int]) {
        sections = snapshot.sections
        self.sectionOf = sectionOf
        self.starts = starts
    }

    @inlinable var count: Int { starts[starts.count - 1] }

    @inlinable
    func hash(at flat: Int) -> Int {
        let section = Int(sectionOf[flat])
        return sections[section].rows[flat - starts[section]].id.hashValue
    }

    @inlinable
    func id(at flat: Int, equals other: Self, at otherFlat: Int) -> Bool {
        let section = Int(sectionOf[flat]), otherSection = Int(other.sectionOf[otherFlat])
        return sections[section].rows[flat - starts[section]].id
            == other.sections[otherSection].rows[otherFlat - other.starts[otherSection]].id
    }

    @inlinable
    func id(at flat: Int) -> Row.ID {
        let section = Int(sectionOf[flat])
        return sections[section].rows[flat - starts[section]].id
    }
}

@inlinable
func matchRows<Identities: RowIdentities>(
    old oldIDs: Identities, new newIDs: Identities, duplicates: DuplicatePolicy, into map: inout IdentityMap
) throws(ListDiffError) {
    let pairing = duplicates == .pairByOccurrence
    var table = PositionTable(capacityFor: newIDs.count)
    // Under `.pairByOccurrence`: for each new row, the next new row with the
    // same id; for a first occurrence, the next occurrence not yet paired.
    var nextOccurrence = pairing ? [Int32](repeating: -1, count: newIDs.count) : []
    var unpaired = pairing ? [Int32](repeating: -1, count: newIDs.count) : []
    var lastOccurrence = pairing ? [Int32](repeating: -1, count: newIDs.count) : []

    for flat in 0..<newIDs.count {
        var slot = newIDs.hash(at: flat) & table.mask
        while true {
            let entry = table.slots[slot]
            if entry == 0 {
                table.slots[slot] = flat + 1
                if pairing { unpaired[flat] = Int32(flat); lastOccurrence[flat] = Int32(flat) }
                break
            }
            let first = entry - 1
            if newIDs.id(at: first, equals: newIDs, at: flat) {
                guard pairing else {
                    throw .duplicateRowID(id: String(describing: newIDs.id(at: flat)), side: .new,
                                          first: map.newPath(ofFlat: first), second: map.newPath(ofFlat: flat))
                }
                nextOccurrence[Int(lastOccurrence[first])] = Int32(flat)
                lastOccurrence[first] = Int32(flat)
                break
            }
            slot = (slot + 1) & table.mask
        }
    }

    var deleted: [Int] = []
    var predicted = 0
    for flat in 0..<oldIDs.count {
        var match = -1
        // Rows mostly keep their neighbours: try the row after the previous
        // match before hashing (a run costs one hash, not one per row).
        if !pairing && predicted < newIDs.count && newIDs.id(at: predicted, equals: oldIDs, at: flat) {
            match = predicted
        } else {
            var slot = oldIDs.hash(at: flat) & table.mask
            while true {
                let entry = table.slots[slot]
                if entry == 0 { break }
                if newIDs.id(at: entry - 1, equals: oldIDs, at: flat) {
                    match = entry - 1
                    break
                }
                slot = (slot + 1) & table.mask
            }
            if match >= 0 && pairing {
                let next = Int(unpaired[match])
                if next >= 0 { unpaired[match] = nextOccurrence[next] }
                match = next
            }
        }
        guard match >= 0 else {
            deleted.append(flat)
            continue
        }
        if map.newToOld[match] >= 0 {
            throw .duplicateRowID(id: String(describing: oldIDs.id(at: flat)), side: .old,
                                  first: map.oldPath(ofFlat: Int(map.newToOld[match])), second: map.oldPath(ofFlat: flat))
        }
        map.oldToNew[flat] = Int32(match)
        map.newToOld[match] = Int32(flat)
        predicted = match + 1
    }
    if !pairing && deleted.count > 1 {
        try rejectDuplicates(amongDeleted: deleted, ids: oldIDs, map: map)
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
        for section in new.sections.indices {
            let start = map.newSectionStarts[section]
            for index in new.sections[section].rows.indices {
                let flat = Int(map.newToOld[start + index])
                guard flat >= 0 else { continue }
                let oldSection = Int(map.oldSectionOf[flat])
                let oldIndex = flat - map.oldSectionStarts[oldSection]
                let row = new.sections[section].rows[index]
                if row.hasChanges(comparedTo: old.sections[oldSection].rows[oldIndex]) {
                    map.changedRows.append(Int32(flat))
                }
                if row.moveHintChanged(comparedTo: old.sections[oldSection].rows[oldIndex]) {
                    map.hintChangedRows.append(Int32(flat))
                }
            }
        }
    }
    // Old order, as the planner walks them.
    map.changedRows.sort()
    map.hintChangedRows.sort()
}

/// Rows that exist only in the old snapshot were never looked up against
/// each other; a second, small table catches duplicates among them.
@inlinable
func rejectDuplicates<Identities: RowIdentities>(
    amongDeleted deleted: [Int], ids: Identities, map: IdentityMap
) throws(ListDiffError) {
    var table = PositionTable(capacityFor: deleted.count)
    for flat in deleted {
        var slot = ids.hash(at: flat) & table.mask
        while true {
            let entry = table.slots[slot]
            if entry == 0 {
                table.slots[slot] = flat + 1
                break
            }
            if ids.id(at: entry - 1, equals: ids, at: flat) {
                throw .duplicateRowID(id: String(describing: ids.id(at: flat)), side: .old,
                                      first: map.oldPath(ofFlat: entry - 1), second: map.oldPath(ofFlat: flat))
            }
            slot = (slot + 1) & table.mask
        }
    }
}
