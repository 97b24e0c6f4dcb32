import BuildGraph
import Diagnostics
import Foundation
import ProjectFiles

/// The graph of the last build of a site, kept on disk beside it (the
/// command line's, and `serve`'s when it stops), with what that build
/// wrote: the site's stamp and every file's. It is taken only while all
/// of it still holds: the same tool (its version and its executable's
/// stamp), options and checkout, a store file that reads whole, and a
/// site on disk that is exactly the one it describes, file for file and
/// folder for folder, none written since (a committed `_site/` and store,
/// or a site edited by hand, are never taken for the last build's).
struct SiteStore {
    /// What the build that wrote the store wrote.
    struct Record: StoreCodable, Equatable {
        /// The site's marker's identity (`SiteFolder.stamp`).
        var siteStamp: String
        /// Every file of the site, with its stamp (its seal).
        var written: [String: FileStamp]
        /// When the inputs' stamps were taken (a file modified within
        /// `BuildOptions.racyWindow` of it is read again).
        var stampsTakenAt: Double
        /// The outputs of the site, with their sizes.
        var outputs: [String: Int]

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(siteStamp)
            encoder.write(UInt64(written.count))
            for path in written.keys.sorted(by: Paths.precedes) {
                let stamp = written[path]!
                encoder.write(path)
                encoder.write(Int(stamp.size))
                encoder.write(Int(stamp.modified))
                encoder.write(UInt64(stamp.inode))
            }
            encoder.write(String(stampsTakenAt))
            encoder.write(outputs)
        }

        init(siteStamp: String, written: [String: FileStamp], stampsTakenAt: Double, outputs: [String: Int]) {
            (self.siteStamp, self.written, self.stampsTakenAt, self.outputs) = (siteStamp, written, stampsTakenAt, outputs)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            siteStamp = try decoder.read()
            let count = try decoder.readCount()
            written = [:]
            written.reserveCapacity(count)
            for _ in 0..<count {
                let path: String = try decoder.read()
                let (size, modified): (Int, Int) = (try decoder.read(), try decoder.read())
                let inode: UInt64 = try decoder.read()
                guard written.updateValue(FileStamp(size: Int64(size), modified: Int64(modified), changed: 0, inode: inode), forKey: path) == nil
                else { throw StoreDecoder.Malformed() }
            }
            guard let taken = Double(try decoder.read() as String) else { throw StoreDecoder.Malformed() }
            stampsTakenAt = taken
            outputs = try decoder.read()
        }
    }

    /// The largest store file read (a larger one is no store): 10,000
    /// pages' is tens of megabytes.
    static let fileBytes = 512 << 20

    /// What must match for a build to take a store: the format, the tool,
    /// the options, the checkout.
    static func identity(_ options: BuildOptions, project: Project) -> String {
        ["rowmotion-graph-store \(Graph.storeFormat)", "tool \(RowmotionVersion.string)", BuildOptions.executableStamp, options.fingerprint, project.root]
            .joined(separator: "\n")
    }

    /// The graph stored at `path` for the site at `options.out`, with its
    /// record, when the store and the site on disk are both its build's.
    static func load(_ path: String, options: BuildOptions, project: Project, rules: [any Rule.Type]) -> (graph: Graph, record: Record)? {
        // Never read through a link inside the project; a file of gigabytes is no store.
        guard (try? WritePath.prepare(path, in: project, makingFolders: false)) != nil,
              let stamp = SiteFolder.stamp(of: options.out), SiteFolder.isPlainFolder(options.out),
              let bytes = try? FileContents.read(path, limit: fileBytes, followingLink: false),
              let (graph, metadata) = Graph.load(bytes, identity: identity(options, project: project), rules: rules) else { return nil }
        let record = metadata.withUnsafeBytes { raw -> Record? in
            var decoder = StoreDecoder(raw)
            guard let record = try? Record(from: &decoder), decoder.isAtEnd else { return nil }
            return record
        }
        // The site on disk: the one the store's build wrote, as it left it.
        guard let record, record.siteStamp == stamp, !record.written.isEmpty, let sealed = SiteFolder.sealed(options.out),
              sealed.key == SiteFolder.seal(of: record.written) else { return nil }
        return (graph, record)
    }

    /// Writes the store atomically (a half-written one is just a miss);
    /// the error when it would be written through a symbolic link.
    static func save(_ graph: Graph, record: Record, to path: String, options: BuildOptions, project: Project) -> Diagnostic? {
        var metadata = StoreEncoder(capacity: record.written.count * 48)
        record.encode(to: &metadata)
        let bytes = graph.storeBytes(identity: identity(options, project: project), metadata: metadata.bytes, roots: [(Site.self, "")])
        do throws(Diagnostic) {
            try write(bytes, to: path, in: project)
            return nil
        } catch {
            return error.id == "symbolic-link" ? error : nil
        }
    }

    /// Removes the store of the site at `path` (the site is about to be
    /// changed by a build that keeps its graph in memory).
    static func remove(_ path: String, project: Project) {
        if let target = try? WritePath.prepare(path, in: project, makingFolders: false) { unlink(target) }
    }

    /// Writes a store file's bytes atomically (`WritePath`), first removing
    /// the copies that builds killed while saving one left beside it: the
    /// temporary of a process that is gone.
    static func write(_ bytes: [UInt8], to path: String, in project: Project) throws(Diagnostic) {
        if let target = try? WritePath.prepare(path, in: project, makingFolders: false) {
            let file = URL(fileURLWithPath: target)
            let (folder, prefix) = (file.deletingLastPathComponent().path, "." + file.lastPathComponent + ".rowmotion-")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(prefix) {
                guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
                else { continue }
                unlink(folder + "/" + name)
            }
        }
        try WritePath.write(parts: [bytes[...]], to: path, in: project)
    }
}
