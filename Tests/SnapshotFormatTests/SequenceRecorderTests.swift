import Foundation
import ListDiff
import Reports
import SeededRandom
@testable import SequenceRecorder
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
            try recorder.record(snapshot, label: step == 0 ? "Initial" : "Update \(step)")
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
        try recorder.record(Snapshot(sectionID: "", rows: [Row(id: 7, note: "Pay \u{2028}rent\t\\", price: 12.5, done: false, due: nil),
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

    /// What the reader would reject is refused when it is recorded, or
    /// when the file is written, in the app's test, with the step and the
    /// row: not later, in the docs' build.
    @Test func whatTheReaderWouldReject_isAnErrorWhenRecordedOrWritten() throws {
        struct Row: DiffableRow, Equatable { var id: String; var value: Double }
        let rows = Snapshot(sectionID: "s", rows: [Row(id: "a", value: 1), Row(id: "b", value: .nan)])
        func recorder(_ options: SequenceOptions = SequenceOptions(),
                      _ fields: @escaping (Row) -> KeyValuePairs<String, any RecordableValue>) -> SequenceRecorder<String, Row> {
            SequenceRecorder<String, Row>(title: "T", options: options, fields: fields)
        }
        func recorded(_ options: SequenceOptions = SequenceOptions(),
                      _ fields: @escaping (Row) -> KeyValuePairs<String, any RecordableValue>) throws -> SequenceRecorder<String, Row> {
            var recorder = recorder(options, fields)
            try recorder.record(Snapshot(sectionID: "s", rows: [Row(id: "a", value: 1)]), label: "Initial")
            return recorder
        }
        #expect(throws: SequenceRecorderError.noSnapshots) { try SequenceRecorder<String, Row>(title: "T").json() }
        var empty = recorder { ["id": $0.id] }
        #expect(throws: SequenceRecorderError.reservedField(step: 0, row: "a")) { try empty.record(rows) }
        #expect(empty.count == 0, "nothing of a refused snapshot is recorded")
        empty = recorder { _ in ["v": 1, "v": 2] }
        #expect(throws: SequenceRecorderError.repeatedField("v", step: 0, row: "a")) { try empty.record(rows) }
        empty = recorder { ["value": $0.value] }
        #expect(throws: SequenceRecorderError.nonFiniteNumber(field: "value", step: 0, row: "b")) { try empty.record(rows) }
        #expect(empty.count == 0)
        #expect(throws: SequenceRecorderError.missingField("when", option: "moveHint", step: 0, row: "a")) {
            try recorded(SequenceOptions(moveHint: "when")) { _ in ["title": "x"] }.json()
        }
        let unknown = SequenceRecorderError.unknownField("subtitel", cellPart: "subtitle", known: ["title"])
        #expect(throws: unknown) { try recorded(SequenceOptions(cell: .init(style: .subtitle, subtitle: "subtitel"))) { _ in ["title": "x"] }.json() }
        #expect(unknown.description == "the cell's subtitle names 'subtitel', a field no recorded row has (fields: title)")
        // An accessory for every row names no field.
        #expect(throws: Never.self) { try recorded(SequenceOptions(cell: .init(accessory: "disclosureIndicator"))) { _ in ["title": "x"] }.json() }
    }
}

/// Each of the reader's limits that a recording can pass is refused at the
/// call that records it, naming what and the limit (issue 42, item 12: a
/// 300-byte field name was written, and `check` refused the file); at the
/// limits, what is recorded reads back without a word.
@Suite struct SequenceRecorderLimitsTests {
    struct Row: DiffableRow, Equatable {
        var id: String
        var name = "n"
    }

    static func recorder(_ fields: @escaping (Row) -> KeyValuePairs<String, any RecordableValue> = { ["name": $0.name] })
        -> SequenceRecorder<String, Row> {
        SequenceRecorder<String, Row>(title: "T", fields: fields)
    }

    /// The figures the recorder checks are the reader's, kept in one place by this test.
    @Test func theRecordersLimits_areTheReaders() {
        let reader = SnapshotLimits.standard
        #expect(ReaderLimits.fileBytes == reader.fileBytes && ReaderLimits.rowsPerSnapshot == reader.rowsPerSnapshot)
        #expect(ReaderLimits.fieldsPerRow == reader.fieldsPerRow && ReaderLimits.idBytes == reader.idBytes && ReaderLimits.keyBytes == reader.keyBytes)
        #expect(ReaderLimits.heights == Presentation.heights && ReaderLimits.widths == Presentation.widths)
        #expect(ReaderLimits.durations == Presentation.durations && ReaderLimits.dampings == Presentation.dampings)
        #expect(ReaderLimits.velocities == Presentation.velocities)
        #expect(ReaderLimits.columns == Double(Presentation.columnRange.lowerBound)...Double(Presentation.columnRange.upperBound))
        #expect(ReaderLimits.spacings == Presentation.spacings)
    }

    /// A collection view's options are written as the reader reads them: a
    /// grid with its columns and spacing, a section's own layout where the
    /// section first appears, a data table's columns and titles, the
    /// scroll policy and the skip-animation share.
    @Test func layoutOptions_readBackAsTheyWereGiven() throws {
        var recorder = Self.recorder()
        recorder.options = SequenceOptions()
        recorder.options.layout = .grid
        recorder.options.columns = 4
        recorder.options.spacing = 2
        recorder.options.scroll = .anchor
        recorder.options.skipAnimation = 0.5
        recorder.options.sectionLayouts = ["cards": .init(.orthogonal, columns: 2)]
        try recorder.record(Snapshot(sections: [Section(id: "cards", rows: [Row(id: "a")]), Section(id: "s", rows: [Row(id: "b")])]))
        try recorder.record(Snapshot(sections: [Section(id: "cards", rows: [Row(id: "b"), Row(id: "a")]), Section(id: "s", rows: [])]))
        let json = try recorder.json()
        #expect(json.components(separatedBy: "\"layout\": \"orthogonal\"").count == 2, "said once, where the section first appears")
        let (read, diagnostics) = SnapshotReader.read(bytes: Array(json.utf8), file: "grid.json")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let presentation = try #require(read?.presentation)
        #expect(presentation.layout == .grid && presentation.columns == 4 && presentation.spacing == 2)
        #expect(presentation.scroll == .anchor && presentation.skipAnimation == 0.5)
        #expect(presentation.sections == ["cards": .init(layout: .orthogonal, columns: 2)])

        var table = Self.recorder()
        table.options.layout = .table
        table.options.tableFields = ["name"]
        table.options.titles = ["name": "Name"]
        try table.record(Snapshot(sectionID: "s", rows: [Row(id: "a")]))
        let tableJSON = try table.json()
        #expect(tableJSON.contains(#""fields": ["name"]"#) && tableJSON.contains(#""titles": {"name": "Name"}"#))
        let tableRead = SnapshotReader.read(bytes: Array(tableJSON.utf8), file: "table.json")
        #expect(tableRead.1.isEmpty, "\(tableRead.1)")
        #expect(tableRead.0?.presentation.titles == ["name": "Name"])
        #expect(tableRead.0?.presentation.fields == ["name"])
    }

    @Test func layoutOptionsTheReaderWouldRefuse_areRefusedWhenWritten() throws {
        var grid = SequenceOptions()
        grid.columns = 3
        var fields = SequenceOptions()
        fields.tableFields = ["x"]
        var columns = SequenceOptions()
        columns.layout = .grid
        columns.columns = 13
        var titles = SequenceOptions()
        titles.layout = .table
        titles.tableFields = ["x"]
        titles.titles = ["y": "Y"]
        let cases: [(SequenceOptions, String)] = [
            (grid, "the options' columns needs layout .grid, or a section laid out as .grid or .orthogonal; the file's reader refuses it otherwise"),
            (fields, "the options' tableFields needs layout .table; the file's reader refuses it otherwise"),
            (columns, "the options' columns is 13; the file's reader takes 1 to 12"),
            (titles, "the options' titles[y] needs 'y' among tableFields; the file's reader refuses it otherwise"),
        ]
        for (options, message) in cases {
            var recorder = Self.recorder()
            recorder.options = options
            try recorder.record(Snapshot(sectionID: "s", rows: [Row(id: "a")]))
            #expect(throws: SequenceRecorderError.self) { try recorder.json() }
            do { _ = try recorder.json() } catch { #expect(error.description == message) }
        }
    }

    @Test func aFieldNameLongerThanTheReaderTakes_isRefusedWhereItIsRecorded() {
        let name = String(repeating: "f", count: 300)
        var recorder = Self.recorder { [name: $0.name] }
        let error = SequenceRecorderError.fieldNameTooLong(name, step: 0, row: "a")
        #expect(throws: error) { try recorder.record(Snapshot(sectionID: "s", rows: [Row(id: "a")])) }
        #expect(recorder.count == 0)
        #expect(error.description == "step 0, row 'a': a field name is 300 bytes long ('\(String(repeating: "f", count: 40))…'); "
                    + "field names are limited to 256 bytes")
    }

    @Test func eachLimit_isRefusedWhereItIsRecorded_namingWhatAndTheLimit() throws {
        let longID = String(repeating: "é", count: 513)  // 1,026 bytes, 513 characters
        var recorder = Self.recorder()
        let cases: [(Snapshot<String, Row>, SequenceRecorderError, String)] = [
            (Snapshot(sectionID: "s", rows: [Row(id: longID)]), .rowIDTooLong(longID, step: 0),
             "step 0: a row id is 1026 bytes long ('\(String(repeating: "é", count: 40))…'); ids are limited to 1024 bytes"),
            (Snapshot(sectionID: longID, rows: []), .sectionIDTooLong(longID, step: 0),
             "step 0: a section id is 1026 bytes long ('\(String(repeating: "é", count: 40))…'); ids are limited to 1024 bytes"),
            (Snapshot(sections: [Section(id: "s", rows: [Row(id: "a")]), Section(id: "t", rows: [Row(id: "a")])]), .duplicateRowID("a", step: 0),
             "step 0: the row id 'a' is given twice (ids are written as their description)"),
            (Snapshot(sections: [Section(id: "s", rows: []), Section(id: "s", rows: [])]), .duplicateSectionID("s", step: 0),
             "step 0: the section id 's' is given twice (ids are written as their description)"),
            (Snapshot(sectionID: "s", rows: (0...1_000_000).map { Row(id: "r\($0)") }), .tooManyRows(1_000_001, step: 0),
             "step 0 has 1000001 rows; a snapshot is limited to 1000000 rows"),
        ]
        for (snapshot, error, message) in cases {
            #expect(throws: error) { try recorder.record(snapshot) }
            #expect(error.description == message)
        }
        var wide = SequenceRecorder<String, Row>(title: "T") { _ in (0..<1_000).map { ("f\($0)", .int($0)) } }
        #expect(throws: SequenceRecorderError.tooManyFields(1_000, step: 0, row: "a")) { try wide.record(Snapshot(sectionID: "s", rows: [Row(id: "a")])) }
        #expect(SequenceRecorderError.tooManyFields(1_000, step: 0, row: "a").description
                    == "step 0, row 'a' has 1000 fields and its id; rows are limited to 1000, the id among them")
        #expect(recorder.count == 0 && wide.count == 0, "nothing of a refused snapshot is recorded")

        // Steps past the file's limit: the one that passes it is refused, and the steps before it kept.
        let big = String(repeating: "x", count: 20 << 20)
        var large = Self.recorder()
        for step in 0..<3 { try large.record(Snapshot(sectionID: "s", rows: [Row(id: "a", name: big)]), label: "\(step)") }
        #expect {
            try large.record(Snapshot(sectionID: "s", rows: [Row(id: "a", name: big)]))
        } throws: { error in
            guard case .fileTooLarge(let bytes, 3) = error as? SequenceRecorderError else { return false }
            return bytes > 4 * (20 << 20) && bytes < 4 * (20 << 20) + 1_000
        }
        #expect(large.count == 3)
    }

    @Test func optionsOutOfTheReadersRange_areRefusedWhenWritten() throws {
        let cases: [(SequenceOptions, SequenceRecorderError, String)] = [
            (SequenceOptions(height: 50), .optionOutOfRange("height", 50, 120...4000), "the options' height is 50; the file's reader takes 120 to 4000"),
            (SequenceOptions(width: 2000.5), .optionOutOfRange("width", 2000.5, 240...2000), "the options' width is 2000.5; the file's reader takes 240 to 2000"),
            (SequenceOptions(duration: .infinity), .optionOutOfRange("duration", .infinity, 0.05...10),
             "the options' duration is inf; the file's reader takes 0.05 to 10"),
            (SequenceOptions(springDamping: 2), .optionOutOfRange("springDamping", 2, 0.05...1), "the options' springDamping is 2; the file's reader takes 0.05 to 1"),
            (SequenceOptions(springDamping: 1, springVelocity: -51), .optionOutOfRange("springVelocity", -51, -50...50),
             "the options' springVelocity is -51; the file's reader takes -50 to 50"),
        ]
        for (options, error, message) in cases {
            var recorder = Self.recorder()
            recorder.options = options
            try recorder.record(Snapshot(sectionID: "s", rows: [Row(id: "a")]))
            #expect(throws: error) { try recorder.json() }
            #expect(error.description == message)
        }
        // A velocity is written only with a damping: alone, it is not refused.
        var recorder = Self.recorder()
        recorder.options = SequenceOptions(springVelocity: 99)
        try recorder.record(Snapshot(sectionID: "s", rows: [Row(id: "a")]))
        #expect(throws: Never.self) { try recorder.json() }
    }

    /// At the limits: ids of 1,024 bytes, a field name of 256, a row of
    /// 999 fields and its id, every option at an end of its range. `check`
    /// reads it without a word.
    @Test func atTheLimits_aRecordingChecksCleanly() throws {
        let longID = String(repeating: "é", count: 512)  // 1,024 bytes
        let longName = String(repeating: "ü", count: 128)  // 256 bytes
        let options = SequenceOptions(height: 120, width: 2000, duration: 10, springDamping: 0.05, springVelocity: -50)
        var recorder = SequenceRecorder<String, Row>(title: "T", options: options) { row in
            row.id == "wide" ? (0..<999).map { ("f\($0)", .int($0)) } : [(longName, .string(row.name))]
        }
        try recorder.record(Snapshot(sectionID: longID, rows: [Row(id: longID), Row(id: "wide")]), label: "Ids and names")
        try recorder.record(Snapshot(sectionID: longID, rows: [Row(id: "wide"), Row(id: longID, name: "m")]), label: "Moved")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("at-the-limits-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try recorder.write(to: file.path)
        #expect(SequenceCheck.check(path: file.path).map(\.description) == [])
        let sequence = try #require(SnapshotReader.read(path: file.path).0)
        let section = try #require(sequence.steps.first?.snapshot.sections.first)
        #expect(section.id == longID && section.rows.map(\.id) == [longID, "wide"])
        #expect(section.rows[0].fields.map(\.name) == [longName] && section.rows[1].fields.count == 999)
        #expect(sequence.presentation == Presentation(height: 120, width: 2000, duration: 10, spring: .init(damping: 0.05, velocity: -50)))
    }

    /// A snapshot of a million rows in a file of exactly 64 MiB reads back;
    /// a byte more of title, and the file is refused.
    @Test func aMillionRowsInAFileOf64MiB_readBack() throws {
        var recorder = Self.recorder()
        try recorder.record(Snapshot(sectionID: "s", rows: (0..<1_000_000).map { Row(id: "\($0)") }), label: "A million rows")
        recorder.title += String(repeating: "t", count: ReaderLimits.fileBytes - (try recorder.json()).utf8.count)
        let json = try recorder.json()
        #expect(json.utf8.count == 64 << 20)
        let (sequence, diagnostics) = SnapshotReader.read(bytes: Array(json.utf8), file: "recorded.json")
        #expect(diagnostics.map(\.description) == [])
        #expect(sequence?.steps.first?.snapshot.rowCount == 1_000_000)
        recorder.title += "t"
        #expect(throws: SequenceRecorderError.fileTooLarge(bytes: (64 << 20) + 1, step: nil)) { try recorder.json() }
    }
}
