import Diagnostics
import Foundation
import ProjectFiles

/// What a build needs of a page it does not render, kept in the cache so
/// that the next command-line build does not read the page at all when
/// its file's stamp says it did not change: its address, its titles, its
/// order and aliases, whether it is a draft, and what loading it reported.
/// A page rendered again (its key moved: a title elsewhere, an example it
/// shows) is read then, and its bytes must be those the record was made
/// from (`LoadedPage.sourceKey`), or the build stops and says so.
struct PageRecord: Equatable, Sendable {
    var sourceKey: String
    var output: String
    var title: String
    var frontMatterTitle: String?
    var linkTitle: String?
    var order: Int?
    var weight: Int?
    var draft: Bool
    var aliases: [FrontMatter.Alias]
    var folder: String
    var isSectionPage: Bool
    var diagnostics: [Diagnostic]

    init(_ page: LoadedPage, diagnostics: [Diagnostic]) {
        let matter = page.frontMatter
        (sourceKey, output, title, frontMatterTitle, linkTitle) = (page.sourceKey, page.output, page.title, matter.title, matter.linkTitle)
        (order, weight, draft, aliases) = (matter.order, matter.weight, matter.draft, matter.aliases)
        (folder, isSectionPage, self.diagnostics) = (page.folder, page.isSectionPage, diagnostics)
    }

    /// The page as the build sees it without reading it: its front matter
    /// only what reaches beyond the page, its Markdown read when asked for.
    func page(source: String, path: String) -> LoadedPage {
        var matter = FrontMatter()
        (matter.title, matter.linkTitle, matter.order, matter.weight, matter.draft, matter.aliases) = (frontMatterTitle, linkTitle, order, weight, draft, aliases)
        return LoadedPage(source: source, path: path, output: output, title: title, frontMatter: matter, frontMatterKey: nil, bodyLineOffset: 0,
                          sourceKey: sourceKey, markdown: ParsedMarkdown(""), folder: folder, isSectionPage: isSectionPage, isRecord: true)
    }

    /// As a line of the cache file: tab-separated, text fields as they are
    /// (a record whose text holds a tab or a line feed is not kept: that
    /// page is read next time), an absent value `-` and a present one
    /// after a `+`, aliases and diagnostics as JSON; nil when not kept.
    func line(path: String) -> [UInt8]? {
        func optional(_ text: String?) -> String { text.map { "+" + $0 } ?? "-" }
        let texts = [path, sourceKey, output, title, optional(frontMatterTitle), optional(linkTitle), optional(order.map(String.init)),
                     optional(weight.map(String.init)), draft ? "1" : "0", folder, isSectionPage ? "1" : "0"]
        guard !texts.contains(where: { $0.utf8.contains { $0 == 9 || $0 == 10 } }) else { return nil }
        let aliasJSON = aliases.isEmpty ? "[]" : String(decoding: (try? JSONEncoder().encode(aliases.map { [$0.path, $0.location.file, String($0.location.line), String($0.location.column)] })) ?? Data("[]".utf8), as: UTF8.self)
        return Array((["page"] + texts + [aliasJSON, BuildCache.encodeDiagnostics(diagnostics)]).joined(separator: "\t").utf8) + [10]
    }

    /// The record on a line of the cache file `file` (as a read of it found it).
    init?(_ line: BuildCache.Line, in file: [UInt8]) {
        let fields = line.fields(in: file)
        guard let record = file.withUnsafeBufferPointer({ PageRecord(fields, $0) }) else { return nil }
        self = record
    }

    /// A line's fields as `line(path:)` writes them, read where they are:
    /// text as it is, `-` for none and `+` before a value, `0` or `1`, numbers.
    private struct Fields {
        let ranges: [Range<Int>]
        let bytes: UnsafeBufferPointer<UInt8>

        func text(_ index: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[ranges[index]]), as: UTF8.self) }
        /// nil: not one; `.some(nil)`: none.
        func optional(_ index: Int) -> Range<Int>?? {
            let range = ranges[index]
            guard let first = range.first.map({ bytes[$0] }) else { return nil }
            return first == UInt8(ascii: "-") && range.count == 1 ? .some(nil) : first == UInt8(ascii: "+") ? .some(range.dropFirst()) : nil
        }
        func optionalText(_ index: Int) -> String?? {
            optional(index).map { $0.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) } }
        }
        func optionalNumber(_ index: Int) -> Int?? {
            switch optional(index) {
            case nil: return nil
            case .some(nil): return .some(nil)
            case .some(let range?): return BuildCache.number(Int.self, bytes, range).map { .some($0) }
            }
        }
        func flag(_ index: Int) -> Bool? {
            let range = ranges[index]
            guard range.count == 1 else { return nil }
            return bytes[range.lowerBound] == UInt8(ascii: "1") ? true : bytes[range.lowerBound] == UInt8(ascii: "0") ? false : nil
        }
    }

    /// What the navigation and the site's addresses read of a record's
    /// line (`fields` of `bytes`, `page` first), the rest left unread:
    /// its page's navigation entry, its own title, whether it is a draft.
    static func navigationEntry(_ fields: [Range<Int>], _ bytes: UnsafeBufferPointer<UInt8>) -> (listed: Navigation.Listed, title: String, draft: Bool)? {
        guard fields.count == 14 else { return nil }
        let line = Fields(ranges: fields, bytes: bytes)
        guard let linkTitle = line.optionalText(6), let order = line.optionalNumber(7), let weight = line.optionalNumber(8),
              let draft = line.flag(9), let isSectionPage = line.flag(11) else { return nil }
        let title = line.text(4)
        // (As `FrontMatter.navigationOrder`: the order, else the weight.)
        let listed = Navigation.Listed(output: line.text(3), title: linkTitle ?? title, order: order ?? weight, folder: line.text(10),
                                       isSectionPage: isSectionPage)
        return (listed, title, draft)
    }

    /// A record from its line's fields (`page`, the path, then the
    /// record's) in `bytes`; nil when they do not read as one.
    init?(_ fields: [Range<Int>], _ bytes: UnsafeBufferPointer<UInt8>) {
        guard fields.count == 14 else { return nil }
        let line = Fields(ranges: fields, bytes: bytes)
        guard let frontMatterTitle = line.optionalText(5), let linkTitle = line.optionalText(6), let order = line.optionalNumber(7),
              let weight = line.optionalNumber(8), let draft = line.flag(9), let isSectionPage = line.flag(11),
              let diagnostics = BuildCache.decodeDiagnostics(line.text(13)) else { return nil }
        var aliases: [FrontMatter.Alias] = []
        let aliasJSON = line.text(12)
        if aliasJSON != "[]" {
            guard let parts = try? JSONDecoder().decode([[String]].self, from: Data(aliasJSON.utf8)) else { return nil }
            for part in parts {
                guard part.count == 4, let line = Int(part[2]), let column = Int(part[3]) else { return nil }
                aliases.append(FrontMatter.Alias(path: part[0], location: SourceLocation(file: part[1], line: line, column: column)))
            }
        }
        (sourceKey, output, title, self.frontMatterTitle, self.linkTitle) = (line.text(2), line.text(3), line.text(4), frontMatterTitle, linkTitle)
        (self.order, self.weight, self.draft, self.aliases) = (order, weight, draft, aliases)
        (folder, self.isSectionPage, self.diagnostics) = (line.text(10), isSectionPage, diagnostics)
    }
}
