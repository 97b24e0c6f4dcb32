import Foundation
import ProjectFiles
import SiteGenerator

/// What the server tells open pages over the live-reload stream (Server-Sent Events): the
/// number of the last build that was written, the pages it changed, and the
/// errors of the last build if it failed (the site served is then the last
/// good one).
///
/// Every message is one JSON object:
/// `{"type":"hello"|"build","build":N,"changed":[paths]|null,"errors":[texts],"inputs":KEY|null}`.
/// `hello` is sent once, when a page connects; `build` after every rebuild.
public struct LiveStatus: Sendable, Equatable {
    /// Counts the builds that wrote the site; pages carry the number they
    /// were served with and reload when it moves on.
    public var build: Int
    /// The site's files (paths under the output folder) the last build
    /// changed, added or removed; `nil` when not known.
    public var changed: [String]?
    /// The last build's errors, swiftc's form; empty when it succeeded.
    public var errors: [String]
    /// What the last build read: every input file's key as one
    /// (`InputTree.digest`), so a client that wrote files knows the event
    /// of the build that saw them; nil before any build.
    public var inputs: String?

    public init(build: Int, changed: [String]? = nil, errors: [String] = [], inputs: String? = nil) {
        self.build = build
        self.changed = changed
        self.errors = errors
        self.inputs = inputs
    }

    /// The message's JSON text.
    public func json(type: String) -> String {
        SafeJSON.encode(Message(type: type, build: build, changed: changed, errors: errors, inputs: inputs))
    }

    /// One message, as the live script reads it (`changed` is `null` when not known).
    public struct Message: Codable, Equatable, Sendable {
        public var type: String
        public var build: Int
        public var changed: [String]?
        public var errors: [String]
        public var inputs: String?

        enum CodingKeys: String, CodingKey { case type, build, changed, errors, inputs }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(build, forKey: .build)
            try container.encode(changed, forKey: .changed)
            try container.encode(errors, forKey: .errors)
            try container.encode(inputs, forKey: .inputs)
        }
    }
}

/// Holds the open pages' live streams and sends each of them every status.
/// A stream is a sink for text (nil closes it); the server owns its connection.
public final class LiveReloadHub: Sendable {
    public typealias Sink = @Sendable (String?) -> Void

    private struct Pages {
        var clients: [Int: Sink] = [:]
        var current: LiveStatus
    }

    private let pages: Locked<Pages>

    public init(status: LiveStatus = LiveStatus(build: 0)) {
        pages = Locked(Pages(current: status))
    }

    /// The status pages get when they connect.
    public var status: LiveStatus {
        pages.withLock { $0.current }
    }

    /// How many pages are connected.
    public var clientCount: Int {
        pages.withLock { $0.clients.count }
    }

    /// A new page: it gets the current status at once, then every status
    /// published until it goes away.
    public func connect(id: Int, sink: @escaping Sink) {
        pages.withLock { pages in
            pages.clients[id] = sink
            sink(pages.current.json(type: "hello"))
        }
    }

    public func disconnect(id: Int) {
        _ = pages.withLock { $0.clients.removeValue(forKey: id) }
    }

    /// Records `status` and sends it to every open page.
    public func publish(_ status: LiveStatus) {
        pages.withLock { pages in
            pages.current = status
            let text = status.json(type: "build")
            for sink in pages.clients.values { sink(text) }
        }
    }

    /// Closes every page's stream (the server is stopping).
    public func closeAll() {
        let open = pages.withLock { pages in
            defer { pages.clients = [:] }
            return Array(pages.clients.values)
        }
        for sink in open { sink(nil) }
    }
}
