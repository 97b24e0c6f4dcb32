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
            // Links to pages of the site: `.md` becomes `.html`, and the
            // target must exist. Relative, or root-absolute (`/guide/a.md`,
            // rewritten relative to this page, or under --base-url); the path
            // percent-decoded to find the page; a `?query` kept as written.
            let rootAbsolute = url.hasPrefix("/") && !url.hasPrefix("//")
            guard !url.contains(":"), !url.hasPrefix("/") || rootAbsolute, !url.isEmpty else { return nil }
            let target = String(url.prefix { $0 != "?" && $0 != "#" })
            let rest = url.dropFirst(target.count)
            let fragment = rest.firstIndex(of: "#").map { String(rest[rest.index(after: $0)...]) }
            // A folder's address is its index page (opened from disk too).
            let rewritten = target.hasSuffix(".md") ? String(target.dropLast(3)) + ".html"
                : target.hasSuffix("/") ? target + "index.html" : target
            let path = rewritten.removingPercentEncoding ?? rewritten
            let resolved = path.isEmpty ? page.output
                : normalize(rootAbsolute || directory.isEmpty ? path : directory + "/" + path)
            if !path.isEmpty, !outputs.contains(resolved), !resolved.hasPrefix("assets/") {
                result.diagnostics.append(.warning("broken-link", at: SourceLocation(file: page.source, line: max(line, 1), column: 1),
                                                   "link to '\(target)', which no page of the site produces"))
            } else if let fragment, !fragment.isEmpty {
                // Its heading is checked once every page's headings are known.
                links.append(FragmentLink(page: resolved, fragment: fragment.removingPercentEncoding ?? fragment, line: line))
            }
            // Only the path changes; the query and fragment stay as written.
            if rootAbsolute { return chrome.root + String(rewritten.dropFirst()) + rest }
            return rewritten == target ? nil : rewritten + rest
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
