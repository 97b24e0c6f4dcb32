import Diagnostics
import Foundation
import ProjectFiles
import SeededRandom
@testable import SiteGenerator
import Testing

/// A project built again and again as `serve` builds it: from the last
/// build's model, told which files changed. Each build is held against a
/// clean build of the same files (no model, nothing reused), which it
/// must equal byte for byte and diagnostic for diagnostic.
final class EditSession {
    let project: FixtureProject
    var memo: BuildMemo?

    init(_ files: [(String, String)]) throws {
        project = try FixtureProject(files: files)
    }

    deinit { project.remove() }

    var options: BuildOptions { project.options }

    func path(_ relative: String) -> String { project.root.appendingPathComponent(relative).path }

    func write(_ relative: String, _ text: String) throws {
        try FileManager.default.createDirectory(at: project.root.appendingPathComponent(relative).deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: project.root.appendingPathComponent(relative))
    }

    func read(_ relative: String) throws -> String { try String(contentsOfFile: path(relative), encoding: .utf8) }

    func remove(_ relative: String) throws { try FileManager.default.removeItem(atPath: path(relative)) }

    /// A build from the model, told that `changed` (project-relative) changed.
    func build(changed: [String]) -> BuiltSite {
        memo?.changed = Set(changed.map(path))
        return SiteBuilder.build(options, memo: &memo)
    }

    func clean() -> BuiltSite { SiteBuilder.build(options) }

    /// Each diagnostic's text, in the order a report prints them.
    static func report(_ site: BuiltSite) -> [String] { DiagnosticReport(site.diagnostics).sorted.map(\.description) }
}

func pageText(_ title: String, body: String) -> String { "---\ntitle: \(title)\n---\n\(body)\n" }

let editFiles: [(String, String)] = [
    ("site/index.md", pageText("Home", body: "# Home\n\nSee [a](guide/a.md).\n")),
    ("site/guide/a.md", pageText("Alpha", body: "## Setup\n\nText.\n\n## Usage\n\nMore.\n")),
    ("site/guide/b.md", pageText("Beta", body: "Read [Alpha's setup](a.md#setup).\n\n```rowmotion\nexample: list.yml\n```\n")),
    ("site/guide/c.md", pageText("Gamma", body: "Plain page.\n")),
    ("site/other/d.md", pageText("Delta", body: "Also shows it.\n\n```rowmotion\nexample: list.yml\n```\n")),
    ("examples/list.yml", "title: A list\ndescription: Rows move.\nsteps:\n  - items: [a, b, c]\n  - items: [c, a, b]\n"),
    ("examples/other.yml", "title: Other\ndescription: Not shown.\nsteps:\n  - items: [x]\n  - items: [x, y]\n"),
]

/// Edits as a writer makes them, in any order, to `editFiles`' project:
/// mostly of a page's text (appended to, or written anew with other
/// headings, which mends what it warned of), links to a heading a page has
/// (sometimes to one it has not), examples shown (one now and then that is
/// missing), titles, examples' steps (now and then broken), pages added
/// and removed, two pages at once.
struct RandomEdits {
    var random: SeededGenerator
    var pages = ["site/index.md", "site/guide/a.md", "site/guide/b.md", "site/guide/c.md", "site/other/d.md"]
    let anchors = ["setup", "usage", "install"]

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    /// Makes edit number `step`: what it was, and the files it wrote or
    /// removed (as `session` names them); nil when it made none.
    mutating func apply(step: Int, to session: EditSession) throws -> (what: String, changed: [String])? {
        let page = pages.randomElement(using: &random)!
        switch Int.random(in: 0..<20, using: &random) {
        case 0...5:
            try session.write(page, try session.read(page) + "\nMore text \(step).\n")
            return ("body of \(page)", [page])
        case 6...7:
            let headings = Array(anchors.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
            let frontMatter = try session.read(page).components(separatedBy: "\n---\n").first ?? ""
            try session.write(page, frontMatter + "\n---\n" + headings.map { "## \($0.capitalized)\n\nText \(step).\n\n" }.joined())
            return ("\(page) written anew with headings \(headings)", [page])
        case 8...10:
            let target = pages.randomElement(using: &random)!
            let headings = try session.read(target).components(separatedBy: "\n").filter { $0.hasPrefix("## ") }.map { $0.dropFirst(3).lowercased() }
            let fragment = Int.random(in: 0..<6, using: &random) == 0 ? anchors.randomElement(using: &random)! : headings.randomElement(using: &random)
            let relative = String(target.dropFirst("site/".count))
            try session.write(page, try session.read(page) + "\nSee [it](/\(relative)\(fragment.map { "#" + $0 } ?? "")).\n")
            return ("link from \(page) to \(target)#\(fragment ?? "")", [page])
        case 11:
            let example = ["list.yml", "list.yml", "other.yml", "gone.yml"].randomElement(using: &random)!
            try session.write(page, try session.read(page) + "\n```rowmotion\nexample: \(example)\n```\n")
            return ("\(page) shows \(example)", [page])
        case 12:
            try session.write(page, try session.read(page).replacingOccurrences(of: "title: ", with: "title: T\(step) "))
            return ("title of \(page)", [page])
        case 13:
            let example = ["examples/list.yml", "examples/other.yml"].randomElement(using: &random)!
            let broken = Bool.random(using: &random) && step % 3 == 0
            try session.write(example, broken ? "title: [oops\n" : "title: E\(step)\ndescription: D.\nsteps:\n  - items: [a, b]\n  - items: [b, a\(step)]\n")
            return ("steps of \(example)\(broken ? ", broken" : "")", [example])
        case 14:
            let added = "site/new/p\(step).md"
            try session.write(added, pageText("New \(step)", body: "## Setup\n\nNew page.\n"))
            pages.append(added)
            return ("added \(added)", [added])
        case 15...16:
            let both = Array(Set([page, pages.randomElement(using: &random)!])).sorted()
            for page in both { try session.write(page, try session.read(page) + "\nBoth \(step).\n") }
            return ("bodies of \(both)", both)
        default:
            // The home page stays (its removal is a file removed like any other).
            guard pages.count > 2, page != "site/index.md" else { return nil }
            try session.remove(page)
            pages.removeAll { $0 == page }
            return ("removed \(page)", [page])
        }
    }
}


/// Every file of the site at `folder` but its marker, by path.
func siteOnDisk(_ folder: String) throws -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    for entry in FolderWalk.entries(under: folder) where !entry.isFolder && entry.path != SiteWriter.marker {
        #expect(entry.isFile, "\(entry.path) is not a plain file")
        // Two names a String takes for one (`K`, U+212A) are two files: a twin would hide here.
        #expect(files[entry.path] == nil, "\(Array(entry.path.utf8)) has a twin in the site")
        files[entry.path] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(entry.path)))
    }
    return files
}
