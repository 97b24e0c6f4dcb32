import Diagnostics
import Foundation

/// Where the tool may write, and how: every path it writes (the site and
/// its staging folders, the cache, `--report`, `--summary`, what `init`
/// makes) goes through here. Inside the project no part of the path may be
/// a symbolic link (a pull request can commit `.build -> ../outside` or
/// `_site -> ~/.ssh`): each folder on the way is checked with `lstat` and
/// made when missing, and a file is opened with `O_NOFOLLOW`. Outside the
/// project, the path is the one the user named, resolved as the system
/// resolves it.
public enum WritePath {
    /// `path` (as given) made ready to write: every folder on the way is
    /// there and none inside the project is a link, nor is `path` itself.
    /// Returns the path to write at, absolute.
    /// - Throws: an error located at `path` naming the link.
    public static func prepare(_ path: String, in project: Project, makingFolders: Bool = true) throws(Diagnostic) -> String {
        let here = SourceLocation(file: path, line: 1, column: 1)
        guard let parts = project.parts(of: path) else {
            // The user's own choice: made as asked, links followed.
            let absolute = Paths.lexical(path)
            let parent = (absolute as NSString).deletingLastPathComponent
            if makingFolders { try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) }
            return (Paths.real(parent) as NSString).appendingPathComponent((absolute as NSString).lastPathComponent)
        }
        guard !parts.isEmpty else {
            throw .error("output", at: here, "'\(path)' is the project's own folder; name a file or folder inside it")
        }
        var current = project.root
        for (index, part) in parts.enumerated() {
            current = current == "/" ? "/" + part : current + "/" + part
            let isLast = index == parts.count - 1
            var status = stat()
            if lstat(current, &status) != 0 {
                guard errno == ENOENT else {
                    throw .error("output", at: here, "cannot use '\(parts[...index].joined(separator: "/"))': \(String(cString: strerror(errno)))")
                }
                if isLast { break }
                guard makingFolders, mkdir(current, 0o777) == 0 || errno == EEXIST else {
                    throw .error("output", at: here, "cannot make the folder '\(parts[...index].joined(separator: "/"))': \(String(cString: strerror(errno)))")
                }
                // Made by someone else meanwhile: checked again.
                guard lstat(current, &status) == 0 else { continue }
            }
            switch status.st_mode & S_IFMT {
            case S_IFLNK:
                throw .error("symbolic-link", at: here,
                             "'\(parts[...index].joined(separator: "/"))' is a symbolic link; inside the project Rowmotion writes only "
                                 + "through folders, never through a link (a pull request can commit one): remove it")
            case S_IFDIR:
                continue
            default:
                if isLast { continue }
                throw .error("output", at: here, "'\(parts[...index].joined(separator: "/"))' is a file, not a folder")
            }
        }
        return current
    }

    /// Writes `bytes` as the file at `path` (as given), replacing it
    /// atomically: a new file beside it, renamed over it. Never through a
    /// link inside the project.
    /// - Throws: an error located at `path`, in the system's words.
    /// - Parameter what: what the file is, for messages (`the report`).
    public static func write(_ bytes: [UInt8], to path: String, in project: Project, what: String? = nil) throws(Diagnostic) {
        try write(parts: [bytes[...]], to: path, in: project, what: what)
    }

    /// The same, the file's bytes given in parts, written one after the
    /// other (a file patched from an earlier one's runs is never joined in memory).
    public static func write(parts: [ArraySlice<UInt8>], to path: String, in project: Project, what: String? = nil) throws(Diagnostic) {
        let target = try prepare(path, in: project)
        let here = SourceLocation(file: path, line: 1, column: 1)
        let named = what ?? "'\(path)'"
        var status = stat()
        if lstat(target, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw .error("output", at: here, "cannot write \(named): it is a folder")
        }
        let temporary = (target as NSString).deletingLastPathComponent + "/.\((target as NSString).lastPathComponent).rowmotion-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard writeNewFile(parts: parts, to: temporary) else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .error("output", at: here, "cannot write \(named): \(reason.lowercased())")
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .error("output", at: here, "cannot write \(named): \(reason.lowercased())")
        }
    }

    /// Writes a file with `open(2)` and `write(2)`, never through a link
    /// at `path` (`O_NOFOLLOW`): a new one (`O_EXCL`, never over another
    /// file), or, `replacing`, one that may be there already.
    public static func writeNewFile(_ bytes: [UInt8], to path: String, replacing: Bool = false) -> Bool {
        writeNewFile(parts: [bytes[...]], to: path, replacing: replacing)
    }

    /// The same, the file's bytes given in parts.
    public static func writeNewFile(parts: [ArraySlice<UInt8>], to path: String, replacing: Bool = false) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | (replacing ? O_TRUNC : O_EXCL) | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return false }
        return writeAll(parts, to: descriptor)
    }
}

/// Every byte to an open file, then closed: outside `WritePath`, whose own
/// `write` would shadow `write(2)`.
private func writeAll(_ parts: [ArraySlice<UInt8>], to descriptor: Int32) -> Bool {
    let written = parts.allSatisfy { part in
        part.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }
    return close(descriptor) == 0 && written
}
