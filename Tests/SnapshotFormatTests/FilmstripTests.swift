import Reports
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ListDiff
@testable import SnapshotFormat
import Testing

/// Reads an SVG with a real XML parser: its root, and its frames' steps.
final class SVGOutline: NSObject, XMLParserDelegate {
    var root: String?
    var namespace: String?
    var frames: [Int] = []
    var arrows = 0
    var texts: [String] = []
    private var inText = false

    static func parse(_ svg: String) -> (outline: SVGOutline, valid: Bool, error: String) {
        let outline = SVGOutline()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = outline
        let valid = parser.parse()
        return (outline, valid, parser.parserError.map { "\($0)" } ?? "")
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if root == nil {
            root = name
            namespace = attributes["xmlns"]
        }
        if name == "g", attributes["class"] == "frame", let step = attributes["data-step"].flatMap(Int.init) { frames.append(step) }
        if name == "path", attributes["class"] == "a" { arrows += 1 }
        if name == "text" {
            inText = true
            texts.append("")
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { texts[texts.count - 1] += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { inText = false }
    }
}

@Suite("Filmstrip")
struct FilmstripTests {
    @Test(arguments: ExamplesTests.examples)
    func everyExample_isValidSVG_withOneFramePerSnapshot(_ url: URL) throws {
        let sequence = try #require(SnapshotReader.read(path: url.path).sequence)
        let report = try DiffReport(file: url.lastPathComponent, sequence: sequence)
        let svg = Filmstrip().svg(for: report)
        let (outline, valid, error) = SVGOutline.parse(svg)
        #expect(valid, "\(url.lastPathComponent): \(error)")
        #expect(outline.root == "svg" && outline.namespace == "http://www.w3.org/2000/svg")
        #expect(outline.frames == Array(0..<sequence.steps.count))
        #expect(Filmstrip().svg(for: report) == svg, "the same input gives the same bytes")
        if url.lastPathComponent == "messenger.yml" {
            #expect(svg.utf8.count < 50_000, "\(svg.utf8.count) bytes")
            // Carol's rise, Dave's, Erin's: one arrow per reported move.
            let moves = report.steps.map { $0.changeset.rows.filter { $0.kind.contains(.moved) }.count }.reduce(0, +)
            #expect(outline.arrows == moves)
            #expect(outline.texts.contains("Carol"))
        }
    }

    @Test func hostileText_staysText_andLongListsAreCut() throws {
        let rows = (0..<60).map { "{id: r\($0), title: \"<b>&\\u0001 \\\"x\\\" </svg>\"}" }.joined(separator: ", ")
        let moved = (1..<60).map { "{id: r\($0), title: \"<b>&\\u0001 \\\"x\\\" </svg>\"}" }.joined(separator: ", ") + ", {id: r0, title: \"<b>&\\u0001 \\\"x\\\" </svg>\"}"
        let text = "title: \"A <title> & more\"\nsteps:\n  - label: \"<script>\"\n    items: [\(rows)]\n  - items: [\(moved)]\n"
        let sequence = try #require(read(text).sequence)
        let svg = Filmstrip().svg(for: try DiffReport(file: "t.yml", sequence: sequence))
        let (outline, valid, error) = SVGOutline.parse(svg)
        #expect(valid, "\(error)")
        #expect(outline.frames == [0, 1])
        #expect(outline.texts.contains("<b>&  \"x\" </svg>"), "U+0001 becomes a space")
        #expect(outline.texts.contains("… 20 more rows"))
        #expect(!svg.contains("<script>") && !svg.contains("<b>"))
        // r0 moved to the end, beyond the 40 rows drawn: no arrow into nowhere.
        #expect(outline.arrows == 0)
    }

    /// A section reload (its header changed) is marked on the section's
    /// header, as inserted and moved sections are (issue 18, item 6).
    @Test func aReloadedSection_isMarkedOnItsHeader() throws {
        let text = "steps:\n  - sections: [{id: a, header: Old, items: [x]}, {id: b, header: B, items: [y]}]\n"
            + "  - sections: [{id: a, header: New, items: [x]}, {id: b, header: B, items: [y]}]\n"
        let sequence = try #require(read(text).sequence)
        let svg = Filmstrip().svg(for: try DiffReport(file: "h.yml", sequence: sequence))
        #expect(SVGOutline.parse(svg).valid)
        let second = try #require(svg.range(of: "data-step=\"1\""))
        let frame = svg[second.lowerBound...]
        #expect(frame.components(separatedBy: "class=\"rh\"").count - 1 == 1, "one reloaded header, in the second frame")
        #expect(!svg[..<second.lowerBound].contains("class=\"rh\""))
    }
}

/// `rowmotion diff --format replay`: one step as an SVG that plays by
/// itself (issue 45, item 9, README's picture).
@Suite struct ReplayTests {
    /// Without motion it is the snapshot after; in motion a moved row
    /// glides from its old place (a keyframe from the distance between
    /// the two) and is drawn over the rows it passes, a deleted row fades
    /// out and an inserted one fades in, a reloaded one shows its old text
    /// and then its new; hostile text stays text.
    @Test func aStepPlaysFromItsSnapshotBeforeToItsSnapshotAfter() throws {
        let text = "title: \"<b>Inbox</b>\"\nsteps:\n  - items: [{id: a, name: Ann}, {id: b, name: Bob}, {id: c, name: \"C & co\"}]\n"
            + "  - label: Shuffle\n    items: [{id: c, name: \"C & co\"}, {id: a, name: Ann2}, {id: d, name: Dee}]\n"
        let sequence = try #require(read(text).sequence)
        let svg = try #require(Replay().svg(for: try DiffReport(file: "r.yml", sequence: sequence)))
        let (outline, valid, error) = SVGOutline.parse(svg)
        #expect(valid, "\(error)")
        #expect(svg.contains("<title id=\"rm-replay\">&lt;b&gt;Inbox&lt;/b&gt;, step 1: Shuffle</title>"))
        #expect(outline.texts.contains("C & co"), "\(outline.texts)")
        // C moves from the third row (top 46) to the first (top 0): it starts 46 below.
        #expect(svg.contains("{transform:translateY(46px)}"), "\(svg)")
        let moved = try #require(svg.range(of: "class=\"mov\""))
        let still = try #require(svg.range(of: "class=\"r\""))
        #expect(still.lowerBound < moved.lowerBound, "the moved row is drawn last, over the rows it passes")
        #expect(svg.contains("<g opacity=\"0\" style=\"animation-name:out\">"), "Bob is gone once the step has played")
        #expect(svg.contains("<g style=\"animation-name:in\">"), "Dee arrives")
        #expect(svg.contains("style=\"animation-name:was\">Ann</text>") && svg.contains("style=\"animation-name:now\">Ann2</text>"))
        #expect(svg.contains("prefers-reduced-motion") && !svg.contains("<script"))
        let one = try #require(read("steps:\n  - items: [a]\n").sequence)
        #expect(Replay().svg(for: try DiffReport(file: "one.yml", sequence: one)) == nil)
    }
}
