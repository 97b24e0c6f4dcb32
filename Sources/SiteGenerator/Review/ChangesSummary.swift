/// `--summary FILE`: the changes as Markdown for a pull request (GitHub's
/// `$GITHUB_STEP_SUMMARY`, or a comment): a table of the examples with their
/// counts before → after, then what changed per step in words, then the
/// pages whose text changed.
public enum ChangesSummary {
    public static func markdown(_ changes: Changes, baseline: BuildReport, current: BuildReport) -> String {
        let before = Dictionary(baseline.examples.map { ($0.example, $0) }) { first, _ in first }
        let after = Dictionary(current.examples.map { ($0.example, $0) }) { first, _ in first }
        let blocksBefore = Dictionary(baseline.blocks.map { ($0.name, $0) }) { first, _ in first }
        let blocksAfter = Dictionary(current.blocks.map { ($0.name, $0) }) { first, _ in first }
        func shown(_ change: Changes.ExampleChange, old: Bool) -> Changes.Shown? {
            guard change.page != nil else { return (old ? before : after)[change.example].map(Changes.Shown.init) }
            return (old ? blocksBefore : blocksAfter)[change.example].flatMap { Changes.Shown($0, in: old ? baseline : current) }
        }
        var lines = ["### Rowmotion: " + ChangesPage.headline(changes).capitalizedFirstLetter + " (since `\(code(changes.base))`)", ""]
        if !changes.examples.isEmpty {
            lines.append("| Example | Change | Snapshots | Batches | Inserted | Deleted | Moved | Reloaded |")
            lines.append("|---|---|---:|---:|---:|---:|---:|---:|")
            for change in changes.examples {
                let old = change.kind == .added ? nil : shown(change, old: true).map(totals)
                let new = change.kind == .removed ? nil : shown(change, old: false).map(totals)
                func cell(_ index: Int) -> String {
                    switch (old?[index], new?[index]) {
                    case let (from?, to?): return from == to ? "\(to)" : "\(from) → \(to)"
                    case let (from?, nil): return "\(from) → –"
                    case let (nil, to?): return "– → \(to)"
                    case (nil, nil): return "–"
                    }
                }
                lines.append("| `\(code(change.example))` \(cellText(change.title))\(shows(change)) | \(change.kind.rawValue) | "
                             + (0..<6).map(cell).joined(separator: " | ") + " |")
            }
            lines.append("")
            for change in changes.examples where !change.steps.isEmpty || !change.differences.isEmpty {
                lines.append("**`\(code(change.example))`**")
                lines.append("")
                for difference in change.differences { lines.append("- \(cellText(difference))") }
                for step in change.steps {
                    let label = step.label.isEmpty ? "" : " (“\(cellText(step.label))”)"
                    lines.append("- step \(step.step)\(label): \(cellText(step.summary))")
                }
                lines.append("")
            }
        }
        if !changes.theme.isEmpty {
            lines.append("The theme changed: " + changes.theme.map { "`\(code($0))`" }.joined(separator: ", ")
                         + " (every page is drawn by it, and its templates and scripts can change how any example moves)")
            lines.append("")
        }
        if !changes.markup.isEmpty {
            lines.append("Raw HTML changed on " + changes.markup.map { "`\(code($0))`" }.joined(separator: ", ")
                         + " (a page's raw HTML, and a value the theme writes unescaped, can script or restyle its players)")
            lines.append("")
        }
        if !changes.scripts.isEmpty {
            lines.append("Scripts or stylesheets of the site changed: " + changes.scripts.map { "`\(code($0))`" }.joined(separator: ", ")
                         + " (a page can load them)")
            lines.append("")
        }
        if !changes.pages.isEmpty {
            // Named by their Markdown file, as the pull request's files list them.
            lines.append("Pages whose text changed: " + changes.pages.map { "`\(code($0.source ?? $0.output))` (\($0.kind.rawValue))" }.joined(separator: ", "))
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// A demo block's example, or that it is written in the page.
    static func shows(_ change: Changes.ExampleChange) -> String {
        guard change.page != nil else { return "" }
        return change.shows.map { " (shows `\(code($0))`)" } ?? " (written in the page)"
    }

    /// Snapshots, then batches, inserted, deleted, moved and reloaded rows over all steps.
    static func totals(_ shown: Changes.Shown) -> [Int] {
        [shown.stepCount, shown.counts.map(\.batches).reduce(0, +), shown.counts.map(\.inserted).reduce(0, +),
         shown.counts.map(\.deleted).reduce(0, +), shown.counts.map(\.moved).reduce(0, +), shown.counts.map(\.reloaded).reduce(0, +)]
    }

    /// Text that cannot end a table cell or a line, start markup, or
    /// mention anyone. Read
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
            // A mention (`@octocat`, `@org/team`) would notify whoever it names
            // when the summary is posted: a word joiner after the @ keeps it text.
            case "@": out += "@\u{2060}"
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
