import Foundation
import Testing

/// `rowmotion diff`'s Swift output pastes into an app (issue 30, item 5):
/// every example's calls, for a table view and for a collection view,
/// type-check with swiftc against declarations of the UIKit methods they
/// call (signatures as in UIKit's headers; no UIKit on Linux), pasted
/// where users paste them: in a method of a view controller, whose view is
/// a property (issue 45: `performBatchUpdates`' closures escape, and Swift
/// refuses an implicit `self` in them), a step's
/// later batch runs from the completion of the one before, and each batch
/// says what the data source must hold.
@Suite struct SwiftCallsTests {
    static let uikit = """
        struct IndexPath { init(row: Int, section: Int) {}; init(item: Int, section: Int) {} }
        struct IndexSet { init(integer: Int) {}; init(_ elements: [Int]) {} }
        final class UITableView {
            enum RowAnimation { case fade, right, left, top, bottom, none, middle, automatic }
            func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {}
            func insertSections(_ sections: IndexSet, with animation: RowAnimation) {}
            func deleteSections(_ sections: IndexSet, with animation: RowAnimation) {}
            func reloadSections(_ sections: IndexSet, with animation: RowAnimation) {}
            func moveSection(_ section: Int, toSection newSection: Int) {}
            func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
            func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
            func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
            func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {}
        }
        final class UICollectionView {
            func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {}
            func insertSections(_ sections: IndexSet) {}
            func deleteSections(_ sections: IndexSet) {}
            func reloadSections(_ sections: IndexSet) {}
            func moveSection(_ section: Int, toSection newSection: Int) {}
            func insertItems(at indexPaths: [IndexPath]) {}
            func deleteItems(at indexPaths: [IndexPath]) {}
            func reconfigureItems(at indexPaths: [IndexPath]) {}
            func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) {}
        }
        // As UIKit's controllers hold them: properties, reached through `self`.
        class UITableViewController { let tableView = UITableView() }
        class UICollectionViewController { let collectionView = UICollectionView() }

        """

    static let examples = ["messenger.yml", "stock-ticker.yml", "sections-and-rows-move.yml", "displaced-section-reload.yml", "episodes-by-tag.yml"]

    @Test(arguments: ["table", "collection"])
    func everyExamplesCalls_typeCheck(flavor: String) throws {
        var source = Self.uikit + "final class ListController: \(flavor == "table" ? "UITableViewController" : "UICollectionViewController") {\n"
        for (k, example) in Self.examples.enumerated() {
            let output = try CLI.run("diff", "examples/\(example)", "--flavor", flavor)
            #expect(output.status == 0, "\(output.stderr)")
            source += "func example\(k)() {\n" + output.stdout + "\n}\n"
        }
        source += "}\n"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-calls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Calls.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let swiftc = Process()
        swiftc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swiftc.arguments = ["swiftc", "-typecheck", file.path]
        let errors = Pipe()
        swiftc.standardError = errors
        try swiftc.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        swiftc.waitUntilExit()
        #expect(swiftc.terminationStatus == 0, "\(said)")
    }

    /// A later batch runs from the completion of the one before, and each
    /// says what the data source must hold: where the later batch only
    /// reloads, the first already holds the snapshot (the JSON's `after`
    /// of both is the same, and says so); where sections move first, the
    /// rows between the batches (the first `after`, not the snapshot).
    @Test func aStepsSecondBatch_runsFromTheFirstsCompletion() throws {
        let calls = try CLI.run("diff", "examples/messenger.yml", "--step", "1").stdout
        #expect(calls.contains("""
            self.tableView.performBatchUpdates({
                // Update the data source to snapshot 1 here (batch 2 only reloads; its rows show their new content then), then:
            """), "\(calls)")
        #expect(calls.contains("""
            }, completion: { _ in
                // Batch 2 of 2: reloads that wait until the moves have finished
                self.tableView.performBatchUpdates {
                    // Update the data source to snapshot 1 here, then:
                    self.tableView.reloadRows(at: [IndexPath(row: 1, section: 0)], with: .fade)
                }
            })
            """), "\(calls)")
        let sections = try CLI.run("diff", "examples/sections-and-rows-move.yml", "--step", "1").stdout
        #expect(sections.contains("""
            self.tableView.performBatchUpdates({
                // Update the data source to the rows after batch 1 here (its "after" in --format json; not yet snapshot 1), then:
            """), "\(sections)")
        let collection = try CLI.run("diff", "examples/messenger.yml", "--step", "1", "--flavor", "collection").stdout
        #expect(collection.contains("collectionView.reconfigureItems(at: [IndexPath(item: 1, section: 0)])"), "\(collection)")
        #expect(!collection.contains("tableView") && !collection.contains("with: ."))
    }
}
