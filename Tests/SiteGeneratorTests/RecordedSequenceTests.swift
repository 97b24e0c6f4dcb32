import Foundation
import ListDiff
import SequenceRecorder
@testable import SiteGenerator
import Testing

/// A sequence an app's test records is drawn and animated as the same
/// sequence written by hand: the recorder carries the cell layout, the
/// animations, the move hint and the list's framing, and each field keeps
/// its type (issue 30, item 3: it wrote every value as a string and no
/// presentation at all, so a recorded badge read "0" and every row was a
/// line of text).
@Suite struct RecordedSequenceTests {
    struct Chat: DiffableRow, Equatable {
        var id: String
        var name: String
        var preview: String
        var unread: Int
        var pinned: Bool
        var lastMessageAt: Int
        var score: Double
    }

    static let written = """
        title: Inbox
        description: New mail on top.
        animation: fade
        animations: {delete: right}
        moveHint: lastMessageAt
        cell: {style: subtitle, title: name, subtitle: preview, image: name, badge: unread, accessory: pinned, hide: [score]}
        height: 300
        style: insetGrouped
        duration: 0.5
        spring: {damping: 0.8, velocity: 0.2}
        steps:
          - label: Initial
            sections:
              - id: chats
                header: Chats
                items:
                  - {id: alice, name: Alice, preview: See you, unread: 0, pinned: true, lastMessageAt: 5, score: 1.5}
                  - {id: bob, name: Bob, preview: "Lunch?", unread: 2, pinned: false, lastMessageAt: 4, score: 2}
                  - {id: carol, name: Carol, preview: Thanks, unread: 0, pinned: false, lastMessageAt: 3, score: 0.25}
          - label: Carol writes
            sections:
              - id: chats
                header: Chats
                items:
                  - {id: carol, name: Carol, preview: "Are you there?", unread: 1, pinned: false, lastMessageAt: 6, score: 0.25}
                  - {id: alice, name: Alice, preview: See you, unread: 0, pinned: true, lastMessageAt: 5, score: 1.5}
                  - {id: bob, name: Bob, preview: "Lunch?", unread: 2, pinned: false, lastMessageAt: 4, score: 2}

        """

    static func recorded() throws -> String {
        let options = SequenceOptions(
            animation: .fade, deleteAnimation: .right,
            cell: .init(style: .subtitle, title: "name", subtitle: "preview", image: "name", badge: "unread", accessory: "pinned", hide: ["score"]),
            moveHint: "lastMessageAt", height: 300, style: .insetGrouped, duration: 0.5, springDamping: 0.8, springVelocity: 0.2)
        var recorder = SequenceRecorder<String, Chat>(title: "Inbox", description: "New mail on top.", options: options) {
            ["name": $0.name, "preview": $0.preview, "unread": $0.unread, "pinned": $0.pinned, "lastMessageAt": $0.lastMessageAt, "score": $0.score]
        }
        var chats = [Chat(id: "alice", name: "Alice", preview: "See you", unread: 0, pinned: true, lastMessageAt: 5, score: 1.5),
                     Chat(id: "bob", name: "Bob", preview: "Lunch?", unread: 2, pinned: false, lastMessageAt: 4, score: 2),
                     Chat(id: "carol", name: "Carol", preview: "Thanks", unread: 0, pinned: false, lastMessageAt: 3, score: 0.25)]
        try recorder.record(Snapshot(sections: [Section(id: "chats", header: "Chats", rows: chats)]), label: "Initial")
        var carol = chats.removeLast()
        (carol.preview, carol.unread, carol.lastMessageAt) = ("Are you there?", 1, 6)
        chats.insert(carol, at: 0)
        try recorder.record(Snapshot(sections: [Section(id: "chats", header: "Chats", rows: chats)]), label: "Carol writes")
        return try recorder.json()
    }

    /// The player's figure on an example's page, with the example's name made neutral.
    static func player(_ html: String, named name: String) throws -> String {
        let start = try #require(html.range(of: "<figure class=\"rowmotion-player\""))
        let end = try #require(html.range(of: "</figure>", range: start.upperBound..<html.endIndex))
        return String(html[start.lowerBound..<end.upperBound]).replacingOccurrences(of: name, with: "EXAMPLE")
    }

    @Test func aRecordedSequence_drawsTheSameCellsAndAnimations_asTheSameSequenceWrittenByHand() throws {
        let project = try FixtureProject(files: [
            ("site/index.md", "# Inbox\n\n```rowmotion\nexample: written.yml\n```\n\n```rowmotion\nexample: recorded.json\n```\n"),
            ("examples/written.yml", Self.written),
            ("examples/recorded.json", try Self.recorded()),
        ])
        defer { project.remove() }
        var options = project.options
        options.strict = true
        let site = SiteBuilder.build(options)
        #expect(site.diagnostics.isEmpty, "\(site.diagnostics.map(\.description))")
        let written = String(decoding: site.files["examples/written.html"] ?? [], as: UTF8.self)
        let recorded = String(decoding: site.files["examples/recorded.html"] ?? [], as: UTF8.self)
        let player = try Self.player(recorded, named: "recorded.json")
        #expect(player == (try Self.player(written, named: "written.yml")))
        // What makes them the same is there: a subtitle cell, typed values, the framing.
        #expect(player.contains("data-cell=\"subtitle\"") && player.contains("data-table-style=\"insetGrouped\""))
        #expect(player.contains("\"delete\":\"right\"") && player.contains("\"insert\":\"fade\""))
        #expect(!player.contains(">0<"), "an unread count of 0 hides its badge, as a number")
        #expect(!player.contains("1.5"), "hidden fields stay hidden")
    }
}
