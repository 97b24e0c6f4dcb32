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
            // A file found in a folder is read only if it is really there:
            // a symbolic link out of the folder (`a.yml -> /etc/passwd`,
            // which a pull request can add) is an error, never read.
            let root = realPath(path)
            for child in children.map({ "\(base)/\($0)" }) {
                if let root, let target = realPath(child), !target.hasPrefix(root == "/" ? "/" : root + "/") {
                    problems.append(.error("link-outside", at: SourceLocation(file: child, line: 1, column: 1),
                                           "this file leads outside \(base)/ through a symbolic link; copy it in instead"))
                    continue
                }
                found.append(child)
            }
        }
        return (found, problems)
    }

    /// `path` with every symbolic link followed; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
