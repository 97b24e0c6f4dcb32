import ProjectFiles
import Diagnostics
import Dispatch
import Foundation
import ListDiff
import SnapshotFormat

/// What loading the site's inputs decides before anything is rendered:
/// which files are examples, where outputs go, which names collide.
enum SiteInputs {
    /// The outputs the build makes itself: the pages', the index, the
    /// search index, each example's page and filmstrip.
    static func generatedOutputs(pages: [String], examples: [String]) -> Set<String> {
        Set(pages + ["index.html", OutputPaths.searchIndex] + examples.flatMap { [OutputPaths.examplePath($0), OutputPaths.filmstripPath($0)] })
    }

    /// Each output by its lowercased path: the first in byte order of
    /// those folded to one name (no sort: outputs that fold alike are
    /// rare, and only they are compared).
    static func folded(_ outputs: Set<String>) -> [String: String] {
        var byFoldedCase: [String: String] = [:]
        byFoldedCase.reserveCapacity(outputs.count)
        for output in outputs {
            let folded = OutputPaths.folded(output)
            if let earlier = byFoldedCase[folded], earlier.utf8.lexicographicallyPrecedes(output.utf8) { continue }
            byFoldedCase[folded] = output
        }
        return byFoldedCase
    }

    /// Outputs whose paths differ only in case (`A.md` beside `a.md`): on
    /// a file system that ignores case (macOS's, Windows') one would
    /// replace the other, so each is an error at the second one's source.
    static func caseCollisions(_ outputs: [(output: String, source: String)]) -> [Diagnostic] {
        // Grouped by folded name; only a group of more than one is sorted
        // (by bytes: the first keeps its name), and groups go in byte order.
        var first: [String: Int] = [:], shared: [String: [Int]] = [:]
        first.reserveCapacity(outputs.count)
        for (index, output) in outputs.enumerated() {
            let folded = OutputPaths.folded(output.output)
            if let earlier = first[folded] { shared[folded, default: [earlier]].append(index) } else { first[folded] = index }
        }
        var problems: [Diagnostic] = []
        for (_, group) in shared.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            let sorted = group.map { outputs[$0] }.sorted { $0.output.utf8.lexicographicallyPrecedes($1.output.utf8) }
            let earlier = sorted[0]
            for (output, source) in sorted.dropFirst() {
                guard earlier.source != source, earlier.output != output else { continue }
                problems.append(.error("output-collision", at: SourceLocation(file: source, line: 1, column: 1),
                                       "this file becomes '\(output)' and '\(earlier.source)' becomes '\(earlier.output)': they differ only in case, "
                                           + "and where case does not count (macOS, Windows) one would replace the other; rename one",
                                       notes: [Diagnostic.Note(location: SourceLocation(file: earlier.source, line: 1, column: 1), message: "the other file")]))
            }
        }
        return problems
    }

    /// Outputs inside a folder that is another output's file (a static
    /// `site/b.html/y.txt` beside the page `site/b.md`): a path cannot be
    /// both, and the write failed unlocated. Each is an error at the inner
    /// one's source; `made` are outputs the build makes without a source.
    static func filesInsideFiles(_ outputs: [(output: String, source: String)], made: [String: String],
                                 folders: [String: String] = [:]) -> [Diagnostic] {
        // Folded, as where case does not count a folder `B.html` is `b.html`;
        // each owner the output's index (what it is said only for a problem),
        // looked up by the folders' prefixes of the paths, no text copied.
        enum Owner { case made(String), output(Int) }
        var owners: [Substring: Owner] = [:]
        owners.reserveCapacity(outputs.count + made.count)
        for (output, what) in made { owners[OutputPaths.folded(output)[...]] = .made(what) }
        let foldedOutputs = outputs.map { OutputPaths.folded($0.output) }
        for (index, folded) in foldedOutputs.enumerated() where owners[folded[...]] == nil { owners[folded[...]] = .output(index) }
        func says(_ owner: Owner) -> String {
            switch owner {
            case .made(let what): return "is " + what
            case .output(let index): return "'\(outputs[index].source)' becomes"
            }
        }
        var problems: [Diagnostic] = []
        for ((output, source), folded) in zip(outputs, foldedOutputs) {
            // In a folder the build writes itself, or where it goes.
            if let (folder, what) = folders.first(where: { folded == $0.key.lowercased() || folded.hasPrefix($0.key.lowercased() + "/") }) {
                problems.append(.error("output-collision", at: SourceLocation(file: source, line: 1, column: 1),
                                       "this file becomes '\(output)', " + (folded == folder.lowercased() ? "" : "inside '\(folder)', ")
                                           + "which is \(what); rename it"))
                continue
            }
            for slash in folded.utf8.indices where folded.utf8[slash] == UInt8(ascii: "/") {
                guard let owner = owners[folded[..<slash]] else { continue }
                problems.append(.error("output-collision", at: SourceLocation(file: source, line: 1, column: 1),
                                       "this file becomes '\(output)', inside '\(output[..<slash])', which \(says(owner)); "
                                           + "a path cannot be both a file and a folder: rename one"))
                break
            }
        }
        return problems
    }

    /// Whether a file of the examples folder is a snapshot sequence.
    static func isSequence(_ path: String) -> Bool {
        SnapshotReader.extensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// The example files to read, by their path under the examples folder:
    /// every sequence file in it, one per page it becomes, decided in path
    /// order (collisions and diagnostics do not depend on threads). Each is
    /// read and diffed once; every page that shows it reuses that.
    static func exampleFiles(_ folder: InputFolder, diagnostics: inout [Diagnostic]) -> [String] {
        var chosen: [String] = []
        var exampleOutputs: [String: String] = [:]
        for name in folder.files where isSequence(name) {
            let path = folder.path(of: name)
            // a.yml, a.yaml and a.json would all be examples/a.html.
            let output = (name as NSString).deletingPathExtension.lowercased()
            if let first = exampleOutputs[output] {
                diagnostics.append(.error("output-collision", at: SourceLocation(file: path, line: 1, column: 1),
                                          "this example and '\(first)' both become the page examples/\((name as NSString).deletingPathExtension).html; rename one",
                                          notes: [Diagnostic.Note(location: SourceLocation(file: first, line: 1, column: 1), message: "the other example")]))
                continue
            }
            exampleOutputs[output] = path
            chosen.append(name)
        }
        return chosen
    }

    /// One example read and diffed, or the diagnostics that say why not.
    @Sendable static func loadExample(_ name: String, in folder: InputFolder) -> (example: LoadedExample?, diagnostics: [Diagnostic]) {
        let bytes: Result<[UInt8], FileContents.Failure>
        do throws(FileContents.Failure) { bytes = .success(try folder.read(name, limit: SnapshotLimits.standard.fileBytes)) } catch { bytes = .failure(error) }
        return loadExample(name, bytes: bytes, in: folder)
    }

    /// One example from the bytes read of it (or why they could not be).
    static func loadExample(_ name: String, bytes read: Result<[UInt8], FileContents.Failure>, in folder: InputFolder)
        -> (example: LoadedExample?, diagnostics: [Diagnostic]) {
        let path = folder.path(of: name)
        // Read once: the sequence and its key come from the same bytes,
        // under the size limit.
        let bytes: [UInt8]
        switch read {
        case .success(let read): bytes = read
        case .failure(let error):
            return (nil, [.error(error.tooLarge ? "file-too-large" : "unreadable-file", at: SourceLocation(file: path, line: 1, column: 1), error.message)])
        }
        var (sequence, found) = SnapshotReader.read(bytes: bytes, file: path)
        guard let sequence else { return (nil, found) }
        // The description is Markdown: held to what libcmark can parse in linear time.
        if let description = sequence.description, CMarkInput.tooManyOpenBrackets(description) != nil {
            found.append(.error("markdown-too-complex", at: SourceLocation(file: path, line: 1, column: 1), CMarkInput.message("example's description")))
            return (nil, found)
        }
        do throws(Diagnostic) {
            return (LoadedExample(name: name, sequence: sequence, changesets: try sequence.changesets(),
                                  sourceKey: Digest.sha256(bytes)), found)
        } catch {
            found.append(error)
            return (nil, found)
        }
    }
}
