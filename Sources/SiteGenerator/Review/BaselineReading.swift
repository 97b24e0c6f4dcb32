import Reports
import Diagnostics
import Foundation
import SnapshotFormat

/// Reading a baseline: a report file (`--baseline-report`); a revision is built by the pipeline (`Baseline.load(revision:options:)`).
extension Baseline {
    /// The report at `path`, read as data: nothing in it is published as
    /// it is (its filmstrips must be ones Rowmotion writes, its names
    /// paths inside the site).
    public static func load(report path: String) throws(Diagnostic) -> Baseline {
        Baseline(name: path, report: try readReport(path))
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
        let report: BuildReport
        do { report = try JSONDecoder().decode(BuildReport.self, from: data) } catch {
            throw Self.error(path, "this report cannot be read: \(describe(error))")
        }
        // The report is data a pull request may have written: an example's
        // name becomes a path in the site, and its filmstrip a file there.
        for example in report.examples {
            guard SiteFolder.isSafe(example.example), !example.example.contains("\\"),
                  !example.example.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw Self.error(path, "this report names an example '\(TerminalText.escaped(String(example.example.prefix(80))))', "
                                 + "which is not a path inside examples/")
            }
            guard Filmstrip.isWellFormed(example.animation.filmstrip) else {
                throw Self.error(path, "the filmstrip this report holds for \(example.example) is not one Rowmotion writes; "
                                 + "write the report again with `rowmotion build --report FILE`")
            }
        }
        return report
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
}

/// The `git` command line, run in a repository.
enum Git {
    /// Why git could not do what was asked, in git's own words.
    struct Failure: Error {
        var message: String
    }

    /// Runs `git` with `arguments` (standard input from the file `input`);
    /// its standard output, its standard error and its exit status, nil
    /// when git cannot be started.
    static func run(_ arguments: [String], in folder: String? = nil, input: String? = nil)
        -> (output: [UInt8], text: String, error: String, status: Int32)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let output = Pipe()
        process.standardOutput = output
        // Standard error to a file, so that neither pipe can fill while the other is read.
        let errorPath = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-git-\(UUID().uuidString).err").path
        guard FileManager.default.createFile(atPath: errorPath, contents: nil), let errorFile = FileHandle(forWritingAtPath: errorPath) else { return nil }
        defer {
            try? errorFile.close()
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        process.standardError = errorFile
        if let input {
            guard let inputFile = FileHandle(forReadingAtPath: input) else { return nil }
            process.standardInput = inputFile
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let error = String(decoding: FileManager.default.contents(atPath: errorPath) ?? Data(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return ([UInt8](data), String(decoding: data, as: UTF8.self), error, process.terminationStatus)
    }

    /// The files of `paths` (folders, relative to the repository) as
    /// `commit` holds them, written under `folder`: read with `ls-tree` and
    /// `cat-file`, which, unlike `git archive`, leave out nothing that
    /// `.gitattributes` marks `export-ignore`. Symbolic links are made as
    /// links (the build then refuses those that lead out, as it would in
    /// the checkout); submodules are left out. A path missing at the
    /// revision is simply not there.
    static func checkOut(_ commit: String, paths: [String], repository: String, into folder: String) throws(Failure) {
        func failed(_ what: String, _ result: (output: [UInt8], text: String, error: String, status: Int32)?) -> Failure {
            guard let result else { return Failure(message: "git could not be started") }
            return Failure(message: "`git \(what)` failed (exit \(result.status))" + (result.error.isEmpty ? "" : ": \(result.error)"))
        }
        let listing = run(["ls-tree", "-r", "-z", "--full-tree", commit, "--"] + paths, in: repository)
        guard let listing, listing.status == 0 else { throw failed("ls-tree", listing) }
        // `<mode> <type> <object>\t<path>\0`, one entry a file.
        var entries: [(mode: String, object: String, path: String)] = []
        for record in listing.output.split(separator: 0) {
            guard let tab = record.firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let fields = record[..<tab].split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            let path = String(decoding: record[(tab + 1)...], as: UTF8.self)
            guard fields.count == 3, fields[1] == "blob", SiteFolder.isSafe(path) else { continue }
            entries.append((fields[0], fields[2], path))
        }
        guard !entries.isEmpty else { return }
        // Every blob in one `cat-file --batch`: `<object> blob <size>\n<bytes>\n` each.
        let requests = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-git-\(UUID().uuidString).in").path
        defer { try? FileManager.default.removeItem(atPath: requests) }
        guard FileManager.default.createFile(atPath: requests, contents: Data(entries.map { $0.object + "\n" }.joined().utf8)) else {
            throw Failure(message: "cannot write a temporary file for git")
        }
        let blobs = run(["cat-file", "--batch"], in: repository, input: requests)
        guard let blobs, blobs.status == 0 else { throw failed("cat-file --batch", blobs) }
        let bytes = blobs.output
        var offset = 0
        for entry in entries {
            guard let newline = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) else { throw Failure(message: "`git cat-file` ended early") }
            let header = String(decoding: bytes[offset..<newline], as: UTF8.self).split(separator: " ")
            guard header.count == 3, header[1] == "blob", let size = Int(header[2]), newline + 1 + size <= bytes.count else {
                throw Failure(message: "`git cat-file` answered '\(header.joined(separator: " "))' for \(entry.path)")
            }
            let content = Array(bytes[(newline + 1)..<(newline + 1 + size)])
            offset = newline + 1 + size + 1
            let destination = (folder as NSString).appendingPathComponent(entry.path)
            try? FileManager.default.createDirectory(atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            if entry.mode == "120000" {
                guard symlink(String(decoding: content, as: UTF8.self), destination) == 0 else {
                    throw Failure(message: "cannot make the symbolic link \(entry.path): \(String(cString: strerror(errno)))")
                }
            } else if !SiteWriter.writeFile(content, to: destination) {
                throw Failure(message: "cannot write \(entry.path) into a temporary folder")
            }
        }
    }
}
