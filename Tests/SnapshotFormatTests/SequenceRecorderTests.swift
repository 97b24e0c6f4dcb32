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

    static func fields(_ chat: Chat) -> [String: String] { ["name": chat.name, "unread": String(chat.unread)] }

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
    }
}
