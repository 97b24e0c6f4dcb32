import ProjectFiles
import Foundation
import SnapshotFormat
import Testing

@Suite("Folder walk")
struct FolderWalkTests {
    /// Judged by Foundation's enumerator, which the walk replaces: the same
    /// entries (hidden ones, nested folders, links listed and not followed,
    /// names with spaces and non-ASCII letters), and which are folders.
    @Test func listsWhatFoundationsEnumeratorLists_withFoldersMarked() throws {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("folder-walk-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: root) }
        for folder in ["a/b/c", "d", ".hidden-folder", "with space/é"] {
            try manager.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["top.md", ".hidden", "a/one.md", "a/b/two.yml", "a/b/c/three.json", "with space/é/café.md", ".hidden-folder/x"] {
            #expect(manager.createFile(atPath: root.appendingPathComponent(file).path, contents: Data("x".utf8)))
        }
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("d/link-to-a").path, withDestinationPath: "../a")
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("link-to-top.md").path, withDestinationPath: "top.md")

        let walked = FolderWalk.entries(under: root.path)
        let expected = (manager.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).sorted()
        #expect(walked.map(\.path).sorted() == expected)
        #expect(expected.count == 16)
        for entry in walked {
            let attributes = try manager.attributesOfItem(atPath: root.appendingPathComponent(entry.path).path)
            #expect(entry.isFolder == (attributes[.type] as? FileAttributeType == .typeDirectory), "\(entry.path)")
        }
        #expect(walked.first { $0.path == "d/link-to-a" }?.isFolder == false)
        #expect(FolderWalk.paths(under: root.appendingPathComponent("missing").path).isEmpty)
        #expect(FolderWalk.paths(under: root.appendingPathComponent("top.md").path).isEmpty)
    }
}
