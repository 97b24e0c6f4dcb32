@testable import embed_theme
import Foundation
@testable import SiteGenerator
import Testing

/// The player is written as ES modules (templates/script/) and shipped as
/// one classic script, since module scripts do not load from file://.
@Suite("Script bundle")
struct ScriptBundleTests {
    static func folder(_ files: [String: String]) throws -> [URL] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowmotion-script-\(UUID().uuidString)/script")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try files.map { name, text in
            let url = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url
        }
    }

    static func failure(_ files: [String: String]) throws -> ScriptBundle.Failure? {
        let urls = try folder(files)
        do throws(ScriptBundle.Failure) {
            _ = try ScriptBundle.bundle(urls)
            return nil
        } catch {
            return error
        }
    }

    /// Runs `script` in node and returns what it printed (nil without node).
    static func node(_ script: String) throws -> String? {
        let path = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-e", "var window = {}; var document = {};\n" + script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test func modules_runOnceImportsFirst_eachInItsOwnScope_exportsByName() throws {
        let bundle = try ScriptBundle.bundle(try Self.folder([
            "main.js": "import { twice, name } from './util-words.js';\nimport { log } from './log.js';\nconst hidden = 'main';\nlog(twice(21) + ' ' + name + ' ' + typeof secret);\n",
            "util-words.js": "import { log } from './log.js';\nconst secret = 1;\nexport function twice(x) { return x * 2; }\nexport const name = 'util';\nlog('util loaded');\n",
            "log.js": "export function log(text) { console.log(text); }\n",
        ]))
        // log.js first (both import it), then util-words.js, main.js last and unwrapped.
        let order = ["// ---- log.js", "// ---- util-words.js", "// ---- main.js"].map { bundle.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order[0]! < order[1]! && order[1]! < order[2]!, "\(bundle)")
        #expect(bundle.contains("const { twice, name } = $utilWords;") && !bundle.contains("export "))
        #expect(bundle.components(separatedBy: "// ---- log.js").count == 2)
        if let printed = try Self.node(bundle) {
            #expect(printed == "util loaded\n42 util undefined\n", "\(printed)")
        }
    }

    /// Comment lines are for the source's readers: left out, unless a
    /// template literal could hold such a line as text.
    @Test func commentLines_areLeftOut_butNotWhereATemplateLiteralCouldHoldThem() throws {
        let plain = try ScriptBundle.bundle(try Self.folder(["main.js": "// why\nconst a = 1; // kept: after code\n  // indented\n"]))
        #expect(!plain.contains("why") && !plain.contains("indented") && plain.contains("const a = 1; // kept: after code"))
        let literal = try ScriptBundle.bundle(try Self.folder(["main.js": "const text = `line\n// part of the text\n`;\n"]))
        #expect(literal.contains("// part of the text"))
    }

    @Test func whatTheBundlerDoesNotRead_isAnErrorAtItsLine() throws {
        let main = "import { a } from './a.js';\n"
        #expect(try Self.failure(["main.js": main, "a.js": "export default function a() {}\n"])?.description.hasSuffix(
            "a.js:1:1: error: an export the bundler does not read: put `export` before a function, const, let, var or class declaration") == true)
        #expect(try Self.failure(["main.js": "// a\nimport * as a from './a.js';\n", "a.js": "export const a = 1;\n"])?.description.hasSuffix(
            "main.js:2:1: error: an import the bundler does not read: write `import { a, b } from './module.js';` on one line") == true)
        #expect(try Self.failure(["main.js": main, "a.js": "export const b = 1;\n"])?.message == "'a.js' does not export 'a'")
        #expect(try Self.failure(["main.js": main])?.message == "no module 'a.js' beside it")
        #expect(try Self.failure(["main.js": main, "a.js": "import { b } from './b.js';\nexport const a = 1;\n",
                                  "b.js": "import { a } from './a.js';\nexport const b = 1;\n"])?.message
                == "'a.js' imports, through others, the module that imports it")
        #expect(try Self.failure(["main.js": main, "a.js": "export const a = 1;\n", "stray.js": "export const s = 1;\n"])?.message
                == "no module imports 'stray.js', so the page would never run it")
        #expect(try Self.failure(["a.js": "export const a = 1;\n"])?.message == "the player's modules have no main.js to start from")
    }

    /// The theme built into the binary carries the bundle of templates/script/ as it is now.
    @Test func theBuiltInPlayerScript_isTheBundleOfTemplatesScript() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("templates/script")
        let modules = try FileManager.default.contentsOfDirectory(at: script, includingPropertiesForKeys: nil).filter { $0.pathExtension == "js" }
        #expect(modules.count >= 6)
        let bundle = try ScriptBundle.bundle(modules)
        #expect(DefaultTheme.files["rowmotion.js"] == bundle)
        #expect(bundle.contains("window.Rowmotion = Object.freeze("))
    }
}
