// Writes the default theme into the binary's source at build time:
//   embed-theme <output.swift> <file>...
// Each file becomes an entry of `DefaultTheme.files`, keyed by its name,
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
let files = arguments.dropFirst().map { URL(fileURLWithPath: $0) }.sorted { $0.lastPathComponent < $1.lastPathComponent }
for file in files {
    let text: String
    do {
        text = try String(contentsOf: file, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("\(file.path):1:1: error: cannot read the theme file: \(error.localizedDescription)\n".utf8))
        exit(1)
    }
    let hashes = delimiter(for: text)
    let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
    source += "        \"\(file.lastPathComponent)\": \(hashes)\"\"\"\n\(body)\n\"\"\"\(hashes)"
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
