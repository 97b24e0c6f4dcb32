import ProjectFiles
import Diagnostics
import Dispatch
import Foundation
import SnapshotFormat

/// What the previous build produced, keyed by content: for each output
/// file, a hash of everything it was made from, and the examples it showed.
/// An output whose key is unchanged is taken from the existing site instead
/// of being rendered again, with the warnings rendering it gave, so they are
/// reported on every build; and a build whose inputs did not change at all
/// reports the previous build's diagnostics without rendering anything.
struct BuildCache: Sendable {
    struct Entry: Equatable, Sendable {
        var key: String
        var examples: [String]
        /// A page's Document: its links into pages (`#fragment`) are checked
        /// again when a page they lead to is made again (`linkTargets`),
        /// because the other end of a link can change without this page
        /// changing; its ids are what links into it are checked against.
        /// As rendering made it, or as the cache file holds it, read when
        /// first asked for (a build with nothing to do asks for none: 10,000
        /// pages' Documents decoded were half of it).
        var stored: StoredDocument?
        /// What rendering the page reported (warnings: a page with errors
        /// fails the build, which writes no cache).
        var diagnostics: [Diagnostic] = []
        /// A page's search entry as `SearchIndex.json` made it: a build
        /// that reuses the page joins it into the index as it is (its
        /// title and headings are in the page's key), so the Document the
        /// cache keeps is only what link checks read (ids and links). A
        /// page without one is rendered again.
        var search: ArraySlice<UInt8>?
        /// The pages a page's `#` links lead to, and what checking them
        /// found: a build that makes none of those pages again takes these
        /// problems as they are, without checking (or decoding) its links.
        var linkTargets: [String]?
        var fragmentProblems: [Diagnostic]?
        /// The output's bytes, counted against the site's limit when it is
        /// kept on disk unread (nil: unknown, and it is read).
        var size: Int?

        init(key: String, examples: [String], document: Document? = nil, diagnostics: [Diagnostic] = []) {
            (self.key, self.examples, self.diagnostics) = (key, examples, diagnostics)
            stored = document.map(StoredDocument.value)
        }

        var document: Document? { stored?.document }

        /// Field by field, the JSON slices compared as memory (element by
        /// element, 10,000 entries' were most of saving the cache).
        static func == (a: Entry, b: Entry) -> Bool {
            a.key == b.key && a.examples == b.examples && a.size == b.size && a.stored == b.stored && sameBytes(a.search, b.search)
                && a.linkTargets == b.linkTargets && a.diagnostics == b.diagnostics && a.fragmentProblems == b.fragmentProblems
        }
    }

    /// Whether two byte slices (or two absent ones) hold the same bytes.
    static func sameBytes(_ a: ArraySlice<UInt8>?, _ b: ArraySlice<UInt8>?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.count == b.count && a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }

    /// A Document, or its JSON as the cache file holds it.
    enum StoredDocument: Equatable, Sendable {
        case value(Document)
        /// (A slice of the cache file's bytes, which it shares.)
        case json(ArraySlice<UInt8>)

        var document: Document? {
            switch self {
            case .value(let document): return document
            case .json(let bytes): return try? JSONDecoder().decode(Document.self, from: Data(bytes))
            }
        }

        var json: ArraySlice<UInt8> {
            switch self {
            case .json(let bytes): return bytes
            case .value(let document):
                // What links are checked against and with; search has its entry.
                let linked = Document(ids: document.ids, links: document.links)
                var json = JSONBytes(capacity: 256)
                linked.write(to: &json)
                return json.bytes[...]
            }
        }

        static func == (a: StoredDocument, b: StoredDocument) -> Bool {
            if case .value(let first) = a, case .value(let second) = b { return first == second }
            return BuildCache.sameBytes(a.json, b.json)
        }
    }

    /// What the build that wrote the cache saw of each input file (its
    /// size, times, inode and SHA-256), so that the next build reads only
    /// the files whose stamp moved, as git does with its index; and when it
    /// saw them: a file modified within `BuildOptions.racyWindow` seconds of that is
    /// read again whatever its stamp (two saves within the file system's
    /// tick leave the same stamp).
    var files: [String: FileStamp] = [:]
    var filesSeenAt: Double = 0
    /// `files` as one key (`InputTree.seal`), when every one of them was
    /// settled when its stamp was taken: a build whose listing has this
    /// seal, and whose site has the seal of `written`, has nothing to do,
    /// and knows it from the file's first lines (`Header`) alone.
    var inputsSeal: String?
    /// As read: the seal of the site's files the cache's build recorded
    /// (`SiteFolder.seal(of: written)`); written anew from `written`.
    var siteSeal: String?

    /// Bumped whenever the generator's output changes for the same inputs;
    /// it also names the running executable's size and modification time,
    /// so a rebuilt `rowmotion` of the same version (a development build, an
    /// upgrade) never reuses pages the old code rendered.
    static let format = "rowmotion-cache 14 (tool \(RowmotionVersion.string), \(executableStamp))"

    /// What a build's output depends on besides its inputs, as key parts:
    /// this format, the options that change what is made, and which folder
    /// is which (the same files read as pages, examples or a theme are
    /// another site).
    static func context(_ options: BuildOptions) -> [String] {
        [format, options.baseURL, String(options.drafts), options.urls.rawValue, String(options.allowEmpty),
         "site", options.site, "examples", options.examples, "templates", options.templates]
    }

    /// The running executable's size and modification time, or "-".
    static let executableStamp: String = {
        guard let path = Bundle.main.executablePath,
              let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber, let date = attributes[.modificationDate] as? Date
        else { return "-" }
        return "\(size) bytes, \(Int(date.timeIntervalSince1970))"
    }()

    var entries: [String: Entry] = [:]
    /// Every file of the site the cache's build wrote, as it left them
    /// (inode, size, modification time): a file of the site on disk is
    /// taken as that build's only while its stamp is the one recorded, so
    /// a file changed or added since (a checkout onto a kept workspace, a
    /// hand edit) is never reused, and a site with one is built again.
    var written: [String: FileStamp] = [:]
    /// Each page the build loaded, by its path under the site folder: what
    /// the next command-line build takes instead of reading a page whose
    /// stamp did not move (`PageRecord`).
    var pages: [String: PageRecord] = [:]
    /// Each example the build loaded, by its path under the examples
    /// folder (`ExampleRecord`).
    var examples: [String: ExampleRecord] = [:]
    /// The file this cache was read from (a full read) and its records'
    /// lines in file order.
    var file: [UInt8] = []
    var records: [Record] = []

    /// A record's line in the file (its line feed included).
    struct Record: Sendable {
        enum Kind: Sendable { case entry, written, page, example, file }
        var kind: Kind
        var key: String
        var line: Range<Int>
    }

    /// The cache a build started from, as read: the file is written again
    /// by copying the runs of its lines whose record holds the same value
    /// now (one `memcpy` a run; no Document, search entry or diagnostics
    /// encoded again: 10,000 of them were a tenth of a build that changed
    /// one), each changed record encoded, new ones after them.
    struct Earlier: Sendable {
        var entries: [String: Entry]
        var pages: [String: PageRecord]
        var examples: [String: ExampleRecord]
        var written: [String: FileStamp]
        var files: [String: FileStamp]
        var file: [UInt8]
        var records: [Record]

        init(_ cache: BuildCache) {
            (entries, pages, examples, written, files) = (cache.entries, cache.pages, cache.examples, cache.written, cache.files)
            (file, records) = (cache.file, cache.records)
        }
    }
    var earlier: Earlier?

    /// Read with `outputsOnly`: the entries, page and example records
    /// left in `unread` until `readRest` (a build with nothing to do needs
    /// neither: 10,000 of each read were a third of it), each line found by
    /// its kind and key (`unreadLines`: each entry's output, and what a
    /// build after an edit reads of a few of them), and the file's own
    /// lines after its header (`ownLines`: the shared key, when its files were seen).
    var unread: [UInt8]?
    var unreadLines: [Record.Kind: [String: Line]] = [:]
    var ownLines: [Range<Int>] = []
    /// Each entry's output, read or not (as `outputsOnly` found them).
    var outputs: [String] { unreadLines[.entry].map { Array($0.keys) } ?? [] }
    /// A hash of every input file's bytes and the options of the build that
    /// wrote this cache (nil when it could not be worked out).
    var inputKey: String?
    /// Everything that build reported, for a rebuild with the same inputs.
    var diagnostics: [Diagnostic] = []
    /// The part of every output's key that every output shares
    /// (`OutputKeys.global`): a build after an edit that changed none of
    /// what it is made from keys the pages it renders again with it.
    var globalKey: String?
    var pageCount = 0
    var exampleCount = 0
    /// The output folder's `SiteWriter.stamp` after the build that wrote
    /// this cache wrote it; a cache is used only while it still matches.
    var siteStamp: String?

    /// The cache of the build that wrote the site at `output`, read from
    /// `path`: empty unless that site is still the one this cache's build
    /// wrote (see `SiteWriter.stamp`), so neither a committed cache nor a
    /// committed site can stand in for a build.
    static func load(from path: String?, forSite output: String, in project: Project, outputsOnly: Bool = false) -> BuildCache {
        // Read as it is written: never through a link inside the project;
        // and whole only when its second line names this site (a hostile
        // file of gigabytes is refused after 64 KiB).
        guard let path, isOfSite(path, output: output, in: project),
              let bytes = try? FileContents.read(path, limit: fileBytes, followingLink: false) else { return BuildCache() }
        let cache = parse(bytes, outputsOnly: outputsOnly)
        guard let stamp = cache.siteStamp, stamp == SiteFolder.stamp(of: output) else { return BuildCache() }
        return cache
    }

    /// A cache file's first lines: what a build needs to know that nothing
    /// changed since the build that wrote it, and to say what that build said.
    struct Header {
        var cache: BuildCache
        var siteSeal: String?
        /// How many outputs the build made (its entries).
        var outputCount: Int
    }

    /// The header of the cache at `path` when it has both seals and is the
    /// cache of the site at `output` (as `load` checks); nil otherwise.
    /// (Its diagnostics are read too, so `limit` bounds what they may weigh.)
    static func header(from path: String?, forSite output: String, in project: Project, limit: Int = 64 << 20) -> Header? {
        guard let path, isOfSite(path, output: output, in: project), let bytes = FileContents.firstLines(path, 4, limit: limit) else { return nil }
        let header = bytes.withUnsafeBufferPointer { pointer -> Header? in
            // All four lines, whole: a file cut short says nothing (no diagnostics line is not "none").
            let lines4 = split(pointer, 0..<pointer.count, at: UInt8(ascii: "\n"))
            guard lines4.count == 5, lines4[4].isEmpty, pointer[lines4[3]].starts(with: Array("diagnostics\t".utf8)),
                  let cache = lines(pointer, file: bytes, reading: [], header: true) else { return nil }
            let line = lines4[2]
            let fields = String(decoding: UnsafeBufferPointer(rebasing: pointer[line]), as: UTF8.self).split(separator: "\t").map(String.init)
            // (The inputs' seal may be missing: a build after an edit has a file not settled yet.)
            guard fields.count == 4, fields[0] == "sealed", fields[2] != "-", let count = Int(fields[3]) else { return nil }
            return Header(cache: cache, siteSeal: fields[2], outputCount: count)
        }
        guard let header, let stamp = header.cache.siteStamp, stamp == SiteFolder.stamp(of: output) else { return nil }
        return header
    }

    /// The most a cache file may weigh to be read (a larger one is a miss):
    /// 10,000 pages' cache is 20 MB, and reading one costs about three
    /// times its size in memory.
    static let fileBytes = 256 << 20

    /// Whether the cache file at `path` (never read through a link) is the
    /// cache of the site at `output`: its second line's last field is that
    /// site's stamp (`SiteFolder.stamp`). Only its first two lines are read.
    static func isOfSite(_ path: String, output: String, in project: Project) -> Bool {
        guard (try? WritePath.prepare(path, in: project, makingFolders: false)) != nil,
              let start = FileContents.firstLines(path, 2, limit: 64 << 10), let stamp = SiteFolder.stamp(of: output) else { return false }
        let second = start.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropFirst().first
        return second.map { String(decoding: $0, as: UTF8.self) }?.split(separator: " ").last.map(String.init) == stamp
    }

    /// Reads a cache file; a missing or unreadable one is an empty cache.
    static func load(from path: String?) -> BuildCache {
        guard let path, let data = FileManager.default.contents(atPath: path), String(data: data, encoding: .utf8) != nil else {
            return BuildCache()
        }
        return parse([UInt8](data))
    }

    /// The bytes `ranges` of `bytes` split at `separator` (kept whole:
    /// empty pieces too). Bytes, not characters: the file is megabytes
    /// (every page's Document), and splitting it into characters took 85 %
    /// of a build with nothing to do on 1,000 pages. Newlines and tabs
    /// inside values are escaped, and both always end a character.
    static func split(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, at separator: UInt8) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var start = range.lowerBound
        guard let base = bytes.baseAddress else { return [start..<range.upperBound] }
        // memchr(3): a Document's line is kilobytes with a tab at each end.
        while start < range.upperBound, let found = memchr(base + start, Int32(separator), range.upperBound - start) {
            let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            pieces.append(start..<index)
            start = index + 1
        }
        pieces.append(start..<range.upperBound)
        return pieces
    }

    /// A cache file's bytes, read: each entry's Document kept as a slice
    /// of them (no copy).
    static func parse(_ file: [UInt8], outputsOnly: Bool = false) -> BuildCache {
        file.withUnsafeBufferPointer { parse($0, file: file, outputsOnly: outputsOnly) }
    }

    /// The entries and records `outputsOnly` left unread: the entries on
    /// one core, the page and example records on another.
    mutating func readRest() {
        guard let file = unread else { return }
        let (entryLines, recordLines) = Parallel.both({ file.withUnsafeBufferPointer { Self.lines($0, file: file, reading: [.entry]) } },
                                                      { file.withUnsafeBufferPointer { Self.lines($0, file: file, reading: [.page, .example]) } })
        (self.file, unread, unreadLines) = (file, nil, [:])
        guard let entryLines, let recordLines else {
            self = BuildCache()
            return
        }
        (entries, pages, examples) = (entryLines.entries, recordLines.pages, recordLines.examples)
        records = (records + entryLines.records + recordLines.records).sorted { $0.line.lowerBound < $1.line.lowerBound }
    }

    /// Every entry's output, read or not.
    var entryOutputs: [String] { unread == nil ? Array(entries.keys) : outputs }

    /// Which lines a read of the file reads: the records of `kinds`, and
    /// with `header` the file's own lines (its diagnostics and when its
    /// files were seen) and, for entries not read, their outputs.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: [UInt8], outputsOnly: Bool = false) -> BuildCache {
        guard outputsOnly else {
            guard var cache = lines(bytes, file: file, reading: [.entry, .written, .page, .example, .file], header: true) else { return BuildCache() }
            cache.file = file
            return cache
        }
        // The inputs' stamps on one core; the site's, and where the other records are, on another.
        let (inputs, site) = Parallel.both({ file.withUnsafeBufferPointer { lines($0, file: file, reading: [.file], header: true) } },
                                           { file.withUnsafeBufferPointer { lines($0, file: file, reading: [.written], finding: [.entry, .page, .example]) } })
        guard var cache = inputs, let site else { return BuildCache() }
        (cache.written, cache.unreadLines) = (site.written, site.unreadLines)
        cache.records = (cache.records + site.records).sorted { $0.line.lowerBound < $1.line.lowerBound }
        cache.unread = file
        return cache
    }

    /// The file's lines of `kinds` (all of them, with `header`, the file's
    /// own lines too), and where those of `finding` are (`unreadLines`,
    /// their values unread); nil when it is not a cache this tool wrote:
    /// another format, a line that does not read, a record twice.
    static func lines(_ bytes: UnsafeBufferPointer<UInt8>, file: [UInt8], reading kinds: Set<Record.Kind>, header: Bool = false,
                      finding found: Set<Record.Kind> = []) -> BuildCache? {
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        var cache = BuildCache()
        let lines = split(bytes, 0..<bytes.count, at: UInt8(ascii: "\n"))
        guard lines.count >= 3, text(lines[0]) == format else { return nil }
        if header {
            let inputs = text(lines[1]).split(separator: " ").map(String.init)
            if inputs.count == 5, inputs[0] == "inputs" {
                cache.inputKey = inputs[1] == "-" ? nil : inputs[1]
                cache.pageCount = Int(inputs[2]) ?? 0
                cache.exampleCount = Int(inputs[3]) ?? 0
                cache.siteStamp = inputs[4] == "-" ? nil : inputs[4]
            }
        }
        // A key twice is no file this tool wrote: a miss.
        func add(_ kind: Record.Kind, _ key: String, _ line: Range<Int>, isNew: Bool) -> Bool {
            guard isNew else { return false }
            cache.records.append(Record(kind: kind, key: key, line: line.lowerBound..<min(line.upperBound + 1, bytes.count)))
            return true
        }
        let base = bytes.baseAddress!
        for kind in found { cache.unreadLines[kind] = [:] }
        for (number, line) in lines.enumerated().dropFirst(2) where !line.isEmpty {
            guard let tabAt = memchr(base + line.lowerBound, 9, line.count) else { return nil }
            let tab = base.distance(to: tabAt.assumingMemoryBound(to: UInt8.self))
            let kind = Self.kind(base, line, tab: tab)
            let whole = line.lowerBound..<min(line.upperBound + 1, bytes.count)
            if let kind, !kinds.contains(kind) {
                guard found.contains(kind) else { continue }
                // An entry's key is its first field; a record's, its second.
                var key = line.lowerBound..<tab
                if kind != .entry {
                    let rest = tab + 1
                    let end = rest < line.upperBound ? memchr(base + rest, 9, line.upperBound - rest).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } : nil
                    key = rest..<(end ?? line.upperBound)
                }
                let name = text(key)
                guard cache.unreadLines[kind]!.updateValue(Line(key: name, line: whole), forKey: name) == nil else { return nil }
                continue
            }
            if kind == nil, header, number >= 4 { cache.ownLines.append(whole) }
            if kind == nil, !header { continue }
            let parts = split(bytes, line, at: UInt8(ascii: "\t"))
            switch kind {
            case nil:
                if parts.count == 2, text(parts[0]) == "diagnostics" {
                    guard let diagnostics = decodeDiagnostics(text(parts[1])) else { return nil }
                    cache.diagnostics = diagnostics
                } else if parts.count == 4, text(parts[0]) == "sealed" {
                    cache.inputsSeal = text(parts[1]) == "-" ? nil : text(parts[1])
                    cache.siteSeal = text(parts[2]) == "-" ? nil : text(parts[2])
                } else if parts.count == 2, text(parts[0]) == "global" {
                    cache.globalKey = text(parts[1])
                } else if parts.count == 2 {
                    cache.filesSeenAt = Double(text(parts[1])) ?? 0
                } else {
                    return nil
                }
            case .page:
                let path = text(parts[1])
                guard let record = PageRecord(parts, bytes),
                      add(.page, path, line, isNew: cache.pages.updateValue(record, forKey: path) == nil) else { return nil }
            case .example:
                guard parts.count == 3 else { return nil }
                let name = text(parts[1])
                guard let record = ExampleRecord(json: file[parts[2]]),
                      add(.example, name, line, isNew: cache.examples.updateValue(record, forKey: name) == nil) else { return nil }
            case .written:
                guard parts.count == 5 else { return nil }
                let path = text(parts[1])
                guard let size = Self.number(Int64.self, bytes, parts[2]), let modified = Self.number(Int64.self, bytes, parts[3]),
                      let inode = Self.number(UInt64.self, bytes, parts[4]),
                      add(.written, path, line, isNew: cache.written.updateValue(FileStamp(size: size, modified: modified, changed: 0, inode: inode),
                                                                                 forKey: path) == nil) else { return nil }
            case .file:
                guard parts.count == 7 else { return nil }
                let path = text(parts[1])
                guard let size = Self.number(Int64.self, bytes, parts[2]), let modified = Self.number(Int64.self, bytes, parts[3]),
                      let changed = Self.number(Int64.self, bytes, parts[4]), let inode = Self.number(UInt64.self, bytes, parts[5]),
                      add(.file, path, line, isNew: cache.files.updateValue(FileStamp(size: size, modified: modified, changed: changed, inode: inode,
                                                                                      digest: text(parts[6])), forKey: path) == nil) else { return nil }
            case .entry:
                guard let entry = Self.entry(parts, bytes, file: file) else { return nil }
                let output = text(parts[0])
                guard add(.entry, output, line, isNew: cache.entries.updateValue(entry, forKey: output) == nil) else { return nil }
            }
        }
        return cache
    }

    /// What the line `line` of the file at `base` holds, from its first
    /// field (up to `tab`): a record of a kind, or (nil) one of the file's
    /// own lines (`sealed`, `diagnostics`, `global`, `files-seen-at`).
    static func kind(_ base: UnsafePointer<UInt8>, _ line: Range<Int>, tab: Int) -> Record.Kind? {
        /// Whether the line's first field is `name`, compared as bytes.
        func first(is name: StaticString) -> Bool {
            tab - line.lowerBound == name.utf8CodeUnitCount && memcmp(base + line.lowerBound, name.utf8Start, name.utf8CodeUnitCount) == 0
        }
        if first(is: "page") { return .page }
        if first(is: "example") { return .example }
        if first(is: "out") { return .written }
        if first(is: "file") { return .file }
        if first(is: "diagnostics") || first(is: "files-seen-at") || first(is: "sealed") || first(is: "global") { return nil }
        return .entry
    }

    /// An output's entry from its line's fields (`parts` of `bytes`, the
    /// bytes of `file`); nil when they do not read as one.
    static func entry(_ parts: [Range<Int>], _ bytes: UnsafeBufferPointer<UInt8>, file: [UInt8]) -> Entry? {
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        guard parts.count == 9, let diagnostics = decodeDiagnostics(text(parts[4])) else { return nil }
        let examples = text(parts[2])
        var entry = Entry(key: text(parts[1]), examples: examples.isEmpty ? [] : examples.components(separatedBy: "\u{1F}"), diagnostics: diagnostics)
        // "-" is no Document; anything else is one, decoded when read.
        if !(parts[3].count == 1 && bytes[parts[3].lowerBound] == UInt8(ascii: "-")) {
            entry.stored = .json(file[parts[3]])
        }
        if !(parts[5].count == 1 && bytes[parts[5].lowerBound] == UInt8(ascii: "-")) {
            entry.search = file[parts[5]]
        }
        // Targets after a `+`, separated by U+001F (no output path holds one); `-`: not recorded.
        let targets = text(parts[6])
        if targets.hasPrefix("+") {
            entry.linkTargets = targets.count == 1 ? [] : targets.dropFirst().split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        }
        let problems = text(parts[7])
        if problems != "-" {
            guard let found = decodeDiagnostics(problems) else { return nil }
            entry.fragmentProblems = found
        }
        entry.size = Int(text(parts[8]))
        return entry
    }

    /// The inputs of `folders` keyed from this cache (`InputTree.key`):
    /// a file whose stamp did not move keeps the digest recorded.
    func key(_ tree: InputTree, folders: [String], racyWindow: Double) -> InputTree.Keyed {
        tree.key(of: folders, recorded: files, modifiedBefore: Int64((filesSeenAt - racyWindow) * 1e9))
    }

    /// The number a field's decimal digits (after an optional sign) write,
    /// read as `Int64(_:)` and `UInt64(_:)` read them, without making a
    /// String (24,000 of them a build after an edit); nil for anything else.
    static func number<Number: FixedWidthInteger>(_: Number.Type, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Number? {
        var at = range.lowerBound
        let negative = at < range.upperBound && bytes[at] == UInt8(ascii: "-")
        if at < range.upperBound, negative || bytes[at] == UInt8(ascii: "+") { at += 1 }
        guard at < range.upperBound else { return nil }
        var value: Number = 0
        while at < range.upperBound {
            let digit = bytes[at] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, carried) = negative ? shifted.subtractingReportingOverflow(Number(digit)) : shifted.addingReportingOverflow(Number(digit))
            guard !overflowed, !carried else { return nil }
            value = next
            at += 1
        }
        return value
    }

    /// `number`'s decimal digits, as `String(number)` writes them, without
    /// making a String (12,000 stamps a build).
    static func appendDecimal(_ number: Int64, to bytes: inout [UInt8]) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    /// Each number after a tab.
    static func appendFields(_ numbers: Int64..., to bytes: inout [UInt8]) {
        for number in numbers {
            bytes.append(9)
            appendDecimal(number, to: &bytes)
        }
    }

    /// Diagnostics as one line of JSON (the encoder escapes tabs and newlines).
    static func encodeDiagnostics(_ diagnostics: [Diagnostic]) -> String {
        guard !diagnostics.isEmpty else { return "[]" }
        // Keys sorted: the same diagnostics, the same bytes.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(diagnostics)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func decodeDiagnostics(_ text: String) -> [Diagnostic]? {
        text == "[]" ? [] : try? JSONDecoder().decode([Diagnostic].self, from: Data(text.utf8))
    }

    /// Writes the cache atomically (a half-written cache is just a miss);
    /// the error when it would be written through a symbolic link.
    func save(to path: String, in project: Project, clock: inout PhaseClock) -> Diagnostic? {
        let bytes = bytes()
        clock.lap("encode the cache")
        do throws(Diagnostic) {
            try Self.write(parts: [bytes[...]], to: path, in: project)
            return nil
        } catch {
            return error.id == "symbolic-link" ? error : nil
        }
    }

    /// Writes a cache file's bytes atomically (`WritePath`), first removing
    /// the copies that builds killed while saving one left beside it: the
    /// temporary of a process that is gone, the cache's size each, kept for
    /// good otherwise.
    static func write(parts: [ArraySlice<UInt8>], to path: String, in project: Project) throws(Diagnostic) {
        if let target = try? WritePath.prepare(path, in: project, makingFolders: false) {
            let file = URL(fileURLWithPath: target)
            let (folder, prefix) = (file.deletingLastPathComponent().path, "." + file.lastPathComponent + ".rowmotion-")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(prefix) {
                guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
                else { continue }
                unlink(folder + "/" + name)
            }
        }
        try WritePath.write(parts: parts, to: path, in: project)
    }

    func save(to path: String, in project: Project) -> Diagnostic? {
        var clock = PhaseClock(report: nil)
        return save(to: path, in: project, clock: &clock)
    }

    /// Writes the cache in the working folder's project.
    func save(to path: String) {
        _ = save(to: path, in: .ofWorkingFolder())
    }

    /// The cache file's bytes: the header (with the seals and the build's
    /// diagnostics), then the earlier file's records in its order (runs of
    /// unchanged lines copied whole, a changed one encoded, a removed one
    /// left out), then the new records in byte order of their keys.
    func bytes() -> [UInt8] {
        // What a build with nothing to do reads (`Header`): the seals, then the diagnostics it reports again.
        var file = headerLines(outputs: entryOutputs)
        file += Array(("diagnostics\t" + Self.encodeDiagnostics(diagnostics) + "\n").utf8)
        var new: (entries: [String], written: [String], pages: [String], examples: [String], files: [String])
        if let earlier {
            // In chunks on every core, each its own bytes, joined in order.
            let cache = self
            let chunks = Parallel.map(Self.chunks(earlier.records.count, ProcessInfo.processInfo.activeProcessorCount * 2)) { range in
                cache.encode(earlier.records[range], of: earlier)
            }
            file.reserveCapacity(file.count + chunks.reduce(0) { $0 + $1.bytes.count } + earlier.file.count / 8)
            for chunk in chunks { file += chunk.bytes }
            // New keys only when a kind has more than its earlier records found.
            let found = chunks.reduce(into: [Record.Kind: Int]()) { total, chunk in total.merge(chunk.found) { $0 + $1 } }
            func added<Value>(_ kind: Record.Kind, _ values: [String: Value], _ before: [String: Value]) -> [String] {
                values.count == found[kind, default: 0] ? [] : values.keys.filter { before[$0] == nil }.sorted()
            }
            new = (added(.entry, entries, earlier.entries), added(.written, written, earlier.written),
                   added(.page, pages, earlier.pages), added(.example, examples, earlier.examples), added(.file, files, earlier.files))
        } else {
            new = (entries.keys.sorted(), written.keys.sorted(), pages.keys.sorted(), examples.keys.sorted(), files.keys.sorted())
        }
        for output in new.entries { appendLine(.entry, output, to: &file) }
        for path in new.written { appendLine(.written, path, to: &file) }
        for path in new.pages { appendLine(.page, path, to: &file) }
        for name in new.examples { appendLine(.example, name, to: &file) }
        for path in new.files { appendLine(.file, path, to: &file) }
        return file + trailerLines
    }

    /// `count` indices in `parts` ranges of about one size.
    static func chunks(_ count: Int, _ parts: Int) -> [Range<Int>] {
        let size = max(1, (count + parts - 1) / max(1, parts))
        return stride(from: 0, to: count, by: size).map { $0..<min($0 + size, count) }
    }

    /// The earlier file's `records` as this cache holds them: runs of
    /// lines whose record holds the same value copied whole, a changed one
    /// encoded, a removed one left out; with how many of each kind this
    /// cache still has.
    func encode(_ records: ArraySlice<Record>, of earlier: Earlier) -> (bytes: [UInt8], found: [Record.Kind: Int]) {
        var bytes: [UInt8] = []
        var found: [Record.Kind: Int] = [:]
        var run = 0..<0
        func flush() {
            guard !run.isEmpty else { return }
            earlier.file.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[run])) }
            run = 0..<0
        }
        // This cache's own key for the record's (a `String` takes `café`
        // composed and decomposed for one key; the file keeps the bytes).
        func held<Value>(_ values: [String: Value], _ key: String) -> (key: String, value: Value)? {
            values.index(forKey: key).map { values[$0] }
        }
        for record in records {
            let (key, kept): (String, Bool)
            switch record.kind {
            case .entry:
                guard let now = held(entries, record.key) else { continue }
                (key, kept) = (now.key, earlier.entries[record.key] == now.value)
            case .written:
                guard let now = held(written, record.key) else { continue }
                (key, kept) = (now.key, earlier.written[record.key].map { Self.sameWritten($0, now.value) } == true)
            case .page:
                guard let now = held(pages, record.key) else { continue }
                (key, kept) = (now.key, earlier.pages[record.key] == now.value)
            case .example:
                guard let now = held(examples, record.key) else { continue }
                (key, kept) = (now.key, earlier.examples[record.key] == now.value)
            case .file:
                guard let now = held(files, record.key) else { continue }
                (key, kept) = (now.key, earlier.files[record.key] == now.value)
            }
            found[record.kind, default: 0] += 1
            // A line is copied only under the same bytes of its key.
            if kept, key.utf8.elementsEqual(record.key.utf8) {
                if !run.isEmpty, run.upperBound == record.line.lowerBound { run = run.lowerBound..<record.line.upperBound } else { flush(); run = record.line }
            } else {
                flush()
                appendLine(record.kind, key, to: &bytes)
            }
        }
        flush()
        return (bytes, found)
    }

    /// Whether a site file's stamp is the one its line recorded (size,
    /// modification time and inode: what an `out` line holds).
    static func sameWritten(_ recorded: FileStamp, _ now: FileStamp) -> Bool {
        recorded.size == now.size && recorded.modified == now.modified && recorded.inode == now.inode
    }

    /// The line of the record `key` of `kind` as this cache holds it. Paths
    /// with a tab or a line feed are left out (read again next time).
    func appendLine(_ kind: Record.Kind, _ key: String, to file: inout [UInt8]) {
        switch kind {
        case .entry:
            let entry = entries[key]!
            // Examples' names separated by U+001F (a comma is a name's to hold);
            // an output or a name that holds a separator is left out (made again next time).
            guard !key.utf8.contains(where: { $0 == 9 || $0 == 10 }),
                  !entry.examples.contains(where: { $0.utf8.contains { $0 == 9 || $0 == 10 || $0 == 0x1F } }) else { return }
            file += Array("\(key)\t\(entry.key)\t\(entry.examples.joined(separator: "\u{1F}"))\t".utf8)
            if let stored = entry.stored {
                file += stored.json
            } else {
                file.append(UInt8(ascii: "-"))
            }
            file += Array(("\t" + Self.encodeDiagnostics(entry.diagnostics) + "\t").utf8)
            file += entry.search ?? [UInt8(ascii: "-")]
            let targets = entry.linkTargets.flatMap { targets in
                targets.contains { $0.utf8.contains { $0 == 9 || $0 == 10 || $0 == 0x1F } } ? nil : "+" + targets.joined(separator: "\u{1F}")
            }
            // Problems are kept only with the targets they were found against.
            file += Array(("\t" + (targets ?? "-") + "\t" + (targets == nil ? "-" : entry.fragmentProblems.map(Self.encodeDiagnostics) ?? "-")
                           + "\t" + (entry.size.map(String.init) ?? "-") + "\n").utf8)
        case .written:
            guard !key.utf8.contains(where: { $0 == 9 || $0 == 10 }) else { return }
            let stamp = written[key]!
            file += "out\t".utf8
            file += key.utf8
            Self.appendFields(stamp.size, stamp.modified, to: &file)
            file.append(9)
            file += String(stamp.inode).utf8
            file.append(10)
        case .page:
            if let line = pages[key]!.line(path: key) { file += line }
        case .example:
            if let line = examples[key]!.line(name: key) { file += line }
        case .file:
            guard !key.utf8.contains(where: { $0 == 9 || $0 == 10 }) else { return }
            let stamp = files[key]!
            file += "file\t".utf8
            file += key.utf8
            Self.appendFields(stamp.size, stamp.modified, stamp.changed, to: &file)
            file.append(9)
            file += String(stamp.inode).utf8
            file.append(9)
            file += stamp.digest.utf8
            file.append(10)
        }
    }
}


/// The previous build's outputs, for a render to reuse when its key has not
/// changed: rendering is `reuse.bytes(output, key) ?? render(…)`.
struct Reuse: Sendable {
    var previous: BuildCache
    var folder: URL
    /// The previous build's outputs in memory (`BuildMemo`), instead of the folder's.
    var memory: [String: [UInt8]]? = nil
    /// The plain files of the site on disk, when pages are kept there
    /// unread (`BuildOptions.keepsUnchangedPages`) and the site has no link.
    var onDisk: Set<String>? = nil

    init(previous: BuildCache, folder: URL, memory: [String: [UInt8]]? = nil, keepingPages: Bool = false) {
        (self.previous, self.folder, self.memory) = (previous, folder, memory)
        // One walk, each file stamped: a file is the last build's only
        // while its stamp is the one that build recorded; a link anywhere
        // in the site and none is.
        if memory == nil, !previous.entries.isEmpty {
            let files = SiteFolder.files(of: folder.path) ?? [:]
            onDiskStamps = files
            // By the bytes of its name too: `café` respelled (decomposed) on
            // disk is not the file the build wrote, though a `String` takes it for it.
            verified = Set(files.compactMap { path, stamp in
                previous.written.index(forKey: path).map { index in
                    let (name, written) = previous.written[index]
                    return name.utf8.elementsEqual(path.utf8) && written.sameContent(as: stamp)
                } == true ? path : nil
            })
            if keepingPages { onDisk = verified }
        }
    }

    /// The files of the site on disk as the last build wrote them.
    var verified: Set<String> = []
    /// Every plain file of the site on disk with its stamp, as walked
    /// (none when the site holds a link).
    var onDiskStamps: [String: FileStamp] = [:]

    /// Whether the site on disk holds `output` as it is built from `key`,
    /// to be left there unread.
    func keeps(_ output: String, key: String) -> Bool {
        onDisk?.contains(output) == true && previous.entries[output].map { $0.key == key && $0.size != nil } == true
    }

    /// What the previous build wrote at `output`, if it was built from `key`.
    func bytes(_ output: String, key: String) -> [UInt8]? {
        if let memory {
            return previous.entries[output]?.key == key ? memory[output] : nil
        }
        let path = folder.appendingPathComponent(output).path
        guard previous.entries[output]?.key == key, verified.contains(output), FolderWalk.isPlainFile(path),
              !FolderWalk.passesThroughLink(output, under: folder.path),
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return [UInt8](data)
    }
}

/// What each output is built from, hashed: the same key, the same bytes.
struct OutputKeys: Sendable {
    /// Everything every output depends on: the theme, the options, the
    /// navigation (every page's title and order) and the list of examples.
    var global: String
    var examples: [String: String]

    init(options: BuildOptions, inputs: SiteInputs) {
        let theme = inputs.theme
        global = ContentHash.key([BuildCache.format, options.baseURL, String(options.drafts), options.urls.rawValue, inputs.siteTitle]
            + Theme.templateNames.map { theme.texts[$0 + ".mustache"] ?? "" } + Theme.assetNames.map { theme.assets[$0] ?? "" }
            // Each field its own part (a part is ended by its length: a `|`
            // in a title cannot pass for the next field), with the page's
            // folder and whether it is the folder's own page, which the
            // navigation and its links read.
            + inputs.pages.flatMap { [$0.output, $0.title, $0.frontMatter.navigationOrder.map(String.init) ?? "-",
                                      $0.frontMatter.linkTitle.map { "+" + $0 } ?? "-", $0.folder, $0.isSectionPage ? "section" : "page"] }
            + inputs.examples.map(\.name)
            // Links to static files are checked against them too.
            + ["static"] + inputs.staticFiles.map(\.path))
        examples = Dictionary(uniqueKeysWithValues: inputs.examples.map { ($0.name, $0.sourceKey) })
    }

    /// The keys of a build whose global part is known (the cache's
    /// `globalKey`), with the keys of the examples its pages show.
    init(global: String, examples: [String: String]) {
        (self.global, self.examples) = (global, examples)
    }

    /// A page's key: its file (where it is: links resolve from its folder,
    /// warnings name it; and its bytes) and the examples it shows.
    func page(_ page: LoadedPage, examples shown: [String]) -> String {
        ContentHash.key([global, page.output, page.source, page.sourceKey] + shown.flatMap { [$0, examples[$0] ?? "missing"] })
    }

    /// An example page's (and its filmstrip's) key.
    func example(_ example: LoadedExample) -> String {
        ContentHash.key([global, OutputPaths.examplePath(example.name), example.sourceKey])
    }

    /// The index's key: the home page's source and every example's.
    func index(_ inputs: SiteInputs) -> String {
        ContentHash.key([global, "index.html", inputs.home?.sourceKey ?? ""] + inputs.examples.map(\.sourceKey))
    }
}
