import Foundation
import ListDiff
@testable import SnapshotFormat
import Testing

@Suite("Examples")
struct ExamplesTests {
    static let examples = files(in: examplesFolder, extensions: ["yml", "yaml", "json"])

    @Test func theLibraryHasEveryScenario() {
        let names = Set(Self.examples.map(\.lastPathComponent))
        for required in ["profile.yml", "messenger.yml", "episodes-by-tag.yml", "original-revised.yml", "task-table.yml",
                         "stock-ticker.yml", "sections-and-rows-move.yml", "section-header.yml", "content-identity.yml",
                         "large-list.json", "move-and-reload.yml"] {
            #expect(names.contains(required), "missing example \(required)")
        }
    }

    /// Every example reads without a diagnostic, has a title and a
    /// description, and every step's batches replay to the next snapshot
    /// and pass the validator.
    @Test(arguments: examples)
    func example_readsCleanly_andEveryStepReplays(_ url: URL) throws {
        let (sequence, diagnostics) = SnapshotReader.read(path: url.path, displayPath: "examples/\(url.lastPathComponent)")
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        let example = try #require(sequence)
        #expect(!example.title.isEmpty)
        #expect(!(example.description ?? "").isEmpty, "an example says what to watch for")
        #expect(example.steps.count >= 2)
        for (index, changeset) in try example.changesets().enumerated() {
            #expect(!changeset.isEmpty, "step \(index + 1) changes nothing")
            var current = example.steps[index].snapshot
            for stage in changeset.stages {
                let violations = Validator().validate(stage.batch, before: current.layout, after: stage.after.layout)
                    .filter { !($0.rule == 23 && example.identity == .content) }
                #expect(violations.isEmpty, "step \(index + 1): \(violations.map(\.message))")
                current = stage.after
            }
            let applied = try changeset.apply(to: example.steps[index].snapshot)
            #expect(applied.layout == example.steps[index + 1].snapshot.layout)
        }
    }

    @Test func moveAndReload_needsTheDeferredBatch() throws {
        let example = try #require(SnapshotReader.read(path: examplesFolder.appendingPathComponent("move-and-reload.yml").path).sequence)
        let changeset = try #require(try example.changesets().first)
        #expect(changeset.stages.map(\.role) == [.structure, .reloads])
    }

    @Test func largeList_hasAThousandRowsOverTwentySteps() throws {
        let example = try #require(SnapshotReader.read(path: examplesFolder.appendingPathComponent("large-list.json").path).sequence)
        #expect(example.steps.count == 20)
        #expect(example.steps.allSatisfy { $0.snapshot.rowCount == 1_000 })
    }
}
