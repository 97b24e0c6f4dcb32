import Foundation

/// An answer to one HTTP request.
struct HTTPAnswer {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []

    static func text(_ status: Int, _ message: String) -> HTTPAnswer {
        HTTPAnswer(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((message + "\n").utf8))
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 421: "Misdirected Request"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Error"
        }
    }
}

/// The dev server's HTTP/1.1 server, with the live-reload channel as
/// Server-Sent Events (an answer that stays open, a `data:` line per
/// message): one thread, `poll(2)` over non-blocking sockets, every client
/// bounded by `ServerLimits`. Server-Sent Events replaced a WebSocket:
/// pages only listen, so there is no frame to parse and no handshake hash.
///
/// It replaced FlyingFox, whose header reading was quadratic in a header's
/// length and had no limit on header, frame or connection counts (issue 13).
final class EventLoopServer: @unchecked Sendable {
    typealias Handler = @Sendable (RequestHead) -> HTTPAnswer

    let limits: ServerLimits
    let policy: HostPolicy
    let livePath: String
    let handler: Handler
    let hub: LiveReloadHub
    let listener: Socket.Listener

    private let lock = NSLock()
    /// Text for live streams, queued by other threads; nil closes them.
    private var outbox: [(id: Int, text: String?)] = []
    private var stopping = false
    private let wake: (read: Int32, write: Int32)
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    /// Counts, for tests and the terminal.
    private(set) var refusedForCapacity = 0
    private(set) var recoveredFromDescriptorShortage = 0

    init(host: String, port: UInt16, limits: ServerLimits, livePath: String, hub: LiveReloadHub,
         handler: @escaping Handler) throws(Socket.Failure) {
        self.limits = limits
        self.livePath = livePath
        self.hub = hub
        self.handler = handler
        listener = try Socket.listen(host: host, port: port)
        policy = HostPolicy(boundHost: host, port: listener.port)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(listener.descriptor)
            throw Socket.Failure("cannot make the server's wake-up pipe")
        }
        _ = Socket.setNonBlocking(pipeEnds[0])
        _ = Socket.setNonBlocking(pipeEnds[1])
        wake = (pipeEnds[0], pipeEnds[1])
    }

    func start() {
        // A page that goes away mid-answer must not end the process.
        signal(SIGPIPE, SIG_IGN)
        let thread = Thread { [self] in run() }
        thread.name = "rowmotion serve"
        self.thread = thread
        thread.start()
    }

    /// Closes every connection and the listener; returns when the loop ended.
    func stop() {
        let first = lock.withLock {
            defer { stopping = true }
            return !stopping
        }
        poke()
        // A second stop (a second Ctrl-C) returns; the first waits.
        if first { finished.wait() }
    }

    /// Queues `text` for the live stream `id` (nil: close it).
    func send(_ text: String?, to id: Int) {
        lock.withLock { outbox.append((id, text)) }
        poke()
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    // MARK: The loop

    private final class Connection {
        let descriptor: Int32
        let id: Int
        var input: [UInt8] = []
        var scan = RequestHead.Scan()
        var output: [UInt8] = []
        var written = 0
        var closeAfterWriting = false
        /// An open live-reload stream: what the page sends is not read
        /// any more, and its answer never ends.
        var isLive = false
        /// When the head being read must be complete.
        var deadline: Double
        /// Set once the last answer is sent on a connection being closed:
        /// until then what the client still sends is read and discarded.
        var lingerUntil: Double?
        /// When the client last took bytes of an answer (or the answer was
        /// queued): an answer nobody reads is not kept for ever.
        var lastProgress: Double = 0

        init(descriptor: Int32, id: Int, deadline: Double) {
            self.descriptor = descriptor
            self.id = id
            self.deadline = deadline
        }

        var pendingOutput: Int { output.count - written }

        func queue(_ bytes: [UInt8]) {
            if pendingOutput == 0 { lastProgress = EventLoopServer.now() }
            if written > 0, written == output.count {
                output.removeAll(keepingCapacity: true)
                written = 0
            }
            output += bytes
        }
    }

    private var connections: [Int32: Connection] = [:]
    private var nextID = 0
    /// A descriptor held back so that, when none are left, one can be freed
    /// to accept and close a waiting connection instead of spinning on it.
    private var spare: Int32 = -1

    /// How long a closing connection's late input is discarded.
    static let lingerSeconds = 2.0

    fileprivate static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// Connections allowed at once: the limit, less descriptors kept for
    /// the build (reading sources, writing the site).
    private var connectionCap: Int {
        min(limits.connections, max(8, Socket.descriptorLimit() - 64))
    }

    private func run() {
        spare = open("/dev/null", O_RDONLY)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !lock.withLock({ stopping }) {
            var fds: [pollfd] = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            let accepting = connections.count < connectionCap
            fds.append(pollfd(fd: accepting ? listener.descriptor : -1, events: Int16(POLLIN), revents: 0))
            let order = Array(connections.values)
            for connection in order {
                // A client is read only while nothing waits to be sent to it
                // and no whole request waits to be answered: one that sends
                // without reading its answers stops being read (its input
                // once grew to 1.7 GB), and hang-ups are reported anyway.
                var events = Int16(0)
                if connection.pendingOutput == 0, connection.input.count < limits.headBytes || connection.lingerUntil != nil || connection.isLive {
                    events |= Int16(POLLIN)
                }
                if connection.pendingOutput > 0 { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: connection.descriptor, events: events, revents: 0))
            }
            let ready = poll(&fds, nfds_t(fds.count), 250)
            if ready < 0, errno != EINTR { break }
            if fds[0].revents != 0 { drainWake() }
            deliverOutbox()
            if fds[1].revents != 0 { acceptAll() }
            let now = Self.now()
            for (index, connection) in order.enumerated() {
                let revents = fds[index + 2].revents
                guard connections[connection.descriptor] === connection else { continue }
                if revents & Int16(POLLOUT) != 0 {
                    flush(connection)
                    // A request that came in while the last answer drained.
                    if connections[connection.descriptor] === connection, !connection.isLive, connection.pendingOutput == 0,
                       !connection.input.isEmpty {
                        readRequests(connection)
                    }
                }
                guard connections[connection.descriptor] === connection else { continue }
                if revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
                    readFrom(connection, buffer: &buffer)
                }
                guard connections[connection.descriptor] === connection else { continue }
                if let until = connection.lingerUntil {
                    if now > until { drop(connection) }
                    continue
                }
                if connection.pendingOutput > 0, now - connection.lastProgress > limits.stalledWriteSeconds {
                    // An answer the client has not taken a byte of for a while.
                    drop(connection)
                    continue
                }
                if !connection.isLive, connection.pendingOutput == 0, now > connection.deadline {
                    // Too slow to send a head: answered if it sent part of
                    // one, closed quietly if it was idle between requests.
                    if connection.input.isEmpty { drop(connection) } else { refuse(connection, 408, "the request head took longer than \(Int(limits.headSeconds)) s") }
                }
            }
        }
        for connection in Array(connections.values) { drop(connection) }
        hub.closeAll()
        close(listener.descriptor)
        close(wake.read)
        close(wake.write)
        if spare >= 0 { close(spare) }
        finished.signal()
    }

    private func drainWake() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(wake.read, &bytes, bytes.count) > 0 {}
    }

    private func deliverOutbox() {
        let queued = lock.withLock {
            defer { outbox.removeAll() }
            return outbox
        }
        guard !queued.isEmpty else { return }
        let byID = Dictionary(connections.values.filter(\.isLive).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, text) in queued {
            guard let connection = byID[id], connections[connection.descriptor] === connection else { continue }
            if let text {
                connection.queue(Self.event(text))
                if connection.pendingOutput > limits.pendingOutputBytes { drop(connection); continue }
            } else {
                connection.closeAfterWriting = true
            }
            flush(connection)
        }
    }

    private func acceptAll() {
        while connections.count < connectionCap {
            switch Socket.accept(listener.descriptor) {
            case .connection(let descriptor):
                nextID += 1
                connections[descriptor] = Connection(descriptor: descriptor, id: nextID, deadline: Self.now() + limits.headSeconds)
            case .none, .failed:
                return
            case .outOfDescriptors:
                // Free the spare, take the waiting connection and close it,
                // then hold a spare again: the listener keeps working and
                // the client sees its connection end instead of hanging.
                recoveredFromDescriptorShortage += 1
                if spare >= 0 { close(spare); spare = -1 }
                if case .connection(let descriptor) = Socket.accept(listener.descriptor) { close(descriptor) }
                spare = open("/dev/null", O_RDONLY)
                return
            }
        }
        refusedForCapacity += 1
    }

    private func readFrom(_ connection: Connection, buffer: inout [UInt8]) {
        let result = buffer.withUnsafeMutableBytes { Socket.read(connection.descriptor, into: $0) }
        switch result {
        case .wouldBlock: return
        case .closed: drop(connection); return
        case .bytes(let count):
            // Bytes after a refusal, while its answer drains, are ignored.
            guard !connection.closeAfterWriting, connection.lingerUntil == nil else { return }
            // A page listening to the live stream sends nothing more; one
            // that does is not a page, and is closed.
            if connection.isLive { drop(connection); return }
            connection.input += buffer[0..<count]
        }
        readRequests(connection)
    }

    private func readRequests(_ connection: Connection) {
        // One request at a time: the next waits until this answer is sent.
        while connection.pendingOutput == 0, !connection.closeAfterWriting, !connection.isLive {
            switch RequestHead.read(connection.input, scan: &connection.scan, limits: limits) {
            case .needMore:
                return
            case .refused(let refusal):
                refuse(connection, refusal.status, refusal.reason)
                return
            case let .complete(head, length):
                connection.input.removeFirst(length)
                connection.scan = RequestHead.Scan()
                answer(head, on: connection)
            }
        }
    }

    private func answer(_ head: RequestHead, on connection: Connection) {
        guard let host = head.header("host") ?? (head.version == "HTTP/1.0" ? "localhost:\(policy.port)" : nil),
              policy.allows(host: host) else {
            refuse(connection, 421, "this server answers only to \(policy.boundHost):\(policy.port) and localhost:\(policy.port)")
            return
        }
        // No request this server takes has a body; one is refused rather
        // than read and discarded.
        if head.header("transfer-encoding") != nil || (head.header("content-length").flatMap { Int($0) } ?? 0) != 0
            || (head.header("content-length") != nil && Int(head.header("content-length")!) == nil) {
            refuse(connection, 413, "requests with a body are not taken")
            return
        }
        let path = head.path
        if path == livePath {
            listen(head, host: host, on: connection)
            return
        }
        var answer = handler(head)
        if head.method == "HEAD" {
            answer.headers.append(("Content-Length", String(answer.body.count)))
            answer.body = []
            send(answer, on: connection, keepAlive: head.keepAlive, declaredLength: true)
        } else {
            send(answer, on: connection, keepAlive: head.keepAlive)
        }
    }

    /// A page opens the live-reload stream: an answer with no end, whose
    /// events are the hub's messages (the current status first).
    private func listen(_ head: RequestHead, host: String, on connection: Connection) {
        guard head.method == "GET" else {
            refuse(connection, 405, "the live-reload stream is read with GET")
            return
        }
        guard policy.allowsLiveStream(origin: head.header("origin"), fetchSite: head.header("sec-fetch-site"), host: host) else {
            refuse(connection, 403, "the live-reload stream is for pages served from http://\(host) only")
            return
        }
        let open = connections.values.reduce(0) { $0 + ($1.isLive ? 1 : 0) }
        guard open < limits.liveStreams else {
            refuse(connection, 503, "\(limits.liveStreams) pages are connected already")
            return
        }
        // `retry`: how long a page waits before it connects again after the
        // stream ends (a restarted server).
        let response = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-store\r\n"
            + "X-Content-Type-Options: nosniff\r\nConnection: keep-alive\r\n\r\nretry: 1000\n\n"
        connection.isLive = true
        // Whatever came after the request is not a page's.
        if !connection.input.isEmpty {
            drop(connection)
            return
        }
        connection.queue(Array(response.utf8))
        let id = connection.id
        hub.connect(id: id) { [weak self] text in self?.send(text, to: id) }
        flush(connection)
    }

    /// One Server-Sent Event carrying `text` (one line of JSON: a line
    /// break in it would end the field, so each line gets its own `data:`).
    static func event(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            bytes += Array("data: ".utf8)
            bytes += line.filter { $0 != UInt8(ascii: "\r") }
            bytes.append(UInt8(ascii: "\n"))
        }
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private func refuse(_ connection: Connection, _ status: Int, _ reason: String) {
        send(.text(status, reason), on: connection, keepAlive: false)
    }

    private func send(_ answer: HTTPAnswer, on connection: Connection, keepAlive: Bool, declaredLength: Bool = false) {
        var head = "HTTP/1.1 \(answer.status) \(HTTPAnswer.reason(answer.status))\r\n"
        for (name, value) in answer.headers { head += "\(name): \(value)\r\n" }
        if !declaredLength { head += "Content-Length: \(answer.body.count)\r\n" }
        head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        let pending = connections.values.reduce(0) { $0 + $1.pendingOutput }
        if pending + head.utf8.count + answer.body.count > limits.totalPendingOutputBytes, answer.status != 503 {
            send(.text(503, "the server is busy sending other answers; try again"), on: connection, keepAlive: false)
            return
        }
        // Queued in two parts: joining them first copied every large answer once more.
        connection.queue(Array(head.utf8))
        connection.queue(answer.body)
        connection.closeAfterWriting = !keepAlive
        flush(connection)
    }

    private func flush(_ connection: Connection) {
        while connection.pendingOutput > 0 {
            let result = connection.output.withUnsafeBytes { bytes in
                Socket.write(connection.descriptor, UnsafeRawBufferPointer(rebasing: bytes[connection.written...]))
            }
            switch result {
            case .bytes(let count):
                connection.written += count
                connection.lastProgress = Self.now()
            case .wouldBlock: return
            case .closed: drop(connection); return
            }
        }
        if connection.closeAfterWriting {
            // Closing a socket with unread input resets it, and the reset
            // can destroy the answer before the client reads it (a refused
            // 3 MB header is still arriving): stop sending, then read and
            // discard for a moment before closing.
            if connection.lingerUntil == nil {
                shutdown(connection.descriptor, Int32(SHUT_WR))
                connection.lingerUntil = Self.now() + Self.lingerSeconds
            }
        } else if !connection.isLive {
            // Answered: the next head has its own time.
            connection.deadline = Self.now() + limits.headSeconds
        }
    }

    private func drop(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.descriptor) != nil else { return }
        if connection.isLive { hub.disconnect(id: connection.id) }
        close(connection.descriptor)
    }
}
