import Foundation
import Mustache
import SeededRandom
@testable import SiteGenerator
import Testing

/// The theme's renders: swift-mustache's, metered as they go. A metered
/// render writes exactly what a plain one writes, for every template and
/// context, random ones included, and stops exactly past its limit.
@Suite("Template library")
struct TemplateLibraryTests {
    /// A context of any names, as the theme's typed contexts answer them.
    struct Bag: TemplateContext {
        var fields: [String: Any]

        init(_ fields: [String: Any]) { self.fields = fields }
        init(from decoder: any Decoder) { fields = [:] }
        func child(named key: String) -> Any? { fields[key] }
    }

    /// A library of templates, each parsed as the theme parses them.
    static func library(_ texts: [String: String]) throws -> TemplateLibrary {
        _ = ByteHTMLEscaping.registered
        return TemplateLibrary(templates: try texts.mapValues { try MustacheTemplate(string: ByteHTMLEscaping.pragma + $0) })
    }

    /// The metered render, and swift-mustache's plain one.
    static func renders(_ texts: [String: String], _ context: any TemplateContext, template: String = "t") throws -> (String?, String?) {
        let library = try library(texts)
        return (try library.render(context, withTemplate: template, limit: .max), library.mustache.render(context, withTemplate: template))
    }

    /// A render past its limit stops with an error, never silently short:
    /// its count bounds its bytes from above, so it is whole from the count
    /// up and stopped below the bytes, over lists, escapes, indented
    /// partials, numbers and an optional inside a value.
    @Test func render_isWholeFromItsCount_andStopsBelowItsBytes() throws {
        let texts = ["t": "{{#items}}<li>{{name}} {{n}}</li>\n  {{> p}}\n{{/items}}{{{raw}}}", "p": "{{title}}&{{flag}}\nnext\n"]
        let contexts = [
            Bag(["items": [Bag(["name": "a<b", "n": 7]), Bag(["name": "\"q\"", "n": 1234])], "title": "T&T", "flag": true, "raw": "<b>raw</b>"]),
            Bag(["items": [Bag(["name": "x", "n": Optional(1) as Any])], "title": "T", "flag": true, "raw": ""]),
        ]
        let library = try Self.library(texts)
        for context in contexts {
            let reference = Array(try #require(library.mustache.render(context, withTemplate: "t")).utf8)
            let metered = try #require(try library.meteredRender(context, withTemplate: "t", limit: .max))
            #expect(metered.bytes == reference && metered.counted >= reference.count)
            for limit in 0...(metered.counted + 3) {
                let limited = try? library.renderBytes(context, withTemplate: "t", limit: limit)
                #expect(limited == nil || limited == reference, "limit \(limit)")
                if limit < reference.count { #expect(limited == nil, "limit \(limit) of \(reference.count)") }
                if limit >= metered.counted { #expect(limited == reference, "limit \(limit), counted \(metered.counted)") }
            }
            #expect(throws: RenderStop.tooLarge) { _ = try library.renderBytes(context, withTemplate: "t", limit: reference.count - 1) }
        }
    }

    /// Whitespace rules (standalone lines, CRLF, indented partials inside
    /// sections), escaping, the stack's lookups and a dotted name.
    @Test func handWrittenCases_renderAsSwiftMustache() throws {
        let context = Bag(["title": "A \"quoted\"\u{301} <title> & 'x'", "flag": true, "off": false, "n": 42, "empty": [Bag](),
                           "items": [Bag(["title": "one", "n": 1]), Bag(["title": "two"])], "inner": Bag(["title": "deep", "more": Bag(["x": "y"])]),
                           "words": ["a", "b"], "flags": [true, true], "dict": ["k": "v", "list": [1, 2]] as [String: Any]])
        let cases: [[String: String]] = [
            ["t": "{{title}}|{{{title}}}|{{&title}}|{{n}}|{{flag}}|{{off}}|{{missing}}"],
            ["t": "{{#items}}\n  {{title}}{{n}}\n{{/items}}\n{{^empty}}none{{/empty}}"],
            ["t": "  {{#flag}}  \r\n  yes\r\n  {{/flag}}\r\n{{^off}}no{{/off}}"],
            ["t": "a\n  {{> p}}\nb\n{{#items}}\n    {{> p}}\n{{/items}}", "p": "x\n{{title}}\ny\r\nz\n"],
            ["t": "{{#inner}}{{title}} {{.title}} {{more.x}} {{inner.more.x}}{{/inner}} {{.title}} {{inner.title}}"],
            ["t": "{{#words}}<{{.}}>{{/words}}{{#flags}}[{{title}}]{{/flags}}{{#n}}{{.}}:{{title}}{{/n}}"],
            ["t": "{{#dict}}{{k}}{{#list}}{{.}}{{/list}}{{/dict}}{{dict.k}}"],
            ["t": "{{=<% %>=}}<% title %> <%#flag%>y<%/flag%>\n<%={{ }}=%>\n{{n}}"],
            ["t": "{{! comment }}\n  {{! standalone }}\n{{title}}{{#title}}{{.}}{{/title}}"],
            ["t": "{{#empty}}x{{/empty}}{{^empty}}{{title}}{{/empty}}{{^items}}x{{/items}}{{^n}}x{{/n}}"],
        ]
        for texts in cases {
            let (metered, plain) = try Self.renders(texts, context)
            #expect(metered != nil && metered == plain, "\(texts)")
        }
    }

    /// A number with a fraction (a front matter param) renders as
    /// swift-mustache writes it, as a variable and as a section.
    @Test func doubles_renderAsSwiftMustache() throws {
        for value in [1.5, 0.1, -0.0, 1e20, 1.0 / 3.0, .infinity, .nan, 123456789.125] {
            let context = Bag(["v": value, "title": "T"])
            for text in ["{{v}}|{{{v}}}", "{{#v}}[{{.}}{{title}}{{v.x}}]{{/v}}{{^v}}no{{/v}}"] {
                let (metered, plain) = try Self.renders(["t": text], context)
                #expect(metered != nil && metered == plain, "\(value): \(text)")
            }
        }
    }

    /// A context, a list or a dictionary written as text is Swift's
    /// description of it, as swift-mustache writes it (the theme check
    /// refuses the ones it can see), counted as it is written.
    @Test func valuesWrittenAsText_renderAsSwiftMustache() throws {
        let values: [Any] = [Bag(["a": "<b>"]), ["x", "y\""], [Bag(["n": 1]), Bag(["t": "2"])], ["k": "v", "n": 2, "l": [1, 2]] as [String: Any],
                             [true, false], [Bag]()]
        for value in values {
            let context = Bag(["v": value, "list": [Bag(["w": value])]])
            for text in ["{{v}}|{{{v}}}", "{{#list}}{{w}}{{&w}}{{/list}}"] {
                let (metered, plain) = try Self.renders(["t": text], context)
                #expect(metered != nil && metered == plain, "\(value): \(text)")
            }
        }
    }

    /// Transforms, parents and blocks, another content type, an optional
    /// inside a value: the metered render writes what a plain one does.
    @Test func transformsBlocksAndOptionals_renderAsSwiftMustache() throws {
        let context = Bag(["title": "<a>", "name": "x"])
        for text in ["{{uppercased(title)}}", "{{<p}}{{$b}}x{{/b}}{{/p}}", "{{$b}}x{{/b}}", "{{% CONTENT_TYPE: TEXT}}{{title}}"] {
            let library = try Self.library(["t": text, "p": "{{$b}}d{{/b}}", "x": "x"])
            #expect(try library.render(context, withTemplate: "t") == library.mustache.render(context, withTemplate: "t"), "\(text)")
        }
        // A dynamic partial reads its name as a `String`, which a metered
        // render never hands out (its text counts itself as it is written):
        // it names no template there. The theme check refuses one anyway
        // (`unknown-partial`), so no theme renders one.
        let dynamic = try Self.library(["t": "[{{>*name}}]", "x": "x"])
        #expect(dynamic.mustache.render(context, withTemplate: "t") == "[x]")
        #expect(try dynamic.render(context, withTemplate: "t") == "[]")
        // An optional boxed in a value.
        for value in [Optional("x") as Any] {
            let context = Bag(["v": value])
            let library = try Self.library(["t": "{{v}}"])
            #expect(try library.render(context, withTemplate: "t") == library.mustache.render(context, withTemplate: "t"))
        }
    }

    // MARK: - Random templates

    struct Generator {
        var random: SeededGenerator
        /// Whether tags use transforms (`{{lowercased(s)}}`,
        /// `{{#reversed(list)}}`, `{{index()}}`), and contexts hold front
        /// matter's values (nested dictionaries, lists of any values,
        /// numbers with a fraction): what only swift-mustache renders.
        var transforms = false
        var names = ["a", "b", "s", "n", "flag", "off", "list", "words", "empty", "inner", "missing", ".", "inner.s", ".s", "inner.inner.a", "dict"]
        /// Names as text: mostly what gives text (a context or a list as
        /// text is its Swift description, which declines).
        var textNames = ["a", "b", "s", "n", "flag", "off", "missing", "inner.s", ".s", "inner.inner.a", "dict.s", "."]

        init(random: SeededGenerator, transforms: Bool = false) {
            (self.random, self.transforms) = (random, transforms)
            if transforms {
                names += ["matter", "matter.list", "matter.inner", "key", "value", "x"]
                textNames += ["matter.s", "matter.x", "key", "value", "x", "matter.list"]
            }
        }

        /// Lists are shorter than this; with transforms, long enough that a
        /// list's elements count more than the template's own text.
        var longest: UInt64 { transforms ? 12 : 3 }

        /// A name, with transforms around it now and then when they are on.
        mutating func transformed(_ name: String) -> String {
            guard transforms, chance(40) else { return name }
            if chance(10) { return pick(["first()", "last()", "index()", "even()", "odd()"]) }
            let all = ["lowercased", "uppercased", "capitalized", "reversed", "count", "empty", "first", "last", "plusone", "minusone", "odd",
                       "sorted", "enumerated", "unknown"]
            let inner = "\(pick(all))(\(name))"
            return chance(15) ? "\(pick(all))(\(inner))" : inner
        }

        mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

        /// Text with whatever the whitespace rules look at.
        mutating func text() -> String {
            (0..<Int(random.next() % (transforms ? 6 : 4))).map { _ in pick(["", " ", "  ", "\t", "\n", "\r\n", "x", "<p>", "{", "}", "é", "\"\u{301}", "\n  "]) }.joined()
        }

        /// A template "t" that includes partials "p1" and "p2", "p1" including "p2".
        mutating func templateSet() -> [String: String] {
            let p2 = template(depth: 1, partials: [])
            let p1 = template(depth: 1, partials: ["p2"])
            return ["p2": p2, "p1": p1, "t": template(depth: 0, partials: ["p1", "p2"])]
        }

        mutating func template(depth: Int, partials: [String]) -> String {
            var out = ""
            for _ in 0..<Int(random.next() % 6) {
                out += text()
                switch random.next() % 10 {
                case 0, 1: out += "{{\(pick(["", " "]))\(transformed(pick(textNames)))\(pick(["", " "]))}}"
                case 2:
                    let opener = pick(["{{{", "{{&"])
                    out += opener + transformed(pick(textNames)) + (opener == "{{{" ? "}}}" : "}}")
                case 3 where depth < 3, 4 where depth < 3, 5 where depth < 3:
                    let name = transformed(pick(names.filter { $0 != "." || chance(30) }))
                    let kind = pick(["#", "#", "^"])
                    let (open, close) = (chance(50) ? "\n" : "", chance(50) ? "\n" : "")
                    out += "\(open)\(pick(["", "  ", "\t"])){{\(kind)\(name)}}\(open)" + template(depth: depth + 1, partials: partials)
                        + "\(close)\(pick(["", " "])){{/\(name)}}\(close)"
                case 6 where !partials.isEmpty: out += "\(pick(["", "\n", "\n  ", "\n\t "])){{> \(pick(partials))}}\(pick(["", "\n", " "]))"
                case 7: out += "\(pick(["", "\n  "])){{! note }}\(pick(["", "\n"]))"
                case 8 where chance(20): out += "{{=<% %>=}}<%\(pick(names))%><%={{ }}=%>"
                default: out += text()
                }
            }
            return out
        }

        mutating func value(depth: Int) -> Any? {
            switch random.next() % 11 {
            case 0: return nil
            case 1: return pick(["", "plain", "<b>&amp;\"'</b>", "line\nnext\r\n", "\"\u{301} x", "é"])
            case 2: return chance(50)
            case 3: return Int(random.next() % 200) - 100
            case 4 where depth < 3: return context(depth: depth + 1)
            case 5 where depth < 3: return (0..<Int(random.next() % longest)).map { _ in context(depth: depth + 1) }
            case 6: return (0..<Int(random.next() % longest)).map { _ in pick(["w", "<w>", "\n"]) }
            case 7: return (0..<Int(random.next() % longest)).map { _ in chance(50) }
            case 8 where depth < 3: return ["s": pick(["d", "<d>"]), "a": Int(random.next() % 9)] as [String: Any]
            case 9 where chance(10): return 2.5
            case 10 where transforms && depth < 3: return frontMatter(depth: depth + 1)
            default: return pick(["text", "\n"])
            }
        }

        /// A value as front matter gives it (`FrontMatter.Param.templateValue`).
        mutating func frontMatter(depth: Int) -> Any {
            switch random.next() % 7 {
            case 0: return pick(["", "m", "<m>&\"", "Zeta alpha", "é\u{301}"])
            case 1: return Int(random.next() % 20) - 10
            case 2: return pick([0.5, -2.25, 1e21])
            case 3: return chance(50)
            case 4 where depth < 4: return (0..<Int(random.next() % 4)).map { _ in frontMatter(depth: depth + 1) } as [Any]
            case 5 where depth < 4:
                var members: [String: Any] = [:]
                for name in ["s", "x", "list", "inner"] where chance(60) { members[name] = frontMatter(depth: depth + 1) }
                return members
            default: return pick(["t", "u<"])
            }
        }

        mutating func context(depth: Int) -> Bag {
            var fields: [String: Any] = [:]
            for name in names where name.first != "." && !name.contains(".") && name != "missing" && name != "key" && name != "value" {
                if let value = value(depth: depth) { fields[name] = value }
            }
            return Bag(fields)
        }
    }

    /// `ROWMOTION_TEMPLATE_CASES` random templates and contexts (400 by
    /// default), the metered render of each compared with a plain one.
    @Test func randomTemplates_renderMeteredAsSwiftMustache() throws {
        let count = ProcessInfo.processInfo.environment["ROWMOTION_TEMPLATE_CASES"].flatMap(Int.init) ?? 400
        var parsed = 0
        for seed in UInt64(20_261_125)..<UInt64(20_261_125 + count) {
            var generator = Generator(random: SeededGenerator(seed: seed))
            let texts = generator.templateSet()
            let context = generator.context(depth: 0)
            guard let library = try? Self.library(texts) else { continue }
            parsed += 1
            let reference = library.mustache.render(context, withTemplate: "t")
            #expect(try library.render(context, withTemplate: "t", limit: .max) == reference, "seed \(seed): templates \(texts)")
        }
        #expect(parsed * 2 >= count, "only \(parsed) of \(count) template sets parsed")
    }

    /// Templates with transforms over
    /// front matter's values: the metered render writes exactly what a
    /// plain one does, and counts at least every byte it writes. Seeds
    /// from `ROWMOTION_TEMPLATE_SEED` (one case: `ROWMOTION_TEMPLATE_CASES=1`).
    @Test func randomTemplatesWithTransforms_renderMeteredAsSwiftMustache() throws {
        let count = ProcessInfo.processInfo.environment["ROWMOTION_TEMPLATE_CASES"].flatMap(Int.init) ?? 400
        let first = ProcessInfo.processInfo.environment["ROWMOTION_TEMPLATE_SEED"].flatMap(UInt64.init) ?? 20_261_126
        var (parsed, metered, transforming) = (0, 0, 0)
        for seed in first..<(first + UInt64(count)) {
            var generator = Generator(random: SeededGenerator(seed: seed), transforms: true)
            let texts = generator.templateSet()
            let context = generator.context(depth: 0)
            guard let library = try? Self.library(texts) else { continue }
            parsed += 1
            if texts.values.contains(where: { $0.contains("(") && $0.contains(")}}") }) { transforming += 1 }
            let reference = library.mustache.render(context, withTemplate: "t").map { Array($0.utf8) }
            let render = try library.meteredRender(context, withTemplate: "t", limit: .max)
            #expect(render?.bytes == reference, "seed \(seed) (ROWMOTION_TEMPLATE_SEED=\(seed) ROWMOTION_TEMPLATE_CASES=1): templates \(texts)")
            if let render {
                metered += 1
                #expect(render.counted >= render.bytes.count, "seed \(seed): counted \(render.counted) of \(render.bytes.count) bytes")
            }
            #expect(try library.renderBytes(context, withTemplate: "t") == reference, "seed \(seed)")
        }
        print("randomTemplatesWithTransforms: \(metered) metered renders of \(parsed) parsed, \(transforming) with transforms; seeds from \(first)")
        #expect(parsed * 3 >= count && metered == parsed, "only \(parsed) of \(count) template sets parsed, \(metered) rendered")
        #expect(transforming * 2 >= parsed, "only \(transforming) of \(parsed) template sets used a transform")
    }
}
