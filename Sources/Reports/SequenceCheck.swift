import Diagnostics
import Foundation
import ListDiff
import SnapshotFormat

/// Everything `rowmotion check` says about one snapshot sequence file: the
/// reader's diagnostics, then warnings about its steps.
public enum SequenceCheck {
    /// - Parameter followingLink: whether a file that is a link itself is
    /// read (one named on the command line) or refused (one found in a folder).
    public static func check(path: String, followingLink: Bool = true) -> [Diagnostic] {
        let (sequence, diagnostics) = SnapshotReader.read(path: path, followingLink: followingLink)
        guard let sequence else { return diagnostics }
        var result = diagnostics
        do {
            let changesets = try sequence.changesets()
            let violations = RuleCheck.violations(in: sequence, changesets: changesets)
            for (index, changeset) in changesets.enumerated() {
                let step = sequence.steps[index + 1]
                if changeset.isEmpty {
                    result.append(.warning("step-changes-nothing", at: step.location,
                                           "step '\(step.label)' changes nothing: it is the same as the snapshot before it"))
                }
                result += violations.filter { $0.step == index + 1 }.map(\.diagnostic)
            }
        } catch {
            result.append(error)
        }
        return result
    }
}
