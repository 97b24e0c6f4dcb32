import BuildGraph
import Diagnostics
import Foundation
import ProjectFiles
import SnapshotFormat

// Loading: the theme, the examples, the pages, the static files, each
// read from its input files; what reaches beyond a file (a page's title
// and place, an example's title and counts) kept apart, so that an edit
// that leaves it as it was stops there.

/// What every build checks before it reads anything (`InputFolders`).
enum InputChecks: StoredRule {
    static let name = "input-checks"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [Diagnostic] {
        for folder in build.site.options.inputFolders { _ = try build.value(FolderListing.self, folder) }
        return InputFolders.problems(build.site.options, tree: build.site.tree)
    }
}

/// The theme: the built-in one, each file overridden by the templates
/// folder's. Compiled templates are no value to store: a new process that
/// renders anything loads it again.
enum ThemeLoad: Rule {
    static let name = "theme"

    struct Value: Sendable {
        var theme: Theme?
        var error: Diagnostic?
        /// Files of the templates folder the theme does not use.
        var warnings: [Diagnostic]
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let options = build.site.options
        let listing = try build.value(FolderListing.self, options.templates)
        let folder = build.site.templatesFolder
        // Every file of the folder, read by the theme: its digest is what the theme was made from.
        if listing.exists { _ = try build.values(SourceFile.self, listing.files.map { build.site.tree[options.templates].path(of: $0) }) }
        var warnings: [Diagnostic] = []
        // (A copy of the built-in file, as this repository's own templates/ is, says nothing new.)
        for name in Theme.builtInOnly.sorted() where folder?.contains(name) ?? false
            && (try? folder?.read(name, limit: TemplateCheck.templateBytes)).map({ String(decoding: $0, as: UTF8.self) }) != DefaultTheme.files[name] {
            warnings.append(.warning("theme", at: SourceLocation(file: folder!.path(of: name), line: 1, column: 1),
                                     "this file is not used: the review page (changes.html) is drawn by the built-in template alone, "
                                         + "so that what it says of a pull request is never the pull request's; restyle it with rowmotion.css"))
        }
        do throws(Diagnostic) {
            return Value(theme: try Theme.load(templates: folder), error: nil, warnings: warnings)
        } catch {
            return Value(theme: nil, error: error, warnings: warnings)
        }
    }

    static func same(_ old: Value, _ new: Value) -> Bool {
        old.error == new.error && old.warnings == new.warnings && old.theme?.fileKeys == new.theme?.fileKeys
    }
}

/// What the site's pages read of the theme, kept: the names of its
/// stylesheet and script, a key of each template with the partials it
/// includes (a page is made again when its own templates change), and
/// what the theme's templates say of the site's markup.
enum ThemeFacts: StoredRule {
    static let name = "theme-facts"

    struct Value: StoreCodable, Equatable {
        var loaded: Bool
        var error: Diagnostic?
        var warnings: [Diagnostic]
        var fileKeys: [String: String]
        var stylesheet: String
        var script: String
        var templateKeys: [String: String]
        var showsExampleGallery: Bool
        var writesFrontMatterAsMarkup: Bool
        /// How the navigation can be memoized: composed from its items'
        /// parts (by shape, with holes for titles), or from marked renders.
        var itemizedNavigation = false
        var navigationHoles = false
        var markedNavigation = false

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(loaded)
            encoder.write(error)
            encoder.write(warnings)
            encoder.write(fileKeys)
            encoder.write(stylesheet)
            encoder.write(script)
            encoder.write(templateKeys)
            encoder.write(showsExampleGallery)
            encoder.write(writesFrontMatterAsMarkup)
            encoder.write(itemizedNavigation)
            encoder.write(navigationHoles)
            encoder.write(markedNavigation)
        }

        init(loaded: Bool, error: Diagnostic?, warnings: [Diagnostic], fileKeys: [String: String], stylesheet: String, script: String,
             templateKeys: [String: String], showsExampleGallery: Bool, writesFrontMatterAsMarkup: Bool) {
            (self.loaded, self.error, self.warnings, self.fileKeys, self.stylesheet, self.script) = (loaded, error, warnings, fileKeys, stylesheet, script)
            (self.templateKeys, self.showsExampleGallery, self.writesFrontMatterAsMarkup) = (templateKeys, showsExampleGallery, writesFrontMatterAsMarkup)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (loaded, error, warnings, fileKeys) = (try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read())
            (stylesheet, script, templateKeys) = (try decoder.read(), try decoder.read(), try decoder.read())
            (showsExampleGallery, writesFrontMatterAsMarkup) = (try decoder.read(), try decoder.read())
            (itemizedNavigation, navigationHoles, markedNavigation) = (try decoder.read(), try decoder.read(), try decoder.read())
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let loaded = try build.value(ThemeLoad.self, "")
        guard let theme = loaded.theme else {
            return Value(loaded: false, error: loaded.error, warnings: loaded.warnings, fileKeys: [:], stylesheet: "", script: "", templateKeys: [:],
                         showsExampleGallery: false, writesFrontMatterAsMarkup: false)
        }
        let assets = ThemeAssets.themeAssets(theme)
        let keys = Dictionary(uniqueKeysWithValues: Theme.templateNames.map { ($0, theme.renderKey(of: $0)) })
        var facts = Value(loaded: true, error: nil, warnings: loaded.warnings, fileKeys: theme.fileKeys, stylesheet: assets.stylesheet, script: assets.script,
                          templateKeys: keys, showsExampleGallery: theme.showsExampleGallery, writesFrontMatterAsMarkup: theme.writesFrontMatterAsMarkup)
        (facts.itemizedNavigation, facts.navigationHoles, facts.markedNavigation) = (theme.itemizedNavigation != nil, theme.navigationHoles,
                                                                                     theme.markedNavigation != nil)
        return facts
    }
}

/// The key of one template as a render of it reads the theme: its text
/// and the texts of the partials it includes, through any depth.
enum TemplateKey: StoredRule {
    static let name = "template-key"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> String {
        try build.value(ThemeFacts.self, "").templateKeys[argument] ?? ""
    }
}

extension Derivation {
    /// The theme, loaded, for a render whose templates' key (`TemplateKey`)
    /// it read: what the render reads of the theme is in that key, so the
    /// compiled templates themselves are not a dependency.
    func theme() throws(BuildStopped) -> Theme {
        guard let theme = try untracked(ThemeLoad.self, "").theme else { throw BuildStopped(reason: "the theme did not load") }
        return theme
    }
}

/// The sequence files of the examples folder: those that become pages
/// (one per name, whatever its extension), with the collisions found.
enum ExampleFiles: StoredRule {
    static let name = "example-files"

    struct Value: StoreCodable, Equatable {
        var chosen: [String]
        var diagnostics: [Diagnostic]
        /// Every sequence file, which a demo block's `example:` may name.
        var sequences: [String]

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(chosen)
            encoder.write(diagnostics)
            encoder.write(sequences)
        }

        init(chosen: [String], diagnostics: [Diagnostic], sequences: [String]) {
            (self.chosen, self.diagnostics, self.sequences) = (chosen, diagnostics, sequences)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (chosen, diagnostics, sequences) = (try decoder.read(), try decoder.read(), try decoder.read())
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        _ = try build.value(FolderListing.self, build.site.options.examples)
        let folder = build.site.examplesFolder
        var diagnostics: [Diagnostic] = []
        let chosen = SiteInputs.exampleFiles(folder, diagnostics: &diagnostics)
        return Value(chosen: chosen, diagnostics: diagnostics, sequences: folder.files.filter(SiteInputs.isSequence))
    }
}

/// The names demo blocks look examples up in (with their hints).
enum ExampleNameIndex: Rule {
    static let name = "example-names"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> ExampleNames {
        ExampleNames(try build.value(ExampleFiles.self, "").sequences)
    }
    static func same(_ old: ExampleNames, _ new: ExampleNames) -> Bool { false }
}

/// One example, read and diffed (not stored: its sequence and changesets
/// are made again in a new process that shows it).
enum ExampleLoad: Rule {
    static let name = "example"

    struct Value: Sendable {
        var example: LoadedExample?
        var diagnostics: [Diagnostic]
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let folder = build.site.examplesFolder
        let bytes = try build.read(argument, in: folder, limit: SnapshotLimits.standard.fileBytes)
        let (example, diagnostics) = SiteInputs.loadExample(argument, bytes: bytes, in: folder)
        return Value(example: example, diagnostics: diagnostics)
    }

    static func same(_ old: Value, _ new: Value) -> Bool {
        old.diagnostics == new.diagnostics && old.example?.sourceKey == new.example?.sourceKey && (old.example == nil) == (new.example == nil)
    }
}

/// What the site shows of an example besides its page: its title,
/// description, steps' labels and counts, what loading it said.
enum ExampleFacts: StoredRule {
    static let name = "example-facts"

    struct Value: StoreCodable, Equatable {
        var loaded: Bool
        var sourceKey: String
        var title: String
        var description: String?
        var stepLabels: [String]
        var summaries: [StepSummary]
        var diagnostics: [Diagnostic]

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(loaded)
            encoder.write(sourceKey)
            encoder.write(title)
            encoder.write(description)
            encoder.write(stepLabels)
            encoder.write(summaries)
            encoder.write(diagnostics)
        }

        init(_ loaded: ExampleLoad.Value) {
            self.loaded = loaded.example != nil
            (sourceKey, title, description) = (loaded.example?.sourceKey ?? "", loaded.example?.title ?? "", loaded.example?.description)
            (stepLabels, summaries, diagnostics) = (loaded.example?.stepLabels ?? [], loaded.example?.summaries ?? [], loaded.diagnostics)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (loaded, sourceKey, title, description) = (try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read())
            (stepLabels, summaries, diagnostics) = (try decoder.read(), try decoder.read(), try decoder.read())
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        Value(try build.value(ExampleLoad.self, argument))
    }
}

/// Whether an example loaded (the site has a page for it).
enum ExampleValid: StoredRule {
    static let name = "example-valid"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Bool {
        try build.value(ExampleFacts.self, argument).loaded
    }
}

/// The Markdown files of the site folder, by their paths under it.
enum PageFiles: StoredRule {
    static let name = "page-files"
    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> [String] {
        try build.value(FolderListing.self, build.site.options.site).files.filter { $0.hasSuffix(".md") }
    }
}

/// One page, read: its front matter and its Markdown, parsed when first
/// needed (not stored).
enum PageLoad: Rule {
    static let name = "page"

    struct Value: Sendable {
        var page: LoadedPage?
        var diagnostics: [Diagnostic]
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        let folder = build.site.siteFolder
        let bytes = try build.read(argument, in: folder, limit: SnapshotLimits.standard.fileBytes)
        var diagnostics: [Diagnostic] = []
        let page = SiteLoading.loadPage(argument, bytes: bytes, in: folder, urls: build.site.options.urls, diagnostics: &diagnostics)
        return Value(page: page, diagnostics: diagnostics)
    }

    static func same(_ old: Value, _ new: Value) -> Bool {
        old.diagnostics == new.diagnostics && old.page?.sourceKey == new.page?.sourceKey && (old.page == nil) == (new.page == nil)
    }
}

/// What of a page reaches beyond it: where it goes, its navigation's
/// title and order, whether it is a draft, its aliases, what loading it
/// said. An edit of its text alone leaves this as it was.
enum PageFacts: StoredRule {
    static let name = "page-facts"

    struct Value: StoreCodable, Equatable {
        var loaded: Bool
        var output: String
        var title: String
        var linkTitle: String?
        var order: Int?
        var folder: String
        var isSectionPage: Bool
        var draft: Bool
        var aliases: [FrontMatter.Alias]
        var diagnostics: [Diagnostic]

        init(_ loaded: PageLoad.Value) {
            let page = loaded.page
            self.loaded = page != nil
            (output, title, linkTitle, order) = (page?.output ?? "", page?.title ?? "", page?.frontMatter.linkTitle, page?.frontMatter.navigationOrder)
            (folder, isSectionPage, draft) = (page?.folder ?? "", page?.isSectionPage ?? false, page?.frontMatter.draft ?? false)
            (aliases, diagnostics) = (page?.frontMatter.aliases ?? [], loaded.diagnostics)
        }

        func encode(to encoder: inout StoreEncoder) {
            encoder.write(loaded)
            encoder.write(output)
            encoder.write(title)
            encoder.write(linkTitle)
            encoder.write(order)
            encoder.write(folder)
            encoder.write(isSectionPage)
            encoder.write(draft)
            encoder.write(aliases)
            encoder.write(diagnostics)
        }

        init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
            (loaded, output, title, linkTitle, order) = (try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read())
            (folder, isSectionPage, draft, aliases, diagnostics) = (try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read(), try decoder.read())
        }

        /// The page's navigation entry.
        var listed: Navigation.Listed {
            Navigation.Listed(output: output, title: linkTitle ?? title, order: order, folder: folder, isSectionPage: isSectionPage)
        }
    }

    static func derive(_ argument: String, _ build: Derivation) throws(BuildStopped) -> Value {
        Value(try build.value(PageLoad.self, argument))
    }
}

extension FrontMatter.Alias: StoreCodable {
    public func encode(to encoder: inout StoreEncoder) {
        encoder.write(path)
        encoder.write(location)
    }

    public init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
        self.init(path: try decoder.read(), location: try decoder.read())
    }
}

extension StepSummary: StoreCodable {
    public func encode(to encoder: inout StoreEncoder) {
        encoder.write(label)
        for count in [batches, inserted, deleted, moved, reloaded] { encoder.write(count) }
    }

    public init(from decoder: inout StoreDecoder) throws(StoreDecoder.Malformed) {
        self.init(label: try decoder.read(), batches: try decoder.read(), inserted: try decoder.read(), deleted: try decoder.read(),
                  moved: try decoder.read(), reloaded: try decoder.read())
    }
}
