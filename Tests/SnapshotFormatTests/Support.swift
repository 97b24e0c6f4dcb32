import Foundation
import ListDiff
import SeededRandom
@testable import SnapshotFormat
import Testing

/// The repository's root, found from this file's place in it.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
let examplesFolder = repositoryRoot.appendingPathComponent("examples")

/// Reads a snapshot file written inline; `name` decides the format.
func read(_ text: String, name: String = "test.yml") -> (sequence: SnapshotSequence?, diagnostics: [String]) {
    let (sequence, diagnostics) = SnapshotReader.read(bytes: Array(text.utf8), file: name)
    return (sequence, diagnostics.map(\.description))
}

/// The files of a folder with the given extensions, sorted.
func files(in folder: URL, extensions: Set<String>) -> [URL] {
    ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
        .filter { extensions.contains($0.pathExtension) }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
}
