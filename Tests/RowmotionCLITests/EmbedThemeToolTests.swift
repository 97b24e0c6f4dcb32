import Foundation
import Testing

/// The build-tool plugin's `embed-theme`, run on theme files that try to end
/// the raw string literal they are put in.
@Suite("embed-theme")
struct EmbedThemeToolTests {
    static let tool: URL? = {
        // Beside the binary under test, else in the package's debug build.
        for folder in [CLI.binary.deletingLastPathComponent(), CLI.root.appendingPathComponent(".build/debug")] {
            for name in ["embed-theme", "embed-theme-tool"] {
                let candidate = folder.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }()

    @Test func everyFile_isItsOwnRawLiteral_whateverQuotesAndHashesItHolds() throws {
        let tool = try #require(Self.tool, "embed-theme is built with the package")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("embed-theme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [
            "a.mustache": "plain\n",
            "b.js": "const s = \"\"\"#;\nconst t = \"##x\";\n\"\"\"##\n",
            "c.css": "no trailing newline \"#",
            "d.mustache": "\n\n\\(interpolation) \\n stays as written\n",
        ]
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let output = folder.appendingPathComponent("out.swift")
        let process = Process()
        process.executableURL = tool
        process.arguments = [output.path] + files.keys.sorted().map { folder.appendingPathComponent($0).path }
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let source = try String(contentsOf: output, encoding: .utf8)
        // Each entry: "name": ###"""\n BODY \n"""### (+ "\n" when the file ends with one).
        for (name, text) in files {
            let start = try #require(source.range(of: "\"\(name)\": "), "\(name)")
            let hashes = source[start.upperBound...].prefix { $0 == "#" }
            let opener = String(hashes) + "\"\"\"\n", closer = "\n\"\"\"" + String(hashes)
            #expect(source[start.upperBound...].hasPrefix(opener), "\(name)")
            let bodyStart = source.index(start.upperBound, offsetBy: opener.count)
            let end = try #require(source.range(of: closer, range: bodyStart..<source.endIndex), "\(name)")
            let body = String(source[bodyStart..<end.lowerBound])
            let endsWithNewline = text.hasSuffix("\n")
            #expect(body == (endsWithNewline ? String(text.dropLast()) : text), "\(name): the literal's body is the file")
            #expect(!body.contains("\"\"\"" + hashes) && !body.contains("\"" + hashes), "\(name): nothing in it closes the literal")
            let after = source[end.upperBound...]
            #expect(after.hasPrefix(endsWithNewline ? " + \"\\n\"," : ","), "\(name)")
        }
    }
}
