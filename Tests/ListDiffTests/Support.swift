import ListDiff
import SeededRandom
import Testing

typealias Row = Record<String>
typealias Sections = Snapshot<String, Row>

/// A row whose content is its id plus optional fields.
func row(_ id: String, _ fields: [(String, FieldValue)] = [], version: FieldValue? = nil, hint: FieldValue? = nil) -> Row {
    Row(id: id, fields: fields.map { Field($0.0, $0.1) }, version: version, moveHint: hint)
}

/// A snapshot from section ids and row ids (rows without fields).
func snapshot(_ sections: [(String, [String])]) -> Sections {
    Snapshot(sections: sections.map { Section(id: $0.0, rows: $0.1.map { row($0) }) })
}

/// A one-section snapshot (section id "") from row ids.
func list(_ ids: [String]) -> Sections {
    Snapshot(sectionID: "", rows: ids.map { row($0) })
}

func layout(_ snapshot: Sections) -> [SectionLayout<String, String>] { snapshot.layout }

/// Computes the changeset from `old` to `new` and checks it does what it
/// claims, as UIKit would run it: every batch passes the validator given the
/// identities before and after it (no exception, no silent misbehaviour) and
/// is not empty; replaying each batch on the state the previous one left
/// gives exactly that stage's `after`; the last state is `new`, with no row
/// or header left showing stale content. Returns what is wrong, if anything.
func reproducibilityProblems(
    _ old: Sections, _ new: Sections, options: DiffOptions = DiffOptions()
) -> (changeset: Changeset<String, Row>?, problems: [String]) {
    let changeset: Changeset<String, Row>
    do { changeset = try Changeset(from: old, to: new, options: options) } catch {
        return (nil, ["diff threw \(error)"])
    }
    var problems: [String] = []
    var current = old
    for (index, stage) in changeset.stages.enumerated() {
        let violations = Validator().validate(stage.batch, before: current.layout, after: stage.after.layout)
        if !violations.isEmpty {
            problems.append("batch \(index) (\(stage.role)) breaks rules: \(violations.map(\.message)) — \(stage.batch)")
        }
        if stage.batch.isEmpty { problems.append("batch \(index) is empty") }
        do {
            current = try Changeset<String, Row>(stages: [stage], rows: []).apply(to: current)
        } catch {
            problems.append("batch \(index) does not apply: \(error)")
            return (changeset, problems)
        }
        if current.layout != stage.after.layout {
            problems.append("batch \(index) leaves \(current.layout), expected \(stage.after.layout)")
        }
    }
    if current.layout != new.layout {
        problems.append("the last batch leaves \(current.layout), expected \(new.layout)")
    } else {
        let stale = zip(current.sections.flatMap(\.rows), new.sections.flatMap(\.rows)).filter { $1.hasChanges(comparedTo: $0) }
        if !stale.isEmpty { problems.append("rows still show old content: \(stale.map(\.0.id))") }
        let staleHeaders = zip(current.sections, new.sections).filter { $1.hasChanges(comparedTo: $0) }
        if !staleHeaders.isEmpty { problems.append("sections still show old headers: \(staleHeaders.map(\.0.id))") }
    }
    return (changeset, problems)
}

/// `reproducibilityProblems`, recorded as test issues; returns the changeset.
@discardableResult
func assertReproducible(
    _ old: Sections, _ new: Sections, options: DiffOptions = DiffOptions(),
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> Changeset<String, Row> {
    let (changeset, problems) = reproducibilityProblems(old, new, options: options)
    for problem in problems { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
    return try #require(changeset, sourceLocation: sourceLocation)
}

/// The fewest explicit moves any valid changeset can have, computed
/// independently of the engine (quadratic dynamic programming): per kept
/// section, kept rows that stay in it minus a longest increasing subsequence;
/// plus rows that change between two surviving sections; plus kept sections
/// minus a longest increasing subsequence of their new indexes.
func minimumMoves(_ old: Sections, _ new: Sections) -> Int {
    func longest(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }
    let newSectionIndex = Dictionary(uniqueKeysWithValues: new.sections.enumerated().map { ($1.id, $0) })
    let oldSectionIndex = Dictionary(uniqueKeysWithValues: old.sections.enumerated().map { ($1.id, $0) })
    var newPlace: [String: (section: Int, row: Int)] = [:]
    for (s, section) in new.sections.enumerated() {
        for (r, row) in section.rows.enumerated() { newPlace[row.id] = (s, r) }
    }
    var moves = 0
    let keptSections = old.sections.compactMap { newSectionIndex[$0.id] }
    moves += keptSections.count - longest(keptSections)
    for section in old.sections {
        guard let target = newSectionIndex[section.id] else { continue }
        var staying: [Int] = []
        for row in section.rows {
            guard let place = newPlace[row.id] else { continue }
            if place.section == target {
                staying.append(place.row)
            } else if oldSectionIndex[new.sections[place.section].id] != nil {
                moves += 1
            }
        }
        moves += staying.count - longest(staying)
    }
    return moves
}
