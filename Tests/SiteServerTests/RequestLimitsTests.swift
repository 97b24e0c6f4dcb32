import Foundation
@testable import SiteServer
import Testing

/// The dev server's reading of requests and frames: every limit holds however
/// the bytes arrive, and reading stays linear in what was sent (issue 13,
/// items 5 and 6; FlyingFox took 3.4 s for an 80 KB header line).
@Suite struct RequestLimitsTests {
    static let limits = ServerLimits()

    /// Feeds `bytes` in pieces of `step`, as a slow client sends them.
    static func feed(_ bytes: [UInt8], step: Int, limits: ServerLimits = limits) -> RequestHead.Progress {
        var buffer: [UInt8] = []
        var scan = RequestHead.Scan()
        var index = 0
        while index < bytes.count {
            buffer += bytes[index..<min(index + step, bytes.count)]
            index += step
            let progress = RequestHead.read(buffer, scan: &scan, limits: limits)
            if progress != .needMore { return progress }
        }
        return .needMore
    }

    @Test func aHead_isReadTheSameWhateverPiecesItArrivesIn() {
        let text = Array("GET /a%20b/c.html?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nX-Long:   spaced value \r\n\r\nNEXT".utf8)
        for step in [1, 2, 7, 1000] {
            guard case let .complete(head, length) = Self.feed(text, step: step) else {
                Issue.record("step \(step): not complete")
                continue
            }
            #expect(length == text.count - 4)
            #expect(head.method == "GET")
            #expect(head.path == "/a b/c.html")
            #expect(head.header("host") == "127.0.0.1:8000")
            #expect(head.header("x-long") == "spaced value")
        }
    }

    @Test func aLongRequestLine_isRefusedAs414_beforeItEnds() {
        // Two 400 KB paths blocked every request for 151 s before.
        let line = Array(("GET /" + String(repeating: "a", count: 400_000)).utf8)
        #expect(Self.feed(line, step: 4096) == .refused(.init(status: 414, reason: "the request line is longer than 8192 bytes")))
    }

    @Test func aLongHead_isRefusedAs431_andTooManyLinesToo() {
        let long = Array(("GET / HTTP/1.1\r\nHost: a:1\r\nX: " + String(repeating: "b", count: 1_000_000)).utf8)
        #expect(Self.feed(long, step: 65_536) == .refused(.init(status: 431, reason: "the request head is longer than 32768 bytes")))
        let many = Array(("GET / HTTP/1.1\r\nHost: a:1\r\n" + String(repeating: "X: 1\r\n", count: 101) + "\r\n").utf8)
        #expect(Self.feed(many, step: 10_000) == .refused(.init(status: 431, reason: "more than 100 header lines")))
    }

    @Test func readingAHeadByteByByte_isLinear() {
        // 32 KB, a byte per read: 32,768 reads. With a rescan from the start
        // on every read this is ~5·10^8 steps; linear, it is instant.
        let text = Array(("GET / HTTP/1.1\r\nHost: a:1\r\n" + String(repeating: "X: 1234567890\r\n", count: 90)).utf8)
        let start = DispatchTime.now().uptimeNanoseconds
        var buffer: [UInt8] = []
        var scan = RequestHead.Scan()
        for byte in text {
            buffer.append(byte)
            #expect(RequestHead.read(buffer, scan: &scan, limits: Self.limits) == .needMore)
        }
        #expect(scan.scanned == text.count)
        // Generous: this is a guard against a quadratic rescan, not a timing test.
        #expect(DispatchTime.now().uptimeNanoseconds - start < 5_000_000_000)
    }

    @Test func malformedHeads_are400_or505() {
        func status(_ text: String) -> Int? {
            if case .refused(let refusal) = Self.feed(Array(text.utf8), step: 1 << 20) { return refusal.status }
            return nil
        }
        #expect(status("GET / HTTP/1.1\r\n\r\n") == 400) // no Host
        #expect(status("GET / HTTP/1.1\r\nHost: a:1\r\nHost: b:1\r\n\r\n") == 400)
        #expect(status("GET http://a/ HTTP/1.1\r\nHost: a:1\r\n\r\n") == 400)
        #expect(status("GET /%zz HTTP/1.1\r\nHost: a:1\r\n\r\n") == 400)
        #expect(status("GET /%ff HTTP/1.1\r\nHost: a:1\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nHost: a:1\r\n folded\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nHost: a\u{1}:1\r\n\r\n") == 400)
        #expect(status("get / HTTP/1.1\r\nHost: a:1\r\n\r\n") == 400)
        #expect(status("GET / HTTP/2.0\r\nHost: a:1\r\n\r\n") == 505)
        #expect(status("GET / HTTP/1.0\r\n\r\n") == nil)
    }

    @Test func hosts_onlyTheBoundAddressAndLocalhost_withTheRightPort() {
        let loopback = HostPolicy(boundHost: "127.0.0.1", port: 8000)
        #expect(loopback.allows(host: "127.0.0.1:8000"))
        #expect(loopback.allows(host: "localhost:8000"))
        #expect(loopback.allows(host: "LOCALHOST:8000"))
        // DNS rebinding: another site's name pointed at 127.0.0.1.
        #expect(!loopback.allows(host: "attacker.example:8000"))
        #expect(!loopback.allows(host: "127.0.0.1:8001"))
        #expect(!loopback.allows(host: "127.0.0.1"))
        #expect(!loopback.allows(host: "[::1]:8000"))
        #expect(!loopback.allows(host: "127.0.0.1:8000:1"))
        #expect(!loopback.allows(host: ""))
        let v6 = HostPolicy(boundHost: "::1", port: 80)
        #expect(v6.allows(host: "[::1]"))
        #expect(v6.allows(host: "[::1]:80"))
        #expect(!v6.allows(host: "[::2]"))
        let everywhere = HostPolicy(boundHost: "0.0.0.0", port: 8000)
        #expect(everywhere.allows(host: "192.168.1.20:8000"))
        #expect(!everywhere.allows(host: "rebound.example:8000"))
    }

    @Test func liveStream_onlyForPagesOfItsOwnOrigin() {
        let policy = HostPolicy(boundHost: "127.0.0.1", port: 8000)
        func allows(_ origin: String?, _ site: String? = nil, host: String = "127.0.0.1:8000") -> Bool {
            policy.allowsLiveStream(origin: origin, fetchSite: site, host: host)
        }
        // A same-origin EventSource sends no Origin; Chromium says same-origin.
        #expect(allows(nil) && allows(nil, "same-origin") && allows(nil, "none"))
        #expect(allows("http://127.0.0.1:8000") && allows("http://localhost:8000", host: "localhost:8000"))
        #expect(!allows("http://attacker.example") && !allows("null"))
        #expect(!allows("http://localhost:8000"))
        #expect(!allows(nil, "cross-site") && !allows(nil, "same-site"))
        #expect(!allows(nil, host: "rebound.example:8000"))
    }

    @Test func liveEvents_areOneDataLinePerLine_endedByABlankLine() {
        #expect(EventLoopServer.event("{\"a\":1}") == Array("data: {\"a\":1}\n\n".utf8))
        // A line break would end the field and lose the rest: each line is its own `data:`.
        #expect(EventLoopServer.event("x\ny\r") == Array("data: x\ndata: y\n\n".utf8))
    }
}
