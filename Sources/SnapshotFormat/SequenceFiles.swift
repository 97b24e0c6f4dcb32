import Diagnostics
import Foundation
import ListDiff
import ProjectFiles

/// The files a list of paths names: a file as given (the user's own
/// choice, read as the system finds it), a folder's snapshot sequences as
/// a build lists its inputs (`InputTree`: the files git would track, no
/// link followed, no hidden path), in a stable order.
public enum SequenceFiles {
    public struct Found: Sendable, Equatable {
        public var path: String
        /// Named on the command line itself (a link there is followed).
        public var named: Bool
    }

    public static func collect(_ paths: [String], in project: Project) -> (found: [Found], problems: [Diagnostic]) {
        var found: [Found] = []
        var problems: [Diagnostic] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                problems.append(.error("no-such-file", at: SourceLocation(file: path, line: 1, column: 1), "no such file or folder"))
                continue
            }
            guard isFolder.boolValue else {
                found.append(Found(path: path, named: true))
                continue
            }
            let folder = InputTree.onDisk([path], in: project)[path]
            problems += folder.problems
            for file in folder.files where SnapshotReader.extensions.contains((file as NSString).pathExtension.lowercased()) {
                found.append(Found(path: folder.path(of: file), named: false))
            }
        }
        return (found, problems)
    }
}
