import ProjectFiles
import Diagnostics
import SnapshotFormat
import ArgumentParser
import Foundation

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a Rowmotion site in a folder: site/index.md, one example, and _site/ and .build/ in .gitignore.",
        discussion: "Refuses to overwrite any file that already exists.")

    @Argument(help: "The folder to start in.")
    var folder = "."

    /// The list the first example draws.
    enum Layout: String, ExpressibleByArgument, CaseIterable {
        case list, grid, table
    }

    @Option(help: "The first example's layout: list (a table view), grid (a collection view's photo grid) or table (a data table).")
    var layout: Layout = .list

    static func files(for layout: Layout) -> [(path: String, text: String)] {
        let (name, what, example): (String, String, String)
        switch layout {
        case .list:
            (name, what) = ("inbox.yml", "How the inbox animates when new mail arrives.")
            example = """
                title: Inbox — new mail arrives at the top
                description: A new message is inserted at the top while an old one is archived.
                animation: fade
                steps:
                  - label: Initial
                    items: [Welcome, Invoice, Newsletter]
                  - label: New mail
                    items: [Reminder, Welcome, Invoice]

                """
        case .grid:
            (name, what) = ("photos.yml", "How the photo grid animates when a photo arrives.")
            example = """
                title: Photos — a new photo reflows the grid
                description: A new photo is inserted at the start; every photo after it moves one place on.
                layout: grid
                columns: 3
                cell: {image: emoji, title: place}
                steps:
                  - label: Initial
                    items:
                      - {id: p1, emoji: "🏔", place: Alps}
                      - {id: p2, emoji: "🌊", place: Coast}
                      - {id: p3, emoji: "🌵", place: Desert}
                  - label: A new photo
                    items:
                      - {id: p4, emoji: "🌅", place: Harbour}
                      - {id: p1, emoji: "🏔", place: Alps}
                      - {id: p2, emoji: "🌊", place: Coast}
                      - {id: p3, emoji: "🌵", place: Desert}

                """
        case .table:
            (name, what) = ("tasks.yml", "How the task table animates when a task is done.")
            example = """
                title: Tasks — one cell changes, then a re-sort
                description: Completing a task changes one cell; sorting by task moves the rows that change place.
                layout: table
                fields: [title, done]
                titles: {title: Task, done: Done}
                steps:
                  - label: Initial
                    items:
                      - {id: t1, title: Write the notes, done: false}
                      - {id: t2, title: Fix the crash, done: false}
                  - label: A task is done
                    items:
                      - {id: t1, title: Write the notes, done: false}
                      - {id: t2, title: Fix the crash, done: true}
                  - label: Sorted by task
                    items:
                      - {id: t2, title: Fix the crash, done: true}
                      - {id: t1, title: Write the notes, done: false}

                """
        }
        return [
            ("site/index.md", """
                ---
                title: My list
                ---
                # My list

                \(what)

                ```rowmotion
                example: \(name)
                ```

                """),
            ("examples/" + name, example),
        ]
    }

    func run() throws {
        let manager = FileManager.default
        let root = URL(fileURLWithPath: folder)
        func at(_ path: String) -> SourceLocation { SourceLocation(file: path, line: 1, column: 1) }
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
            report([.error("init", at: at(folder), "is a file, not a folder to start a site in")])
            throw ExitCode(1)
        }
        // Anything already at a path, a symbolic link (even one leading
        // nowhere) included, or a linked folder on the way, stops init
        // before it writes: it never writes through a link.
        var problems: [Diagnostic] = []
        for path in Self.files(for: layout).map(\.path) + [".gitignore"] {
            var prefix = ""
            for part in path.split(separator: "/") {
                prefix += prefix.isEmpty ? String(part) : "/" + part
                let full = root.appendingPathComponent(prefix).path
                if Self.isLink(full) {
                    problems.append(.error("init", at: at(full), "is a symbolic link; rowmotion init does not write through links"))
                    break
                }
                if prefix == path, path != ".gitignore", (try? manager.attributesOfItem(atPath: full)) != nil {
                    problems.append(.error("init", at: at(full), "already exists; rowmotion init does not overwrite files"))
                }
            }
        }
        guard problems.isEmpty else {
            report(problems)
            throw ExitCode(1)
        }
        // Written as every file the tool writes (`WritePath`): no link
        // followed inside the project, each file new (`O_EXCL`).
        let project = Project.ofWorkingFolder()
        do throws(Diagnostic) {
            for file in Self.files(for: layout) {
                let path = root.appendingPathComponent(file.path).path
                let target = try WritePath.prepare(path, in: project)
                guard WritePath.writeNewFile(Array(file.text.utf8), to: target) else {
                    throw .error("init", at: at(path), "cannot write the file: \(String(cString: strerror(errno)).lowercased())")
                }
                print("created \(shown(file.path))")
            }
            let ignore = root.appendingPathComponent(".gitignore")
            let current = (try? FileContents.read(ignore.path, limit: 1 << 20, followingLink: false)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            // The site and the build's own folder (the tool, its cache).
            let lines = current.split(separator: "\n").map(String.init)
            let missing = ["_site/", ".build/"].filter { !lines.contains($0) }
            if !missing.isEmpty {
                let separator = current.isEmpty || current.hasSuffix("\n") ? "" : "\n"
                try WritePath.write(Array((current + separator + missing.map { $0 + "\n" }.joined()).utf8), to: ignore.path, in: project,
                                    what: ".gitignore")
                print(current.isEmpty ? "created \(shown(".gitignore"))" : "added \(missing.joined(separator: " and ")) to \(shown(".gitignore"))")
            }
        } catch {
            report([error])
            throw ExitCode(1)
        }
        // Through the SwiftPM plugin, the next command is the plugin's.
        let command = ProcessInfo.processInfo.environment["ROWMOTION_COMMAND"] ?? "rowmotion"
        print("next: " + (folder == "." ? "" : "cd \(folder), then ") + "\(command) build, then open _site/index.html")
    }

    /// A path as the user reaches it from where they ran `init`.
    func shown(_ path: String) -> String {
        folder == "." ? path : (folder.hasSuffix("/") ? folder : folder + "/") + path
    }

    static func isLink(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeSymbolicLink
    }
}

