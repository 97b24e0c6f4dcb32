import Foundation
import Mustache
@testable import SiteGenerator
import Testing

/// A context whose switch forgets a field: what the schema test must catch.
private struct Forgetful: TemplateContext {
    var title: String
    var subtitle: String?
    var items: [ForgetfulItem]

    func child(named key: String) -> Any? {
        switch key {
        case "title": return title
        case "items": return items
        default: return nil
        }
    }
}

private struct ForgetfulItem: TemplateContext {
    var label: String
    var isOpen: Bool

    static var computedNames: [String: any Decodable.Type] { ["open": Bool.self] }
    static var hiddenNames: Set<String> { ["isOpen"] }

    func child(named key: String) -> Any? {
        key == "label" ? label : nil
    }
}

@Suite struct ContextSchemaTests {
    /// Every name a template may use in any context of the theme is one
    /// the context's switch answers: a field added to a context and not to
    /// its `child(named:)` fails here instead of rendering as nothing.
    @Test func everyNameOfEveryContext_isAnsweredByItsSwitch() {
        #expect(ContextSchema.unansweredNames(roots: TemplateCheck.roots.map(\.context)) == [])
    }

    /// Builds check only a project's own templates: the built-in ones
    /// are checked here, as every build once checked them.
    @Test func builtInTheme_passesTheTemplateCheck() throws {
        let theme = try Theme.load(projectTemplates: nil)
        #expect(theme.sources.values.allSatisfy { $0 == .builtIn })
        #expect(TemplateCheck.check(theme: theme).map(\.description) == [])
    }

    @Test func aFieldTheSwitchForgets_isFound_inNestedContextsAndComputedNames() {
        #expect(ContextSchema.unansweredNames(roots: [Forgetful.self]) == ["Forgetful.subtitle", "ForgetfulItem.open"])
    }

    /// The names come from the types: stored properties, the chrome's names
    /// on the page itself, computed names; not working state.
    @Test func schema_listsStoredFlattenedAndComputedNames_notHiddenOnes() throws {
        let schema = TemplateCheck.schema
        let page = schema.shape(of: PageContext.self)
        for name in ["title", "content", "showTitle", "siteTitle", "root", "script", "titleIsSite", "navigationHTML"] {
            #expect(schema.lookup(name, in: page) == .scalar, "\(name)")
        }
        #expect(schema.lookup("params", in: page) == .open)
        for hidden in ["chrome", "navItems", "isFolder", "mark", "titel"] {
            #expect(schema.lookup(hidden, in: page) == nil, "\(hidden)")
        }
        let nav = try #require(schema.lookup("navList", in: page))
        guard case .list(let item) = nav else { Issue.record("navList is \(nav)"); return }
        #expect(schema.lookup("folder", in: item) == .scalar)
        #expect(schema.lookup("closes", in: item) == .list(.scalar))
        #expect(schema.lookup("children", in: item) == nav)
        #expect(schema.lookup("isFolder", in: item) == nil)
        let example = schema.shape(of: ExampleContext.self)
        guard case .list(let step)? = schema.lookup("steps", in: example),
              case .list(let batch)? = schema.lookup("batches", in: step) else {
            Issue.record("steps.batches")
            return
        }
        #expect(schema.lookup("callsHTML", in: batch) == .scalar)
    }

    static func diagnostics(_ templates: [(String, String)]) throws -> [String] {
        let project = try FixtureProject(files: [("site/index.md", "# Home\n"), ("site/other.md", "# Other\n")]
            + templates.map { ("templates/\($0.0)", $0.1) })
        defer { project.remove() }
        let site = SiteBuilder.build(project.options)
        let folder = project.root.appendingPathComponent("templates").path
        return site.diagnostics.map { $0.description.replacingOccurrences(of: folder, with: "templates") }
    }

    /// A build without `--baseline` never renders `changes` nor fills
    /// `index`'s `changes` link; their names are checked all the same.
    @Test func namesInSectionsABuildLeavesEmpty_areChecked() throws {
        let index = try Self.diagnostics([
            ("index.mustache", "{{title}}{{#changes}}<a href=\"{{hreff}}\">{{text}}</a>{{/changes}}{{{content}}}\n"),
        ])
        #expect(index.contains("templates/index.mustache:1:31: error: the template uses 'hreff', which its context does not have"))
        // The review page is the built-in template's alone: a project's is
        // not used (nor checked), and the build says so.
        let changes = try Self.diagnostics([("changes.mustache", "{{#pages}}{{sorce}}{{/pages}}\n")])
        #expect(changes == ["templates/changes.mustache:1:1: warning: this file is not used: the review page (changes.html) is drawn by the "
                            + "built-in template alone, so that what it says of a pull request is never the pull request's; restyle it with rowmotion.css"])
    }

    /// Names resolve through the stack as Mustache resolves them: a
    /// section's element first, then the contexts around it; dotted names
    /// part by part; a transform's argument.
    @Test func namesResolveThroughTheStack_dottedNamesAndTransforms() throws {
        let good = try Self.diagnostics([
            ("page.mustache", "{{#navList}}{{title}} {{siteTitle}} {{#children}}{{url}}{{/children}}{{/navList}}"
                + "{{params.any.depth}} {{uppercased(title)}} {{#showTitle}}{{title}}{{/showTitle}}{{{content}}}\n"),
            ("example.mustache", "{{#player}}{{> player}}{{/player}}{{player.title}}{{#steps}}{{#batches}}{{number}}{{label}}{{siteTitle}}{{/batches}}{{/steps}}\n"),
        ])
        #expect(good.filter { $0.contains("error") } == [])
        let dotted = try Self.diagnostics([("page.mustache", "{{#navList}}{{content.x}}{{/navList}}{{player.title}}\n")])
        #expect(dotted.contains("templates/page.mustache:1:38: error: the template uses 'player.title', which its context does not have"))
        let transform = try Self.diagnostics([("page.mustache", "{{title}}{{lowercased(titel)}}\n")])
        #expect(transform.contains("templates/page.mustache:1:10: error: the template uses 'lowercased(titel)', which its context does not have"))
    }

    /// A partial may include itself over nested data (the tree's
    /// `children`), never on the same data nor by starting over from a
    /// list further out (which Mustache would walk without end).
    @Test func aPartialOverNestedData_mayIncludeItself_butNotOnTheSameData() throws {
        let quiet = [("index.mustache", "{{title}}{{{content}}}\n"), ("example.mustache", "{{title}}\n")]
        let tree = try Self.diagnostics(quiet + [
            ("page.mustache", "<ul>{{#nav}}{{> nav}}{{/nav}}</ul>{{{content}}}\n"),
            ("nav.mustache", "<li>{{title}}{{#children}}<ul>{{#title}}{{> nav}}{{/title}}</ul>{{/children}}</li>\n"),
        ])
        #expect(tree.filter { $0.contains("error") } == [], "\(tree)")
        // Starting over from the whole list inside an item multiplies the
        // renders even without a partial: refused where the list is named.
        let startsOver = try Self.diagnostics(quiet + [
            ("page.mustache", "<ul>{{#nav}}{{> nav}}{{/nav}}</ul>{{{content}}}\n"),
            ("nav.mustache", "<li>{{title}}{{#navList}}{{#children}}{{> nav}}{{/children}}{{/navList}}</li>\n"),
        ])
        #expect(startsOver.contains { $0.hasPrefix("templates/nav.mustache:1:14: error: the section 'navList' repeats a whole list for each element") },
                "\(startsOver)")
        let same = try Self.diagnostics([("nav.mustache", "<ul>{{#siteTitle}}{{> nav}}{{/siteTitle}}</ul>\n")])
        #expect(same.contains { $0.hasPrefix("templates/nav.mustache:1:19: error: the partial 'nav' is included within itself without end") },
                "\(same)")
    }
}

extension ContextSchemaTests {
    /// A section over front matter (`params`) may not have the name it is
    /// looked up by, so the lookup climbs to the page, whose `params` is the
    /// same data: a partial included there includes itself without end
    /// (before: the check took it for recursion over nested data, and the
    /// build crashed, SIGSEGV).
    @Test func aSectionFoundOnlyInFrontMatter_doesNotGoDown_soItsSelfIncludeIsRefused() throws {
        let project = try FixtureProject(files: [("templates/page.mustache", "{{title}}{{#params}}{{> page}}{{/params}}")])
        defer { project.remove() }
        let error = project.themeLoadError()
        #expect(error?.hasPrefix(
            "templates/page.mustache:1:21: error: the partial 'page' is included within itself without end") == true,
            "\(error ?? "the theme loaded")")
    }
}
