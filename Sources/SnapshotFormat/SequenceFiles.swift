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
        /// Whether a link there is followed: a file named on the command
        /// line outside the project (inside it, every input is read as a
        /// regular file, never through a link).
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
                switch InputTree.namedFile(path, in: project) {
                case .success(let follows): found.append(Found(path: path, named: follows))
                case .failure(let problem): problems.append(problem)
                }
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
