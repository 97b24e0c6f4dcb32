import Reports
import SnapshotFormat
import ArgumentParser
import ListDiff
import ProjectFiles

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the batches of every step of a snapshot sequence.",
        discussion: "The text format is what a developer would write inside performBatchUpdates; the JSON format is stable: an object with 'file' and 'steps', each step with 'from', 'to', 'label', 'diagnostics' and 'batches', each batch with 'sections' and 'rows' ('items' with --flavor collection), each of those with 'delete', 'insert', 'move' and 'reload' (sections as numbers, rows as [section, row], moves as [from, to], counted from 0 as UIKit counts), and 'after', the sections' and rows' ids once the batch has run; the SVG format is a filmstrip, one frame per snapshot, that shows the changes without JavaScript (for a pull request); the replay format is one step as an SVG that plays by itself, with no script (the first step, or the one --step names), for a README or an issue.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, svg, replay
    }

    @Argument(help: "A snapshot sequence file (.yml, .yaml or .json).")
    var file: String

    @Option(help: "Output format: text (Swift calls), json, svg (a filmstrip) or replay (one step as an SVG that plays itself).")
    var format: Format = .text

    @Option(help: "The calls and words for a table view (table: UITableView, rows) or a collection view (collection: UICollectionView, items, reconfigureItems for content changes); for text, the default is the sequence's own view (collection for 'layout: grid' or 'table', or a section with a layout); --format json keeps the table view's keys unless --flavor collection is given.")
    var flavor: CallFlavor?

    @Option(help: "Only the step into snapshot N (1 is the first change).")
    var step: Int?

    @Option(help: "How reordered rows are reported: minimal-moves (what Rowmotion uses), or, for comparison, offsets (Heckel-style: every row a move passes over moves too) or deletes-and-inserts (no moves).")
    var strategy: DiffStrategy = .minimalMoves

    func run() throws {
        // Inside the project a file is read as every input is: never through a link.
        let follows: Bool
        switch InputTree.namedFile(file, in: .ofWorkingFolder()) {
        case .success(let link): follows = link
        case .failure(let problem):
            report([problem])
            throw ExitCode(1)
        }
        let (sequence, diagnostics) = SnapshotReader.read(path: file, followingLink: follows)
        report(diagnostics)
        guard let sequence else { throw ExitCode(1) }
        if let step, !(1..<sequence.steps.count).contains(step) {
            throw ValidationError(sequence.steps.count > 1
                ? "--step must be between 1 and \(sequence.steps.count - 1): '\(file)' has \(sequence.steps.count) snapshots"
                : "'\(file)' has a single snapshot, so no step to show")
        }
        let diffReport: DiffReport
        do {
            diffReport = DiffReport(file: file, sequence: sequence, changesets: try sequence.changesets(strategy: strategy), only: step,
                                    // The JSON keeps its documented keys ("rows") unless a collection view's words are asked for.
                                    flavor: flavor ?? (format == .json ? .table : nil))
        } catch {
            report([error])
            throw ExitCode(1)
        }
        switch format {
        case .text: print(diffReport.swiftCalls)
        case .json: print(diffReport.json, terminator: "")
        case .svg: print(Filmstrip().svg(for: diffReport), terminator: "")
        case .replay:
            guard let replay = Replay().svg(for: diffReport) else {
                throw ValidationError("'\(file)' has a single snapshot, so no step to replay")
            }
            print(replay, terminator: "")
        }
    }
}

/// Named on the command line in argument-parser's kebab case
/// (`minimal-moves`); the Swift spelling (`minimalMoves`), which the
/// player's `data-strategy` keeps, is taken too.
extension DiffStrategy: ExpressibleByArgument {
    var argument: String {
        rawValue.reduce(into: "") { name, character in
            name += character.isUppercase ? "-" + character.lowercased() : String(character)
        }
    }

    public init?(argument: String) {
        guard let found = Self.allCases.first(where: { $0.argument == argument || $0.rawValue == argument }) else { return nil }
        self = found
    }

    public var defaultValueDescription: String { argument }
    public static var allValueStrings: [String] { allCases.map(\.argument) }
}
extension CallFlavor: ExpressibleByArgument {}
