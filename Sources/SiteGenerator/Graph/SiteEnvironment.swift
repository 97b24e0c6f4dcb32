import BuildGraph
import Diagnostics
import ProjectFiles

/// What every rule of one site build reads besides the graph: the options
/// (the same for every build a graph has seen: they are in its identity),
/// the listed inputs, where outputs go, and the site's byte budget.
final class SiteEnvironment: Sendable {
    let options: BuildOptions
    let tree: InputTree
    let sink: OutputSink
    let budget: OutputBudget
    /// What the navigation's memo may hold of every page's navigation.
    let navigationMemory: OutputBudget
    /// The bytes of the inputs keying read (their stamp moved), each taken
    /// by the first rule that reads the file, so no input is read twice.
    private let read: Locked<[String: [UInt8]]>
    /// Each page's place in the order pages are counted against `budget`
    /// (the first past its limit is reported). The budget stops a build
    /// early only for what pages make: what it reports then is what the
    /// whole site's count would (pages are counted first), whatever the
    /// order threads made them in.
    let places: Locked<[String: Int]> = Locked([:])

    init(options: BuildOptions, tree: InputTree, sink: OutputSink, budget: OutputBudget, read: [String: [UInt8]]) {
        (self.options, self.tree, self.sink, self.budget) = (options, tree, sink, budget)
        navigationMemory = OutputBudget(limit: min(options.siteByteLimit, OutputLimits.navigationMemoBytes), input: budget.inputMeasure)
        self.read = Locked(read)
    }

    var siteFolder: InputFolder { tree[options.site] }
    /// Outputs besides the site's own (`BuildOptions.extraOutputs`).
    var extraOutputs: [any Rule.Type] { options.extraOutputs }
    /// What the site's input files weigh.
    func inputBytes() -> Int { tree.byteCount(of: options.inputFolders) }
    var examplesFolder: InputFolder { tree[options.examples] }
    var templatesFolder: InputFolder? { tree[options.templates].exists ? tree[options.templates] : nil }

    /// The bytes of `relative` in `folder`: those keying read (the bytes
    /// its digest is of), else read now.
    func bytes(of relative: String, in folder: InputFolder, limit: Int?) throws(FileContents.Failure) -> (bytes: [UInt8], keyed: Bool) {
        let path = folder.path(of: relative)
        if let bytes = read.withLock({ $0.removeValue(forKey: path) }) {
            if let limit, bytes.count > limit {
                throw FileContents.Failure(message: "the file is larger than \(ByteCount.describe(Int64(limit))), the limit for files", tooLarge: true)
            }
            return (bytes, true)
        }
        return (try folder.read(relative, limit: limit), false)
    }
}

extension Derivation {
    /// The site build this derivation is part of.
    var site: SiteEnvironment { environment as! SiteEnvironment }

    /// The bytes of an input file, its digest read (so a value made from
    /// them is made again when they change); a file whose bytes are not
    /// those its digest was taken from stops the build (it changed while
    /// the build ran).
    func read(_ relative: String, in folder: InputFolder, limit: Int?) throws(BuildStopped) -> Result<[UInt8], FileContents.Failure> {
        let path = folder.path(of: relative)
        let state = try value(SourceFile.self, path)
        let bytes: [UInt8], keyed: Bool
        do throws(FileContents.Failure) {
            (bytes, keyed) = try site.bytes(of: relative, in: folder, limit: limit)
        } catch {
            return .failure(error)
        }
        guard keyed || Digest.sha256(bytes) == state.digest else {
            throw BuildStopped(reason: "changed", detail: Diagnostic.error("changed-during-build", at: SourceLocation(file: path, line: 1, column: 1),
                                                                          "this file changed while the build ran; build again"))
        }
        return .success(bytes)
    }
}
