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
