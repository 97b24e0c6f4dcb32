import ArgumentParser
import Foundation

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a Rowmotion site in a folder: site/index.md, one example, and _site/ in .gitignore.",
        discussion: "Refuses to overwrite any file that already exists.")

    @Argument(help: "The folder to start in (default: the current folder).")
    var folder = "."

    static let files: [(path: String, text: String)] = [
        ("site/index.md", """
            ---
            title: My list
            ---
            # My list

            How the inbox animates when new mail arrives.

            ```rowmotion
            example: inbox.yml
            ```

            """),
        ("examples/inbox.yml", """
            title: Inbox — new mail arrives at the top
            description: A new message is inserted at the top while an old one is archived.
            animation: fade
            steps:
              - label: Initial
                items: [Welcome, Invoice, Newsletter]
              - label: New mail
                items: [Reminder, Welcome, Invoice]

            """),
    ]

    func run() throws {
        let manager = FileManager.default
        let root = URL(fileURLWithPath: folder)
        let existing = Self.files.map(\.path).filter { manager.fileExists(atPath: root.appendingPathComponent($0).path) }
        guard existing.isEmpty else {
            report(existing.map { .error("init", at: SourceLocation(file: root.appendingPathComponent($0).path, line: 1, column: 1),
                                         "already exists; rowmotion init does not overwrite files") })
            throw ExitCode(1)
        }
        for file in Self.files {
            let url = root.appendingPathComponent(file.path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: url)
            print("created \(file.path)")
        }
        let ignore = root.appendingPathComponent(".gitignore")
        let current = (try? String(contentsOf: ignore, encoding: .utf8)) ?? ""
        if !current.split(separator: "\n").contains("_site/") {
            let separator = current.isEmpty || current.hasSuffix("\n") ? "" : "\n"
            try Data((current + separator + "_site/\n").utf8).write(to: ignore)
            print(current.isEmpty ? "created .gitignore" : "added _site/ to .gitignore")
        }
        print("next: rowmotion build, then open _site/index.html")
    }
}

import SnapshotFormat
