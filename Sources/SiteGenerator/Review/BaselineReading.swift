import ProjectFiles
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
        // A block's name is a page's path and a number; its page's output
        // becomes a link of the review page.
        for block in report.blocks {
            let hash = block.name.lastIndex(of: "#")
            guard let hash, Int(block.name[block.name.index(after: hash)...]) != nil, SiteFolder.isSafe(String(block.name[..<hash])),
                  SiteFolder.isSafe(block.output), !block.output.contains("\\"), !block.name.contains("\\"),
                  !block.name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw Self.error(path, "this report names a demo block '\(TerminalText.escaped(String(block.name.prefix(80))))', "
                                 + "which is not a page's path inside site/ and a number")
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
