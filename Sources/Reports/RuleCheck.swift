import SnapshotFormat
import Diagnostics
import ListDiff

/// UIKit's batch-update rules checked over every batch of a sequence: the
/// one loop `check`, `diff` and the site report from, so a violation has
/// one id (`uikit-rule-N`) and one place (the step that causes it) wherever
/// it is reported.
public struct RuleViolation: Sendable {
    /// The step the batch leads to (an index into `sequence.steps`, from 1).
    public var step: Int
    /// The batch within that step, from 1.
    public var batch: Int
    public var rule: Int
    public var message: String
    public var location: SourceLocation

    public var diagnostic: Diagnostic { .warning("uikit-rule-\(rule)", at: location, message) }
    /// As `diff` and the example page list it.
    public var summary: String { "batch \(batch): rule \(rule): \(message)" }
}

public enum RuleCheck {
    /// Every rule a batch of `changesets` (the sequence's, in order) breaks,
    /// step by step; `only` limits it to one step. Content identity repeats
    /// identities on purpose, so rule 23 does not apply to it.
    public static func violations(in sequence: SnapshotSequence, changesets: [Changeset<String, Record<String>>],
                                  only: Int? = nil, flavor: Validator.Flavor? = nil) -> [RuleViolation] {
        let validator = Validator(flavor: flavor ?? CallFlavor(sequence).validatorFlavor)
        var found: [RuleViolation] = []
        for (index, changeset) in changesets.enumerated() where only == nil || only == index + 1 {
            let step = sequence.steps[index + 1]
            var current = sequence.steps[index].snapshot
            for (number, stage) in changeset.stages.enumerated() {
                for violation in validator.validate(stage.batch, before: current.layout, after: stage.after.layout)
                where !(violation.rule == 23 && sequence.identity == .content) {
                    found.append(RuleViolation(step: index + 1, batch: number + 1, rule: violation.rule,
                                               message: violation.message, location: step.location))
                }
                current = stage.after
            }
        }
        return found
    }
}
