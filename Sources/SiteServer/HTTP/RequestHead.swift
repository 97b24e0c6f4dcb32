/// The head of an HTTP request, read incrementally and checked against the
/// server's limits: the search for its end starts where the last one stopped,
/// so a head costs time linear in its length however it arrives.
struct RequestHead: Equatable {
    var method: String
    /// The request target as sent (`/a%20b?x=1`).
    var target: String
    /// The target's path, percent-decoded.
    var path: String
    var version: String
    /// Header names in lower case, values trimmed, in order.
    var headers: [(name: String, value: String)]

    static func == (lhs: RequestHead, rhs: RequestHead) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.path == rhs.path && lhs.version == rhs.version
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    /// The value of a header that may appear once; nil when absent.
    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    func count(of name: String) -> Int {
        headers.reduce(0) { $0 + ($1.name == name ? 1 : 0) }
    }

    /// Whether the connection stays open after the answer.
    var keepAlive: Bool {
        let connection = header("connection")?.lowercased() ?? ""
        return version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
    }

    /// An answer that ends the request with an error status.
    struct Refusal: Error, Equatable {
        var status: Int
        var reason: String
    }

    enum Progress: Equatable {
        case needMore
        /// The head, and how many bytes of the buffer it took.
        case complete(RequestHead, length: Int)
        case refused(Refusal)
    }

    /// How far the search for a head's end has got, kept between reads.
    struct Scan: Equatable {
        var scanned = 0
        /// Where the first line ends, once seen.
        var firstNewline: Int?
    }

    /// Reads the head at the start of `buffer`, looking only at the bytes
    /// `scan` has not seen yet.
    static func read(_ buffer: [UInt8], scan: inout Scan, limits: ServerLimits) -> Progress {
        let newline = UInt8(ascii: "\n")
        let tooLong = Refusal(status: 414, reason: "the request line is longer than \(limits.requestLine) bytes")
        var end: Int?
        var index = scan.scanned
        while index < buffer.count {
            if buffer[index] == newline {
                if scan.firstNewline == nil {
                    scan.firstNewline = index
                    if index > limits.requestLine { return .refused(tooLong) }
                }
                // A blank line: "\n\n" or "\n\r\n".
                if index >= 1, buffer[index - 1] == newline { end = index + 1; break }
                if index >= 2, buffer[index - 1] == UInt8(ascii: "\r"), buffer[index - 2] == newline { end = index + 1; break }
            }
            index += 1
        }
        scan.scanned = index
        guard let end else {
            if scan.firstNewline == nil, buffer.count > limits.requestLine { return .refused(tooLong) }
            if buffer.count > limits.headBytes {
                return .refused(Refusal(status: 431, reason: "the request head is longer than \(limits.headBytes) bytes"))
            }
            return .needMore
        }
        guard end <= limits.headBytes else {
            return .refused(Refusal(status: 431, reason: "the request head is longer than \(limits.headBytes) bytes"))
        }
        switch parse(buffer[..<end], limits: limits) {
        case .success(let head): return .complete(head, length: end)
        case .failure(let refusal): return .refused(refusal)
        }
    }

    static func parse(_ bytes: ArraySlice<UInt8>, limits: ServerLimits) -> Result<RequestHead, Refusal> {
        func bad(_ reason: String) -> Result<RequestHead, Refusal> { .failure(Refusal(status: 400, reason: reason)) }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line -> ArraySlice<UInt8> in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { return bad("the request is empty") }
        // Latin-1 visible characters and spaces only: no control characters.
        func isText(_ line: ArraySlice<UInt8>) -> Bool {
            line.allSatisfy { $0 == UInt8(ascii: "\t") || ($0 >= 0x20 && $0 != 0x7F) }
        }
        guard isText(first) else { return bad("the request line has control characters") }
        let parts = first.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3 else { return bad("the request line is not 'METHOD /path HTTP/1.1'") }
        let method = String(decoding: parts[0], as: UTF8.self)
        let target = String(decoding: parts[1], as: UTF8.self)
        let version = String(decoding: parts[2], as: UTF8.self)
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
            return bad("'\(method)' is not a method")
        }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .failure(Refusal(status: 505, reason: "only HTTP/1.1 and HTTP/1.0 are served"))
        }
        guard target.hasPrefix("/") else { return bad("the request target must be a path starting with '/'") }
        let rawPath = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard let path = percentDecoded(rawPath) else { return bad("the path has a malformed %-escape or is not UTF-8") }

        let headerLines = lines.dropFirst()
        guard headerLines.count <= limits.headerCount else {
            return .failure(Refusal(status: 431, reason: "more than \(limits.headerCount) header lines"))
        }
        var headers: [(name: String, value: String)] = []
        for line in headerLines {
            guard isText(line) else { return bad("a header has control characters") }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
                return bad("a header line has no name")
            }
            let nameBytes = line[..<colon]
            // RFC 9110 token characters; a space before the colon or a folded line is refused.
            guard nameBytes.allSatisfy(isTokenByte) else { return bad("a header name has characters a token cannot have") }
            let name = String(decoding: nameBytes, as: UTF8.self).lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces()
            headers.append((name, value))
        }
        let head = RequestHead(method: method, target: target, path: path, version: version, headers: headers)
        guard head.count(of: "host") <= 1 else { return bad("more than one Host header") }
        if version == "HTTP/1.1", head.header("host") == nil { return bad("an HTTP/1.1 request needs a Host header") }
        return .success(head)
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// `%XX` escapes decoded; nil when one is malformed or the result is
    /// not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
