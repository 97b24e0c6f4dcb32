import Reports
import Mustache

/// One typed context per template: what each template may name. Each
/// answers Mustache's lookups with a switch (`MustacheParent`) rather than
/// runtime reflection, which dominated build time for large sites. The
/// names a template may use are read off these types (`ContextSchema`,
/// through their `Decodable` conformance), and a test holds each switch to
/// them.

struct NavItem: TemplateContext, Sendable {
    var title: String
    var href: String
    var current: Bool
    /// In the tree (`nav`): the items one level below, when this folder is
    /// open (it holds the current page). Empty in the flat list (`navList`).
    var children: [NavItem] = []
    /// The page's `root` again: Mustache finds it on the item itself rather
    /// than by walking up the context stack for every link.
    var root = ""
    /// `root` and `href` together: the link from the current page, never
    /// readable as a scheme (a page named `javascript:x.md` at the root).
    var url: String { RelativeURL.safe(root + href) }
    /// Whether the item is an open folder: the items after it (in the flat
    /// list) or its `children` (in the tree) are its contents.
    var expanded = false
    /// 1 at the top level.
    var depth = 1
    /// Whether the item is a folder (a section).
    var isFolder = false
    /// In the flat list: how many open folders end after this item.
    var closes = 0
    /// Set only while `NavigationMemo` renders: the opening marker of the
    /// parts this item's `current` decides.
    var mark: String?

    static var computedNames: [String: any Decodable.Type] {
        ["url": String.self, "folder": Bool.self, "closes": [Bool].self, NavigationMemo.markKey: String.self]
    }
    static var hiddenNames: Set<String> { ["isFolder", "mark"] }

    func child(named key: String) -> Any? {
        switch key {
        case "expanded": return self.expanded
        case "title": return self.title
        case "href": return self.href
        case "current": return self.current
        case "children": return self.children
        case "root": return self.root
        case "url": return self.url
        case "depth": return self.depth
        case "folder": return self.isFolder
        // A list as long as the count, for `{{#closes}}</ul></li>{{/closes}}`.
        case "closes": return Array(repeating: true, count: closes)
        case NavigationMemo.markKey: return mark
        default: return nil
        }
    }
}

struct Chrome: TemplateContext, Sendable {
    var siteTitle: String
    var root: String
    var stylesheet: String
    var script: String
    /// The navigation as a flat list in document order (`navList`); `nav`
    /// gives it as a tree.
    var nav: [NavItem]
    /// The navigation partial's output for this page, when `NavigationMemo`
    /// rendered it (the theme's `nav` then writes it as is).
    var navigationHTML: String?
    /// Where `nav` comes from when it is made only if a template reads it
    /// outside the memoized partial (most pages never do).
    var navItems: LazyNavItems?

    static var computedNames: [String: any Decodable.Type] {
        ["nav": [NavItem].self, "navList": [NavItem].self, "titleIsSite": Bool.self]
    }
    static var hiddenNames: Set<String> { ["navItems"] }

    func child(named key: String) -> Any? {
        switch key {
        case "siteTitle": return siteTitle
        case "root": return root
        case "stylesheet": return stylesheet
        case "script": return script
        case "nav": return Navigation.tree(navItems?.make() ?? nav)
        case "navList": return navItems?.make() ?? nav
        case "navigationHTML": return navigationHTML
        // A page titled as the site says so (the home page): <title> then
        // names the site once, not "Rowmotion — Rowmotion".
        case "titleIsSite": return false
        default: return nil
        }
    }
}

/// The navigation's items, made only when a template reads them.
struct LazyNavItems: Decodable, Sendable {
    let make: @Sendable () -> [NavItem]

    init(_ make: @escaping @Sendable () -> [NavItem]) { self.make = make }

    /// For the schema: no items.
    init(from decoder: any Decoder) { make = { [] } }
}

/// A page's front matter as templates read it: keys nobody lists.
struct TemplateParams: Decodable, OpenTemplateValue {
    var values: [String: Any]

    init(_ values: [String: Any]) { self.values = values }

    /// For the schema: none.
    init(from decoder: any Decoder) { values = [:] }
}

/// A page context that holds the chrome (and so may carry memoized navigation).
protocol ChromeCarrying {
    var chrome: Chrome { get }
}

extension PageContext: ChromeCarrying {}
extension ExampleContext: ChromeCarrying {}
extension IndexContext: ChromeCarrying {}

struct PageContext {
    var chrome: Chrome
    var title: String
    var description: String?
    var content: String
    /// Whether the theme should show `title` as the heading: the front
    /// matter names one and the Markdown has no `h1` of its own.
    var showTitle = false
    /// The front matter's other keys, as templates read them.
    var params = TemplateParams([:])
}

struct PlayerView {
    var name: String
    var title: String
    var step: Int
    var autoplay: Bool
    var compare: String?
    var initialHTML: String
    var data: String
    /// In a `compare: strategies` group: the strategy this pane replays,
    /// its name for people, and its moves per step.
    var strategy: String?
    var strategyLabel: String?
    var moves: String?
    var moveSummary: String?
    /// The cell style rows are drawn in (`cell:`), if any.
    var cellStyle: String?
    /// The table style (`style:`) when not plain, and the list's size as
    /// CSS custom properties (`height:`, `width:`), when set.
    var tableStyle: String?
    var framing: String?
}

struct BatchView {
    var number: Int
    var explanation: String
    /// The calls as text, a line each (themes from before `callsHTML`).
    var calls: String
    /// The calls coloured as other Swift code, each line a `.call-line`
    /// span (what the player's script marks on hover).
    var callsHTML: String
}

struct StepView {
    var number: Int
    var label: String
    var counts: String
    var deferred: Bool
    var batchCount: Int
    var batches: [BatchView]
}

struct ExampleContext {
    var chrome: Chrome
    var title: String
    var description: String?
    var descriptionHTML: String
    var player: PlayerView
    var initialLabel: String
    var initialRows: Int
    var steps: [StepView]
    var validation: String
    /// The filmstrip's file name, beside the page.
    var filmstrip: String
}

struct CardView {
    var title: String
    var href: String
    var stepCount: Int
    var sparkline: String
}

struct IndexContext {
    var chrome: Chrome
    var title: String
    var description: String?
    var content: String
    var examples: [CardView]
    /// With `--baseline`, when anything changed: the link to changes.html.
    var changes: ChangesLink?
}

struct ChangesLink: TemplateContext {
    var href: String
    var text: String

    func child(named key: String) -> Any? {
        switch key {
        case "href": return href
        case "text": return text
        default: return nil
        }
    }
}

/// changes.html: what animates differently since the baseline.
struct ChangesContext: ChromeCarrying, TemplateContext {
    var chrome: Chrome
    var title: String
    var description: String?
    var base: String
    var summary: String
    var examples: [ChangeView]
    /// The theme files, pages with raw HTML and scripts of the site that
    /// are not the baseline's.
    var theme: [String]
    var markup: [String]
    var scripts: [String]
    var pages: [PageChangeView]

    static var computedNames: [String: any Decodable.Type] {
        ["hasPages": Bool.self, "hasTheme": Bool.self, "hasMarkup": Bool.self, "hasScripts": Bool.self]
    }
    static var flattenedNames: Set<String> { ["chrome"] }

    func child(named key: String) -> Any? {
        switch key {
        case "title": return title
        case "description": return description
        case "base": return base
        case "summary": return summary
        case "examples": return examples
        case "hasTheme": return !theme.isEmpty
        case "theme": return theme
        case "hasMarkup": return !markup.isEmpty
        case "markup": return markup
        case "hasScripts": return !scripts.isEmpty
        case "scripts": return scripts
        case "hasPages": return !pages.isEmpty
        case "pages": return pages
        default: return chrome.child(named: key)
        }
    }
}

struct ChangeView: TemplateContext {
    var name: String
    var title: String
    var kind: String
    var stepsSummary: String
    /// What else it is given differently, in words.
    var differences: [String]
    /// A demo block's page (its Markdown file) and the example it shows.
    var page: String?
    var shows: String?
    var steps: [StepChangeView]

    static var computedNames: [String: any Decodable.Type] { ["hasDifferences": Bool.self] }
    var playersHTML: String
    var beforeFilmstrip: String?
    var afterFilmstrip: String?
    /// Where each filmstrip's frame of the first changed step is.
    var beforeMark: FilmstripMarkView?
    var afterMark: FilmstripMarkView?
    /// The example's page, at the first changed step (`#step-N`).
    var exampleHref: String?
    var firstStep: Int?

    func child(named key: String) -> Any? {
        switch key {
        case "name": return name
        case "title": return title
        case "kind": return kind
        case "stepsSummary": return stepsSummary
        case "differences": return differences
        case "hasDifferences": return !differences.isEmpty
        case "page": return page
        case "shows": return shows
        case "steps": return steps
        case "playersHTML": return playersHTML
        case "beforeFilmstrip": return beforeFilmstrip
        case "afterFilmstrip": return afterFilmstrip
        case "beforeMark": return beforeMark
        case "afterMark": return afterMark
        case "exampleHref": return exampleHref
        case "firstStep": return firstStep
        default: return nil
        }
    }
}

struct StepChangeView: TemplateContext {
    var step: Int
    var label: String
    var summary: String
    var counts: String?
    var listingHTML: String
    /// The step on the example's page (`#step-N`), where it still has it.
    var href: String?

    static var computedNames: [String: any Decodable.Type] { ["hasListing": Bool.self] }

    func child(named key: String) -> Any? {
        switch key {
        case "step": return step
        case "label": return label
        case "summary": return summary
        case "counts": return counts
        case "hasListing": return !listingHTML.isEmpty
        case "listingHTML": return listingHTML
        case "href": return href
        default: return nil
        }
    }
}

struct PageChangeView: TemplateContext {
    var title: String
    var href: String?
    var kind: String
    /// The Markdown file, as the pull request names it.
    var source: String?

    func child(named key: String) -> Any? {
        switch key {
        case "title": return title
        case "href": return href
        case "kind": return kind
        case "source": return source
        default: return nil
        }
    }
}


extension PageContext: TemplateContext {
    static var computedNames: [String: any Decodable.Type] { ["titleIsSite": Bool.self] }
    static var flattenedNames: Set<String> { ["chrome"] }

    func child(named key: String) -> Any? {
        switch key {
        case "title": return self.title
        case "titleIsSite": return self.title == chrome.siteTitle
        case "description": return self.description
        case "content": return self.content
        case "showTitle": return self.showTitle
        case "params": return self.params.values
        default: return chrome.child(named: key)
        }
    }
}

extension PlayerView: TemplateContext {
    func child(named key: String) -> Any? {
        switch key {
        case "name": return self.name
        case "title": return self.title
        case "step": return self.step
        case "autoplay": return self.autoplay
        case "compare": return self.compare
        case "strategy": return self.strategy
        case "strategyLabel": return self.strategyLabel
        case "moves": return self.moves
        case "moveSummary": return self.moveSummary
        case "cellStyle": return self.cellStyle
        case "tableStyle": return self.tableStyle
        case "framing": return self.framing
        case "initialHTML": return self.initialHTML
        case "data": return self.data
        default: return nil
        }
    }
}

extension BatchView: TemplateContext {
    func child(named key: String) -> Any? {
        switch key {
        case "number": return self.number
        case "explanation": return self.explanation
        case "calls": return self.calls
        case "callsHTML": return self.callsHTML
        default: return nil
        }
    }
}

extension StepView: TemplateContext {
    func child(named key: String) -> Any? {
        switch key {
        case "number": return self.number
        case "label": return self.label
        case "counts": return self.counts
        case "deferred": return self.deferred
        case "batchCount": return self.batchCount
        case "batches": return self.batches
        default: return nil
        }
    }
}

extension ExampleContext: TemplateContext {
    static var flattenedNames: Set<String> { ["chrome"] }

    func child(named key: String) -> Any? {
        switch key {
        case "title": return self.title
        case "description": return self.description
        case "descriptionHTML": return self.descriptionHTML
        case "player": return self.player
        case "initialLabel": return self.initialLabel
        case "initialRows": return self.initialRows
        case "steps": return self.steps
        case "validation": return self.validation
        case "filmstrip": return self.filmstrip
        default: return chrome.child(named: key)
        }
    }
}

extension CardView: TemplateContext {
    func child(named key: String) -> Any? {
        switch key {
        case "title": return self.title
        case "href": return self.href
        case "stepCount": return self.stepCount
        case "sparkline": return self.sparkline
        default: return nil
        }
    }
}

extension IndexContext: TemplateContext {
    static var computedNames: [String: any Decodable.Type] { ["titleIsSite": Bool.self] }
    static var flattenedNames: Set<String> { ["chrome"] }

    func child(named key: String) -> Any? {
        switch key {
        case "title": return self.title
        case "titleIsSite": return self.title == chrome.siteTitle
        case "description": return self.description
        case "content": return self.content
        case "examples": return self.examples
        case "changes": return self.changes
        default: return chrome.child(named: key)
        }
    }
}

/// A filmstrip's size, and the box around the frame of the step a review
/// starts at, in the filmstrip's pixels.
struct FilmstripMarkView: TemplateContext {
    var width: Int
    var height: Int
    var step: Int
    var left: Int
    var markWidth: Int

    /// Nil when the filmstrip has no frame for `step` (or there is no step).
    init?(svg: String, step: Int?, snapshots: Int) {
        guard let step, step < snapshots, let size = Filmstrip.size(of: svg) else { return nil }
        let frame = Filmstrip.frame(ofSnapshot: step)
        (width, height, self.step) = (size.width, size.height, step)
        (left, markWidth) = (frame.x - 6, frame.width + 12)
    }

    func child(named key: String) -> Any? {
        switch key {
        case "width": return width
        case "height": return height
        case "step": return step
        case "left": return left
        case "markWidth": return markWidth
        default: return nil
        }
    }
}
