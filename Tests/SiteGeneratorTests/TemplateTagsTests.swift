import Foundation
import Mustache
import SeededRandom
@testable import SiteGenerator
import Testing

/// The theme check reads a template's tags as swift-mustache does: every
/// check (section depth, tags × bytes, names, partials) stands on them.
@Suite("Template tags as the engine reads them")
struct TemplateTagsTests {
    /// Random templates of variables behind every form of set-delimiter
    /// tag the engine takes (spaces, tabs, newlines between the
    /// delimiters; a closing delimiter that ends in the old one), with
    /// unescaped tags in each delimiter's form: the names the check reads,
    /// in order, are the ones the engine renders. A `{{=<%\t%>=}}` the
    /// engine took and the check did not hid 40,000 nested sections.
    @Test func randomDelimiters_theCheckReadsTheTagsTheEngineRenders() throws {
        let count = ProcessInfo.processInfo.environment["ROWMOTION_TEMPLATE_CASES"].flatMap(Int.init) ?? 400
        let first = ProcessInfo.processInfo.environment["ROWMOTION_TEMPLATE_SEED"].flatMap(UInt64.init) ?? 20_261_126
        let separators = [" ", "\t", "\n", "  \t", " \n "]
        let pairs: [(String, String)] = [("{{", "}}"), ("<%", "%>"), ("[", "]"), ("<%", "%>}}"), ("((", "))"), ("@", "@@"), ("<!", "!>")]
        // A line break right after an opening delimiter is no tag to the
        // engine (it drops the delimiter): the engine decides, not `names`.
        var (rendered, written, shown) = (0, 0, 0)
        for seed in first..<(first + UInt64(count)) {
            var random = SeededGenerator(seed: seed)
            var (open, close) = ("{{", "}}")
            var text = "", names: [String] = []
            for index in 0..<Int.random(in: 4...12, using: &random) {
                let name = "v\(index)"
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    let (newOpen, newClose) = pairs.randomElement(using: &random)!
                    let (a, b, c) = (separators.randomElement(using: &random)!, separators.randomElement(using: &random)!,
                                     Bool.random(using: &random) ? "" : separators.randomElement(using: &random)!)
                    text += open + "=" + a + newOpen + b + newClose + c + "=" + close
                    (open, close) = (newOpen, newClose)
                    continue
                case 1: text += open + "{" + name + close + "}"
                case 2: text += open + "&" + separators.randomElement(using: &random)! + name + close
                case 3:
                    // A closing delimiter's first character doubled: the
                    // engine does not step back after a partial match.
                    text += Bool.random(using: &random) ? open + "! a comment " + close + "text "
                        : open + "! a " + String(close.first!) + close + " b " + close + "text "
                    continue
                default: text += open + separators.randomElement(using: &random)! + name + " " + close
                }
                names.append(name)
                text += " | "
            }
            // Some forms the engine refuses (a name after a dropped delimiter
            // that meets a closing one): nothing to compare.
            guard let template = try? MustacheTemplate(string: text) else { continue }
            rendered += 1
            var context: [String: String] = [:]
            for index in 0..<12 { context["v\(index)"] = "⟦v\(index)⟧" }
            context["b"] = "⟦b⟧"
            let output = template.render(context)
            let engine = output.components(separatedBy: "⟦").dropFirst().compactMap { $0.components(separatedBy: "⟧").first }
            let checked = TemplateCheck.tags(in: text).filter { $0.kind == nil || $0.kind == "&" }.map(\.name)
            (written, shown) = (written + names.count, shown + engine.count)
            #expect(checked == engine, "seed \(seed): the check read \(checked), the engine rendered \(engine) from \(text.debugDescription)")
        }
        print("template tags: \(rendered) of \(count) templates parsed; seeds from \(first)")
        #expect(rendered * 10 >= count * 8, "only \(rendered) of \(count) templates parsed")
        #expect(shown * 10 >= written * 7, "only \(shown) of \(written) variables rendered")
    }

    /// Sections nested past the engine's stack, behind a tab between the
    /// delimiters, are found at the section that passes the depth.
    @Test func sectionsNestedBehindTabDelimiters_areTooDeep() {
        let text = "{{=<%\t%>=}}" + String(repeating: "<%#a%>", count: 200) + String(repeating: "<%/a%>", count: 200)
        let deep = TemplateCheck.tooDeep(TemplateCheck.tags(in: text))
        #expect(deep?.column == 12 + 100 * 6)
    }

    /// Blocks and parents are parsed by a recursion as sections are.
    @Test func blocksAndParentsNest_asSectionsDo() {
        let blocks = String(repeating: "{{$a}}", count: 101)
        #expect(TemplateCheck.tooDeep(TemplateCheck.tags(in: blocks))?.column == 601)
        let parents = String(repeating: "{{<a}}", count: 101)
        #expect(TemplateCheck.tooDeep(TemplateCheck.tags(in: parents))?.column == 601)
    }

    /// A dynamic partial written across a line break is still dynamic, as
    /// the engine reads it (the name checks refuse dynamic partials).
    @Test func aDynamicPartialAfterANewline_isReadAsDynamic() {
        let tags = TemplateCheck.tags(in: "{{>\n *name}}")
        #expect(tags.map(\.name) == ["*name"] && tags.first?.kind == ">")
    }

    /// Where a theme writes front matter decides whether the review
    /// compares it as raw HTML: escaped in text or a quoted text attribute
    /// is text; unescaped, in any other attribute, unquoted, in a script or
    /// stylesheet, or through `params` at all (attack round 3: a base
    /// theme's `style="{{params.css}}"`, and `{{{content}}}` inside
    /// `{{#params.banner}}`, which looks `content` up in the front matter
    /// first) is markup.
    @Test(arguments: [
        ("<h1>{{title}}</h1><meta name=\"description\" content=\"{{description}}\">", false),
        ("<img alt=\"Filmstrip of {{title}}\" src=\"{{root}}x.svg\">{{{content}}}", false),
        ("<title>{{^titleIsSite}}{{title}} — {{/titleIsSite}}{{siteTitle}}</title>", false),
        ("<h1>{{{title}}}</h1>", true),
        ("<h1>{{&description}}</h1>", true),
        ("<main style=\"{{title}}\">", true),
        ("<a href={{title}}>home</a>", true),
        ("<a class='x {{linkTitle}}'>", true),
        ("<script>var t = \"{{title}}\";</script>", true),
        ("<STYLE>/* {{title}} */</STYLE>", true),
        ("<script>x</script><p>{{title}}</p>", false),
        ("<p>{{params.author}}</p>", true),
        ("{{#params.banner}}<aside>{{{content}}}</aside>{{/params.banner}}", true),
        ("{{#params}}{{x}}{{/params}}", true),
        ("<p title=\"{{title}}\" data-x=\"{{title}}\">", true),
    ])
    func whereATemplateWritesFrontMatter_decidesWhetherItIsMarkup(template: String, markup: Bool) {
        #expect(TemplateCheck.writesFrontMatterAsMarkup(TemplateCheck.tags(in: template), in: template) == markup, "\(template)")
    }
}
