/// One typed context per template: what each template may name.

struct NavItem {
    var title: String
    var href: String
    var current: Bool
}

/// What every page's head and navigation use.
struct Chrome {
    var siteTitle: String
    var root: String
    var stylesheet: String
    var script: String
    var nav: [NavItem]
}

struct PageContext {
    var siteTitle: String
    var title: String
    var description: String?
    var root: String
    var stylesheet: String
    var script: String
    var nav: [NavItem]
    var content: String

    init(_ chrome: Chrome, title: String, description: String?, content: String) {
        siteTitle = chrome.siteTitle
        self.title = title
        self.description = description
        root = chrome.root
        stylesheet = chrome.stylesheet
        script = chrome.script
        nav = chrome.nav
        self.content = content
    }
}

struct PlayerView {
    var name: String
    var title: String
    var step: Int
    var autoplay: Bool
    var compare: String?
    var initialHTML: String
    var data: String
}

struct BatchView {
    var number: Int
    var explanation: String
    var calls: String
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
    var siteTitle: String
    var title: String
    var description: String?
    var root: String
    var stylesheet: String
    var script: String
    var nav: [NavItem]
    var descriptionHTML: String
    var player: PlayerView
    var initialLabel: String
    var initialRows: Int
    var steps: [StepView]
    var validation: String
}

struct CardView {
    var title: String
    var href: String
    var stepCount: Int
    var sparkline: String
}

struct IndexContext {
    var siteTitle: String
    var title: String
    var description: String?
    var root: String
    var stylesheet: String
    var script: String
    var nav: [NavItem]
    var content: String
    var examples: [CardView]
}
