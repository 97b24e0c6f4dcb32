import Diagnostics
import Foundation
import ProjectFiles

/// What a build needs of an example it does not diff, kept in the cache so
/// that the next command-line build does not read the example at all when
/// its file's stamp says it did not change (as `PageRecord` does for a
/// page): its title, description, step labels and counts, and what loading
/// it reported. Something made again that shows the example reads it then
/// (`LoadedExample.sequence`), and its bytes must be the record's.
struct ExampleRecord: Codable, Equatable, Sendable {
    var sourceKey: String
    var title: String
    var description: String?
    var labels: [String]
    var steps: [Step]
    var diagnostics: [Diagnostic]

    struct Step: Codable, Equatable, Sendable {
        var batches: Int, inserted: Int, deleted: Int, moved: Int, reloaded: Int
    }

    init(_ example: LoadedExample, diagnostics: [Diagnostic]) {
        (sourceKey, title, description, labels) = (example.sourceKey, example.title, example.description, example.stepLabels)
        steps = example.summaries.map { Step(batches: $0.batches, inserted: $0.inserted, deleted: $0.deleted, moved: $0.moved, reloaded: $0.reloaded) }
        self.diagnostics = diagnostics
    }

    /// As the cache file's line: `example`, the example's path under its
    /// folder, and the record as JSON (which escapes tabs and line feeds);
    /// nil for a path with a tab or a line feed (read next time).
    func line(name: String) -> [UInt8]? {
        guard !name.utf8.contains(where: { $0 == 9 || $0 == 10 }) else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let json = try? encoder.encode(self) else { return nil }
        return Array("example\t\(name)\t".utf8) + json + [10]
    }

    init?(json: ArraySlice<UInt8>) {
        guard let record = try? JSONDecoder().decode(ExampleRecord.self, from: Data(json)) else { return nil }
        self = record
    }
}

extension LoadedExample {
    /// From the cache's record of it: its file is read when its sequence is
    /// first asked for, and must be the bytes the record was made from.
    init(name: String, record: ExampleRecord, in folder: InputFolder) {
        let summaries = zip(record.labels.dropFirst(), record.steps).map { label, step in
            StepSummary(label: label, batches: step.batches, inserted: step.inserted, deleted: step.deleted, moved: step.moved, reloaded: step.reloaded)
        }
        let (path, sourceKey) = (folder.path(of: name), record.sourceKey)
        self.init(name: name, sourceKey: sourceKey, title: record.title, description: record.description, stepLabels: record.labels,
                  summaries: summaries, path: path) {
            let (example, found) = SiteInputs.loadExample(name, in: folder)
            guard let example, example.sourceKey == sourceKey else {
                return .failure(found.first { $0.severity == .error }
                    ?? .error("changed-during-build", at: SourceLocation(file: path, line: 1, column: 1), "this file changed while the build ran; build again"))
            }
            return .success((example.sequence, example.changesets))
        }
    }
}
