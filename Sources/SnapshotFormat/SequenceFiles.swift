import Diagnostics
import Foundation
import ListDiff

/// The files a list of paths names: files as given, folders walked for
/// snapshot sequences, in a stable order.
public enum SequenceFiles {
    public static func collect(_ paths: [String]) -> (found: [String], problems: [Diagnostic]) {
        var found: [String] = []
        var problems: [Diagnostic] = []
        let manager = FileManager.default
        for path in paths {
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isFolder) else {
                problems.append(.error("no-such-file", at: SourceLocation(file: path, line: 1, column: 1), "no such file or folder"))
                continue
            }
            guard isFolder.boolValue else {
                found.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let children = FolderWalk.paths(under: path)
                .filter { SnapshotReader.extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted()
            found.append(contentsOf: children.map { "\(base)/\($0)" })
        }
        return (found, problems)
    }
}
