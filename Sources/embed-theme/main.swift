// Writes the default theme into the binary's source at build time:
//   embed-theme <output.swift> <file>...
// Each file becomes an entry of `DefaultTheme.files`, keyed by its name
// (the player's modules, templates/script/*.js, one entry: rowmotion.js),
// its text a raw string literal with enough `#`s that nothing in it can end
// the literal. Run by the EmbedTheme build-tool plugin for SiteGenerator, so
// templates/ is the theme's only copy in git.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: embed-theme <output.swift> <file>...\n".utf8))
    exit(2)
}

/// The `#`s a raw string needs so that neither `"""#…` nor `"#…` inside
/// the text closes or breaks it.
func delimiter(for text: String) -> String {
    var hashes = "#"
    while text.contains("\"\"\"" + hashes) || text.contains("\"" + hashes) { hashes += "#" }
    return hashes
}

var source = """
    // Generated at build time by the EmbedTheme plugin from templates/.

    extension DefaultTheme {
        /// The default theme's files, by name.
        static let files: [String: String] = [

    """
let inputs = arguments.dropFirst().map { URL(fileURLWithPath: $0) }
// The player's modules (templates/script/*.js) are bundled into rowmotion.js.
let modules = inputs.filter { $0.deletingLastPathComponent().lastPathComponent == "script" }
let files = inputs.filter { !modules.contains($0) }.sorted { $0.lastPathComponent < $1.lastPathComponent }
var texts: [(name: String, text: String)] = []
if !modules.isEmpty {
    do throws(ScriptBundle.Failure) {
        texts.append(("rowmotion.js", try ScriptBundle.bundle(modules)))
    } catch {
        FileHandle.standardError.write(Data((error.description + "\n").utf8))
        exit(1)
    }
}
for file in files {
    do {
        texts.append((file.lastPathComponent, try String(contentsOf: file, encoding: .utf8)))
    } catch {
        FileHandle.standardError.write(Data("\(file.path):1:1: error: cannot read the theme file: \(error.localizedDescription)\n".utf8))
        exit(1)
    }
}
for (name, text) in texts.sorted(by: { $0.name < $1.name }) {
    let hashes = delimiter(for: text)
    let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
    source += "        \"\(name)\": \(hashes)\"\"\"\n\(body)\n\"\"\"\(hashes)"
    source += text.hasSuffix("\n") ? " + \"\\n\",\n" : ",\n"
}
source += "    ]\n}\n"

// Rewritten only when it changes, so an unchanged theme compiles nothing.
let target = URL(fileURLWithPath: output)
if (try? String(contentsOf: target, encoding: .utf8)) != source {
    do {
        try source.write(to: target, atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("\(output):1:1: error: cannot write the embedded theme: \(error.localizedDescription)\n".utf8))
        exit(1)
    }
}
