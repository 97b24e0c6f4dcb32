/// `--summary FILE`: the changes as Markdown for a pull request (GitHub's
/// `$GITHUB_STEP_SUMMARY`, or a comment): a table of the examples with their
/// counts before → after, then what changed per step in words, then the
/// pages whose text changed.
public enum ChangesSummary {
    public static func markdown(_ changes: Changes, baseline: BuildReport, current: BuildReport) -> String {
        let before = Dictionary(baseline.examples.map { ($0.example, $0) }) { first, _ in first }
        let after = Dictionary(current.examples.map { ($0.example, $0) }) { first, _ in first }
        var lines = ["### Rowmotion: " + ChangesPage.headline(changes).capitalizedFirstLetter + " (since `\(code(changes.base))`)", ""]
        if !changes.examples.isEmpty {
            lines.append("| LoadedExample | Change | Snapshots | Batches | Inserted | Deleted | Moved | Reloaded |")
            lines.append("|---|---|---:|---:|---:|---:|---:|---:|")
            for change in changes.examples {
                let old = before[change.example].map(totals), new = after[change.example].map(totals)
                func cell(_ index: Int) -> String {
                    switch (old?[index], new?[index]) {
                    case let (from?, to?): return from == to ? "\(to)" : "\(from) → \(to)"
                    case let (from?, nil): return "\(from) → –"
                    case let (nil, to?): return "– → \(to)"
                    case (nil, nil): return "–"
                    }
                }
                lines.append("| `\(code(change.example))` \(cellText(change.title)) | \(change.kind.rawValue) | "
                             + (0..<6).map(cell).joined(separator: " | ") + " |")
            }
            lines.append("")
            for change in changes.examples where !change.steps.isEmpty {
                lines.append("**`\(code(change.example))`**")
                lines.append("")
                for step in change.steps {
                    let label = step.label.isEmpty ? "" : " (“\(cellText(step.label))”)"
                    lines.append("- step \(step.step)\(label): \(cellText(step.summary))")
                }
                lines.append("")
            }
        }
        if !changes.pages.isEmpty {
            // Named by their Markdown file, as the pull request's files list them.
            lines.append("Pages whose text changed: " + changes.pages.map { "`\(code($0.source ?? $0.output))` (\($0.kind.rawValue))" }.joined(separator: ", "))
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// Snapshots, then batches, inserted, deleted, moved and reloaded rows over all steps.
    static func totals(_ example: BuildReport.Example) -> [Int] {
        [example.stepCount, example.steps.map(\.batches).reduce(0, +), example.steps.map(\.inserted).reduce(0, +),
         example.steps.map(\.deleted).reduce(0, +), example.steps.map(\.moved).reduce(0, +), example.steps.map(\.reloaded).reduce(0, +)]
    }

    /// Text that cannot end a table cell or a line, or start markup. Read
    /// scalar by scalar: as Characters, CR LF is one character that is
    /// neither CR nor LF, and a title holding it forged a heading.
    static func cellText(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "|": out += "\\|"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "*", "_", "`", "[", "]", "\\": out += "\\" + String(scalar)
            default:
                // Every line break (LF, CR, NEL, U+2028/9) and control character is a space.
                let breaks = scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator
                out.unicodeScalars.append(breaks ? " " : scalar)
            }
        }
        return out
    }

    /// Text inside a code span: backticks cannot end it early.
    static func code(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar == "`" || scalar == "|" || scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator ? "'" : scalar
        }))
    }
}
