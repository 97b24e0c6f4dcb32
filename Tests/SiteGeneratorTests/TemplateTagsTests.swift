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
        let pairs: [(String, String)] = [("{{", "}}"), ("<%", "%>"), ("[", "]"), ("<%", "%>}}"), ("((", "))"), ("@", "@@")]
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
                case 3: text += open + "! a comment " + close + "text "
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
}
