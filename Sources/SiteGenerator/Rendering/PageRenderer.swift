import Diagnostics
import Foundation

/// Rendering a page: its Markdown (players, strategy panes, links rewritten
/// to `.html` and checked) inside the theme's `page` template.
extension SiteBuilder {
    struct RenderedPage: Sendable {
        /// The home page's content (the index wraps it); empty for other pages.
        var html = ""
        /// Any other page's finished bytes.
        var bytes: [UInt8] = []
        var diagnostics: [Diagnostic] = []
        var examples: Set<String> = []
        /// Its links to an element of a page (`page.md#id`, `#id`).
        var links: [FragmentLink] = []
        /// Taken from the previous build.
        var cached = false
    }

    static func render(page: Page, theme: Theme, examples: [String: Example], examplesURL: URL,
                       outputs: Set<String>, chrome: Chrome, options: BuildOptions, isHome: Bool,
                       shared: PlayerParts? = nil) -> RenderedPage {
        var result = RenderedPage()
        let directory = (page.output as NSString).deletingLastPathComponent
        var links: [FragmentLink] = []
        let content = MarkdownRenderer.render(page.markdown, lineOffset: page.bodyLineOffset, player: { block in
            let (spec, diagnostics) = DemoSpec.read(block, file: page.source, examples: examplesURL)
            result.diagnostics.append(contentsOf: diagnostics)
            guard let spec else { return nil }
            let example: Example
            var fromExamples = false
            switch spec.source {
            case .inline(let inline):
                do throws(Diagnostic) {
                    example = Example(name: "inline", sequence: inline, changesets: try inline.changesets(), sourceKey: "")
                } catch {
                    result.diagnostics.append(error)
                    return nil
                }
            case .example(let path):
                guard let loaded = examples[path] else {
                    result.diagnostics.append(.error("example-invalid", at: SourceLocation(file: page.source, line: block.firstLine, column: 1),
                                                     "the example '\(path)' has errors (see above)"))
                    return nil
                }
                example = loaded
                fromExamples = true
                result.examples.insert(path)
            }
            do throws(Diagnostic) {
                if spec.compare == "strategies" { return try strategyPanes(example, spec: spec, theme: theme) }
                return try theme.render("player", playerView(example, spec: spec, shared: fromExamples ? shared : nil))
            } catch {
                result.diagnostics.append(error)
                return nil
            }
        }, link: { url, line in
            // Relative links to pages: `.md` becomes `.html`, and the target must exist.
            guard !url.contains(":"), !url.hasPrefix("/"), !url.isEmpty else { return nil }
            let parts = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let target = String(parts[0])
            let rewritten = target.hasSuffix(".md") ? String(target.dropLast(3)) + ".html" : target
            let resolved = rewritten.isEmpty ? page.output : normalize(directory.isEmpty ? rewritten : directory + "/" + rewritten)
            if !rewritten.isEmpty, !outputs.contains(resolved), !resolved.hasPrefix("assets/") {
                result.diagnostics.append(.warning("broken-link", at: SourceLocation(file: page.source, line: max(line, 1), column: 1),
                                                   "link to '\(target)', which no page of the site produces"))
            } else if parts.count == 2, !parts[1].isEmpty {
                // Its heading is checked once every page's headings are known.
                links.append(FragmentLink(page: resolved, fragment: String(parts[1]).removingPercentEncoding ?? String(parts[1]), line: line))
            }
            // Only the path changes; the fragment stays as written.
            return rewritten == target ? nil : rewritten + url.dropFirst(target.count)
        })
        result.links = links
        if isHome {
            result.html = content
            return result
        }
        do throws(Diagnostic) {
            result.bytes = Array(try theme.render("page", PageContext(chrome: chrome, title: page.title,
                                                                      description: page.frontMatter.description, content: content,
                                                                      showTitle: page.frontMatter.title != nil && !page.hasH1,
                                                                      params: page.frontMatter.params.mapValues(\.templateValue))).utf8)
        } catch {
            result.diagnostics.append(error)
        }
        return result
    }
}
