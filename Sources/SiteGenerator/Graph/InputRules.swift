import BuildGraph
import Diagnostics
import ProjectFiles

/// An input file, as builds name it (`site/guide/a.md`): its SHA-256 and
/// the stamp it had when it was keyed (what the next build compares, as
/// git's index does, so it reads only the files whose stamp moved).
enum SourceFile: Input, StoredRule {
    static let name = "file"

    struct Value: StoreCodable, Equatable {
        /// Empty: the file is gone.
        var digest: String
        var stamp: FileStamp?

        static func == (a: Value, b: Value) -> Bool { a.digest == b.digest }

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(digest)
            encoder.write(stamp != nil)
            if let stamp {
                encoder.write(Int(stamp.size))
                encoder.write(Int(stamp.modified))
                encoder.write(Int(stamp.changed))
                encoder.write(UInt64(stamp.inode))
            }
        }

        init(digest: String, stamp: FileStamp?) { (self.digest, self.stamp) = (digest, stamp) }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            digest = try decoder.read()
            if try decoder.read() as Bool {
                let (size, modified, changed): (Int, Int, Int) = (try decoder.read(), try decoder.read(), try decoder.read())
                let inode: UInt64 = try decoder.read()
                stamp = FileStamp(size: Int64(size), modified: Int64(modified), changed: Int64(changed), inode: inode, digest: digest)
            }
        }
    }

    static func isGone(_ value: Value) -> Bool { value.digest.isEmpty }

    /// The same file is the same bytes (its stamp may move: a file saved again as it was).
    static func same(_ old: Value, _ new: Value) -> Bool { old.digest == new.digest }

    /// A file the build did not list (a name another spelling of a listed
    /// one's): not there.
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value { Value(digest: "", stamp: nil) }
}

/// An input folder as listed (by the name it was given: `site`): its files
/// by their paths under it, and what the listing refused in it.
enum FolderListing: Input, StoredRule {
    static let name = "listing"

    struct Value: StoreCodable, Equatable {
        var exists: Bool
        var files: [String]
        var problems: [Diagnostic]
        /// Where it is read from (its real path, or a revision).
        var origin: String

        init(_ folder: InputFolder, origin: String) {
            (exists, files, problems, self.origin) = (folder.exists, folder.files, folder.problems, origin)
        }

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(exists)
            encoder.write(files)
            encoder.write(problems)
            encoder.write(origin)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (exists, files, problems, origin) = (try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read())
        }
    }
}

extension SourceLocation: StoreCodable {
    public func encode(to encoder: inout StoreEncoder) {
        encoder.write(file)
        encoder.write(line)
        encoder.write(column)
    }

    public init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
        self.init(file: try decoder.read(), line: try decoder.read(), column: try decoder.read())
    }
}

extension Diagnostic: StoreCodable {
    public func encode(to encoder: inout StoreEncoder) {
        encoder.write(location)
        encoder.write(severity == .error)
        encoder.write(id)
        encoder.write(message)
        encoder.write(UInt64(notes.count))
        for note in notes {
            encoder.write(note.location)
            encoder.write(note.message)
        }
    }

    public init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
        let location: SourceLocation = try decoder.read()
        let isError: Bool = try decoder.read()
        let (id, message): (String, String) = (try decoder.read(), try decoder.read())
        var notes: [Note] = []
        for _ in 0..<(try decoder.readCount()) { notes.append(Note(location: try decoder.read(), message: try decoder.read())) }
        self.init(isError ? .error : .warning, id, at: location, message, notes: notes)
    }
}
