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
        // Each folder of the top one walked as a task of its own: the same entries.
        for stamping in [false, true] {
            let inParallel = FolderWalk.entries(under: root.path, stamping: stamping, inParallel: true)
            #expect(inParallel.sorted { $0.path < $1.path } == FolderWalk.entries(under: root.path, stamping: stamping).sorted { $0.path < $1.path })
        }
        for entry in walked {
            let attributes = try manager.attributesOfItem(atPath: root.appendingPathComponent(entry.path).path)
            #expect(entry.isFolder == (attributes[.type] as? FileAttributeType == .typeDirectory), "\(entry.path)")
        }
        #expect(walked.first { $0.path == "d/link-to-a" }?.isFolder == false)
        #expect(FolderWalk.paths(under: root.appendingPathComponent("missing").path).isEmpty)
        #expect(FolderWalk.paths(under: root.appendingPathComponent("top.md").path).isEmpty)
    }

    /// Keying the inputs from a recorded key: a file whose stamp is the one
    /// recorded keeps the recorded digest unread (a planted digest shows
    /// it was not read), one whose stamp moved or that was written too close
    /// to the record is read; sizes and stamps as the walk and the reads say.
    @Test func keyingFromARecord_readsOnlyTheFilesWhoseStampMoved() throws {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("folder-walk-key-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: root) }
        try manager.createDirectory(at: root.appendingPathComponent("in/sub"), withIntermediateDirectories: true)
        let texts = ["a.md": "alpha", "b.md": "beta", "sub/c.md": "gamma!"]
        for (file, text) in texts { #expect(manager.createFile(atPath: root.appendingPathComponent("in/" + file).path, contents: Data(text.utf8))) }
        let project = Project(root: root.path, isGitWorkTree: false)
        let name = root.appendingPathComponent("in").path
        func path(_ file: String) -> String { name + "/" + file }
        let first = InputTree.onDisk([name], in: project).key(of: [name], recorded: [:], modifiedBefore: .max)
        #expect(first.moved == Set(texts.keys.map(path)))
        #expect(first.digests == Dictionary(uniqueKeysWithValues: texts.map { (path($0.key), Digest.sha256(Array($0.value.utf8))) }))
        #expect(first.sizes == Dictionary(uniqueKeysWithValues: texts.map { (path($0.key), $0.value.utf8.count) }))
        #expect(first.stamps.allSatisfy { $0.value.digest == first.digests[$0.key] && $0.value.sameFile(as: FileStamp.of($0.key)!) })
        var recorded = first.stamps
        recorded[path("a.md")]?.digest = "planted"
        let unread = InputTree.onDisk([name], in: project).key(of: [name], recorded: recorded, modifiedBefore: .max)
        #expect(unread.moved.isEmpty && unread.digests[path("a.md")] == "planted" && unread.digests[path("b.md")] == first.digests[path("b.md")])
        let racy = InputTree.onDisk([name], in: project).key(of: [name], recorded: recorded, modifiedBefore: 0)
        #expect(racy.moved.count == 3 && racy.digests == first.digests)
        try Data("beta, longer".utf8).write(to: URL(fileURLWithPath: path("b.md")))
        let edited = InputTree.onDisk([name], in: project).key(of: [name], recorded: recorded, modifiedBefore: .max)
        #expect(edited.moved == [path("b.md")] && edited.digests[path("a.md")] == "planted")
        #expect(edited.digests[path("b.md")] == Digest.sha256(Array("beta, longer".utf8)) && edited.sizes[path("b.md")] == 12)
    }

    /// Judged by `lstat` on each path: a stamping walk gives every regular
    /// file the stamp `FileStamp.of` gives it (size, times, inode), and
    /// none to a folder or a link; every walk marks which entries are
    /// regular files, as the folders' entries list them.
    @Test func aStampingWalk_stampsEachRegularFile_asLstatDoes() throws {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("folder-walk-stamps-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: root) }
        try manager.createDirectory(at: root.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        for (file, size) in [("top.md", 1), ("a/one.md", 10), ("a/b/two.yml", 1_000)] {
            #expect(manager.createFile(atPath: root.appendingPathComponent(file).path, contents: Data(repeating: 0x61, count: size)))
        }
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("a/link.md").path, withDestinationPath: "one.md")
        for stamping in [false, true] {
            for entry in FolderWalk.entries(under: root.path, stamping: stamping) {
                let stamp = FileStamp.of(root.appendingPathComponent(entry.path).path)
                #expect(entry.isFile == (stamp != nil), "\(entry.path)")
                #expect(entry.stamp == (stamping ? stamp : nil), "\(entry.path)")
            }
        }
        let stamped = FolderWalk.entries(under: root.path, stamping: true)
        #expect(stamped.first { $0.path == "a/b/two.yml" }?.stamp?.size == 1_000)
        #expect(stamped.first { $0.path == "a/link.md" }.map { $0.isLink && $0.stamp == nil } == true)
    }

    /// The order the inputs' key reads paths in, from the folders' sorted
    /// lists, is the byte order of the paths, whatever the folders' names
    /// (`site-a/` sorts before `site/`, though `site` sorts before `site-a`).
    @Test func theInputsKeyOrder_fromTheFoldersLists_isTheBytesOrder() throws {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("digest-order-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: root) }
        for file in ["site/a.md", "site/b/c.md", "site-a/z.md", "site.b/y.md", "x/site/q.md"] {
            try manager.createDirectory(at: root.appendingPathComponent(file).deletingLastPathComponent(), withIntermediateDirectories: true)
            #expect(manager.createFile(atPath: root.appendingPathComponent(file).path, contents: Data(file.utf8)))
        }
        let project = Project(root: root.path, isGitWorkTree: false)
        for folders in [["site", "site-a", "site.b"], ["site.b", "site", "site-a", "x"], ["x", "x/site"], ["site"]] {
            let tree = InputTree.onDisk(folders.map { root.appendingPathComponent($0).path }, in: project)
            let names = folders.map { root.appendingPathComponent($0).path }
            let digests = tree.fileDigests(of: names)
            #expect(tree.digestOrder(of: names, digests: digests) == InputTree.digestOrder(digests), "\(folders)")
        }
    }
}
