import Foundation
import ListDiff
import Reports
import SeededRandom
import SequenceRecorder
@testable import SnapshotFormat
import Testing

/// What an app's tests record is what the docs replay: a recorded sequence
/// is a file the reader accepts without a word, and its batches are the
/// batches the app's own snapshots give (issue 18, item 4).
@Suite struct SequenceRecorderTests {
    struct Chat: DiffableRow, Equatable {
        var id: String
        var name: String
        var unread: Int
    }

    static func fields(_ chat: Chat) -> KeyValuePairs<String, any RecordableValue> { ["name": chat.name, "unread": chat.unread] }

    @Test func aRecordedSequence_readsBackCleanly_andDiffsToTheSameBatches() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        var recorder = SequenceRecorder<String, Chat>(title: "Inbox", description: "Recorded in a test.", fields: Self.fields)
        var snapshots: [Snapshot<String, Chat>] = []
        var chats = (0..<8).map { Chat(id: "c\($0)", name: "Chat \($0)", unread: 0) }
        for step in 0..<12 {
            if step > 0 {
                chats.shuffle(using: &random)
                if Bool.random(using: &random) { chats.removeLast() }
                if Bool.random(using: &random) { chats.insert(Chat(id: "n\(step)", name: "New \(step)", unread: 1), at: 0) }
                if !chats.isEmpty { chats[Int.random(in: 0..<chats.count, using: &random)].unread += 1 }
            }
            let snapshot = Snapshot(sections: [Section(id: "pinned", header: "Pinned", rows: Array(chats.prefix(2))),
                                               Section(id: "all", header: "All (\(chats.count))", rows: Array(chats.dropFirst(2)))])
            snapshots.append(snapshot)
            recorder.record(snapshot, label: step == 0 ? "Initial" : "Update \(step)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try recorder.write(to: file.path)

        let (read, diagnostics) = SnapshotReader.read(path: file.path)
        #expect(diagnostics.isEmpty, "seed \(seed): \(diagnostics)")
        // What `rowmotion check` runs: no error and no warning either.
        #expect(SequenceCheck.check(path: file.path).isEmpty, "seed \(seed)")
        let sequence = try #require(read)
        #expect(sequence.title == "Inbox" && sequence.steps.count == 12 && sequence.steps[3].label == "Update 3")
        let fromFile = try sequence.changesets()
        for index in 1..<snapshots.count {
            let fromApp = try Changeset(from: snapshots[index - 1], to: snapshots[index])
            #expect(fromFile[index - 1].stages.map(\.batch) == fromApp.stages.map(\.batch), "seed \(seed), step \(index)")
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == recorder.json(), "the same snapshots, the same bytes")
        // Typed values: a count is a number in the file, as the app has it.
        let first = try #require(sequence.steps.first?.snapshot.sections.first?.rows.first)
        #expect(first.fields == [Field("name", .string("Chat 0")), Field("unread", .int(0))], "seed \(seed)")
    }

    /// Fields keep the closure's order (a cell without `cell:` takes its
    /// title and detail in that order) and their types; text is escaped.
    @Test func recordedFields_keepTheirOrderAndTypes_andTextIsEscaped() throws {
        struct Row: DiffableRow, Equatable { var id: Int; var note: String; var price: Double; var done: Bool; var due: String? }
        var recorder = SequenceRecorder<String, Row>(title: "Tasks \"quoted\"\n", options: SequenceOptions(cell: .init(style: .value1, title: "note", detail: "price"))) {
            ["note": $0.note, "price": $0.price, "done": $0.done, "due": $0.due]
        }
        recorder.record(Snapshot(sectionID: "", rows: [Row(id: 7, note: "Pay \u{2028}rent\t\\", price: 12.5, done: false, due: nil),
                                                      Row(id: 8, note: "Call", price: 3, done: true, due: "Mon")]))
        let json = try recorder.json()
        #expect(json.contains(#"{"id": "7", "note": "Pay \u2028rent\t\\", "price": 12.5, "done": false, "due": null}"#))
        #expect(json.contains(#"{"id": "8", "note": "Call", "price": 3, "done": true, "due": "Mon"}"#))
        #expect(json.contains(#""title": "Tasks \"quoted\"\n""#))
        #expect(json.contains(#""cell": {"style": "value1", "title": "note", "detail": "price"}"#))
        let (read, diagnostics) = SnapshotReader.read(bytes: Array(json.utf8), file: "tasks.json")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let row = try #require(read?.steps.first?.snapshot.sections.first?.rows.first)
        #expect(row.fields.map(\.name) == ["note", "price", "done", "due"])
        #expect(row.fields.map(\.value) == [.string("Pay \u{2028}rent\t\\"), .double(12.5), .bool(false), .null])
    }

    /// What the reader would reject is refused when the file is written,
    /// in the app's test, with the step and the row: not later, in the docs' build.
    @Test func whatTheReaderWouldReject_isAnErrorWhenWritten() throws {
        struct Row: DiffableRow, Equatable { var id: String; var value: Double }
        func recorder(_ options: SequenceOptions = SequenceOptions(),
                      _ fields: @escaping (Row) -> KeyValuePairs<String, any RecordableValue>) -> SequenceRecorder<String, Row> {
            var recorder = SequenceRecorder<String, Row>(title: "T", options: options, fields: fields)
            recorder.record(Snapshot(sectionID: "s", rows: [Row(id: "a", value: 1), Row(id: "b", value: .nan)]), label: "Initial")
            return recorder
        }
        #expect(throws: SequenceRecorderError.noSnapshots) { try SequenceRecorder<String, Row>(title: "T").json() }
        #expect(throws: SequenceRecorderError.reservedField(step: 0, row: "a")) { try recorder { ["id": $0.id] }.json() }
        #expect(throws: SequenceRecorderError.repeatedField("v", step: 0, row: "a")) { try recorder { _ in ["v": 1, "v": 2] }.json() }
        #expect(throws: SequenceRecorderError.nonFiniteNumber(field: "value", step: 0, row: "b")) { try recorder { ["value": $0.value] }.json() }
        #expect(throws: SequenceRecorderError.missingField("when", option: "moveHint", step: 0, row: "a")) {
            try recorder(SequenceOptions(moveHint: "when")) { _ in ["title": "x"] }.json()
        }
        let unknown = SequenceRecorderError.unknownField("subtitel", cellPart: "subtitle", known: ["title"])
        #expect(throws: unknown) { try recorder(SequenceOptions(cell: .init(style: .subtitle, subtitle: "subtitel"))) { _ in ["title": "x"] }.json() }
        #expect(unknown.description == "the cell's subtitle names 'subtitel', a field no recorded row has (fields: title)")
        // An accessory for every row names no field.
        #expect(throws: Never.self) { try recorder(SequenceOptions(cell: .init(accessory: "disclosureIndicator"))) { _ in ["title": "x"] }.json() }
    }
}
