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

    /// The record on a line of the cache file `file` (as `BuildCache.index` found it).
    init?(_ line: BuildCache.Line, in file: [UInt8]) {
        let fields = line.fields(in: file)
        guard fields.count == 14 else { return nil }
        self.init(fields: file.withUnsafeBufferPointer { bytes in
            fields.dropFirst().map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
        })
    }

    /// What the navigation and the site's addresses read of a record's
    /// line (`fields` of `bytes`, `page` first), the rest left unread:
    /// its page's navigation entry, its own title, whether it is a draft.
    static func navigationEntry(_ fields: [Range<Int>], _ bytes: UnsafeBufferPointer<UInt8>) -> (listed: Navigation.Listed, title: String, draft: Bool)? {
        guard fields.count == 14 else { return nil }
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        func flag(_ range: Range<Int>) -> Bool? { range.count == 1 ? (bytes[range.lowerBound] == UInt8(ascii: "1") ? true : bytes[range.lowerBound] == UInt8(ascii: "0") ? false : nil) : nil }
        /// `-` for none, `+` before a value (as `line(path:)` writes them).
        func optional(_ range: Range<Int>) -> Range<Int>?? {
            guard let first = range.first.map({ bytes[$0] }) else { return nil }
            return first == UInt8(ascii: "-") && range.count == 1 ? .some(nil) : first == UInt8(ascii: "+") ? .some(range.dropFirst()) : nil
        }
        guard let linkTitle = optional(fields[6]), let order = optional(fields[7]), let weight = optional(fields[8]),
              let draft = flag(fields[9]), let isSectionPage = flag(fields[11]) else { return nil }
        let orderNumber = order.map { BuildCache.number(Int.self, bytes, $0) }, weightNumber = weight.map { BuildCache.number(Int.self, bytes, $0) }
        guard orderNumber.map({ $0 != nil }) ?? true, weightNumber.map({ $0 != nil }) ?? true else { return nil }
        let title = text(fields[4])
        // (As `FrontMatter.navigationOrder`: the order, else the weight.)
        let listed = Navigation.Listed(output: text(fields[3]), title: linkTitle.map(text) ?? title, order: (orderNumber ?? nil) ?? (weightNumber ?? nil),
                                       folder: text(fields[10]), isSectionPage: isSectionPage)
        return (listed, title, draft)
    }

    /// A record from its line's fields after `page` (the path first); nil when it does not read as one.
    init?(fields: [String]) {
        guard fields.count == 13 else { return nil }
        func optional(_ text: String) -> String?? {
            text == "-" ? .some(nil) : text.hasPrefix("+") ? .some(String(text.dropFirst())) : nil
        }
        guard let frontMatterTitle = optional(fields[4]), let linkTitle = optional(fields[5]), let order = optional(fields[6]),
              let weight = optional(fields[7]), fields[8] == "0" || fields[8] == "1", fields[10] == "0" || fields[10] == "1",
              let diagnostics = BuildCache.decodeDiagnostics(fields[12]) else { return nil }
        let orderNumber = order.map { Int($0) }, weightNumber = weight.map { Int($0) }
        guard orderNumber.map({ $0 != nil }) ?? true, weightNumber.map({ $0 != nil }) ?? true else { return nil }
        var aliases: [FrontMatter.Alias] = []
        if fields[11] != "[]" {
            guard let parts = try? JSONDecoder().decode([[String]].self, from: Data(fields[11].utf8)) else { return nil }
            for part in parts {
                guard part.count == 4, let line = Int(part[2]), let column = Int(part[3]) else { return nil }
                aliases.append(FrontMatter.Alias(path: part[0], location: SourceLocation(file: part[1], line: line, column: column)))
            }
        }
        (sourceKey, output, title, self.frontMatterTitle, self.linkTitle) = (fields[1], fields[2], fields[3], frontMatterTitle, linkTitle)
        (self.order, self.weight, draft, self.aliases) = (orderNumber ?? nil, weightNumber ?? nil, fields[8] == "1", aliases)
        (folder, isSectionPage, self.diagnostics) = (fields[9], fields[10] == "1", diagnostics)
    }
}
