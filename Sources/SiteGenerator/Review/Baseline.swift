import Diagnostics
import Foundation
import SnapshotFormat

/// What `--baseline BASE` compares against: the report of an earlier build,
/// read from a file written by `--report`, or made now by building the
/// site's folders as a git revision holds them (read through the `git`
/// command line into a temporary folder; no site is written for it).
public struct Baseline: Sendable {
    /// BASE as it was given.
    public var name: String
    public var report: BuildReport

    public init(name: String, report: BuildReport) {
        (self.name, self.report) = (name, report)
    }

    /// BASE is a report when a file of that name exists, else a revision.
    /// Every failure is one diagnostic at BASE.
    public static func load(_ base: String, options: BuildOptions) throws(Diagnostic) -> Baseline {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: base, isDirectory: &isFolder), !isFolder.boolValue {
            return Baseline(name: base, report: try readReport(base))
        }
        return Baseline(name: base, report: try buildRevision(base, options: options))
    }

    static func error(_ base: String, _ message: String) -> Diagnostic {
        .error("baseline", at: SourceLocation(file: base, line: 1, column: 1), message)
    }

    // MARK: - A report file

    /// The fields every report format has, read first to refuse other formats plainly.
    struct Header: Decodable {
        var format: Int?
        var version: String?
    }

    static func readReport(_ path: String) throws(Diagnostic) -> BuildReport {
        let bytes: [UInt8]
        do { bytes = try FileContents.read(path, limit: 512 << 20) } catch { throw Self.error(path, error.message) }
        let data = Data(bytes)
        let header: Header
        do { header = try JSONDecoder().decode(Header.self, from: data) } catch {
            throw Self.error(path, "this is not a Rowmotion report (\(describe(error))); write one with `rowmotion build --report FILE`")
        }
        guard let format = header.format else {
            throw Self.error(path, "this report was written by an earlier Rowmotion, whose reports do not record animations; "
                             + "write it again with this version (\(RowmotionVersion.string)), or name a git revision as the baseline")
        }
        guard format == BuildReport.currentFormat else {
            throw Self.error(path, "this report has format \(format) (Rowmotion \(header.version ?? "unknown")); "
                             + "this Rowmotion (\(RowmotionVersion.string)) reads format \(BuildReport.currentFormat): write the baseline again with it")
        }
        do { return try JSONDecoder().decode(BuildReport.self, from: data) } catch {
            throw Self.error(path, "this report cannot be read: \(describe(error))")
        }
    }

    /// A decoding error in one line: what is wrong, and where in the JSON.
    static func describe(_ error: Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys.hasPrefix(".") ? String(keys.dropFirst()) : keys)"
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: return "'\(key.stringValue)' is missing" + path(context)
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?: return "wrong type" + path(context)
        case .dataCorrupted(let context)?: return "not valid JSON" + path(context)
        default: return "\(error)"
        }
    }

    // MARK: - A git revision

    static func buildRevision(_ revision: String, options: BuildOptions) throws(Diagnostic) -> BuildReport {
        guard let top = Git.run(["rev-parse", "--show-toplevel"]), top.status == 0 else {
            throw Self.error(revision, "there is no file '\(revision)', and this folder is not in a git repository to read it as a revision")
        }
        let root = top.output.trimmingCharacters(in: .newlines)
        guard !revision.hasPrefix("-"), let commit = Git.run(["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"]), commit.status == 0 else {
            throw Self.error(revision, "there is no file '\(revision)', and the git repository has no revision of that name")
        }
        let sha = commit.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-baseline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        // Each input folder as the revision has it, at the same path under the temporary folder.
        var baseOptions = BuildOptions()
        baseOptions.baseURL = options.baseURL
        baseOptions.drafts = options.drafts
        baseOptions.allowShortcut = false
        var wanted: [String] = []
        for (folder, keyPath) in [(options.site, \BuildOptions.site), (options.examples, \BuildOptions.examples),
                                  (options.templates, \BuildOptions.templates)] {
            guard let inRepository = Paths.relative(folder, inside: root) else {
                throw Self.error(revision, "'\(folder)' is outside the git repository at \(root), so the revision cannot say what it held")
            }
            baseOptions[keyPath: keyPath] = temporary.appendingPathComponent(inRepository.isEmpty ? "." : inRepository).path
            if let listed = Git.run(["ls-tree", "-d", "--name-only", sha, "--", inRepository], in: root), listed.status == 0,
               !listed.output.isEmpty {
                wanted.append(inRepository)
            }
        }
        try? FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        if !wanted.isEmpty {
            guard Git.extract(sha, paths: wanted, repository: root, into: temporary.path) else {
                throw Self.error(revision, "could not read \(wanted.joined(separator: ", ")) at \(revision) with `git archive`")
            }
        }
        baseOptions.out = temporary.appendingPathComponent(".rowmotion-unused-output").path
        let site = SiteBuilder.build(baseOptions)
        var report = site.report
        // Sources as this checkout names them, not by the temporary folder.
        for index in report.pages.indices {
            report.pages[index].source = report.pages[index].source.replacingOccurrences(of: temporary.path + "/", with: "")
        }
        return report
    }
}

/// The `git` command line, run in a repository.
enum Git {
    /// Runs `git` with `arguments`; its standard output and exit status,
    /// nil when git cannot be started.
    static func run(_ arguments: [String], in folder: String? = nil) -> (output: String, status: Int32)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    /// `git archive` of `paths` at `commit`, unpacked by `tar` into `folder`.
    static func extract(_ commit: String, paths: [String], repository: String, into folder: String) -> Bool {
        let archive = Process(), unpack = Process()
        archive.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        archive.arguments = ["git", "archive", "--format=tar", commit, "--"] + paths
        archive.currentDirectoryURL = URL(fileURLWithPath: repository)
        unpack.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        unpack.arguments = ["tar", "-x", "-f", "-", "-C", folder]
        let pipe = Pipe()
        archive.standardOutput = pipe
        unpack.standardInput = pipe
        archive.standardError = FileHandle.nullDevice
        unpack.standardError = FileHandle.nullDevice
        do {
            try unpack.run()
            try archive.run()
        } catch { return false }
        archive.waitUntilExit()
        unpack.waitUntilExit()
        return archive.terminationStatus == 0 && unpack.terminationStatus == 0
    }
}
