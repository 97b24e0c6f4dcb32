import Diagnostics
import Foundation

/// The files a build reads, listed once before anything is read: in a git
/// work tree, the files git would track (`git ls-files --cached --others
/// --exclude-standard`: tracked, and new files not ignored); outside git,
/// a walk that enters no symbolic link and no hidden folder; for a
/// revision, its tree (`git ls-tree -r`), never the work tree.
///
/// What a pull request adds can name nothing else. Every input is a
/// regular file: a symbolic link or a submodule is an error naming its
/// path, wherever it leads (a link that stays inside the project, such as
/// `site -> .git`, is refused like one that leaves it), and no folder on
/// the way to an input is a link. Hidden paths (`.git`, `.DS_Store`, a
/// `.github` folder) are never inputs, at any depth.
public struct InputTree: Sendable {
    /// Every input file's path is at most this long, and so is the
    /// folder's; the file system refuses longer ones anyway.
    public static let pathBytes = 4_096
    /// The bytes of every input together: far past any documentation
    /// repository's (the Hugo docs' content is about 20 MB), and what a
    /// build may hold in memory.
    public static let totalBytes = 1 << 30

    /// Each folder asked for, by its name as given.
    public private(set) var folders: [String: InputFolder] = [:]
    /// Where the files came from, for messages: `the work tree`, `origin/main`.
    public let origin: String

    /// The folder named `name` as given (`site`, `../docs`), listed; an
    /// empty folder that does not exist when it was not asked for.
    public subscript(name: String) -> InputFolder {
        folders[name] ?? InputFolder(name: name, exists: false, files: [], problems: [], storage: .none)
    }

    /// Lists `folders` (as given on the command line, relative to the
    /// working folder or absolute) on disk, in `project`.
    public static func onDisk(_ folders: [String], in project: Project) -> InputTree {
        var tree = InputTree(origin: "the work tree")
        var total = 0
        // One git listing for every folder of the project, in two runs.
        var inGit: [String: [String]] = [:]
        for name in folders where tree.folders[name] == nil {
            guard let parts = project.parts(of: name) else {
                // Outside the project: the folder the user named, as the
                // system resolves it; nothing below it is followed.
                tree.folders[name] = walk(name, base: Paths.real(name), total: &total)
                continue
            }
            switch checkFolders(parts, under: project.root, name: name) {
            case .missing:
                tree.folders[name] = InputFolder(name: name, exists: false, files: [], problems: [], storage: .none)
            case .refused(let problem):
                tree.folders[name] = InputFolder(name: name, exists: false, files: [], problems: [problem], storage: .none)
            case .folder(let base):
                if project.isGitWorkTree { inGit[name] = parts } else { tree.folders[name] = walk(name, base: base, total: &total) }
            }
        }
        if !inGit.isEmpty {
            for (name, folder) in listed(inGit, root: project.root, total: &total) { tree.folders[name] = folder }
        }
        if total > totalBytes { tree.refuseAll(total: total) }
        return tree
    }

    /// The folders of `revision` (already a full commit id), read from its
    /// tree into memory: nothing of the work tree is read.
    public static func atRevision(_ commit: String, named revision: String, folders: [String], in project: Project) throws(Git.Failure) -> InputTree {
        var tree = InputTree(origin: revision)
        var wanted: [(name: String, prefix: String)] = []
        for name in folders where !wanted.contains(where: { $0.name == name }) {
            guard let parts = project.parts(of: name) else {
                throw Git.Failure(message: "'\(name)' is outside the git repository at \(project.root), so the revision cannot say what it held")
            }
            wanted.append((name, parts.joined(separator: "/")))
        }
        let entries = try Git.tree(commit, root: project.root, under: wanted.map(\.prefix))
        var files: [String: [(relative: String, object: String)]] = [:]
        var problems: [String: [Diagnostic]] = [:]
        var present = Set<String>()
        var names: [String: Set<String>] = [:]
        for entry in entries {
            for (name, prefix) in wanted {
                guard let relative = relative(entry.path, to: prefix) else { continue }
                present.insert(name)
                let path = join(name, relative)
                guard names[name, default: []].insert(relative).inserted else {
                    problems[name, default: []].append(sameText(path))
                    continue
                }
                if relative.isEmpty || !isRegular(mode: entry.mode) || !entry.isUTF8 || !isPlainName(relative) {
                    if let problem = refusal(mode: entry.isUTF8 ? entry.mode : "100644", relative: relative, path: path, folder: name, origin: revision) {
                        problems[name, default: []].append(problem)
                    }
                    continue
                }
                files[name, default: []].append((relative, entry.object))
            }
        }
        // Each object once, in one batch for all folders.
        var objects: [String] = []
        var index: [String: Int] = [:]
        for list in files.values {
            for file in list where index[file.object] == nil {
                index[file.object] = objects.count
                objects.append(file.object)
            }
        }
        let contents = try Git.blobs(objects, root: project.root, limit: totalBytes)
        for (name, _) in wanted {
            let list = (files[name] ?? []).sorted { Paths.precedes($0.relative, $1.relative) }
            var bytes: [String: [UInt8]] = [:]
            for file in list { bytes[file.relative] = contents[index[file.object]!] }
            tree.folders[name] = InputFolder(name: name, exists: present.contains(name), files: list.map(\.relative),
                                             problems: problems[name] ?? [], storage: .memory(bytes))
        }
        return tree
    }

    /// What the build reads, as one key: the SHA-256 of a line per input
    /// file of `folders`, in the byte order of their paths, each line the
    /// path as builds name it (`site/a.md`), a NUL, the hex SHA-256 of the
    /// file's bytes, and a line feed. `serve`'s live events carry it, so a
    /// client that knows the files knows which event saw its last edit.
    public func digest(of folders: [String]) -> String {
        Self.digest(combining: fileDigests(of: folders))
    }

    /// Each input file's SHA-256 (hex), by its path as builds name it;
    /// those in `known` taken from it unless `changed` lists them (with no
    /// list, every file is read).
    public func fileDigests(of folders: [String], known: [String: String] = [:], changed: Set<String>? = nil) -> [String: String] {
        var sizes: [String: Int] = [:]
        return fileDigests(of: folders, known: known, changed: changed, sizes: &sizes)
    }

    /// The same, and each file's size in `sizes` (those read now set, the
    /// others kept, those no longer listed removed).
    public func fileDigests(of folders: [String], known: [String: String] = [:], changed: Set<String>?,
                            sizes: inout [String: Int]) -> [String: String] {
        var files: [(path: String, folder: InputFolder, relative: String)] = []
        var digests: [String: String] = [:]
        for name in folders {
            let folder = self[name]
            for relative in folder.files {
                let path = folder.path(of: relative)
                guard digests[path] == nil else { continue }
                if let changed, !changed.contains(path), let key = known[path] {
                    digests[path] = key
                } else {
                    digests[path] = ""
                    files.append((path, folder, relative))
                }
            }
        }
        let keys = Parallel.map(files) { file -> (key: String, size: Int) in
            (try? file.folder.read(file.relative, limit: nil)).map { (Digest.sha256($0), $0.count) } ?? ("unreadable", 0)
        }
        for (file, key) in zip(files, keys) {
            digests[file.path] = key.key
            sizes[file.path] = key.size
        }
        if sizes.count > digests.count { sizes = sizes.filter { digests[$0.key] != nil } }
        return digests
    }

    /// The key of `digest(of:)` from the files' digests.
    public static func digest(combining digests: [String: String], order: [String]? = nil) -> String {
        digest(order: order ?? digestOrder(digests)) { digests[$0]! }
    }

    /// The same, each path's digest given by `digest` (a stamp's, say).
    public static func digest(order: [String], _ digest: (String) -> String) -> String {
        var lines: [UInt8] = []
        lines.reserveCapacity(order.count * 96)
        for path in order {
            lines += path.utf8
            lines.append(0)
            lines += digest(path).utf8
            lines.append(UInt8(ascii: "\n"))
        }
        return Digest.sha256(lines)
    }

    /// The paths of `digests` in the order `digest(combining:)` reads them: by their bytes.
    public static func digestOrder(_ digests: [String: String]) -> [String] {
        digests.keys.sorted(by: Paths.precedes)
    }

    /// The same order, from the folders' file lists as the tree holds them
    /// (each sorted already): joined, and sorted only if the folders'
    /// names do not keep them in order.
    public func digestOrder(of folders: [String], digests: [String: String]) -> [String] {
        var order: [String] = []
        order.reserveCapacity(digests.count)
        var seen = Set<String>()
        for name in folders.sorted(by: { ($0 + "/").utf8.lexicographicallyPrecedes(($1 + "/").utf8) }) where seen.insert(name).inserted {
            let folder = self[name]
            for relative in folder.files { order.append(folder.path(of: relative)) }
        }
        let inOrder = order.count == digests.count
            && zip(order, order.dropFirst()).allSatisfy { Paths.precedes($0, $1) }
        return inOrder ? order : Self.digestOrder(digests)
    }

    /// The folder of the tree an input (`site/guide/a.md`, as builds name
    /// it) lies in, and its path under that folder; the deepest folder
    /// where one holds another.
    public func folder(holding path: String) -> (folder: InputFolder, relative: String)? {
        var best: (folder: InputFolder, relative: String)?
        for folder in folders.values {
            let prefix = folder.name.hasSuffix("/") ? folder.name : folder.name + "/"
            guard path.hasPrefix(prefix), best.map({ $0.folder.name.count < folder.name.count }) ?? true else { continue }
            best = (folder, String(path.dropFirst(prefix.count)))
        }
        return best
    }

    /// The bytes of every input file of `folders` (each file once), as
    /// listed: a site may make a multiple of what it reads.
    public func byteCount(of folders: [String]) -> Int {
        var seen = Set<String>()
        var total = 0
        for name in folders {
            let folder = self[name]
            for relative in folder.files where seen.insert(folder.path(of: relative)).inserted { total += folder.size(of: relative) ?? 0 }
        }
        return total
    }

    /// A file named on the command line (`rowmotion check examples/*.yml`
    /// names the pull request's files through a glob): inside the project it
    /// is held to every input's rules — no link on the way, not a link
    /// itself — and read without following one; outside, it is the user's
    /// own, read as the system finds it. Whether to follow a link, or why
    /// the file is refused.
    public static func namedFile(_ path: String, in project: Project) -> Result<Bool, Diagnostic> {
        guard let parts = project.parts(of: path), !parts.isEmpty else { return .success(true) }
        if case .refused(let problem) = checkFolders(Array(parts.dropLast()), under: project.root, name: path) {
            return .failure(problem)
        }
        var status = stat()
        if lstat((project.root == "/" ? "" : project.root) + "/" + parts.joined(separator: "/"), &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
            return .failure(symbolicLink(path))
        }
        return .success(false)
    }

    // MARK: - Listing

    enum FolderCheck {
        case folder(String)
        case missing
        case refused(Diagnostic)
    }

    /// Whether every part on the way from `root` is a folder itself (not a
    /// link to one): the folder's real path, or why not.
    static func checkFolders(_ parts: [String], under root: String, name: String) -> FolderCheck {
        var path = root
        for (index, part) in parts.enumerated() {
            path = path == "/" ? "/" + part : path + "/" + part
            var status = stat()
            guard lstat(path, &status) == 0 else { return .missing }
            let here = SourceLocation(file: name, line: 1, column: 1)
            let shown = parts[...index].joined(separator: "/")
            switch status.st_mode & S_IFMT {
            case S_IFDIR: continue
            case S_IFLNK:
                return .refused(.error("symbolic-link", at: here,
                                       "'\(shown)' is a symbolic link; a build reads only the files git tracks, through folders, never through a link"))
            default:
                return .refused(.error("no-such-folder", at: here, "'\(shown)' is a file, not a folder"))
            }
        }
        return .folder(path)
    }

    /// The folders of `inGit` (name → its parts under `root`) as git
    /// lists them, each file checked where it is.
    static func listed(_ inGit: [String: [String]], root: String, total: inout Int) -> [String: InputFolder] {
        let names = inGit.keys.sorted()
        let prefixes = names.map { inGit[$0]!.joined(separator: "/") }
        let tracked: [Git.Entry], untracked: [Git.Entry]
        do throws(Git.Failure) {
            tracked = try Git.trackedFiles(root: root, under: prefixes)
            untracked = try Git.untrackedFiles(root: root, under: prefixes)
        } catch {
            let failed = Diagnostic.error("git", at: SourceLocation(file: names[0], line: 1, column: 1),
                                          "cannot list the files git tracks here: \(error.message)")
            return Dictionary(uniqueKeysWithValues: names.map { ($0, InputFolder(name: $0, exists: true, files: [], problems: [failed], storage: .none)) })
        }
        var result: [String: InputFolder] = [:]
        for (name, prefix) in zip(names, prefixes) {
            let base = prefix.isEmpty ? root : (root == "/" ? "/" : root + "/") + prefix
            var files: [String] = []
            var stamps: [String: FileStamp] = [:]
            var problems: [Diagnostic] = []
            // Each folder on the way to a file is checked once: a folder
            // that is a link (made since the commit) hides its files.
            var folders: [String: Bool] = ["": true]
            func folderIsPlain(_ relative: String) -> Bool {
                let folder = OutputParent.of(relative)
                if let known = folders[folder] { return known }
                var plain = folderIsPlain(folder)
                if plain {
                    var status = stat()
                    let found = lstat(base + "/" + folder, &status) == 0
                    plain = found && status.st_mode & S_IFMT == S_IFDIR
                    if found && status.st_mode & S_IFMT == S_IFLNK {
                        problems.append(.error("symbolic-link", at: SourceLocation(file: join(name, folder), line: 1, column: 1),
                                               "this folder is a symbolic link; a build reads only the files git tracks, through folders, never through a link"))
                    }
                }
                folders[folder] = plain
                return plain
            }
            var names = Set<String>()
            func take(_ relative: String, mode: String?, isUTF8: Bool) {
                let path = join(name, relative)
                if relative.isEmpty || relative.hasSuffix("/") || (mode.map { !isRegular(mode: $0) } ?? false) || !isUTF8 || !isPlainName(relative) {
                    if let problem = refusal(mode: !isUTF8 ? "100644" : mode ?? (relative.hasSuffix("/") ? "160000" : "100644"),
                                             relative: relative, path: path, folder: name, origin: "the work tree") {
                        problems.append(problem)
                    }
                    return
                }
                guard folderIsPlain(relative) else { return }
                guard names.insert(relative).inserted else {
                    problems.append(sameText(path))
                    return
                }
                // What is there now: a tracked file deleted since is not
                // an input; one replaced by a link is refused.
                var status = stat()
                guard lstat(base + "/" + relative, &status) == 0 else { return }
                switch status.st_mode & S_IFMT {
                case S_IFREG:
                    total += Int(status.st_size)
                    stamps[relative] = FileStamp(status)
                    files.append(relative)
                case S_IFLNK:
                    problems.append(symbolicLink(path))
                case S_IFDIR:
                    return
                default:
                    // A pipe or a device: reading it says why it is refused.
                    files.append(relative)
                }
            }
            for entry in tracked {
                if let relative = relative(entry.path, to: prefix) { take(relative, mode: entry.mode, isUTF8: entry.isUTF8) }
            }
            for entry in untracked {
                if let relative = relative(entry.path, to: prefix) { take(relative, mode: nil, isUTF8: entry.isUTF8) }
            }
            files.sort(by: Paths.precedes)
            result[name] = InputFolder(name: name, exists: true, files: files, problems: problems, storage: .disk(base), stamps: stamps)
        }
        return result
    }

    /// A folder outside git (or outside the project), walked: links are
    /// refused, hidden entries neither listed nor entered.
    static func walk(_ name: String, base: String, total: inout Int) -> InputFolder {
        var status = stat()
        guard stat(base, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            return InputFolder(name: name, exists: false, files: [], problems: [], storage: .none)
        }
        var files: [String] = []
        var problems: [Diagnostic] = []
        var names = Set<String>()
        var stamps: [String: FileStamp] = [:]
        for entry in FolderWalk.entries(under: base, enteringHidden: false, stamping: true, inParallel: true).sorted(by: { Paths.precedes($0.path, $1.path) }) {
            // (The walk neither lists nor enters a hidden name.)
            if entry.isBadName {
                if let problem = refusal(mode: "100644", relative: entry.path, path: join(name, entry.path), folder: name, origin: "") {
                    problems.append(problem)
                }
            } else if !names.insert(entry.path).inserted {
                problems.append(sameText(join(name, entry.path)))
            } else if entry.isLink {
                problems.append(symbolicLink(join(name, entry.path)))
            } else if !entry.isFolder {
                guard isPlainName(entry.path) else {
                    if let problem = refusal(mode: "100644", relative: entry.path, path: join(name, entry.path), folder: name, origin: "") {
                        problems.append(problem)
                    }
                    continue
                }
                total += Int(entry.stamp?.size ?? 0)
                stamps[entry.path] = entry.stamp
                files.append(entry.path)
            }
        }
        files.sort(by: Paths.precedes)
        problems.sort { $0.location.file.utf8.lexicographicallyPrecedes($1.location.file.utf8) }
        return InputFolder(name: name, exists: true, files: files, problems: problems, storage: .disk(base), stamps: stamps)
    }

    /// Past the total: no folder's files are read, and the first folder says why.
    mutating func refuseAll(total: Int) {
        let names = folders.keys.sorted()
        for (index, name) in names.enumerated() {
            var folder = folders[name]!
            folder.files = []
            if index == 0 {
                folder.problems.append(.error("inputs-too-large", at: SourceLocation(file: name, line: 1, column: 1),
                                              "the input files pass \(ByteCount.describe(Int64(InputTree.totalBytes))) together "
                                                  + "(\(ByteCount.describe(Int64(total)))), the limit for a build's inputs"))
            }
            folders[name] = folder
        }
    }

    // MARK: - Names

    /// `path` relative to `prefix` (the folder's path under the root, or
    /// empty for the root): nil when it is not under it; empty for the
    /// prefix itself. A hidden part anywhere below is not an input.
    static func relative(_ path: String, to prefix: String) -> String? {
        let rest: Substring
        if prefix.isEmpty { rest = Substring(path) } else if path == prefix { return "" } else {
            guard path.hasPrefix(prefix + "/") else { return nil }
            rest = path.dropFirst(prefix.count + 1)
        }
        return rest.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0.hasPrefix(".") }) ? nil : String(rest)
    }

    /// Whether a mode is a plain file's (executable or not).
    static func isRegular(mode: String) -> Bool { mode == "100644" || mode == "100755" }

    /// Whether a relative path can be a file of the site as it is: no
    /// backslash (a browser reads `\\host\x` as `//host/x`), no control
    /// character, and not longer than a path may be.
    static func isPlainName(_ relative: String) -> Bool {
        guard relative.utf8.count <= pathBytes else { return false }
        // Printable ASCII without a backslash, as most names are, needs no Unicode property.
        if relative.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) { return true }
        return !relative.unicodeScalars.contains { $0 == "\\" || $0.properties.generalCategory == .control }
    }

    /// Why an entry is not an input: a link, a submodule, a name a site
    /// cannot hold; nil for a hidden one.
    static func refusal(mode: String, relative: String, path: String, folder: String, origin: String) -> Diagnostic? {
        let here = SourceLocation(file: relative.isEmpty ? folder : path, line: 1, column: 1)
        let whereFrom = origin.isEmpty || origin == "the work tree" ? "" : " at \(origin)"
        switch mode {
        case "120000":
            return relative.isEmpty
                ? .error("symbolic-link", at: here, "'\(folder)' is a symbolic link\(whereFrom); a build reads only the files git tracks, through folders, never through a link")
                : symbolicLink(path, whereFrom)
        case "160000":
            return .error("submodule", at: here, "this is a git submodule or a repository of its own\(whereFrom); "
                          + "a build reads only this repository's own files: copy the files in")
        default:
            if relative.isEmpty { return .error("no-such-folder", at: here, "'\(folder)' is a file\(whereFrom), not a folder") }
            let shown = TerminalText.escaped(String(path.prefix(200)))
            return .error("file-name", at: SourceLocation(file: shown, line: 1, column: 1),
                          "this file's name is not UTF-8, has a backslash or a control character, or is over \(pathBytes) bytes; "
                              + "a browser would read such a name as another address: rename it")
        }
    }

    /// A name that is the same text as another's in another Unicode form
    /// (`é` as one character or as `e` and a combining accent): two files
    /// on disk, one name to everything that reads them.
    static func sameText(_ path: String) -> Diagnostic {
        .error("file-name", at: SourceLocation(file: TerminalText.escaped(String(path.prefix(200))), line: 1, column: 1),
               "this file's name is the same text as another file's, written with other Unicode characters (composed and "
                   + "decomposed accents): the site could hold only one of them; rename one")
    }

    static func symbolicLink(_ path: String, _ whereFrom: String = "") -> Diagnostic {
        .error("symbolic-link", at: SourceLocation(file: path, line: 1, column: 1),
               "this file is a symbolic link\(whereFrom); a build reads only regular files (commit the file itself, not a link to it)")
    }

    /// `folder/relative`, as diagnostics and builds name an input.
    static func join(_ folder: String, _ relative: String) -> String {
        relative.isEmpty ? folder : (folder.hasSuffix("/") ? folder + relative : folder + "/" + relative)
    }
}

/// One folder of a build's inputs: its regular files, by their paths
/// relative to it (sorted by bytes), and what was refused in it.
public struct InputFolder: Sendable {
    /// The folder as it was named (`site`), which every input's path starts with.
    public let name: String
    /// Whether the folder is there at all.
    public let exists: Bool
    public internal(set) var files: [String]
    /// Links, submodules and names refused, each at its path.
    public internal(set) var problems: [Diagnostic]
    let storage: Storage
    /// Each file's stamp as the walk that listed it took it (on disk only).
    let stamps: [String: FileStamp]

    enum Storage: Sendable {
        case none
        /// On disk under this real path.
        case disk(String)
        /// Read from a revision, by relative path.
        case memory([String: [UInt8]])
    }

    init(name: String, exists: Bool, files: [String], problems: [Diagnostic], storage: Storage, stamps: [String: FileStamp] = [:]) {
        (self.name, self.exists, self.files, self.problems, self.storage, self.stamps) = (name, exists, files, problems, storage, stamps)
    }

    /// An input's path as diagnostics name it: `site/guide/a.md`.
    public func path(of relative: String) -> String { InputTree.join(name, relative) }

    /// Whether `relative`, its bytes, is one of the folder's files (not
    /// only the same text: `café` composed is not `café` decomposed to the
    /// file system, as it is to `String`).
    public func holds(_ relative: String) -> Bool {
        var low = 0, high = files.count
        while low < high {
            let middle = (low + high) / 2
            if files[middle].utf8.elementsEqual(relative.utf8) { return true }
            if Paths.precedes(files[middle], relative) { low = middle + 1 } else { high = middle }
        }
        return false
    }

    /// Whether `relative` is one of the folder's files.
    public func contains(_ relative: String) -> Bool {
        var low = 0, high = files.count
        while low < high {
            let middle = (low + high) / 2
            if files[middle] == relative { return true }
            if Paths.precedes(files[middle], relative) { low = middle + 1 } else { high = middle }
        }
        return false
    }

    /// Whether files lie under `relative` as a folder.
    public func hasFolder(_ relative: String) -> Bool {
        let prefix = relative + "/"
        var low = 0, high = files.count
        while low < high {
            let middle = (low + high) / 2
            if Paths.precedes(files[middle], prefix) { low = middle + 1 } else { high = middle }
        }
        return low < files.count && files[low].hasPrefix(prefix)
    }

    /// The bytes of the file at `relative` (one of `files`), at most
    /// `limit` of them: opened without following a link (the folders on
    /// the way were checked when it was listed).
    public func read(_ relative: String, limit: Int?) throws(FileContents.Failure) -> [UInt8] {
        switch storage {
        case .none:
            throw FileContents.Failure(message: "cannot read the file: it does not exist")
        case .memory(let bytes):
            guard let content = bytes[relative] else { throw FileContents.Failure(message: "cannot read the file: it does not exist") }
            if let limit, content.count > limit {
                throw FileContents.Failure(message: "the file is \(ByteCount.exactly(Int64(content.count))); files are limited to \(ByteCount.exactly(Int64(limit)))",
                                           tooLarge: true)
            }
            return content
        case .disk(let base):
            return try FileContents.read(base + "/" + relative, limit: limit, followingLink: false)
        }
    }

    /// Where the file at `relative` is on disk; nil for a revision's.
    public func diskPath(of relative: String) -> String? {
        if case .disk(let base) = storage { return base + "/" + relative }
        return nil
    }

    /// The size of the file at `relative`, without reading it.
    public func size(of relative: String) -> Int? {
        switch storage {
        case .none: return nil
        case .memory(let bytes): return bytes[relative]?.count
        case .disk(let base): return FileContents.size(ofEntry: base + "/" + relative).map(Int.init)
        }
    }
}

/// The parent of a `/`-separated path (`a/b` → `a`, `a` → ``). On the
/// `/` byte, not through `FilePath`: called per file in per-site loops,
/// where a `FilePath` made and read back per call costs more than the walk.
public enum OutputParent {
    public static func of(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }
}

/// What `lstat` says of an input file, and its SHA-256: the build cache
/// keeps one per input so that the next build reads only the files whose
/// stamp moved (see `BuildCache.files`).
public struct FileStamp: Equatable, Sendable {
    public var size: Int64
    /// Modification and change times, in nanoseconds.
    public var modified: Int64
    public var changed: Int64
    public var inode: UInt64
    public var digest: String

    public init(size: Int64, modified: Int64, changed: Int64, inode: UInt64, digest: String = "") {
        (self.size, self.modified, self.changed, self.inode, self.digest) = (size, modified, changed, inode, digest)
    }

    /// As the cache file writes it; nil when a number is not one.
    public init?(size: String, modified: String, changed: String, inode: String, digest: String) {
        guard let size = Int64(size), let modified = Int64(modified), let changed = Int64(changed), let inode = UInt64(inode) else { return nil }
        self.init(size: size, modified: modified, changed: changed, inode: inode, digest: digest)
    }

    /// The stamp of the plain file at `path`; nil for anything else.
    public static func of(_ path: String) -> FileStamp? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return FileStamp(status)
    }

    /// What `status` says of a plain file; nil for anything else.
    init?(_ status: stat) {
        guard status.st_mode & S_IFMT == S_IFREG else { return nil }
        #if os(Linux)
        let (modified, changed) = (status.st_mtim, status.st_ctim)
        #else
        let (modified, changed) = (status.st_mtimespec, status.st_ctimespec)
        #endif
        self.init(size: Int64(status.st_size), modified: Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec),
                  changed: Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec), inode: UInt64(status.st_ino))
    }

    /// Whether `other` is the same file, not written since, as far as its
    /// inode, size and modification time tell (a hard link to it, which
    /// changes its change time, is still the same).
    public func sameContent(as other: FileStamp) -> Bool {
        size == other.size && modified == other.modified && inode == other.inode
    }

    /// Whether `other` is the same file as far as stamps tell (digests aside).
    public func sameFile(as other: FileStamp) -> Bool {
        size == other.size && modified == other.modified && changed == other.changed && inode == other.inode
    }
}

extension InputTree {
    /// What `key(of:recorded:modifiedBefore:)` finds.
    public struct Keyed: Sendable {
        /// Each file's stamp, with its digest.
        public var stamps: [String: FileStamp]
        /// The files whose stamp is not the one recorded (or was taken too close to a write).
        public var moved: Set<String>
        public var digests: [String: String]
        /// Each file's size: as read, else as stamped.
        public var sizes: [String: Int]
        /// The bytes of the files read, when asked to keep them.
        public var bytes: [String: [UInt8]] = [:]
    }

    /// The inputs of `folders` keyed in one pass over their files, each
    /// stamp as the walk that listed it took it (a build that reads nothing
    /// stats each file once): a file whose stamp is the one `recorded`,
    /// and was neither modified nor changed after `modifiedBefore`
    /// (nanoseconds; git's racy-file rule), keeps the digest recorded;
    /// every other file is read now, on every core.
    public func key(of folders: [String], recorded: [String: FileStamp], modifiedBefore racy: Int64, keepingBytes: Bool = false) -> Keyed {
        let count = folders.reduce(0) { $0 + self[$1].files.count }
        var keyed = Keyed(stamps: .init(minimumCapacity: count), moved: [], digests: .init(minimumCapacity: count), sizes: .init(minimumCapacity: count))
        var toRead: [(path: String, folder: InputFolder, relative: String)] = []
        for name in folders {
            let folder = self[name]
            for relative in folder.files {
                let path = folder.path(of: relative)
                guard keyed.digests.updateValue("", forKey: path) == nil else { continue }
                if var stamp = folder.stamps[relative] {
                    if let seen = recorded[path], !seen.digest.isEmpty, seen.sameFile(as: stamp), max(stamp.modified, stamp.changed) < racy {
                        stamp.digest = seen.digest
                        (keyed.stamps[path], keyed.digests[path], keyed.sizes[path]) = (stamp, seen.digest, Int(stamp.size))
                        continue
                    }
                    keyed.stamps[path] = stamp
                    keyed.moved.insert(path)
                }
                toRead.append((path, folder, relative))
            }
        }
        let read = Parallel.map(toRead) { file -> (key: String, size: Int, bytes: [UInt8]?) in
            (try? file.folder.read(file.relative, limit: nil)).map { (Digest.sha256($0), $0.count, keepingBytes ? $0 : nil) } ?? ("unreadable", 0, nil)
        }
        if keepingBytes { keyed.bytes.reserveCapacity(toRead.count) }
        for (file, (key, size, bytes)) in zip(toRead, read) {
            (keyed.digests[file.path], keyed.sizes[file.path]) = (key, size)
            keyed.stamps[file.path]?.digest = key
            if let bytes { keyed.bytes[file.path] = bytes }
        }
        return keyed
    }
}

extension InputTree {
    /// One key for the listing of `folders` as stamped (each folder's real
    /// path, each file's path and stamp, what was refused) and `context`
    /// (the options a build's output depends on): a build whose listing
    /// has the seal the cache recorded has the inputs that cache's build
    /// read, file for file, without opening one. Nil when a file has no
    /// stamp (a revision's tree) or, with `settledBefore` (nanoseconds),
    /// when one was modified or changed after it: two saves within the
    /// file system's tick leave one stamp (git's racy-file rule).
    public func seal(of folders: [String], context: [String], settledBefore racy: Int64? = nil) -> String? {
        // A file not settled is found before anything is hashed (a build
        // after an edit has one, and needs no seal).
        if let racy {
            for name in folders {
                let folder = self[name]
                for relative in folder.files where folder.stamps[relative].map({ max($0.modified, $0.changed) >= racy }) ?? true { return nil }
            }
        }
        var hasher = Digest.Hasher()
        for part in context { hasher.add(part) }
        var seen = Set<String>()
        for name in folders where seen.insert(name).inserted {
            let folder = self[name]
            hasher.add(name)
            switch folder.storage {
            case .disk(let base): hasher.add(base)
            case .none: hasher.add(folder.exists ? "-" : "missing")
            case .memory: return nil
            }
            hasher.add(folder.problems.map(\.description).joined(separator: "\n"))
            var count = UInt64(folder.files.count)
            withUnsafeBytes(of: &count) { hasher.add($0) }
            for relative in folder.files {
                guard let stamp = folder.stamps[relative] else { return nil }
                hasher.add(relative)
                var fields = (stamp.size.littleEndian, stamp.modified.littleEndian, stamp.changed.littleEndian, stamp.inode.littleEndian)
                withUnsafeBytes(of: &fields) { hasher.add($0) }
            }
        }
        return hasher.key
    }
}
