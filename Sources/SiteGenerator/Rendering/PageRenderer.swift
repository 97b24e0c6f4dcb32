import ProjectFiles
import Diagnostics
import Foundation
import SnapshotFormat

/// A page as rendering made it.
struct RenderedPage: Sendable {
    /// The home page's content (the index wraps it); empty for other pages.
    var html = ""
    /// Any other page's finished bytes.
    var bytes: [UInt8] = []
    var diagnostics: [Diagnostic] = []
    var examples: Set<String> = []
    /// What the tree said of it: headings, ids, links to an element of
    /// a page (`page.md#id`, `#id`), text for search.
    var made = Document()
    var document: Document {
        get { made }
        set { made = newValue }
    }
    /// The page's bytes, counted when it was made.
    var byteCount = 0
    /// Past a page's limit of bytes (its error is among `diagnostics`).
    var tooLarge = false
}

/// Rendering a page: its Markdown (players, strategy panes, links rewritten
/// to `.html` and checked) inside the theme's `page` template.
extension SiteRendering {

    /// `example` gives the example of a path under the examples folder
    /// (nil for one with errors).
    /// `exists` tells whether the site has an output, `foldedOutput` the
    /// output a lowercased path names.
    static func render(page: LoadedPage, theme: Theme, example named: (String) -> LoadedExample?, exampleNames: ExampleNames,
                       exists: @escaping (String) -> Bool, foldedOutput: @escaping (String) -> String?, chrome: Chrome, options: BuildOptions, isHome: Bool,
                       shared: PlayerParts? = nil) -> RenderedPage {
        var result = RenderedPage()
        let sourceFolder = page.folder
        // A page shows an example as often as it names it: the players'
        // HTML is counted as it grows (20,000 blocks of a 6 MB example
        // asked for gigabytes), and past a page's limit no more are made.
        var playerBytes = 0
        func player(_ block: DemoBlock) -> String? {
            let (spec, diagnostics) = DemoSpec.read(block, file: page.source, examples: exampleNames)
            result.diagnostics.append(contentsOf: diagnostics)
            guard let spec else { return nil }
            let example: LoadedExample
            var fromExamples = false
            switch spec.source {
            case .inline(let inline):
                do throws(Diagnostic) {
                    example = LoadedExample(name: "inline", sequence: inline, changesets: try inline.changesets(), sourceKey: "")
                } catch {
                    result.diagnostics.append(error)
                    return nil
                }
            case .example(let path):
                guard let loaded = named(path) else {
                    result.diagnostics.append(.error("example-invalid", at: SourceLocation(file: page.source, line: block.firstLine, column: 1),
                                                     "the example '\(path)' has errors (see above)"))
                    return nil
                }
                example = loaded
                fromExamples = true
                result.examples.insert(path)
            }
            // What a block sets that its example's view has no use for,
            // as its own file would be told (TreeReader.checkLayout).
            let presentation = example.sequence.presentation
            if presentation.layout == .table, spec.cell != nil, let location = spec.cellLocation {
                result.diagnostics.append(.error("layout-key", at: location,
                                                 "'cell' draws a table view's cells; '\(example.name)' is a data table ('layout: table'), which draws a column per field"))
                return nil
            }
            if presentation.isCollectionView, spec.animation != nil, let location = spec.animationLocation {
                result.diagnostics.append(.warning("collection-animation", at: location,
                                                   "'animation' has no effect on '\(example.name)', a collection view: UICollectionView fades items in and out, moves them from frame to frame, and has no row animations"))
            }
            // A step past the last snapshot would quietly show the last one.
            let snapshots = example.sequence.steps.count
            if spec.step >= snapshots, let location = spec.stepLocation {
                let name = fromExamples ? "'\(example.name)'" : "the block's sequence"
                result.diagnostics.append(.error("step-out-of-range", at: location,
                                                 "'step: \(spec.step)' is past the last snapshot of \(name): it has \(snapshots) "
                                                     + "(steps 0 to \(snapshots - 1))"))
                return nil
            }
            do throws(Diagnostic) {
                if spec.compare == "strategies" { return try SiteRendering.strategyPanes(example, spec: spec, theme: theme) }
                return try theme.render("player", SiteRendering.playerView(example, spec: spec, shared: fromExamples ? shared : nil),
                                        for: page.source)
            } catch {
                result.diagnostics.append(error)
                return nil
            }
        }
        let links = PageLinks(source: page.source, folder: sourceFolder, output: page.output, urls: options.urls, exists: exists,
                              foldedOutput: foldedOutput, root: chrome.root)
        var fragmentLinks: [FragmentLink] = []
        func link(_ url: String, _ line: Int, _ column: Int, _ kind: LinkKind) -> String? {
            let resolved = links.resolve(url, line: line, column: column, kind: kind)
            if let problem = resolved.problem { result.diagnostics.append(problem) }
            if let fragment = resolved.fragment { fragmentLinks.append(fragment) }
            return resolved.rewritten
        }
        // Read before the render takes the tree: whether the theme shows the
        // front matter's title as the heading (the Markdown has no `h1`), and
        // the tables over the limits, which the page reports.
        let showTitle = page.frontMatter.title != nil && page.markdown.firstH1 == nil
        for problem in page.markdown.tableProblems {
            result.diagnostics.append(.warning("table-too-large", at: SourceLocation(file: page.source, line: problem.line + page.bodyLineOffset, column: 1),
                                               problem.message))
        }
        let (content, document) = MarkdownRenderer.renderDocument(page.markdown, lineOffset: page.bodyLineOffset, player: { block in
            guard playerBytes <= OutputLimits.pageBytes else { return nil }
            let html = player(block)
            playerBytes += html?.utf8.count ?? 0
            if playerBytes > OutputLimits.pageBytes {
                let limit = ByteCount.describe(Int64(OutputLimits.pageBytes))
                result.diagnostics.append(.error(OutputLimits.pageTooLarge, at: SourceLocation(file: page.source, line: block.firstLine, column: 1),
                                                 "the players on this page pass \(limit) of HTML here; pages are limited to \(limit)"))
                result.tooLarge = true
                return nil
            }
            return html
        }, link: { url, line, column, kind in
            link(url, line, column, kind)
        })
        result.document = document
        result.document.links = fragmentLinks
        if isHome {
            result.html = content
            return result
        }
        guard !result.tooLarge else { return result }
        do throws(Diagnostic) {
            result.bytes = try theme.renderBytes("page", PageContext(chrome: chrome, title: page.title,
                                                                     description: page.frontMatter.description, content: content,
                                                                     showTitle: showTitle,
                                                                     params: TemplateParams(page.frontMatter.params.mapValues(\.templateValue))),
                                                 for: page.source)
        } catch {
            result.tooLarge = error.id == OutputLimits.pageTooLarge
            result.diagnostics.append(error)
        }
        return result
    }
}
