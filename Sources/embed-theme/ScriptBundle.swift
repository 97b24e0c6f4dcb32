import Foundation

/// The player's modules (`templates/script/*.js`, ES module syntax) as the
/// one classic script a page loads (`rowmotion.js`): module scripts do not
/// load from `file://`, and the pages must. Each module becomes a function
/// scope that returns what it exports; an import becomes a destructuring of
/// that module's exports. Modules run once, imports first, from `main.js`.
///
/// Lines that hold only a `//` comment are left out of the bundle.
///
/// The syntax taken is the part of ES modules the player uses, and anything
/// else is an error at its line rather than a script that fails in a page:
/// `import { a, b } from './name.js';` on a line of its own, and `export`
/// before a `function`, `const`, `let`, `var` or `class` declaration.
enum ScriptBundle {
    struct Failure: Error {
        var file: String
        var line: Int
        var message: String

        var description: String { "\(file):\(line):1: error: \(message)" }
    }

    struct Module {
        var name: String
        var file: String
        var imports: [(names: [String], from: String, line: Int)] = []
        var exports: [String] = []
        var body: [String] = []
    }

    static let entry = "main"

    /// Reads one module's text.
    static func module(named name: String, file: String, text: String) throws(Failure) -> Module {
        var module = Module(name: name, file: file)
        let importLine = #/^import \{ *([A-Za-z_$][\w$]*(?: *, *[A-Za-z_$][\w$]*)*) *\} from '\./([a-z][a-z0-9-]*)\.js';$/#
        let exportLine = #/^export (?:async )?(?:function\*? *|const |let |var |class )([A-Za-z_$][\w$]*)/#
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("import") {
                guard let match = try? importLine.wholeMatch(in: line) else {
                    throw Failure(file: file, line: index + 1, message: "an import the bundler does not read: write `import { a, b } from './module.js';` on one line")
                }
                module.imports.append((match.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }, String(match.2), index + 1))
                module.body.append("const { " + module.imports.last!.names.joined(separator: ", ") + " } = $" + camel(String(match.2)) + ";")
                continue
            }
            if line.hasPrefix("export") {
                guard let match = try? exportLine.prefixMatch(in: line) else {
                    throw Failure(file: file, line: index + 1, message: "an export the bundler does not read: put `export` before a function, const, let, var or class declaration")
                }
                module.exports.append(String(match.1))
                module.body.append(String(line.dropFirst("export ".count)))
                continue
            }
            module.body.append(String(line))
        }
        // Lines that are only a comment are for readers of the source, not
        // for pages (about a sixth of the script's bytes). Kept where a
        // template literal could hold such a line as text.
        func isComment(_ line: String) -> Bool { line.drop { $0 == " " }.hasPrefix("//") }
        if !module.body.contains(where: { !isComment($0) && $0.contains("`") }) {
            module.body.removeAll(where: isComment)
        }
        while module.body.last == "" { module.body.removeLast() }
        return module
    }

    /// `live-reload` → `liveReload`: the name of a module's exports object.
    static func camel(_ name: String) -> String {
        let parts = name.split(separator: "-")
        return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }

    /// The bundle of `files` (each `NAME.js`), entered at `main.js`.
    static func bundle(_ files: [URL]) throws(Failure) -> String {
        var modules: [String: Module] = [:]
        for file in files {
            let name = file.deletingPathExtension().lastPathComponent
            let text: String
            do { text = try String(contentsOf: file, encoding: .utf8) } catch {
                throw Failure(file: file.path, line: 1, message: "cannot read the module: \(error.localizedDescription)")
            }
            modules[name] = try module(named: name, file: file.path, text: text)
        }
        guard modules[entry] != nil else {
            throw Failure(file: files.first?.deletingLastPathComponent().appendingPathComponent("main.js").path ?? "main.js", line: 1,
                          message: "the player's modules have no main.js to start from")
        }
        // Imports first: a depth-first walk from the entry; a cycle is an error.
        var order: [String] = [], state: [String: Bool] = [:]  // false: being visited, true: done
        func visit(_ name: String, from importer: Module?, line: Int) throws(Failure) {
            if state[name] == true { return }
            guard let module = modules[name] else {
                throw Failure(file: importer?.file ?? name, line: line, message: "no module '\(name).js' beside it")
            }
            if state[name] == false {
                throw Failure(file: importer?.file ?? module.file, line: line, message: "'\(name).js' imports, through others, the module that imports it")
            }
            state[name] = false
            for imported in module.imports {
                try visit(imported.from, from: module, line: imported.line)
                let exported = Set(modules[imported.from]?.exports ?? [])
                if let missing = imported.names.first(where: { !exported.contains($0) }) {
                    throw Failure(file: module.file, line: imported.line, message: "'\(imported.from).js' does not export '\(missing)'")
                }
            }
            state[name] = true
            order.append(name)
        }
        try visit(entry, from: nil, line: 1)
        if let unused = modules.keys.sorted().first(where: { state[$0] == nil }) {
            throw Failure(file: modules[unused]!.file, line: 1, message: "no module imports '\(unused).js', so the page would never run it")
        }
        var script = """
            /* Rowmotion's player, bundled at build time from templates/script/ (\(order.map { $0 + ".js" }.joined(separator: ", "))):
               one classic script, since module scripts do not load from file://. Each module
               is a function scope returning its exports; only window.Rowmotion is global. */
            (function () {
            'use strict';

            """
        for name in order {
            let module = modules[name]!
            script += "// ---- \(name).js\n"
            if name == entry {
                script += module.body.joined(separator: "\n") + "\n"
            } else {
                script += "const $\(camel(name)) = (function () {\n" + module.body.joined(separator: "\n") + "\n"
                script += "return { " + module.exports.joined(separator: ", ") + " };\n})();\n\n"
            }
        }
        return script + "})();\n"
    }
}
