import Diagnostics
import SnapshotFormat
import Foundation

/// What a demo block asks for: a sequence (an example file, or written
/// inline) and how to play it.
public struct DemoSpec: Sendable {
    public enum Source: Sendable {
        /// An example, by its path under `examples/`.
        case example(String)
        /// A sequence written in the block itself.
        case inline(SnapshotSequence)
    }

    public var source: Source
    /// The step to show first (0 is the first snapshot).
    public var step = 0
    /// Where `step` was written, to report a step past the last snapshot.
    public var stepLocation: SourceLocation?
    /// Where the block sets `cell` and `animation`: a data table draws no
    /// cells, and a collection view has no row animations.
    public var cellLocation: SourceLocation?
    public var animationLocation: SourceLocation?
    public var autoplay = false
    public var animation: RowAnimation?
    /// `reloadData`: a second pane that jumps without animation.
    public var compare: String?
    /// How rows are drawn here, instead of the example's own `cell:`.
    public var cell: CellLayout?
    /// `height`, `width` and `style` set here, over the example's own.
    public var framing = Presentation.Override()

    static let keys = ["example", "step", "autoplay", "animation", "compare", "cell"] + Presentation.blockKeys
    static let comparisons = ["reloadData", "strategies"]

    /// Reads a demo block of the page `file`. `examples`: the sequence
    /// files of the examples folder, which a reference must name.
    static func read(_ block: DemoBlock, file: String, examples: ExampleNames) -> (spec: DemoSpec?, diagnostics: [Diagnostic]) {
        let start = SourceLocation(file: file, line: block.firstLine, column: 1)
        let value: LocatedValue
        switch LocatedYAML.parse(block.source, file: file, lineOffset: block.firstLine - 1) {
        case .success(let parsed): value = parsed
        case .failure(let diagnostic): return (nil, [diagnostic])
        }
        guard let members = value.members else {
            return (nil, [.error("wrong-type", at: start, "a rowmotion block holds 'example: NAME' and options, or a sequence with 'steps'")])
        }
        if members.contains(where: { $0.key == "steps" }) {
            let (sequence, diagnostics) = SnapshotReader.read(value: value, file: file)
            return (sequence.map { DemoSpec(source: .inline($0)) }, diagnostics)
        }
        var diagnostics: [Diagnostic] = []
        var spec = DemoSpec(source: .example(""))
        var example: String?
        var framingKeys: [String: LocatedValue.Member] = [:]
        for member in members {
            let location = member.value.location
            switch (member.key, member.value.kind) {
            case ("example", .string(let name)): example = name
            case ("step", .integer(let step)) where step >= 0:
                spec.step = step
                spec.stepLocation = location
            case ("autoplay", .bool(let flag)): spec.autoplay = flag
            case ("animation", .string(let name)) where RowAnimation(rawValue: name) != nil:
                spec.animation = RowAnimation(rawValue: name)
                spec.animationLocation = member.keyLocation
            case ("compare", .string(let name)) where comparisons.contains(name): spec.compare = name
            case ("cell", _):
                let (layout, problems) = CellLayout.read(member.value)
                diagnostics += problems
                spec.cell = layout
                spec.cellLocation = member.keyLocation
            case (let key, _) where Presentation.blockKeys.contains(key): framingKeys[key] = member
            case ("example", _): diagnostics.append(.error("wrong-type", at: location, "'example' must be a file name under examples/"))
            case ("step", _): diagnostics.append(.error("wrong-type", at: location, "'step' must be a whole number from 0"))
            case ("autoplay", _): diagnostics.append(.error("wrong-type", at: location, "'autoplay' must be true or false"))
            case ("animation", _):
                let styles = RowAnimation.allCases.map(\.rawValue)
                diagnostics.append(.error("unknown-animation", at: location, "'animation' must be one of \(styles.joined(separator: ", "))"))
            case ("compare", _): diagnostics.append(.error("unknown-value", at: location, "'compare' must be 'reloadData' or 'strategies'"))
            default:
                diagnostics.append(.error("unknown-key", at: member.keyLocation,
                                          "unknown key '\(member.key)' in a rowmotion block" + KeySuggestions.keyHint(for: member.key, in: keys)))
            }
        }
        var framing = Presentation()
        diagnostics += framing.read(framingKeys)
        spec.framing = Presentation.Override(framing, keys: Set(framingKeys.keys))
        guard let example else {
            diagnostics.append(.error("missing-key", at: start, "a rowmotion block needs 'example: NAME' (a file under examples/) or 'steps'"))
            return (nil, diagnostics)
        }
        let location = members.first { $0.key == "example" }!.value.location
        switch resolve(example, in: examples) {
        case .success(let relative): spec.source = .example(relative)
        case .failure(let error): diagnostics.append(.error("example-path", at: location, error.message))
        }
        return (diagnostics.contains { $0.severity == .error } ? nil : spec, diagnostics)
    }

    /// The example's path under the examples folder: one of its sequence
    /// files, named without `..` or a leading `/` (`./a.yml` is `a.yml`).
    static func resolve(_ name: String, in examples: ExampleNames) -> Result<String, ReferenceError> {
        let parts = name.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !name.hasPrefix("/"), !parts.contains("..") else {
            return .failure(ReferenceError("'\(name)' must be a path inside examples/, without '..'"))
        }
        let relative = parts.joined(separator: "/")
        guard examples.contains(relative) else {
            return .failure(ReferenceError("no example '\(name)' in examples/" + examples.hint(for: relative)))
        }
        return .success(relative)
    }

    struct ReferenceError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}
