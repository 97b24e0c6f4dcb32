/// What one client may cost the dev server. Each limit is far above what a
/// browser sends a docs site and low enough that a hostile client is cut off
/// before it holds memory, a descriptor or the event loop for long (README,
/// "Limits", gives the reasons).
public struct ServerLimits: Sendable, Equatable {
    /// Bytes in the request line (`GET /path HTTP/1.1`): 414 past it.
    public var requestLine = 8 * 1024
    /// Bytes in the request line and headers together: 431 past it.
    public var headBytes = 32 * 1024
    /// Header lines in one request: 431 past it.
    public var headerCount = 100
    /// Seconds a connection has to send a whole request head, counted from
    /// when it connected or its last answer was sent (so a client that
    /// trickles a byte at a time is closed too).
    public var headSeconds = 10.0
    /// Bytes waiting to be sent to one client: a page that stops reading is
    /// dropped rather than buffered for.
    public var pendingOutputBytes = 8 * 1024 * 1024
    /// Bytes waiting to be sent to all clients together: an answer that
    /// would pass it is refused with 503 (forty clients that ask for a
    /// large file and never read it once held most of a gigabyte).
    public var totalPendingOutputBytes = 128 * 1024 * 1024
    /// Seconds an answer may wait with nothing of it taken by the client:
    /// the connection is closed after that.
    public var stalledWriteSeconds = 10.0
    /// Open connections; more are closed as they arrive, and descriptors
    /// are kept back for the build.
    public var connections = 1024
    /// Open live-reload streams, of those connections: 503 past it.
    public var liveStreams = 256

    public init() {}
}
