import Diagnostics
import Foundation

/// The rules every build checks before it reads anything: folders named on
/// the command line exist, the output is not inside an input (a build would
/// publish its own output, and `serve` would rebuild forever) nor an input
/// inside the output, and no source reaches outside its folder through a
/// symbolic link. One rule, the same for pages, examples and static files.
public enum InputFolders {
    /// Problems with `options`' folders, each at the folder it names.
    public static func problems(_ options: BuildOptions) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let manager = FileManager.default
        func at(_ path: String) -> SourceLocation { SourceLocation(file: path, line: 1, column: 1) }
        for (flag, path) in options.namedFolders.sorted(by: { $0.key < $1.key }) {
            var isFolder: ObjCBool = false
            if !manager.fileExists(atPath: path, isDirectory: &isFolder) {
                problems.append(.error("no-such-folder", at: at(path), "there is no folder '\(path)' (given as --\(flag))"))
            } else if !isFolder.boolValue {
                problems.append(.error("no-such-folder", at: at(path), "'\(path)' is a file, not a folder (given as --\(flag))"))
            } else if !manager.isReadableFile(atPath: path) {
                problems.append(.error("unreadable-folder", at: at(path), "cannot read the folder '\(path)' (given as --\(flag)): permission denied"))
            }
        }
        for (flag, path) in [("site", options.site), ("examples", options.examples), ("templates", options.templates)] {
            // A folder that is a symbolic link out of the project would
            // publish whatever it leads to (a pull request can add one).
            let project = Paths.project(of: path)
            if manager.fileExists(atPath: path), !Paths.isInside(path, folder: project, orIsIt: true) {
                problems.append(.error("link-outside", at: at(path),
                                       "--\(flag) '\(path)' leads to \(Paths.real(path)), outside the project \(project); "
                                           + "only folders inside the project are read"))
                continue
            }
            if Paths.isInside(options.out, folder: path, orIsIt: true) {
                problems.append(.error("output-inside-input", at: at(options.out),
                                       "--out '\(options.out)' is inside --\(flag) '\(path)': the build would read its own output; write the site elsewhere"))
            } else if Paths.isInside(path, folder: options.out) {
                problems.append(.error("output-inside-input", at: at(options.out),
                                       "--out '\(options.out)' contains --\(flag) '\(path)': replacing the site would remove it; write the site elsewhere"))
            }
        }
        return problems
    }

    /// Whether `file`, found under `folder`, is really there: not reached
    /// through a symbolic link that leads out of the folder.
    public static func staysInside(_ file: String, folder: String) -> Bool {
        Paths.isInside(file, folder: folder)
    }

    /// The error for a source that leads out of its folder.
    public static func outside(_ file: String, folder: String) -> Diagnostic {
        .error("link-outside", at: SourceLocation(file: file, line: 1, column: 1),
               "this file leads outside \(folder)/ through a symbolic link; copy it in instead")
    }
}
