import Dispatch
import Foundation

/// The `git` command line, run in a repository: what it tracks, and what a
/// revision holds.
public enum Git {
    /// Why git could not do what was asked, in git's own words.
    public struct Failure: Error, Sendable {
        public var message: String
    }

    /// What one run of git gave.
    public struct Result: Sendable {
        public var output: [UInt8]
        public var error: String
        public var status: Int32
        /// The output as text.
        public var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs `git` with `arguments` in `folder`, `input` on its standard
    /// input; nil when git cannot be started. Its input is written, and its
    /// error read, while its output is read, so no pipe can fill and stall it.
    public static func run(_ arguments: [String], in folder: String? = nil, input: [UInt8]? = nil) -> Result? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        // Never a prompt, never a pager, whatever the user's settings.
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_PAGER"] = "cat"
        process.environment = environment
        let output = Pipe(), errors = Pipe(), feed = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input == nil ? FileHandle.nullDevice : feed
        do { try process.run() } catch { return nil }
        let group = DispatchGroup()
        nonisolated(unsafe) var errorBytes = Data()
        DispatchQueue.global().async(group: group) { errorBytes = errors.fileHandleForReading.readDataToEndOfFile() }
        if let input {
            DispatchQueue.global().async(group: group) {
                try? feed.fileHandleForWriting.write(contentsOf: input)
                try? feed.fileHandleForWriting.close()
            }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(output: [UInt8](data), error: String(decoding: errorBytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                      status: process.terminationStatus)
    }

    /// A failure saying which command failed and what git said.
    static func failed(_ what: String, _ result: Result?) -> Failure {
        guard let result else { return Failure(message: "git could not be started") }
        return Failure(message: "`git \(what)` failed (exit \(result.status))" + (result.error.isEmpty ? "" : ": \(result.error)"))
    }

    /// An entry of the index or of a tree: its mode (`100644`, `100755`,
    /// `120000` a symbolic link, `160000` a submodule) and its path.
    public struct Entry: Sendable, Equatable {
        public var mode: String
        public var object: String
        public var path: String
        /// Whether the path's bytes are UTF-8 (else `path` shows them
        /// with U+FFFD, and names no file).
        public var isUTF8 = true
    }

    /// A path as git wrote it, and whether its bytes are UTF-8.
    static func path(_ bytes: ArraySlice<UInt8>) -> (String, Bool) {
        if let text = String(validating: bytes, as: UTF8.self) { return (text, true) }
        return (String(decoding: bytes, as: UTF8.self), false)
    }

    /// `pathspecs` (paths relative to `root`, each matching itself and
    /// what is under it) as literal pathspecs: a name with `*` is a name.
    static func literal(_ pathspecs: [String]) -> [String] {
        pathspecs.map { ":(literal)" + ($0.isEmpty ? "." : $0) }
    }

    /// The files the index tracks under `pathspecs`, with their modes.
    public static func trackedFiles(root: String, under pathspecs: [String]) throws(Failure) -> [Entry] {
        let result = run(["ls-files", "-z", "--stage", "--"] + literal(pathspecs), in: root)
        guard let result, result.status == 0 else { throw failed("ls-files --stage", result) }
        // `<mode> <object> <stage>\t<path>\0`; a conflicted path has a line per stage.
        var entries: [Entry] = []
        var seen = Set<String>()
        for record in result.output.split(separator: 0) {
            guard let tab = record.firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let fields = record[..<tab].split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            let (path, isUTF8) = Self.path(record[(tab + 1)...])
            guard fields.count == 3, seen.insert(path).inserted || !isUTF8 else { continue }
            entries.append(Entry(mode: fields[0], object: fields[1], path: path, isUTF8: isUTF8))
        }
        return entries
    }

    /// The files under `pathspecs` that git does not track and does not
    /// ignore (a page written a minute ago); a folder that is a repository
    /// of its own is listed as its path with a `/` at the end.
    public static func untrackedFiles(root: String, under pathspecs: [String]) throws(Failure) -> [Entry] {
        let result = run(["ls-files", "-z", "--others", "--exclude-standard", "--"] + literal(pathspecs), in: root)
        guard let result, result.status == 0 else { throw failed("ls-files --others", result) }
        return result.output.split(separator: 0).map { record in
            let (path, isUTF8) = Self.path(record)
            return Entry(mode: "", object: "", path: path, isUTF8: isUTF8)
        }
    }

    /// The full commit id of `revision`, or nil when the repository has no
    /// such commit. A revision is never read as an option (`--output=x`).
    public static func commit(_ revision: String, root: String) -> String? {
        guard !revision.hasPrefix("-"), let result = run(["rev-parse", "--verify", "--quiet", "--end-of-options", "\(revision)^{commit}"], in: root),
              result.status == 0 else { return nil }
        let id = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty ? nil : id
    }

    /// The entries of `commit`'s tree under `pathspecs` (relative to the
    /// repository's top), files and submodules, recursively.
    public static func tree(_ commit: String, root: String, under pathspecs: [String]) throws(Failure) -> [Entry] {
        let result = run(["ls-tree", "-r", "-z", "--full-tree", commit, "--"] + literal(pathspecs), in: root)
        guard let result, result.status == 0 else { throw failed("ls-tree", result) }
        // `<mode> <type> <object>\t<path>\0`.
        var entries: [Entry] = []
        for record in result.output.split(separator: 0) {
            guard let tab = record.firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let fields = record[..<tab].split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count == 3 else { continue }
            let (path, isUTF8) = Self.path(record[(tab + 1)...])
            entries.append(Entry(mode: fields[0], object: fields[2], path: path, isUTF8: isUTF8))
        }
        return entries
    }

    /// The bytes of each blob, in the order asked, read with one `git
    /// cat-file --batch`; a blob larger than `limit` is refused by its
    /// size before its bytes are kept.
    public static func blobs(_ objects: [String], root: String, limit: Int) throws(Failure) -> [[UInt8]] {
        guard !objects.isEmpty else { return [] }
        // Sizes first: a blob past the limit is named, not read.
        let sizes = run(["cat-file", "--batch-check"], in: root, input: Array(objects.map { $0 + "\n" }.joined().utf8))
        guard let sizes, sizes.status == 0 else { throw failed("cat-file --batch-check", sizes) }
        var total = 0
        for (object, line) in zip(objects, sizes.text.split(separator: "\n")) {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let size = Int(fields[2]) else { throw Failure(message: "`git cat-file` answered '\(line)' for \(object)") }
            total += size
            if total > limit { throw Failure(message: "the revision's files pass \(ByteCount.describe(Int64(limit))) together, the limit for inputs") }
        }
        let batch = run(["cat-file", "--batch"], in: root, input: Array(objects.map { $0 + "\n" }.joined().utf8))
        guard let batch, batch.status == 0 else { throw failed("cat-file --batch", batch) }
        // `<object> blob <size>\n<bytes>\n` each.
        let bytes = batch.output
        var offset = 0
        var contents: [[UInt8]] = []
        contents.reserveCapacity(objects.count)
        for object in objects {
            guard let newline = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) else { throw Failure(message: "`git cat-file` ended early") }
            let header = String(decoding: bytes[offset..<newline], as: UTF8.self).split(separator: " ")
            guard header.count == 3, header[1] == "blob", let size = Int(header[2]), newline + 1 + size <= bytes.count else {
                throw Failure(message: "`git cat-file` answered '\(header.joined(separator: " "))' for \(object)")
            }
            contents.append(Array(bytes[(newline + 1)..<(newline + 1 + size)]))
            offset = newline + 1 + size + 1
        }
        return contents
    }
}
