/// Whether a text is a filmstrip as `Filmstrip.svg` writes it, checked in one
/// pass: a baseline report is data a pull request may have written, and its
/// filmstrip becomes a file of the site that a reviewer opens. Only the
/// elements, attributes and values the filmstrip uses are accepted — no
/// script, no event attribute, no link, no entity but the five XML escapes —
/// so an accepted text is published as it is, and anything else is refused.
extension Filmstrip {
    public static func isWellFormed(_ svg: String) -> Bool {
        var reader = FilmstripReader(bytes: Array(svg.utf8))
        return reader.read()
    }

    /// What a filmstrip draws: the text without its `<title>` element (the
    /// example's title, which its page shows as text).
    public static func drawing(_ svg: String) -> String {
        guard let start = svg.range(of: "<title id=\"rm-title\">"),
              let end = svg[start.upperBound...].range(of: "</title>\n") else { return svg }
        return String(svg[..<start.lowerBound] + svg[end.upperBound...])
    }
}

/// The checker behind `Filmstrip.isWellFormed`: a cursor over the bytes
/// that never goes back, so the check is linear in the text's length.
struct FilmstripReader {
    let bytes: [UInt8]
    var at = 0

    /// The style and marker block every filmstrip has, word for word.
    static let fixedBlock = Array(Filmstrip.styleAndMarker.utf8)

    /// Each element the frames use, with the attributes it may have.
    static let elements: [String: Set<String>] = [
        "g": ["class", "data-step"],
        "rect": ["class", "x", "y", "width", "height", "rx", "fill-opacity"],
        "text": ["class", "x", "y"],
        "line": ["class", "x1", "y1", "x2", "y2"],
        "path": ["class", "d"],
    ]

    mutating func read() -> Bool {
        guard literal("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""), number(), literal("\" height=\""), number(),
              literal("\" viewBox=\"0 0 "), number(), literal(" "), number(),
              literal("\" role=\"img\" aria-labelledby=\"rm-title\">\n<title id=\"rm-title\">"), text(), literal("</title>\n"),
              literal(Self.fixedBlock) else { return false }
        var open: [String] = []
        while at < bytes.count {
            if literal("</svg>\n") { return open.isEmpty && at == bytes.count }
            if bytes[at] == UInt8(ascii: "\n") {
                at += 1
                continue
            }
            guard bytes[at] == UInt8(ascii: "<") else {
                // Text only inside a <text>.
                guard open.last == "text", text() else { return false }
                continue
            }
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "/") {
                at += 1
                guard let name = readName(), let last = open.popLast(), last == name, literal(">") else { return false }
                continue
            }
            guard let name = readName(), let allowed = Self.elements[name], open.count < 3, open.last != "text" else { return false }
            var seen = Set<String>()
            while literal(" ") {
                guard let attribute = readName(), allowed.contains(attribute), seen.insert(attribute).inserted,
                      literal("=\""), value(for: attribute), literal("\"") else { return false }
            }
            if literal("/>") { continue }
            guard literal(">") else { return false }
            open.append(name)
        }
        return false
    }

    mutating func literal(_ text: String) -> Bool { literal(Array(text.utf8)) }

    mutating func literal(_ expected: [UInt8]) -> Bool {
        guard bytes.count - at >= expected.count, bytes[at..<(at + expected.count)].elementsEqual(expected) else { return false }
        at += expected.count
        return true
    }

    /// A run of bytes of one kind, at least one.
    mutating func run(_ allowed: (UInt8) -> Bool) -> Bool {
        let start = at
        while at < bytes.count, allowed(bytes[at]) { at += 1 }
        return at > start
    }

    mutating func number() -> Bool { run { (48...57).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") } }

    mutating func readName() -> String? {
        let start = at
        guard run({ (97...122).contains($0) || (49...50).contains($0) || $0 == UInt8(ascii: "-") }) else { return nil }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    mutating func value(for attribute: String) -> Bool {
        switch attribute {
        case "class": return run { (97...122).contains($0) || $0 == UInt8(ascii: " ") }
        case "d": return run { (48...57).contains($0) || " .-MC".utf8.contains($0) }
        default: return number()
        }
    }

    /// Escaped text up to the next `<`: no markup, and `&` only as one of
    /// the escapes `HTMLText` writes. May be empty.
    mutating func text() -> Bool {
        while at < bytes.count, bytes[at] != UInt8(ascii: "<") {
            if bytes[at] == UInt8(ascii: "&") {
                guard ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].contains(where: { literal($0) }) else { return false }
                continue
            }
            if bytes[at] == UInt8(ascii: ">") || bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") { return false }
            at += 1
        }
        return true
    }
}
