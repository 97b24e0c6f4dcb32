import ListDiff
import SeededRandom
import Testing

@Suite("Field changes")
struct FieldDiffTests {
    /// The plain definition: each field against the first old field of its
    /// name, then the old fields that are gone.
    static func reference(_ new: Row, _ old: Row) -> [String] {
        new.fields.filter { field in old.fields.first { $0.name == field.name }?.value != field.value }.map(\.name)
            + old.fields.filter { field in !new.fields.contains { $0.name == field.name } }.map(\.name)
    }

    /// Rows on both sides of the sixteen-field switch, fields reordered,
    /// changed, added and removed: the same names as the definition.
    @Test func randomRows_nameTheSameFieldsAsTheDefinition() {
        var random = SeededGenerator(seed: 20_261_123)
        for seed in 0..<2_000 {
            let names = (0..<Int.random(in: 0...40, using: &random)).map { "f\($0)" }
            let old = row("r", names.map { ($0, .int(Int.random(in: 0...2, using: &random))) })
            var fields = old.fields.filter { _ in Int.random(in: 0..<10, using: &random) > 0 }.map { ($0.name, $0.value) }
            fields.shuffle(using: &random)
            for index in fields.indices where Int.random(in: 0..<4, using: &random) == 0 { fields[index].1 = .int(9) }
            if Bool.random(using: &random) { fields.append(("added", .string("x"))) }
            let new = row("r", fields)
            #expect(new.changedFields(comparedTo: old) == Self.reference(new, old), "case \(seed)")
        }
    }

    /// Issue 13, item 7: one changed field among 100,000 took 64 s with a
    /// scan per field; it is one pass now.
    @Test func wideRow_oneChangedField_isNamed() {
        let old = row("r", (0..<100_000).map { ("f\($0)", .int($0)) })
        var fields = old.fields.map { ($0.name, $0.value) }
        fields[77_777].1 = .int(-1)
        #expect(row("r", fields).changedFields(comparedTo: old) == ["f77777"])
    }
}
