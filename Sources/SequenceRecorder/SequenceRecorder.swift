import Foundation
import ListDiff

/// Records the snapshots an app's data source goes through, in the app's
/// own unit tests, and writes them as a snapshot sequence file that
/// `rowmotion check`, `diff` and `build` read: the docs then replay exactly
/// what the app's list did.
///
/// ```swift
/// var recorder = SequenceRecorder<String, Chat>(title: "Inbox") { ["name": $0.name, "preview": $0.preview] }
/// recorder.record(dataSource.snapshot, label: "Initial")
/// viewModel.receive(message)
/// recorder.record(dataSource.snapshot, label: "Dave replies")
/// try recorder.write(to: "examples/inbox.json")
/// ```
///
/// `fields` names what a row shows; two rows with the same id and the same
/// fields are the same row to the file's reader, so give every field your
/// row's `==` compares, or the file's batches will leave out reloads your
/// app makes. Depends on ListDiff and Foundation only.
public struct SequenceRecorder<SectionID: Hashable & CustomStringConvertible, Row: DiffableRow>
where Row.ID: CustomStringConvertible {
    public var title: String
    public var description: String?
    private let fields: (Row) -> [String: String]
    private var steps: [SequenceFile.Step] = []

    public init(title: String, description: String? = nil, fields: @escaping (Row) -> [String: String] = { _ in [:] }) {
        self.title = title
        self.description = description
        self.fields = fields
    }

    /// How many snapshots were recorded.
    public var count: Int { steps.count }

    /// Adds `snapshot` as the sequence's next step.
    public mutating func record(_ snapshot: Snapshot<SectionID, Row>, label: String? = nil) {
        let sections = snapshot.sections.map { section in
            SequenceFile.Section(id: section.id.description, header: section.header, footer: section.footer,
                         items: section.rows.map { SequenceFile.Item(id: $0.id.description, fields: fields($0)) })
        }
        steps.append(SequenceFile.Step(label: label, sections: sections))
    }

    /// The sequence file's text (JSON, keys sorted: the same snapshots give
    /// the same bytes).
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(SequenceFile(title: title, description: description, steps: steps))) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Writes the file (atomically); `.json` is the name to give it.
    public func write(to path: String) throws {
        try Data(json().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// What `SequenceRecorder` writes: `title`, `description`, `steps` of
/// `label` and `sections` of `id`, `header`, `footer` and `items` (each an
/// `id` and the row's fields).
fileprivate struct SequenceFile: Encodable {
    var title: String
    var description: String?
    var steps: [Step]

    struct Step: Encodable {
        var label: String?
        var sections: [Section]
    }

    struct Section: Encodable {
        var id: String
        var header: String?
        var footer: String?
        var items: [Item]
    }

    struct Item: Encodable {
        var id: String
        var fields: [String: String]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(id, forKey: Key(stringValue: "id"))
            for (name, value) in fields where name != "id" { try container.encode(value, forKey: Key(stringValue: name)) }
        }
    }
}
