import Diagnostics
import Foundation
import ProjectFiles

/// The rules every build checks before it reads anything: folders named on
/// the command line exist, the output is not inside an input (a build would
/// publish its own output, and `serve` would rebuild forever) nor an input
/// inside the output, and what the listing of the inputs refused (links,
/// submodules, names a site cannot hold: `InputTree`).
public enum InputFolders {
    /// Problems with `options`' folders, each at the folder it names, then
    /// those of `tree`'s listing.
    public static func problems(_ options: BuildOptions, tree: InputTree) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        func at(_ path: String) -> SourceLocation { SourceLocation(file: path, line: 1, column: 1) }
        for (flag, path) in options.namedFolders.sorted(by: { $0.key < $1.key }) where !tree[path].exists && tree[path].problems.isEmpty {
            var isFolder: ObjCBool = false
            if !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                problems.append(.error("no-such-folder", at: at(path), "there is no folder '\(path)' (given as --\(flag))"))
            } else if !isFolder.boolValue {
                problems.append(.error("no-such-folder", at: at(path), "'\(path)' is a file, not a folder (given as --\(flag))"))
            } else {
                problems.append(.error("unreadable-folder", at: at(path), "cannot read the folder '\(path)' (given as --\(flag))"))
            }
        }
        for (flag, path) in [("site", options.site), ("examples", options.examples), ("templates", options.templates)] {
            if Paths.isInside(options.out, folder: path, orIsIt: true) {
                problems.append(.error("output-inside-input", at: at(options.out),
                                       "--out '\(options.out)' is inside --\(flag) '\(path)': the build would read its own output; write the site elsewhere"))
            } else if Paths.isInside(path, folder: options.out) {
                problems.append(.error("output-inside-input", at: at(options.out),
                                       "--out '\(options.out)' contains --\(flag) '\(path)': replacing the site would remove it; write the site elsewhere"))
            }
        }
        for folder in options.inputFolders { problems += tree[folder].problems }
        return problems
    }
}
